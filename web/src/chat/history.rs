//! History on arrival: what a conversation said before this tab was there.
//!
//! The local replica shows what it holds at once ([`crate::chat::messages::restored_lines`]);
//! opening a conversation then asks the network for what it kept
//! (`network.events.query`, answered when the network runs `mod/persistence`),
//! narrowed to the conversation: its target for everyone and a channel, both
//! directions for a direct conversation. The query reads forward, so the
//! first read covers the last [`SPAN`] positions of the log (before the
//! replica's watermark) and pages on (`next_after`) to its end; each earlier
//! range is read when the person scrolls above what is loaded, up to where
//! the last began. Each page's messages merge into the lines in time order,
//! once each. The list shows the newest and pages earlier ones in as the
//! person scrolls up ([`crate::chat::list::view`]).

use crate::chat::conversations::is_direct;
use crate::chat::messages::{Line, LineState, is_conversation_event, line_from};
pub use crate::chat::reads::{PAGE, Read, Reads};
use crate::chat::state::{Chat, MAX_LINES};
use agentnet_core::Address;
use agentnet_core::ids::event_type::core_types;
use agentnet_core::model::payloads::EventsPage;
use agentnet_core::replica::ReplicaEffect;
use leptos::prelude::*;

/// Log positions one range of history covers (all types and targets: a
/// conversation's share of them is what it said meanwhile).
pub const SPAN: u64 = 2_000;

/// How long one page may take before the read counts as failed.
const TIMEOUT_MS: u64 = 30_000;

/// The reads that fill `conversation` for `me` between `after` and `until`:
/// its target for everyone and a channel; both directions for a direct
/// conversation.
pub fn reads_for(conversation: &str, me: &str, after: u64, until: Option<u64>) -> Vec<Read> {
    let read = |source: Option<&str>, target: &str| Read {
        conversation: conversation.to_owned(),
        source: source.map(str::to_owned),
        target: target.to_owned(),
        after,
        until,
    };
    if is_direct(conversation) {
        vec![read(Some(conversation), me), read(Some(me), conversation)]
    } else {
        vec![read(None, conversation)]
    }
}

/// Merges `found` into `lines` (kept in time order), each id once; the
/// oldest go when there are more than [`MAX_LINES`]. True when any was new.
pub fn merge(lines: &mut Vec<Line>, found: Vec<Line>) -> bool {
    let mut added = false;
    for line in found {
        if lines.iter().any(|known| known.id == line.id) {
            continue;
        }
        let at = lines
            .iter()
            .rposition(|known| known.at <= line.at)
            .map_or(0, |i| i + 1);
        lines.insert(at, line);
        added = true;
    }
    if lines.len() > MAX_LINES {
        let extra = lines.len() - MAX_LINES;
        lines.drain(..extra);
    }
    added
}

impl Chat {
    /// Asks the network for `conversation`'s recent history, unless it was
    /// asked for already (offline, it is asked for again once online).
    pub(super) fn load_history(&self, conversation: &str) {
        if self.loaded.with_untracked(|l| l.contains(conversation))
            || self.loading.with_untracked(|l| l.contains(conversation))
        {
            return;
        }
        let watermark = self.session.with_connection(|c| c.watermark()).flatten();
        let after = watermark.map_or(0, |w| w.saturating_sub(SPAN));
        self.read_range(conversation, after, None);
    }

    /// Asks for the range of `conversation`'s history before what was read.
    pub(super) fn load_older(&self, conversation: &str) {
        let Some(until) = self
            .earliest
            .with_untracked(|e| e.get(conversation).copied())
        else {
            return;
        };
        if until == 0 || self.loading.with_untracked(|l| l.contains(conversation)) {
            return;
        }
        self.read_range(conversation, until.saturating_sub(SPAN), Some(until));
    }

    /// True when the network may hold `conversation`'s history before what was read.
    pub fn has_older(&self, conversation: &str) -> bool {
        self.earliest
            .with(|e| e.get(conversation).is_some_and(|from| *from > 0))
    }

    pub(super) fn read_range(&self, conversation: &str, after: u64, until: Option<u64>) {
        self.loading.update(|l| {
            l.insert(conversation.to_owned());
        });
        self.earliest.update(|e| {
            e.insert(conversation.to_owned(), after);
        });
        for read in reads_for(conversation, &self.session.me_text(), after, until) {
            self.send_read(read);
        }
    }

    /// Sends one page's read, once the effect being delivered is done (this
    /// may run while the connection delivers the answer to the last page).
    fn send_read(&self, read: Read) {
        let chat = *self;
        wasm_bindgen_futures::spawn_local(async move {
            let id = chat.session.request(
                core_types::EVENTS_QUERY,
                Address::core(),
                read.payload(),
                TIMEOUT_MS,
            );
            match id {
                Some(id) => {
                    let _ = chat.reads.try_update_value(|r| r.pending.insert(id, read));
                }
                // Offline: it is asked for again on the next `Online`.
                None => {
                    let _ = chat.earliest.try_update(|e| e.remove(&read.conversation));
                    chat.read_done(&read.conversation, false);
                }
            }
        });
    }

