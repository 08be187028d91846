//! The network's side of shared documents: who keeps them ([`Keeper`]), the
//! asks its handlers make ([`ask`]), and the keeper's answers turned into
//! events and rows.
//!
//! With the feature `documents` a network keeps its documents in itself (a
//! [`crate::documents::DocumentHost`], answered at once). A network built
//! without Automerge still serves them when its host keeps them elsewhere
//! ([`Network::keep_documents_elsewhere`]): each ask becomes an
//! [`Effect::Document`], and the host hands the keeper's answer back through
//! [`Network::answer_document`]. The network then keeps each document's text
//! as the resource's content, so reads never wait for the keeper.
//!
//! The guards have run before any ask: `mod/access-control` (or the
//! network's own resource permissions) refuses a sync without `read`; the
//! keeper refuses changes from a member without `write`.

pub mod ask;
pub(crate) mod keeper;

use crate::documents::content_text;
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, ResourceKind};
use crate::ids::event_type::core_types as t;
use crate::ids::time::Timestamp;
use crate::model::access::Permission;
use crate::model::requests::documents::DocumentSync;
use crate::model::requests::field::{AsSent, read};
use crate::model::state::Row;
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, unacked};
use ask::{DocumentAnswer, DocumentAsk, DocumentMessage, DocumentOp};
use keeper::Keeper;
use serde_json::{Value, json};
use std::rc::Rc;

/// The longest session id a member may choose.
pub(crate) const MAX_SESSION_LEN: usize = 64;

impl Network {
    /// Hands the shared documents to a keeper elsewhere: every ask becomes an
    /// [`Effect::Document`], which the host answers with
    /// [`Network::answer_document`]. Documents the network restored in itself
    /// are dropped: their rows are the new keeper's to load.
    pub fn keep_documents_elsewhere(&mut self) {
        self.documents = Keeper::Elsewhere;
    }

    /// Whether files and context are shared documents here (kept anywhere).
    pub(crate) fn serves_documents(&self) -> bool {
        #[cfg(not(feature = "documents"))]
        if matches!(self.documents, Keeper::Nobody) {
            return false;
        }
        true
    }

    /// Whether the documents are kept in this network (text lives only there).
    pub(crate) fn documents_here(&self) -> bool {
        #[cfg(feature = "documents")]
        return matches!(self.documents, Keeper::Here(_));
        #[cfg(not(feature = "documents"))]
        false
    }

    /// The keeper's answer to an [`Effect::Document`] this network asked:
    /// its messages go to their members, a refusal to the sender, and each
    /// changed text becomes its resource's content (answers come in the
    /// order of the asks, so the last change wins). Content that already
    /// reads as that text stays as it is (structured content as registered).
    pub fn answer_document(&mut self, answer: DocumentAnswer, now: Timestamp) -> Vec<Effect> {
        let mut effects = Vec::new();
        for changed in answer.texts {
            if let Some(resource) = self.state.resources.get_mut(&changed.address) {
                let same = resource
                    .content
                    .as_ref()
                    .is_some_and(|c| content_text(c) == changed.text);
                if !same {
                    resource.content = Some(Value::String(changed.text));
                    effects.push(Effect::Store(Row::Resource(Box::new(resource.clone()))));
                }
            }
        }
        if let Some(refused) = answer.refused {
            let error = self.error_event(
                &refused.member,
                Some(refused.request),
                &refused.rejection(),
                now,
            );
            effects.push(deliver(&refused.member, error));
        }
        for message in answer.messages {
            let event = self.document_event(&message, now);
            effects.push(deliver(&message.member, event));
        }
        effects
    }

    /// Asks the keeper; a keeper here answers at once (its refusal of a
    /// sync is the handler's error).
    fn ask_documents(&mut self, op: DocumentOp, now: Timestamp) -> Result<Vec<Effect>, Rejection> {
        let ask = DocumentAsk { now, op };
        #[cfg(feature = "documents")]
        if let Keeper::Here(host) = &mut self.documents {
            let done = host.handle(&ask);
            return self.answered_here(&ask, done);
        }
        Ok(match self.documents {
            Keeper::Elsewhere => vec![Effect::Document(ask)],
            _ => Vec::new(),
        })
    }

    /// What the keeper here did, as effects: its rows, then the changed
    /// resource, then its messages (the sender's as the reply on its connection).
    #[cfg(feature = "documents")]
    fn answered_here(
        &mut self,
        ask: &DocumentAsk,
        done: crate::documents::Handling,
    ) -> Result<Vec<Effect>, Rejection> {
        let mut effects = written(done.writes);
        if let Some(refused) = done.answer.refused {
            return Err(refused.rejection());
        }
        if matches!(ask.op, DocumentOp::Sync { .. }) && !done.answer.texts.is_empty() {
            effects.extend(self.text_is_the_content(ask.op.address()));
        }
        for message in done.answer.messages {
            let event = self.document_event(&message, ask.now);
            effects.push(match message.in_reply_to {
                Some(_) => Effect::Reply(event),
                None => deliver(&message.member, event),
            });
        }
        Ok(effects)
    }

    /// Asks what cannot be refused.
    fn tell_documents(&mut self, op: DocumentOp, now: Timestamp) -> Vec<Effect> {
        self.ask_documents(op, now).unwrap_or_default()
    }

    /// A document kept here changed by a sync: its text is the content now,
    /// not the structured value registered before.
    #[cfg(feature = "documents")]
    fn text_is_the_content(&mut self, address: Option<&Address>) -> Option<Effect> {
        let resource = self
            .state
            .resources
            .get_mut(address?)
            .filter(|r| r.content.is_some())?;
        resource.content = None;
        Some(Effect::Store(Row::Resource(Box::new(resource.clone()))))
    }

