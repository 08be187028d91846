//! Editing and deleting one's own messages, as events in the log:
//! `workspace.message.edited` `{message, content}` and
//! `workspace.message.deleted` `{message}`, sent where the message went.
//! `mod/workspace` decides who may (the author edits; the author or a master
//! deletes) and refuses anyone else; the inspector keeps both events.
//!
//! Reactions go the same way ([`crate::chat::changes::reactions`]). A change is shown once the network accepted it (the person's own, told
//! to the other tabs like a post) or when it arrives (others', live or from
//! history); what is known is kept in [`crate::chat::changes::known`].

use crate::chat::changes::known::{Change, Said, change_of, patch, record};
use crate::chat::messages::Line;
use crate::chat::state::Chat;
use crate::chat::tabs::TabNews;
use agentnet_core::model::payloads::Payload;
use agentnet_core::vocabulary::WorkspaceEventType;
use agentnet_core::vocabulary::messages::{MessageDeleted, MessageEdited};
use agentnet_core::{Address, Event};
use leptos::prelude::*;

impl Chat {
    /// Shows (or, once a later change went through, clears) why a change the
    /// person made to a message was refused, next to that message.
    pub(crate) fn note_change_refused(&self, change: &Event, why: Option<String>) {
        let Some(message) = crate::chat::changes::known::message_of(change) else {
            return;
        };
        self.lines.update(|l| {
            if let Some(line) = l.iter_mut().find(|line| line.id == message) {
                line.change_refused = why;
            }
        });
    }

    /// Records the change `event` makes, if it makes one, and shows it. True when it was one.
    pub(crate) fn take_change(&self, event: &Event) -> bool {
        if self.take_reaction(event) {
            return true;
        }
        let Some((message, change)) = change_of(event) else {
            return false;
        };
        let said = Said {
            at: event.timestamp.as_millis(),
            by: event.source.to_string(),
            change,
        };
        // Another's edit of a message shown is not kept at all (only its
        // author edits), so it takes none of the message's places.
        let forged_edit = matches!(said.change, Change::Edited(_))
            && self.lines.with_untracked(|lines| {
                lines.iter().any(|l| l.id == message && l.source != said.by)
            });
        if forged_edit {
            return true;
        }
        let _ = self.changes.try_update_value(|c| record(c, message, said));
        self.repatch(Some(message));
        true
    }

    /// The lines (`only` the one with that id, when given) with the changes
    /// known for them, by those the page knows may make them.
    pub(crate) fn repatch(&self, only: Option<agentnet_core::EventId>) {
        let changes = self.changes.with_value(Clone::clone);
        let masters = self.masters.with_value(Clone::clone);
        self.lines.update(|lines| {
            for line in lines
                .iter_mut()
                .filter(|l| only.is_none_or(|id| l.id == id))
            {
                patch(line, &changes, &masters);
            }
        });
    }

    /// `line` with the changes known for it.
    pub(crate) fn patched(&self, mut line: Line) -> Line {
        let masters = self.masters.with_value(Clone::clone);
        self.changes.with_value(|c| patch(&mut line, c, &masters));
        line
    }

    /// The network's masters are now `masters` (from the roster): a deletion
    /// one of them made before the page knew shows now.
    pub fn set_masters(&self, masters: std::collections::BTreeSet<String>) {
        if self.masters.with_value(|m| *m != masters) {
            self.masters.set_value(masters);
            self.repatch(None);
        }
    }

    /// Changes the person's message `line` (an edit, its deletion, a reaction).
    pub(super) fn change(&self, line: &Line, kind: WorkspaceEventType, payload: &impl Payload) {
        let Ok(target) = line.conversation.parse::<Address>() else {
            return self
                .session
                .report("This message's conversation has no address the network reads.");
        };
        let (kind, payload) = (kind.event_type(), payload.to_json());
        let posted = self.session.with_connection(|c| {
            let id = c.post_with(kind, target, payload, serde_json::Map::new());
            c.outgoing(id)
        });
        match posted.flatten() {
            Some(event) => self.tell(TabNews::Posted {
                event: Box::new(event),
            }),
            None => self
                .session
                .report("The workspace is still opening: try again in a moment."),
        }
    }

    /// The person's message `line` now says `content`.
    pub fn edit(&self, line: &Line, content: &str) {
        let content = content.trim();
        if content.is_empty() || content == line.content {
            return;
        }
        let edited = MessageEdited {
            content: content.to_owned(),
            message: line.id,
        };
        self.change(line, WorkspaceEventType::MessageEdited, &edited);
    }

    /// The person takes their message `line` back.
    pub fn delete(&self, line: &Line) {
        let deleted = MessageDeleted { message: line.id };
        self.change(line, WorkspaceEventType::MessageDeleted, &deleted);
    }
}
