//! The conversation rules: when an agent answers and where its answer goes,
//! as pure functions over events.
//!
//! An agent answers a chat message (`workspace.message.posted`) when
//! * it is a direct message to the agent;
//! * it mentions the agent: `metadata.mentions` names it (the workspace
//!   composer writes that) or the text has `@address` (`@helper` is
//!   `agent:helper`), read the way the composer reads it ([`mentions_in`]);
//! * it follows up in a thread (`metadata.in_reply_to`) the agent was
//!   mentioned in or answered;
//! * it is any message in a channel, only when configured
//!   ([`AnswerMode::EveryMessage`]).
//!
//! It never answers itself, and agents stop answering each other after
//! [`Budgets::agent_turns_without_person`](crate::agent::config::Budgets)
//! agent messages in a row in one conversation without a person (`human:*`)
//! ([`agent_run`]). The answer goes where the question was asked
//! ([`Place`]): into the thread for a message in a thread, into the channel
//! for a channel message, back to the sender for a direct message.

use crate::agent::config::AnswerMode;
use crate::event::Event;
use crate::ids::address::{Address, Entity};
use crate::ids::ulid::EventId;
use crate::mods::workspace::threads::MENTIONS;
use crate::vocabulary::event_types::MESSAGE_POSTED as POSTED;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A conversation: where messages are posted, and the thread in it, if any.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Place {
    /// A channel, `agent:broadcast`, or the other party of a direct conversation.
    pub target: Address,
    /// The thread: the message the conversation's messages answer.
    pub thread: Option<EventId>,
    /// A task given to the agent (AIP/A2A): its id; the answer completes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
}

impl Place {
    /// A conversation in `target`, in the thread `thread` if any.
    pub fn new(target: Address, thread: Option<EventId>) -> Self {
        Self {
            target,
            thread,
            task: None,
        }
    }

    /// The task `task` that `requester` gave the agent.
    pub fn task(requester: Address, task: String) -> Self {
        Self {
            target: requester,
            thread: None,
            task: Some(task),
        }
    }
}

/// Why the agent answers a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A direct message to it.
    Direct,
    /// It is mentioned.
    Mentioned,
    /// A follow-up in a thread it was mentioned in or answered.
    FollowUp,
    /// A channel message, answered because it answers every message.
    Channel,
}

/// Why the agent leaves a message unanswered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// Not a chat message.
    NotAMessage,
    /// Its own message.
    Own,
    /// Not addressed to it.
    NotAddressed,
    /// Agents have talked among themselves long enough without a person.
    AgentLoop,
}

/// What the agent does with a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// It answers, for this reason.
    Answer(Reason),
    /// It does not, for this reason.
    Skip(Skip),
}

/// What the agent remembers that the rules need.
#[derive(Debug, Clone, Copy)]
pub struct Recall {
    /// The message answers a thread the agent was mentioned in or answered.
    pub known_thread: bool,
    /// Agent messages in a row in the conversation, this one included ([`agent_run`]).
    pub agent_run: u32,
}

/// True for people's addresses (`human:*`); every other sender counts as an agent.
pub fn is_person(address: &Address) -> bool {
    matches!(address.entity(), Entity::Human(_))
}

/// The run of agent messages in a row after a message from `source`, given
/// the run before it: a person's message ends the run.
pub fn agent_run(before: u32, source: &Address) -> u32 {
    if is_person(source) {
        0
    } else {
        before.saturating_add(1)
    }
}

/// The addresses mentioned as `@address` in a text, once each, in order: a
/// word starting with `@`, without trailing punctuation, that parses as an
/// address. The same reading as the workspace composer's.
pub fn mentions_in(text: &str) -> Vec<Address> {
    let mut found: Vec<Address> = Vec::new();
    for word in text.split_whitespace() {
        let Some(candidate) = word.strip_prefix('@') else {
            continue;
        };
        let candidate = candidate.trim_end_matches([',', '.', '!', '?', ';', ':', ')']);
        if let Ok(address) = candidate.parse::<Address>()
            && address.entity().is_participant()
            && !found.contains(&address)
        {
            found.push(address);
        }
    }
    found
}

