//! Unread messages: per conversation, the time of the newest message the
//! person has seen (the list at its bottom, the tab visible, [`crate::chat::list::view`])
//! is kept across reloads in IndexedDB ([`crate::storage::keep_in_db`]);
//! what others posted after it is unread. The sidebar shows each
//! conversation's count, with mentions of the person and direct messages
//! marked apart, and the tab's title the total. Where the person left off
//! when they came back to a conversation is its read marker: the list draws
//! a "new" line there ([`crate::chat::list::rows::Row::New`]).

use crate::chat::conversations::is_direct;
use crate::chat::messages::{Line, mentions_in};
use crate::chat::state::Chat;
use crate::storage;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// What a conversation holds unread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unread {
    /// Messages from others after the read marker.
    pub count: usize,
    /// How many of them mention the person.
    pub mentions: usize,
    /// It is a direct conversation (every message in it is for the person).
    pub direct: bool,
    /// One of them is for the person: a direct message or a mention.
    pub for_me: bool,
}

/// True when `line` is for `me`: from someone else, in a direct conversation
/// or mentioning `me`.
pub fn is_for(line: &Line, me: &str) -> bool {
    line.source != me
        && !line.status
        && !line.deleted
        && (is_direct(&line.conversation) || mentions_in(&line.content).iter().any(|m| m == me))
}

/// What `conversation` holds unread for `me`, read up to `read_at`.
pub fn unread_in(lines: &[Line], conversation: &str, read_at: u64, me: &str) -> Unread {
    let direct = is_direct(conversation);
    // Thread replies are read in their thread, not counted in the conversation.
    crate::chat::list::rows::conversation_lines(lines, conversation)
        .filter(|l| l.source != me && !l.status && !l.deleted)
        .filter(|l| l.at > read_at)
        .fold(
            Unread {
                direct,
                ..Unread::default()
            },
            |u, l| {
                let mention = mentions_in(&l.content).iter().any(|m| m == me);
                Unread {
                    count: u.count + 1,
                    mentions: u.mentions + usize::from(mention),
                    direct,
                    for_me: u.for_me || direct || mention,
                }
            },
        )
}

/// The tab's title: the conversation open (`place`, when one is), then
/// agentnet, after the number of unread messages, if any.
pub fn title_with(total: usize, place: Option<&str>) -> String {
    let base = match place {
        Some(place) => format!("{} — agentnet", crate::bidi::isolate(place)),
        None => "agentnet".to_owned(),
    };
    match total {
        0 => base,
        n => format!("({n}) {base}"),
    }
}

fn key(network: &str) -> String {
    format!("read:{network}")
}

impl Chat {
    /// Reads the read markers this browser kept for `network` from
    /// IndexedDB (once: those an older version kept in localStorage are
    /// taken over), then counts unread with them.
    pub(crate) fn recall_read(&self, network: String) {
        let chat = *self;
        wasm_bindgen_futures::spawn_local(async move {
            let kept: BTreeMap<String, u64> = match storage::recall_kept(&key(&network)).await {
                Some(text) => serde_json::from_str(&text).unwrap_or_default(),
                None => storage::recall_json(&key(&network)).unwrap_or_default(),
            };
            let _ = chat.read.try_update(|r| {
                for (conversation, at) in kept {
                    let known = r.entry(conversation).or_insert(at);
                    *known = (*known).max(at);
                }
            });
            let _ = chat.read_ready.try_set(true);
        });
    }

    /// The person has seen `conversation` up to `at` (kept in IndexedDB).
    /// The first time since the person came to it, where they had left off
    /// becomes its read marker.
    pub(crate) fn mark_read(&self, conversation: &str, at: u64) {
        if !self.read_ready.get_untracked() {
            return;
        }
        let known = self.read.with_untracked(|r| r.get(conversation).copied());
        let arriving = self.arriving.get_untracked();
        if arriving {
            self.arriving.set(false);
        }
        if known.is_some_and(|known| known >= at) {
            return;
        }
        if arriving {
            self.left_off
                .set(known.map(|k| (conversation.to_owned(), k)));
        }
        self.read.update(|r| {
            r.insert(conversation.to_owned(), at);
        });
        let Ok(kept) = self.read.with_untracked(serde_json::to_string) else {
            return;
        };
        let key = key(&self.session.network_name());
        wasm_bindgen_futures::spawn_local(async move {
            storage::keep_in_db(&key, &kept).await;
        });
    }

    /// The person comes (back) to a conversation: the next message they see
    /// there places the read marker; the one shown before goes.
    pub(crate) fn arrive(&self, keep_marker: bool) {
        self.arriving.set(true);
        if !keep_marker {
            self.left_off.set(None);
        }
    }

    /// The read marker of `conversation`: where the person had left off.
    pub fn read_marker(&self, conversation: &str) -> Option<u64> {
        self.left_off.with(|m| {
            m.as_ref()
                .filter(|(c, _)| c == conversation)
                .map(|(_, at)| *at)
        })
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
    pub(crate) fn title_follows_unread(&self) {
        let chat = *self;
        Effect::new(move |_| {
            let total: usize = chat
                .conversations()
                .iter()
                .map(|c| chat.unread(c).count)
                .sum();
            let open = (chat.session.pane() == crate::session::Pane::Conversation)
                .then(|| chat.title_of(&chat.current.get()));
            document().set_title(&title_with(total, open.as_deref()));
        });
        on_cleanup(|| document().set_title(&title_with(0, None)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::conversations::EVERYONE;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::{Event, EventId, Limits};
    use serde_json::json;

    fn line(n: u128, source: &str, target: &str, content: &str, at: u64) -> Line {
        let event = Event::from_value(
            json!({
                "id": EventId::from_parts(at, n).to_string(), "type": agentnet_core::vocabulary::event_types::MESSAGE_POSTED,
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
                mentions: 1,
                direct: false,
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
            direct.for_me && direct.direct && direct.count == 1 && direct.mentions == 0,
            "a direct message is for me, marked apart from mentions"
        );
        assert!(is_for(&lines[3], me) && is_for(&lines[4], me));
        assert!(!is_for(&lines[1], me) && !is_for(&lines[2], me));
        assert!(!unread_in(&lines[..2], EVERYONE, 0, me).for_me);
        assert_eq!(title_with(0, Some("# general")), "# general — agentnet");
        assert_eq!(title_with(3, Some("Everyone")), "(3) Everyone — agentnet");
        assert_eq!(title_with(0, None), "agentnet");
    }
}
