//! Unread messages: per conversation, the time of the newest message the
//! person has seen (the list at its bottom, the tab visible, [`super::list`])
//! is kept across reloads; what others posted after it is unread. The
//! sidebar shows each conversation's count (marked apart when it holds a
//! direct message or mentions the person) and the tab's title the total.

use super::conversations::EVERYONE;
use super::messages::{Line, mentions_in};
use super::state::Chat;
use crate::storage;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// What a conversation holds unread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unread {
    /// Messages from others after the read marker.
    pub count: usize,
    /// One of them is for the person: a direct message or a mention.
    pub for_me: bool,
}

/// What `conversation` holds unread for `me`, read up to `read_at`.
pub fn unread_in(lines: &[Line], conversation: &str, read_at: u64, me: &str) -> Unread {
    let direct = conversation != EVERYONE && !conversation.starts_with("channel/");
    lines
        .iter()
        .filter(|l| l.conversation == conversation && l.source != me && !l.status)
        .filter(|l| l.at > read_at)
        .fold(Unread::default(), |u, l| Unread {
            count: u.count + 1,
            for_me: u.for_me || direct || mentions_in(&l.content).iter().any(|m| m == me),
        })
}

/// The tab's title with `total` unread.
pub fn title_with(total: usize) -> String {
    match total {
        0 => "agentnet workspace".to_owned(),
        n => format!("({n}) agentnet workspace"),
    }
}

fn key(network: &str) -> String {
    format!("read:{network}")
}

impl Chat {
    /// The read markers this browser kept for `network`.
    pub(super) fn recall_read(network: &str) -> BTreeMap<String, u64> {
        storage::recall_json(&key(network)).unwrap_or_default()
    }

    /// The person has seen `conversation` up to `at`.
    pub(super) fn mark_read(&self, conversation: &str, at: u64) {
        if self
            .read
            .with_untracked(|r| r.get(conversation).is_some_and(|known| *known >= at))
        {
            return;
        }
        self.read.update(|r| {
            r.insert(conversation.to_owned(), at);
        });
        if let Ok(kept) = self.read.with_untracked(serde_json::to_string) {
            storage::keep(&key(&self.session.network_name()), &kept);
        }
    }

    /// What `conversation` holds unread.
    pub fn unread(&self, conversation: &str) -> Unread {
        let read_at = self
            .read
            .with(|r| r.get(conversation).copied().unwrap_or(0));
        let me = self.session.me_text();
        self.lines
            .with(|l| unread_in(l, conversation, read_at, &me))
    }

    /// The tab's title follows the unread total while the workspace is open.
    pub(super) fn title_follows_unread(&self) {
        let chat = *self;
        Effect::new(move |_| {
            let total: usize = chat
                .conversations()
                .iter()
                .map(|c| chat.unread(c).count)
                .sum();
            document().set_title(&title_with(total));
        });
        on_cleanup(|| document().set_title(&title_with(0)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::{Event, EventId, Limits};
    use serde_json::json;

    fn line(n: u128, source: &str, target: &str, content: &str, at: u64) -> Line {
        let event = Event::from_value(
            json!({
                "id": EventId::from_parts(at, n).to_string(), "type": crate::event_types::MESSAGE_POSTED,
                "source": source, "target": target, "payload": {"content": content}, "timestamp": at,
            }),
            &Limits::default(),
        )
        .unwrap();
        line_from(&event, LineState::Received, "human:ann")
    }

    #[test]
    fn what_others_posted_after_the_marker_is_unread() {
        let me = "human:ann";
        let lines = vec![
            line(1, "agent:a", EVERYONE, "old", 10),
            line(2, "agent:a", EVERYONE, "new", 20),
            line(3, me, EVERYONE, "mine", 30),
            line(4, "agent:b", EVERYONE, "hi @human:ann", 40),
            line(5, "agent:b", me, "direct", 50),
        ];
        assert_eq!(
            unread_in(&lines, EVERYONE, 10, me),
            Unread {
                count: 2,
                for_me: true
            }
        );
        assert_eq!(
            unread_in(&lines, EVERYONE, 20, me).count,
            1,
            "one's own messages are read"
        );
        assert_eq!(unread_in(&lines, EVERYONE, 40, me), Unread::default());
        let direct = unread_in(&lines, "agent:b", 0, me);
        assert!(
            direct.for_me && direct.count == 1,
            "a direct message is for me"
        );
        assert!(!unread_in(&lines[..2], EVERYONE, 0, me).for_me);
        assert_eq!(title_with(0), "agentnet workspace");
        assert_eq!(title_with(3), "(3) agentnet workspace");
    }
}
