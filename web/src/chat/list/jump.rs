//! Jumping to a message, as Slack's jump-to-message does: a link to
//! `…?message={id}` (a search result, a shared link) opens the message's
//! conversation scrolled to it, the message highlighted for a moment; a
//! reply opens its thread (beside the conversation on wide screens), the
//! reply highlighted there.
//!
//! [`Chat::aim`] takes the message the URL names. When the page does not
//! hold it yet, the conversation's history is read further back — the range
//! down to the message at once when a search said where it is in the log
//! ([`Chat::expect_jump`]), else one range after another — until it (and,
//! for a reply, the message it answers) is among the lines, or the network
//! has nothing older. Each list then shows enough of its messages to hold
//! the message, scrolls it into view and highlights it ([`crate::chat::list::view`]).
//! [`Chat::reply_in_thread`] and [`Chat::close_thread`] open and close a
//! thread without a link (a swipe, [`crate::swipe`]).

use crate::chat::messages::Line;
pub use crate::chat::reads::Seek;
use crate::chat::state::Chat;
use crate::routes::Place;
use crate::session::Status;
use agentnet_core::EventId;
use leptos::prelude::*;

/// Ranges of history one jump reads at most before it gives up.
pub const MAX_STEPS: u32 = 40;

/// How long a message jumped to stays highlighted.
pub const HIGHLIGHT_MS: u32 = 4_000;

/// Log positions read before a message whose place in the log is known,
/// so it lands with what was said before it.
const CONTEXT: u64 = 200;

/// What a jump to `message` still needs among `lines`: the message, then
/// the message it answers (its thread's first); `None` when both are there.
pub fn missing(lines: &[Line], message: EventId) -> Option<EventId> {
    match lines.iter().find(|l| l.id == message) {
        None => Some(message),
        Some(line) => line
            .in_reply_to
            .filter(|parent| !lines.iter().any(|l| l.id == *parent)),
    }
}

/// The first message of the thread `message` answers, as far up as
/// `lines` go; `None` when `message` answers nothing (or is not there).
pub fn thread_root(lines: &[Line], message: EventId) -> Option<EventId> {
    let mut root = lines.iter().find(|l| l.id == message)?.in_reply_to?;
    // Bounded: a chain of replies is at most every line long, even a looping one.
    for _ in 0..lines.len() {
        match lines
            .iter()
            .find(|l| l.id == root)
            .and_then(|l| l.in_reply_to)
        {
            Some(parent) if parent != message => root = parent,
            _ => break,
        }
    }
    Some(root)
}

impl Chat {
    /// A search result is about to be opened: where `message` is in the
    /// network's log (`seq`), so its history is read down to it at once.
    pub fn expect_jump(&self, message: EventId, seq: Option<u64>) {
        if let Some(seq) = seq {
            self.jump_hints.update_value(|h| {
                h.clear();
                h.insert(message, seq);
            });
        }
    }

    /// Follows the message the URL names (`None`: none), in the open conversation.
    pub fn aim(&self, target: Option<EventId>) {
        if self.target.get_untracked() == target {
            return;
        }
        self.target.set(target);
        self.seek.set(target.map(|message| Seek {
            message,
            conversation: self.current.get_untracked(),
            steps: 0,
        }));
    }

    /// A search result for `message` is about to be opened: when the URL
    /// already names it (the same result opened again, perhaps after
    /// scrolling away), the URL does not change, so it is jumped to again here.
    pub fn jump_again(&self, message: EventId) {
        if self.target.get_untracked() == Some(message) {
            self.jumps_again.update(|n| *n += 1);
        }
    }

    /// The message the URL names, if any.
    pub fn target(&self) -> Option<EventId> {
        self.target.get()
    }

    /// True while `id` is the message jumped to, highlighted.
    pub fn is_highlighted(&self, id: EventId) -> bool {
        self.highlighted.get() == Some(id)
    }

    /// Highlights `id` for [`HIGHLIGHT_MS`].
    pub(crate) fn highlight(&self, id: EventId) {
        self.highlighted.set(Some(id));
        let highlighted = self.highlighted;
        gloo_timers::callback::Timeout::new(HIGHLIGHT_MS, move || {
            if highlighted.try_get_untracked().flatten() == Some(id) {
                let _ = highlighted.try_set(None);
            }
        })
        .forget();
    }