    /// The event carrying one of the keeper's messages.
    fn document_event(&mut self, message: &DocumentMessage, now: Timestamp) -> Event {
        use crate::documents::payload;
        let body = json!({
            payload::ADDRESS: message.address, "session": message.session,
            payload::SYNC: message.sync, payload::EDITORS: message.editors,
        });
        self.core_event(
            t::RESOURCE_UPDATE,
            &message.member,
            message.in_reply_to,
            body,
            now,
        )
    }

    /// The resource's text as it is here, for a keeper without a document of it yet.
    fn initial_text(&self, address: &Address) -> String {
        self.state
            .resources
            .get(address)
            .and_then(|r| r.content.as_ref())
            .map(content_text)
            .unwrap_or_default()
    }

    /// A file or context was registered with `content`: its document starts
    /// with that text; registered again, its document is edited to it.
    pub(super) fn create_document(
        &mut self,
        address: &Address,
        content: Option<&Value>,
        now: Timestamp,
    ) -> Vec<Effect> {
        let op = DocumentOp::Create {
            address: address.clone(),
            text: content.map(content_text),
        };
        self.tell_documents(op, now)
    }

    /// What a read of the file or context at `address` (registered without
    /// content) returns: the document's text, and the rows a first load writes.
    pub(super) fn document_text(&mut self, address: &Address) -> (String, Vec<Effect>) {
        match &mut self.documents {
            #[cfg(feature = "documents")]
            Keeper::Here(host) => {
                let (text, writes) = host.text(address, "");
                (text, written(writes))
            }
            // Kept elsewhere, the text is the content: none yet is an empty document.
            _ => {
                let _ = address;
                (String::new(), Vec::new())
            }
        }
    }

    /// A whole-content update: the document's text becomes `content`.
    pub(super) fn replace_document_content(
        &mut self,
        address: &Address,
        content: &Value,
        now: Timestamp,
    ) -> Vec<Effect> {
        let op = DocumentOp::SetText {
            address: address.clone(),
            text: content_text(content),
            initial: self.initial_text(address),
        };
        self.tell_documents(op, now)
    }

    /// The resource at `address` was unregistered: its document and sessions go.
    pub(super) fn delete_document(&mut self, address: &Address, now: Timestamp) -> Vec<Effect> {
        let op = DocumentOp::Delete {
            address: address.clone(),
        };
        self.tell_documents(op, now)
    }

    /// Handles a `network.resource.update` carrying `sync` or `close` for a file or context.
    pub(super) fn sync_document(&mut self, event: &Event, now: Timestamp) -> Handled {
        let address = event.target.to_local();
        let sent = read::<DocumentSync>(&event.payload);
        let session = session_of(sent.session)?;
        let member = event.source.clone();
        let initial = self.initial_text(&address);
        let op = if sent.close.given() == Some(true) {
            DocumentOp::Close {
                address,
                member,
                session,
                initial,
            }
        } else {
            let sync = sent.sync.given().ok_or_else(|| {
                Rejection::new(
                    ErrorCode::InvalidRequest,
                    "payload.sync must be a base64 sync message",
                )
            })?;
            let may_write = self
                .state
                .resources
                .get(&address)
                .is_some_and(|r| self.state.may(&member, r, Permission::Write));
            DocumentOp::Sync {
                address,
                member,
                session,
                sync,
                may_write,
                request: event.id,
                initial,
            }
        };
        Ok(unacked(self.ask_documents(op, now)?))
    }

    /// `member` went offline or left: its sessions end everywhere. A network
    /// with no files or context has no sessions to end, and asks nothing (a
    /// keeper elsewhere is not woken on every departure).
    pub(crate) fn close_documents_of(&mut self, member: &Address, now: Timestamp) -> Vec<Effect> {
        if !self.has_documents() {
            return Vec::new();
        }
        let op = DocumentOp::Leave {
            member: member.clone(),
        };
        self.tell_documents(op, now)
    }

    /// Whether any resource is a shared document (sessions exist only on them:
    /// an unregistered one's end with it).
    fn has_documents(&self) -> bool {
        self.state
            .resources
            .values()
            .any(|r| self.becomes_document(r.kind))
    }

    /// Whether a resource of `kind` registered now becomes a shared document.
    pub(super) fn becomes_document(&self, kind: ResourceKind) -> bool {
        self.serves_documents() && kind != ResourceKind::Tool
    }
}

/// `event` to every connection of `member`.
fn deliver(member: &Address, event: Event) -> Effect {
    Effect::Deliver {
        to: vec![member.clone()],
        event: Rc::new(event),
        order: None,
    }
}

/// The keeper's rows as the network's effects.
#[cfg(feature = "documents")]
fn written(writes: Vec<crate::documents::DocumentWrite>) -> Vec<Effect> {
    use crate::documents::DocumentWrite;
    use crate::model::state::RowKind;
    writes
        .into_iter()
        .map(|write| match write {
            DocumentWrite::Store(row) => Effect::Store(Row::Document(row)),
            DocumentWrite::Remove(key) => Effect::Remove {
                kind: RowKind::Document,
                key,
            },
        })
        .collect()
}

/// `payload.session` (sent as `session`): the member's session id for a document sync.
pub(crate) fn session_of(session: AsSent<String>) -> Result<String, Rejection> {
    match session.given() {
        Some(s)
            if !s.is_empty()
                && s.len() <= MAX_SESSION_LEN
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            Ok(s)
        }
        _ => Err(Rejection::new(
            ErrorCode::InvalidRequest,
            format!("payload.session must be 1–{MAX_SESSION_LEN} letters, digits, - or _"),
        )),
    }
}
