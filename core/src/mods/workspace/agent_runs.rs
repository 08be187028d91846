//! The network's guard against agents talking among themselves without end.
//!
//! Agents keep the conversation rules ([`crate::agent::rules`]): they stop
//! answering each other after a few turns without a person. Agents that do
//! not (a bug, two scripts answering each other) would flood a channel; so
//! `mod/workspace` counts, per conversation (a channel, or the two parties
//! of a direct conversation, with the thread), the turns agents take in a
//! row without a person — a chat message from a member that is not a person
//! and not the sender of the message before it — and refuses the next turn
//! past [`MAX_AGENT_RUN`] until a person (`human:*`) posts there. One agent
//! posting many messages in a row (a feed, a bridge, a log) takes no turns:
//! that is the rate limiter's to bound. The counts live in memory, bounded
//! to [`MAX_CONVERSATIONS`]: after a restart a run starts again from zero,
//! which allows at most one more run.

use crate::bounded::trim_oldest;
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::{Address, Entity};
use crate::ids::ulid::EventId;
use std::collections::BTreeMap;

/// Turns agents take in a row, in one conversation, that the network accepts.
pub const MAX_AGENT_RUN: u32 = 24;
/// Conversations counted at once; the least recently active is forgotten first.
pub const MAX_CONVERSATIONS: usize = 4096;

/// A conversation: a room, or the two parties of a direct one (in order); and the thread.
type Conversation = (Address, Option<Address>, Option<EventId>);

/// A conversation's run: the turns agents took, who posted last, when (a tick).
#[derive(Debug, Clone)]
struct Run {
    turns: u32,
    last: Address,
    tick: u64,
}

/// Runs of agent turns per conversation.
#[derive(Debug, Default)]
pub struct AgentRuns {
    runs: BTreeMap<Conversation, Run>,
    tick: u64,
}

fn is_person(address: &Address) -> bool {
    matches!(address.entity(), Entity::Human(_))
}

fn conversation_of(event: &Event) -> Conversation {
    let thread = event.in_reply_to();
    match event.target.entity() {
        Entity::Channel(_) | Entity::Broadcast => (event.target.clone(), None, thread),
        _ if event.source <= event.target => {
            (event.source.clone(), Some(event.target.clone()), thread)
        }
        _ => (event.target.clone(), Some(event.source.clone()), thread),
    }
}

impl AgentRuns {
    /// Refuses an agent's turn in a conversation whose run is spent.
    pub fn check(&self, event: &Event) -> Result<(), Rejection> {
        if is_person(&event.source) {
            return Ok(());
        }
        match self.runs.get(&conversation_of(event)) {
            Some(run) if run.turns >= MAX_AGENT_RUN && run.last != event.source => {
                Err(Rejection::new(
                    ErrorCode::RateLimited,
                    format!(
                        "agents have answered each other {} times in a row in this conversation \
                         without a person; a person must post here before agents go on",
                        run.turns
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Counts an accepted message: a person's ends the run; an agent's is a
    /// turn unless it follows its own message.
    pub fn record(&mut self, event: &Event) {
        let conversation = conversation_of(event);
        if is_person(&event.source) {
            self.runs.remove(&conversation);
            return;
        }
        self.tick += 1;
        let tick = self.tick;
        let run = self.runs.entry(conversation).or_insert(Run {
            turns: 0,
            last: event.source.clone(),
            tick,
        });
        if run.last != event.source || run.turns == 0 {
            run.turns = run.turns.saturating_add(1);
        }
        run.last = event.source.clone();
        run.tick = tick;
        trim_oldest(&mut self.runs, MAX_CONVERSATIONS, |run| run.tick);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn post(n: u128, source: &str, target: &str, thread: Option<u128>) -> Event {
        let metadata = match thread {
            Some(t) => json!({"in_reply_to": EventId::from_parts(1, t)}),
            None => json!({}),
        };
        serde_json::from_value(json!({"id": EventId::from_parts(1, n),
            "type": "workspace.message.posted", "source": source, "target": target,
            "payload": {"content": "hi"}, "metadata": metadata, "timestamp": 1}))
        .unwrap()
    }

    /// `event` passes the check (`why` says which one it is), and is recorded.
    fn goes(runs: &mut AgentRuns, event: &Event, why: &str) {
        assert!(runs.check(event).is_ok(), "{why}");
        runs.record(event);
    }

    /// Two agents take turns in `target` until the run is spent.
    fn fill(runs: &mut AgentRuns, target: &str) {
        for n in 0..u128::from(MAX_AGENT_RUN) {
            let source = if n % 2 == 0 { "agent:a" } else { "agent:b" };
            goes(
                runs,
                &post(n, source, target, None),
                &format!("message {n}"),
            );
        }
    }

    #[test]
    fn agents_are_stopped_in_a_channel_until_a_person_posts() {
        let mut runs = AgentRuns::default();
        fill(&mut runs, "channel/general");
        let refused = runs.check(&post(99, "agent:a", "channel/general", None));
        let refused = refused.unwrap_err();
        assert_eq!(refused.code, ErrorCode::RateLimited);
        assert!(refused.message.contains("a person must post"));
        assert!(
            runs.check(&post(99, "agent:b", "channel/general", None))
                .is_ok(),
            "the last to post may go on: it takes no new turn"
        );
        assert!(
            runs.check(&post(99, "agent:a", "channel/general", Some(1)))
                .is_ok(),
            "a thread is its own conversation"
        );
        assert!(
            runs.check(&post(99, "agent:a", "channel/other", None))
                .is_ok()
        );
        let person = post(100, "human:ann", "channel/general", None);
        goes(&mut runs, &person, "a person is never stopped");
        assert!(
            runs.check(&post(101, "agent:b", "channel/general", None))
                .is_ok()
        );
    }

    #[test]
    fn one_agent_posting_many_messages_takes_no_turns() {
        let mut runs = AgentRuns::default();
        for n in 0..1000 {
            let event = post(n, "agent:feed", "channel/news", None);
            goes(&mut runs, &event, &format!("message {n}"));
        }
        assert!(
            runs.check(&post(1001, "agent:other", "channel/news", None))
                .is_ok()
        );
    }

    #[test]
    fn a_direct_conversation_counts_both_ways() {
        let mut runs = AgentRuns::default();
        for n in 0..u128::from(MAX_AGENT_RUN) {
            let (from, to) = if n % 2 == 0 {
                ("agent:a", "agent:b")
            } else {
                ("agent:b", "agent:a")
            };
            runs.record(&post(n, from, to, None));
        }
        assert!(runs.check(&post(99, "agent:a", "agent:b", None)).is_err());
        assert!(runs.check(&post(99, "agent:a", "agent:c", None)).is_ok());
    }

    #[test]
    fn the_counts_are_bounded() {
        let mut runs = AgentRuns::default();
        for n in 0..(MAX_CONVERSATIONS as u128 + 10) {
            runs.record(&post(n, "agent:a", &format!("channel/c{n}"), None));
        }
        assert_eq!(runs.runs.len(), MAX_CONVERSATIONS);
        assert!(runs.runs.values().all(|run| run.turns == 1));
    }
}