/// The text of a chat message (`payload.content`), empty when it has none.
pub fn content_of(event: &Event) -> &str {
    event
        .payload
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// Whether `event` mentions `me`, in `metadata.mentions` or as `@address` in its text.
pub fn mentions(me: &Address, event: &Event) -> bool {
    let listed = event
        .metadata
        .get(MENTIONS)
        .and_then(Value::as_array)
        .is_some_and(|list| {
            list.iter()
                .filter_map(Value::as_str)
                .filter_map(|s| s.parse::<Address>().ok())
                .any(|a| &a == me)
        });
    listed || mentions_in(content_of(event)).contains(me)
}

/// Whether `event` is a chat message.
pub fn is_message(event: &Event) -> bool {
    event.event_type.as_str() == POSTED
}

fn is_room(address: &Address) -> bool {
    matches!(address.entity(), Entity::Channel(_) | Entity::Broadcast)
}

/// The conversation `event` belongs to, seen by `me`: its channel, or the
/// other party of a direct message; with its thread.
pub fn place_of(me: &Address, event: &Event) -> Place {
    let target = if is_room(&event.target) || &event.source == me {
        event.target.clone()
    } else {
        event.source.clone()
    };
    Place {
        target,
        thread: event.in_reply_to(),
        task: None,
    }
}

/// Whether `event` is a direct message to `me`.
pub fn is_direct(me: &Address, event: &Event) -> bool {
    &event.target == me && &event.source != me
}

/// What `me` does with `event`, given its configured mode, the bound on
/// agent turns without a person, and what it remembers.
pub fn decide(
    me: &Address,
    mode: AnswerMode,
    max_agent_turns: u32,
    event: &Event,
    memory: Recall,
) -> Decision {
    if !is_message(event) {
        return Decision::Skip(Skip::NotAMessage);
    }
    if &event.source == me {
        return Decision::Skip(Skip::Own);
    }
    let reason = if is_direct(me, event) {
        Reason::Direct
    } else if !is_room(&event.target) {
        return Decision::Skip(Skip::NotAddressed);
    } else if mentions(me, event) {
        Reason::Mentioned
    } else if memory.known_thread && event.in_reply_to().is_some() {
        Reason::FollowUp
    } else if mode == AnswerMode::EveryMessage {
        Reason::Channel
    } else {
        return Decision::Skip(Skip::NotAddressed);
    };
    if !is_person(&event.source) && memory.agent_run >= max_agent_turns {
        return Decision::Skip(Skip::AgentLoop);
    }
    Decision::Answer(reason)
}

/// The thread an answer to `event` joins, which later follow-ups answer:
/// the thread it is in, else the message itself.
pub fn thread_root(event: &Event) -> EventId {
    event.in_reply_to().unwrap_or(event.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn mentions_are_addresses_after_an_at_sign() {
        let found = mentions_in("hi @helper, and @human:ann! mail me@example or @ alone");
        let names: Vec<String> = found.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["agent:helper", "human:ann"]);
        assert!(mentions_in("@channel/general @core").is_empty());
        assert_eq!(mentions_in("@agent:x @x").len(), 1);
    }

    fn event(source: &str, target: &str, content: &str, metadata: Value) -> Event {
        let id = EventId::from_parts(1, 7);
        let metadata = if metadata.is_null() {
            serde_json::json!({})
        } else {
            metadata
        };
        serde_json::from_value(serde_json::json!({"id": id, "type": POSTED,
            "source": source, "target": target, "payload": {"content": content},
            "metadata": metadata, "timestamp": 1}))
        .unwrap()
    }

    fn verdict(e: &Event, mode: AnswerMode, recall: Recall) -> Decision {
        let me: Address = "agent:helper".parse().unwrap();
        decide(&me, mode, 2, e, recall)
    }

    const FRESH: Recall = Recall {
        known_thread: false,
        agent_run: 0,
    };

    #[test]
    fn the_rules_decide_who_is_answered() {
        let general = "channel/general";
        let plain = event("human:ann", general, "hello", Value::Null);
        let listed = event(
            "human:ann",
            general,
            "hi",
            serde_json::json!({"mentions": ["agent:helper"]}),
        );
        let dm = event("human:ann", "agent:helper", "hi", Value::Null);
        let own = event("agent:helper", general, "@helper", Value::Null);
        let other_dm = event("human:ann", "agent:bob", "@helper", Value::Null);
        use AnswerMode::{Addressed, EveryMessage};
        let cases = [
            (&plain, Addressed, Decision::Skip(Skip::NotAddressed)),
            (&plain, EveryMessage, Decision::Answer(Reason::Channel)),
            (&listed, Addressed, Decision::Answer(Reason::Mentioned)),
            (&dm, Addressed, Decision::Answer(Reason::Direct)),
            (&own, EveryMessage, Decision::Skip(Skip::Own)),
            (&other_dm, EveryMessage, Decision::Skip(Skip::NotAddressed)),
        ];
        for (event, mode, expected) in cases {
            assert_eq!(verdict(event, mode, FRESH), expected, "{event:?}");
        }
        let addressed = Addressed;
        let from_agent = event("agent:bob", general, "@helper", Value::Null);
        let run = |agent_run| Recall {
            known_thread: false,
            agent_run,
        };
        assert_eq!(
            verdict(&from_agent, addressed, run(1)),
            Decision::Answer(Reason::Mentioned)
        );
        assert_eq!(
            verdict(&from_agent, addressed, run(2)),
            Decision::Skip(Skip::AgentLoop)
        );
        assert_eq!(
            verdict(&listed, addressed, run(9)),
            Decision::Answer(Reason::Mentioned),
            "a person"
        );
    }

    #[test]
    fn answers_go_where_the_question_was_asked() {
        let me: Address = "agent:helper".parse().unwrap();
        let root = EventId::from_parts(1, 1);
        let in_thread = event(
            "human:ann",
            "channel/general",
            "?",
            serde_json::json!({"in_reply_to": root}),
        );
        let place = place_of(&me, &in_thread);
        assert_eq!(place.target.to_string(), "channel/general");
        assert_eq!(place.thread, Some(root));
        assert_eq!(thread_root(&in_thread), root);
        let dm = event("human:ann", "agent:helper", "?", Value::Null);
        assert_eq!(place_of(&me, &dm).target.to_string(), "human:ann");
        let mine = event("agent:helper", "human:ann", "!", Value::Null);
        assert_eq!(
            place_of(&me, &mine),
            place_of(&me, &dm),
            "one conversation both ways"
        );
        assert_eq!(agent_run(3, &"human:ann".parse().unwrap()), 0);
        assert_eq!(agent_run(3, &"agent:bob".parse().unwrap()), 4);
    }

    proptest! {
        #[test]
        fn a_mention_is_found_among_any_words(
            name in "[a-z][a-z0-9_-]{0,20}",
            before in proptest::collection::vec("[^@\\s]{1,12}", 0..5),
            after in proptest::collection::vec("[^@\\s]{1,12}", 0..5),
            punctuation in proptest::sample::select(vec!["", ",", ".", "!", "?", ";", ":", ")"]),
        ) {
            let me: Address = format!("agent:{name}").parse().unwrap();
            let text = format!("{} @{name}{punctuation} {}", before.join(" "), after.join(" "));
            prop_assert_eq!(mentions_in(&text), vec![me]);
        }

        #[test]
        fn mentions_never_fail_and_are_unique(text in "\\PC{0,200}") {
            let found = mentions_in(&text);
            for (i, a) in found.iter().enumerate() {
                prop_assert!(!found[i + 1..].contains(a));
                prop_assert!(a.entity().is_participant());
                // The text names it, if not always as the address is written (`@A` is `agent:A`).
                let name = a.entity().name().unwrap_or_default();
                prop_assert!(!name.is_empty() && text.contains(name), "{a} in {text:?}");
            }
        }

        #[test]
        fn text_without_an_at_sign_mentions_no_one(text in "[^@]{0,200}") {
            prop_assert!(mentions_in(&text).is_empty());
        }

        #[test]
        fn any_written_address_round_trips(name in "[a-z][a-z0-9]{0,15}", human in any::<bool>()) {
            let address: Address = if human {
                format!("human:{name}")
            } else {
                format!("agent:{name}")
            }.parse().unwrap();
            prop_assert_eq!(mentions_in(&format!("ask @{address}?")), vec![address]);
        }
    }
}
