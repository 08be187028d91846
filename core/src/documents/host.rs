//! [`DocumentHost`]: the keeper of one network's shared documents — the
//! canonical copy of every file and context document and its sync with each
//! member session (feature `documents`).
//!
//! A network keeps one in itself, or asks one kept elsewhere (the edge's
//! documents object) through [`DocumentAsk`]s; either way the keeper turns an
//! ask into a [`DocumentAnswer`] and the rows it writes. A member syncs by
//! sending `network.resource.update` with `{"sync": base64, "session": id}`;
//! the keeper merges the message, writes what changed, answers the sender and
//! has every other open session sent what it now lacks, each message naming
//! the `editors`: the members with the document open. Sync states live in
//! memory only: after a restart members simply sync again, which the
//! protocol allows at any time.

use super::kept::{
    DocumentWrite, Documents, Shared, WRITER, fresh_document, rejection, row_writes,
};
use super::persist::{Persistence, Writes};
use super::row::DocumentRow;
use super::text::{TextDocument, decode_sync, encode_sync};
use crate::error::{ErrorCode, Rejection};
use crate::ids::address::Address;
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::network::documents::ask::{
    DocumentAnswer, DocumentAsk, DocumentMessage, DocumentOp, DocumentRefusal, DocumentText,
};

/// The documents of one network.
#[derive(Debug, Clone)]
pub struct DocumentHost {
    documents: Documents,
}

/// What one ask came to: the answer for the network and the rows to write.
#[derive(Debug, Default)]
pub struct Handling {
    /// What the network does next.
    pub answer: DocumentAnswer,
    /// The rows to store and delete, in order.
    pub writes: Vec<DocumentWrite>,
    /// The rows [`DocumentHost::adopt`] took over: to store as they are.
    pub adopted: Vec<DocumentRow>,
}

/// The answer says the document at `address` holds `text` now.
fn report(done: &mut Handling, address: &Address, text: String) {
    done.answer.texts.push(DocumentText {
        address: address.clone(),
        text,
    });
}