    /// One step of a jump (run by an effect whenever the lines, the
    /// history reads or the connection change): done when the message is
    /// there, else the next range of history, else a word that it is gone.
    pub(crate) fn seek_step(&self) {
        let Some(seek) = self.seek.get() else {
            return;
        };
        if self.lines.with(|l| missing(l, seek.message)).is_none() {
            self.seek.set(None);
            return self.landed(seek.message);
        }
        // The network is asked only while connected (what the browser holds shows offline too).
        if self.session.status.get() != Status::Online {
            return;
        }
        let conversation = seek.conversation.as_str();
        if self.loading.with(|l| l.contains(conversation)) {
            return;
        }
        if seek.steps >= MAX_STEPS
            || (self.history_loaded(conversation) && !self.has_older(conversation))
        {
            self.seek.set(None);
            return self.session.report(format!(
                "That message is not in what the network keeps of {}.",
                crate::bidi::isolate(&untrack(|| self.title_of(conversation)))
            ));
        }
        self.seek.update_untracked(|s| {
            if let Some(s) = s {
                s.steps += 1;
            }
        });
        if !self.history_loaded(conversation) {
            return self.load_history(conversation);
        }
        let seq = self
            .jump_hints
            .with_value(|h| h.get(&seek.message).copied());
        let until = self
            .earliest
            .with_untracked(|e| e.get(conversation).copied());
        match (seq, until) {
            // Down to the message (and a little before it) in one range.
            (Some(seq), Some(until)) if seq < until => {
                self.read_range(conversation, seq.saturating_sub(CONTEXT), Some(until));
            }
            _ => self.load_older(conversation),
        }
    }

    /// The message is among the lines: a reply opens its thread, a message
    /// of another conversation that conversation (the lists scroll to it
    /// and highlight it, [`crate::chat::list::view`]).
    fn landed(&self, message: EventId) {
        let (root, conversation) = self.lines.with_untracked(|l| {
            let conversation = l
                .iter()
                .find(|x| x.id == message)
                .map(|x| x.conversation.clone());
            (thread_root(l, message), conversation)
        });
        if self.thread.get_untracked().is_some() {
            return;
        }
        if let Some(root) = root {
            self.session.replace_at(&Place::Thread(root), message);
        } else if let Some(conversation) = conversation
            && conversation != self.current.get_untracked()
        {
            self.session
                .replace_at(&Place::Conversation(conversation), message);
        }
    }
}

// Threads opened and closed other than by a link ([`crate::swipe`]).
impl crate::chat::state::Chat {
    /// The open thread's first message, if a thread is open.
    pub fn open_thread(&self) -> Option<agentnet_core::EventId> {
        self.thread.get_untracked()
    }

    /// Opens the thread `message` is in, its composer focused (what "Reply in thread" does).
    pub fn reply_in_thread(&self, message: agentnet_core::EventId) {
        let root = self
            .lines
            .with_untracked(|all| thread_root(all, message))
            .unwrap_or(message);
        self.threads.focus.set(true);
        self.session.go(&crate::routes::Place::Thread(root));
    }

    /// Closes the open thread: back to its conversation.
    pub fn close_thread(&self) {
        let conversation = self.thread_conversation_untracked();
        self.session
            .go(&crate::routes::Place::Conversation(conversation));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::{Event, Limits};
    use serde_json::json;

    fn line(n: u64, parent: Option<u64>) -> Line {
        let mut value = json!({
            "id": EventId::from_parts(n, 1).to_string(), "type": agentnet_core::vocabulary::event_types::MESSAGE_POSTED,
            "source": "agent:a", "target": "agent:broadcast", "payload": {"content": format!("m{n}")},
            "timestamp": n,
        });
        if let Some(p) = parent {
            value["metadata"] = json!({"in_reply_to": EventId::from_parts(p, 1).to_string()});
        }
        line_from(
            &Event::from_value(value, &Limits::default()).unwrap(),
            LineState::Received,
            "human:ann",
        )
    }

    fn id(n: u64) -> EventId {
        EventId::from_parts(n, 1)
    }

    #[test]
    fn a_jump_needs_the_message_then_what_it_answers() {
        let lines = vec![line(1, None), line(3, Some(2))];
        assert_eq!(missing(&lines, id(9)), Some(id(9)), "not loaded yet");
        assert_eq!(missing(&lines, id(1)), None, "a message of its own");
        assert_eq!(
            missing(&lines, id(3)),
            Some(id(2)),
            "a reply needs its parent"
        );
        let lines = vec![line(2, None), line(3, Some(2))];
        assert_eq!(missing(&lines, id(3)), None);
    }

    #[test]
    fn a_reply_s_thread_is_its_first_message_as_far_up_as_known() {
        let lines = vec![
            line(1, None),
            line(2, Some(1)),
            line(3, Some(2)),
            line(5, Some(4)),
        ];
        assert_eq!(thread_root(&lines, id(3)), Some(id(1)));
        assert_eq!(thread_root(&lines, id(2)), Some(id(1)));
        assert_eq!(thread_root(&lines, id(1)), None, "not a reply");
        assert_eq!(
            thread_root(&lines, id(5)),
            Some(id(4)),
            "its parent, not loaded"
        );
        assert_eq!(thread_root(&lines, id(8)), None, "not there");
        // A loop of replies (a forged one) ends.
        let looping = vec![line(6, Some(7)), line(7, Some(6))];
        assert!(thread_root(&looping, id(6)).is_some());
    }
}