    /// A conversation's reads are over (`complete`: all it kept is shown).
    fn read_done(&self, conversation: &str, complete: bool) {
        let still = self
            .reads
            .try_with_value(|r| r.pending.values().any(|p| p.conversation == conversation))
            .unwrap_or(false);
        if still {
            return;
        }
        let _ = self.loading.try_update(|l| l.remove(conversation));
        if complete {
            let _ = self
                .loaded
                .try_update(|l| l.insert(conversation.to_owned()));
        }
    }

    /// A history page (or its failure), when it answers one of the reads.
    pub(super) fn on_history(&self, effect: &ReplicaEffect) {
        let (request, answer) = match effect {
            ReplicaEffect::Replied { request, reply } => (request, Ok(&reply.payload)),
            ReplicaEffect::RequestFailed { request, rejection } => (request, Err(rejection)),
            _ => return,
        };
        let Some(read) = self
            .reads
            .try_update_value(|r| r.pending.remove(request))
            .flatten()
        else {
            return;
        };
        let no_history =
            matches!(answer, Err(r) if r.code == agentnet_core::ErrorCode::NotSupported);
        let page = answer
            .ok()
            .and_then(|p| agentnet_core::answers::read_payload::<EventsPage>(p).ok());
        // A network without history (no mod/persistence) has nothing more
        // to show (nor older: nothing to ask again); a failed read is over.
        let Some(page) = page else {
            if no_history {
                self.earliest.update(|e| {
                    e.insert(read.conversation.clone(), 0);
                });
            }
            return self.read_done(&read.conversation, true);
        };
        let me = self.session.me_text();
        for logged in &page.events {
            self.take_change(&logged.event);
        }
        let found: Vec<Line> = page
            .events
            .iter()
            .map(|logged| &logged.event)
            .filter(|e| is_conversation_event(e))
            .map(|e| {
                let state = if e.source.to_string() == me {
                    LineState::Sent
                } else {
                    LineState::Received
                };
                self.patched(line_from(e, state, &me))
            })
            .collect();
        if !found.is_empty() {
            self.lines.update(|lines| {
                merge(lines, found);
            });
        }
        let range_read = read.until.is_some_and(|until| page.next_after >= until);
        if page.has_more && page.next_after > read.after && !range_read {
            self.send_read(Read {
                after: page.next_after,
                ..read
            });
        } else {
            self.read_done(&read.conversation, true);
        }
    }

    /// True while the open conversation's history is being read.
    pub fn history_loading(&self, conversation: &str) -> bool {
        self.loading.with(|l| l.contains(conversation))
    }

    /// True once the network answered the first read of `conversation`.
    pub fn history_loaded(&self, conversation: &str) -> bool {
        self.loaded.with(|l| l.contains(conversation))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::conversations::EVERYONE;
    use agentnet_core::EventId;
    use agentnet_core::{Event, Limits};
    use serde_json::json;

    fn line(id: u64, at: u64) -> Line {
        let event = Event::from_value(
            json!({
                "id": EventId::from_parts(at, id.into()).to_string(), "type": agentnet_core::vocabulary::event_types::MESSAGE_POSTED,
                "source": "agent:a", "target": EVERYONE, "payload": {"content": format!("m{id}")},
                "timestamp": at,
            }),
            &Limits::default(),
        )
        .unwrap();
        line_from(&event, LineState::Received, "human:ann")
    }

    #[test]
    fn history_merges_in_time_order_once() {
        let mut lines = vec![line(3, 30), line(5, 50)];
        assert!(merge(
            &mut lines,
            vec![line(1, 10), line(4, 40), line(5, 50)]
        ));
        let order: Vec<u64> = lines.iter().map(|l| l.at).collect();
        assert_eq!(order, [10, 30, 40, 50]);
        assert!(
            !merge(&mut lines, vec![line(4, 40)]),
            "known lines are not added again"
        );
    }

    #[test]
    fn a_direct_conversation_reads_both_directions() {
        let reads = reads_for("agent:bob", "human:ann", 0, None);
        assert_eq!(reads.len(), 2);
        assert_eq!(reads[0].payload()["source"], "agent:bob");
        assert_eq!(reads[0].payload()["target"], "human:ann");
        assert_eq!(reads[1].payload()["source"], "human:ann");
        assert_eq!(reads[1].payload()["target"], "agent:bob");
        let reads = reads_for("channel/plan", "human:ann", 0, None);
        assert_eq!(reads.len(), 1);
        assert_eq!(
            reads[0].payload(),
            json!({"target": "channel/plan", "after": 0, "limit": PAGE})
        );
    }
}