impl DocumentHost {
    /// The documents of `network` (whose actor writes the keeper's changes),
    /// restored from their stored rows; each loads when first used.
    pub fn new<'a>(network: &NetworkId, rows: impl IntoIterator<Item = &'a DocumentRow>) -> Self {
        let mut documents = Documents::new(network);
        for row in rows {
            documents.restore(row);
        }
        Self { documents }
    }

    /// Restores one more stored row.
    pub fn restore(&mut self, row: &DocumentRow) {
        self.documents.restore(row);
    }

    /// Does what `ask` asks.
    pub fn handle(&mut self, ask: &DocumentAsk) -> Handling {
        let mut done = Handling::default();
        let now = ask.now;
        match &ask.op {
            DocumentOp::Create { address, text } => {
                self.create(address, text.as_deref(), now, &mut done);
            }
            DocumentOp::SetText {
                address,
                text,
                initial,
            } => self.set_text(address, text, initial, now, &mut done),
            DocumentOp::Delete { address } => done.writes = self.delete(address),
            DocumentOp::Sync {
                address,
                member,
                session,
                sync,
                may_write,
                request,
                initial,
            } => {
                let sent = Sent {
                    address,
                    member,
                    session,
                    request: *request,
                };
                if let Err(refusal) = self.sync(&sent, sync, *may_write, initial, &mut done) {
                    done.answer.refused = Some(DocumentRefusal {
                        member: member.clone(),
                        request: *request,
                        code: refusal.code,
                        message: refusal.message,
                    });
                }
            }
            DocumentOp::Close {
                address,
                member,
                session,
                initial,
            } => {
                let key = (member.clone(), session.clone());
                let shared = self.shared(address, initial, &mut done.writes);
                if shared.sessions.remove(&key).is_some() {
                    done.answer.messages = self.broadcast(address, None);
                }
            }
            DocumentOp::Leave { member } => done.answer.messages = self.leave(member),
        }
        done
    }

    /// Takes over rows another copy stored (a network that kept its documents
    /// itself): those of documents this keeper does not have yet are kept
    /// ([`Handling::adopted`]); the answer reports the text of every document
    /// the rows name (the network's content from then on), so handing the same
    /// rows over again answers the same.
    pub fn adopt(&mut self, rows: &[DocumentRow]) -> Handling {
        let mut done = Handling::default();
        let mut named: Vec<Address> = rows.iter().map(|row| row.address.clone()).collect();
        named.dedup();
        let new: Vec<Address> = named
            .iter()
            .filter(|address| !self.documents.has(address))
            .cloned()
            .collect();
        for row in rows.iter().filter(|row| new.contains(&row.address)) {
            self.documents.restore(row);
            done.adopted.push(row.clone());
        }
        for address in named {
            let (text, writes) = self.text(&address, "");
            done.writes.extend(writes);
            report(&mut done, &address, text);
        }
        done
    }

    /// The current text of the document at `address` (`initial` when it has
    /// none yet), and the rows a first load writes.
    pub fn text(&mut self, address: &Address, initial: &str) -> (String, Vec<DocumentWrite>) {
        let mut writes = Vec::new();
        let text = self.shared(address, initial, &mut writes).doc.text();
        (text, writes)
    }

    /// The document of the file or context at `address`, loading it, or
    /// making one holding `initial` (a resource registered before documents
    /// existed); `writes` receives the rows that stores.
    fn shared(
        &mut self,
        address: &Address,
        initial: &str,
        writes: &mut Vec<DocumentWrite>,
    ) -> &mut Shared {
        let actor = self.documents.actor;
        if !self.documents.open.contains_key(address) {
            let shared = match self.documents.stored.remove(address) {
                Some(loader) => {
                    let (doc, persistence, loaded) = loader.load(address, WRITER, actor);
                    writes.extend(row_writes(address, loaded));
                    Shared::new(doc, persistence)
                }
                None => fresh_document(address, actor, initial, Timestamp::from(0), writes),
            };
            self.documents.open.insert(address.clone(), shared);
        }
        self.documents
            .open
            .entry(address.clone())
            .or_insert_with(|| {
                Shared::new(TextDocument::with_genesis(actor), Persistence::default())
            })
    }

    /// A file or context was registered, with `text` or without.
    fn create(
        &mut self,
        address: &Address,
        text: Option<&str>,
        now: Timestamp,
        done: &mut Handling,
    ) {
        if self.documents.has(address) {
            // Registering again keeps the document; new content is an edit of it.
            match text {
                Some(text) => self.set_text(address, text, text, now, done),
                None => {
                    let (text, writes) = self.text(address, "");
                    done.writes.extend(writes);
                    report(done, address, text);
                }
            }
            return;
        }
        let text = text.unwrap_or_default();
        let shared = fresh_document(address, self.documents.actor, text, now, &mut done.writes);
        self.documents.open.insert(address.clone(), shared);
        report(done, address, text.to_owned());
    }

    /// Replaces the text and tells every open session.
    fn set_text(
        &mut self,
        address: &Address,
        text: &str,
        initial: &str,
        now: Timestamp,
        done: &mut Handling,
    ) {
        let shared = self.shared(address, initial, &mut done.writes);
        if shared.doc.set_text(text, now).is_err() {
            return;
        }
        let writes = shared.persistence.after_change(address, &mut shared.doc);
        done.writes.extend(row_writes(address, writes));
        report(done, address, text.to_owned());
        done.answer.messages = self.broadcast(address, None);
    }

    /// The resource at `address` was unregistered: its rows go, its sessions end.
    fn delete(&mut self, address: &Address) -> Vec<DocumentWrite> {
        let remove = match self.documents.open.remove(address) {
            Some(shared) => shared.persistence.pieces(),
            None => match self.documents.stored.remove(address) {
                Some(loader) => {
                    let (_, persistence, writes) =
                        loader.load(address, WRITER, self.documents.actor);
                    writes
                        .remove
                        .into_iter()
                        .chain(persistence.pieces())
                        .collect()
                }
                None => Vec::new(),
            },
        };
        row_writes(
            address,
            Writes {
                store: Vec::new(),
                remove,
            },
        )
    }

    /// Merges a member's sync message and answers it; a refused message
    /// leaves the document and the session as they were.
    fn sync(
        &mut self,
        sent: &Sent<'_>,
        sync: &str,
        may_write: bool,
        initial: &str,
        done: &mut Handling,
    ) -> Result<(), Rejection> {
        let message = decode_sync(sync).map_err(|e| rejection(&e))?;
        if !may_write && !message.changes.is_empty() {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!(
                    "{} lacks the write permission on {}",
                    sent.member, sent.address
                ),
            ));
        }
        let address = sent.address;
        let key = (sent.member.clone(), sent.session.clone());
        let joined = !self
            .documents
            .open
            .get(address)
            .is_some_and(|shared| shared.sessions.contains_key(&key));
        if joined {
            self.documents.admit_session(address, sent.member)?;
        }
        let shared = self.shared(address, initial, &mut done.writes);
        // Merge into a copy of the state: a message that fails leaves the session as it was.
        let mut state = shared.sessions.get(&key).cloned().unwrap_or_default();
        let changed = shared
            .doc
            .receive_sync_message(&mut state, message)
            .map_err(|e| rejection(&e))?;
        shared.sessions.insert(key.clone(), state);
        if changed {
            let writes = shared.persistence.after_change(address, &mut shared.doc);
            done.writes.extend(row_writes(address, writes));
            let text = shared.doc.text();
            report(done, address, text);
        }
        done.answer.messages = if changed || joined {
            self.broadcast(address, Some(sent))
        } else {
            let editors = self.editors(address);
            self.message(address, &key, editors, Some(sent.request), false)
                .into_iter()
                .collect()
        };
        Ok(())
    }

    /// The members with `address` open, each once.
    fn editors(&self, address: &Address) -> Vec<Address> {
        let mut editors: Vec<Address> = self
            .documents
            .open
            .get(address)
            .map(|s| s.sessions.keys().map(|(a, _)| a.clone()).collect())
            .unwrap_or_default();
        editors.dedup();
        editors
    }

    /// The next message to one session: what it lacks, and who is editing
    /// (`always`: even when the sync protocol has nothing to say).
    fn message(
        &mut self,
        address: &Address,
        (member, session): &(Address, String),
        editors: Vec<Address>,
        in_reply_to: Option<EventId>,
        always: bool,
    ) -> Option<DocumentMessage> {
        let shared = self.documents.open.get_mut(address)?;
        let state = shared
            .sessions
            .get_mut(&(member.clone(), session.clone()))?;
        let sync = shared.doc.generate_sync_message(state).map(encode_sync);
        if sync.is_none() && !always {
            return None;
        }
        Some(DocumentMessage {
            address: address.clone(),
            member: member.clone(),
            session: session.clone(),
            sync,
            editors,
            in_reply_to,
        })
    }

    /// What every open session of `address` is sent after a change; the
    /// sender's (if any) answers its message.
    fn broadcast(&mut self, address: &Address, sender: Option<&Sent<'_>>) -> Vec<DocumentMessage> {
        let sessions: Vec<(Address, String)> = self
            .documents
            .open
            .get(address)
            .map(|s| s.sessions.keys().cloned().collect())
            .unwrap_or_default();
        let editors = self.editors(address);
        sessions
            .iter()
            .filter_map(|key| {
                let in_reply_to = sender
                    .filter(|s| *s.member == key.0 && *s.session == key.1)
                    .map(|s| s.request);
                self.message(address, key, editors.clone(), in_reply_to, true)
            })
            .collect()
    }

    /// `member` went offline or left: its sessions end everywhere.
    fn leave(&mut self, member: &Address) -> Vec<DocumentMessage> {
        let affected: Vec<Address> = self
            .documents
            .open
            .iter_mut()
            .filter_map(|(address, shared)| {
                let before = shared.sessions.len();
                shared.sessions.retain(|(m, _), _| m != member);
                (shared.sessions.len() != before).then(|| address.clone())
            })
            .collect();
        affected
            .iter()
            .flat_map(|address| self.broadcast(address, None))
            .collect()
    }
}

/// A member's sync message: the document, who sent it and the event that carried it.
struct Sent<'a> {
    address: &'a Address,
    member: &'a Address,
    session: &'a String,
    request: EventId,
}
