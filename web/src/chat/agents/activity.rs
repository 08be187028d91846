//! Agents working in the open: what an agent says it is doing about a
//! message (`workspace.agent.activity`: thinking, using a tool, writing its
//! answer so far, idle), kept per agent and message, the newest replacing
//! the one before. An activity is pending — shown under the conversation by
//! [`crate::chat::agents::working`] — until it is idle, its answer (a post whose
//! `payload.answers` names the message) arrives, or [`EXPIRES_MS`] pass
//! without a follow-up (an agent that died). Pure, so it is tested without
//! a browser.

use crate::chat::conversations::conversation_of;
use crate::chat::messages::Line;
use agentnet_core::sorting::sort_by_key;
use agentnet_core::vocabulary::agents::{ActivityState, AgentActivity};
use agentnet_core::vocabulary::event_types::AGENT_ACTIVITY;
use agentnet_core::{Event, EventId};
use serde::Deserialize;
use std::collections::BTreeMap;

/// An activity this long (ms) without a follow-up counts as idle.
pub const EXPIRES_MS: u64 = 120_000;
/// Longest tool name kept (a longer one is cut).
const TOOL_CHARS: usize = 100;

/// What an agent is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Doing {
    /// Deciding what to do.
    Thinking,
    /// Calling the named tool.
    UsingTool(String),
    /// Writing its answer: the whole of it so far.
    Writing(String),
    /// Waiting for a person to approve using the named tool.
    AwaitingApproval(String),
}

/// An agent's latest activity about one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Activity {
    /// The agent's address.
    pub agent: String,
    /// The message it answers.
    pub message: EventId,
    /// The thread its answer goes into (its root), if any.
    pub thread: Option<EventId>,
    /// The conversation it is in (see [`conversation_of`]).
    pub conversation: String,
    /// What it is doing.
    pub doing: Doing,
    /// When it was said: the event's time, but never later than when it
    /// came (an agent's clock ahead of the page's does not keep it alive).
    pub at: u64,
    /// The person asked it to stop; the Stop control waits for it.
    pub stopping: bool,
}

impl Activity {
    /// True once [`EXPIRES_MS`] have passed since it was said.
    pub fn expired(&self, now: u64) -> bool {
        now.saturating_sub(self.at) > EXPIRES_MS
    }

    /// What the agent is doing, in words after its name.
    pub fn label(&self) -> String {
        match &self.doing {
            Doing::Thinking => "is thinking…".to_owned(),
            Doing::UsingTool(tool) => format!("is using {tool}…"),
            Doing::Writing(_) => "is writing…".to_owned(),
            Doing::AwaitingApproval(tool) => format!("is waiting for approval to use {tool}…"),
        }
    }

    /// The answer so far (empty until the agent writes).
    pub fn text(&self) -> &str {
        match &self.doing {
            Doing::Writing(text) => text,
            Doing::Thinking | Doing::UsingTool(_) | Doing::AwaitingApproval(_) => "",
        }
    }
}

/// What one activity event says: the agent is at something, or idle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// At work.
    Working(Activity),
    /// Done with the message (answered, stopped or failed).
    Idle {
        /// The agent's address.
        agent: String,
        /// The message.
        message: EventId,
    },
}

/// Reads an activity event seen by `me` at `now`; `None` for any other
/// event and for one whose payload does not read (an unknown state, a
/// message or thread that is no event id).
pub fn read(event: &Event, me: &str, now: u64) -> Option<Said> {
    if event.event_type.as_str() != AGENT_ACTIVITY {
        return None;
    }
    let said = AgentActivity::deserialize(&event.payload).ok()?;
    let (message, thread) = (said.message, said.thread);
    let agent = event.source.to_string();
    let tool = || {
        let tool = said
            .tool
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty());
        tool.unwrap_or("a tool").chars().take(TOOL_CHARS).collect()
    };
    let doing = match said.state {
        ActivityState::Idle => return Some(Said::Idle { agent, message }),
        ActivityState::Thinking => Doing::Thinking,
        ActivityState::CallingTool => Doing::UsingTool(tool()),
        ActivityState::Writing => Doing::Writing(said.text.clone().unwrap_or_default()),
        ActivityState::AwaitingApproval => Doing::AwaitingApproval(tool()),
    };
    Some(Said::Working(Activity {
        conversation: conversation_of(&event.target.to_string(), &agent, me),
        agent,
        message,
        thread,
        doing,
        at: event.timestamp.as_millis().min(now),
        stopping: false,
    }))
}

/// The latest activity of each agent about each message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Activities {
    by_turn: BTreeMap<(String, EventId), Activity>,
}

impl Activities {
    /// Takes what an activity event said at `now`: an older one than the
    /// one known is ignored; idle forgets the turn. Expired turns go too.
    pub fn apply(&mut self, said: Said, now: u64) {
        self.by_turn.retain(|_, a| !a.expired(now));
        match said {
            Said::Idle { agent, message } => {
                self.by_turn.remove(&(agent, message));
            }
            Said::Working(mut activity) => {
                let key = (activity.agent.clone(), activity.message);
                if let Some(known) = self.by_turn.get(&key) {
                    if known.at > activity.at {
                        return;
                    }
                    activity.stopping = known.stopping;
                }
                self.by_turn.insert(key, activity);
            }
        }
    }

    /// The answer `line` arrived: its agent's turn on the message it answers ends.
    pub fn answered(&mut self, line: &Line) {
        if let Some(message) = line.answers {
            self.by_turn.remove(&(line.source.clone(), message));
        }
    }

    /// Marks the agent's turn on `message` as being stopped.
    pub fn stopping(&mut self, agent: &str, message: EventId) {
        if let Some(activity) = self.by_turn.get_mut(&(agent.to_owned(), message)) {
            activity.stopping = true;
        }
    }

    /// The pending activities at `now` that show in the conversation
    /// `conversation` (outside threads), or, with `thread`, in that thread;
    /// none whose answer is among `lines`. Oldest first.
    pub fn pending(
        &self,
        lines: &[Line],
        conversation: &str,
        thread: Option<EventId>,
        now: u64,
    ) -> Vec<Activity> {
        let mut shown: Vec<Activity> = self
            .by_turn
            .values()
            .filter(|a| !a.expired(now))
            .filter(|a| match thread {
                Some(root) => a.thread == Some(root),
                None => a.thread.is_none() && a.conversation == conversation,
            })
            .filter(|a| {
                !lines
                    .iter()
                    .any(|l| l.answers == Some(a.message) && l.source == a.agent)
            })
            .cloned()
            .collect();
        sort_by_key(&mut shown, |a| a.at);
        shown
    }

    /// True when an agent is at work in `conversation` (in a thread of it or not).
    pub fn working_in(&self, conversation: &str, now: u64) -> bool {
        self.by_turn
            .values()
            .any(|a| a.conversation == conversation && !a.expired(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::Limits;
    use agentnet_core::vocabulary::event_types::MESSAGE_POSTED;
    use serde_json::{Value, json};

    const ME: &str = "human:ann";
    const T: u64 = 1_800_000_000_000;

    fn asked() -> EventId {
        EventId::from_parts(T, 1)
    }

    fn event(kind: &str, target: &str, payload: Value, at: u64) -> Event {
        let value = json!({
            "id": EventId::from_parts(at, 9).to_string(), "type": kind,
            "source": "agent:helper", "target": target, "payload": payload, "timestamp": at,
        });
        Event::from_value(value, &Limits::default()).unwrap()
    }

    fn activity(payload: Value, at: u64) -> Option<Said> {
        read(
            &event(AGENT_ACTIVITY, "channel/general", payload, at),
            ME,
            T + 60_000,
        )
    }

    fn working(payload: Value, at: u64) -> Activity {
        match activity(payload, at) {
            Some(Said::Working(a)) => a,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn each_state_reads_and_bad_input_is_ignored() {
        let m = asked().to_string();
        let a = working(json!({"state": "thinking", "message": m}), T);
        assert_eq!((a.doing, a.thread, a.at), (Doing::Thinking, None, T));
        assert_eq!(a.conversation, "channel/general");
        let a = working(
            json!({"state": "calling_tool", "message": m, "tool": "search"}),
            T,
        );
        assert_eq!(a.label(), "is using search…");
        let a = working(json!({"state": "calling_tool", "message": m}), T);
        assert_eq!(a.doing, Doing::UsingTool("a tool".into()));
        let thread = EventId::from_parts(T, 2).to_string();
        let a = working(
            json!({"state": "writing", "message": m, "thread": thread, "text": "Hel"}),
            T,
        );
        assert_eq!(
            (a.text(), a.thread),
            ("Hel", Some(EventId::from_parts(T, 2)))
        );
        assert_eq!(
            activity(json!({"state": "idle", "message": m}), T),
            Some(Said::Idle {
                agent: "agent:helper".into(),
                message: asked()
            })
        );
        for bad in [
            json!({"state": "dreaming", "message": m}),
            json!({"state": "thinking"}),
            json!({"state": "thinking", "message": "not an id"}),
            json!({"state": "thinking", "message": 7}),
            json!({"state": 3, "message": m}),
            json!({"state": "thinking", "message": m, "thread": "nope"}),
            json!({"state": "thinking", "message": m, "thread": 5}),
            json!("thinking"),
        ] {
            assert_eq!(activity(bad.clone(), T), None, "{bad}");
        }
        // Not an activity at all.
        let post = event(
            MESSAGE_POSTED,
            "channel/general",
            json!({"content": "hi"}),
            T,
        );
        assert_eq!(read(&post, ME, T), None);
        // In a direct conversation it is the agent's; a clock ahead is capped at now.
        let direct = event(
            AGENT_ACTIVITY,
            ME,
            json!({"state": "thinking", "message": m}),
            T + 9_000_000,
        );
        let Some(Said::Working(a)) = read(&direct, ME, T) else {
            panic!()
        };
        assert_eq!((a.conversation.as_str(), a.at), ("agent:helper", T));
    }

    #[test]
    fn the_newest_replaces_the_one_before_and_idle_ends_the_turn() {
        let m = asked().to_string();
        let mut all = Activities::default();
        all.apply(
            activity(json!({"state": "thinking", "message": m}), T).unwrap(),
            T,
        );
        all.apply(
            activity(
                json!({"state": "writing", "message": m, "text": "Hel"}),
                T + 2,
            )
            .unwrap(),
            T + 2,
        );
        all.apply(
            activity(
                json!({"state": "writing", "message": m, "text": "Hello"}),
                T + 3,
            )
            .unwrap(),
            T + 3,
        );
        // A late one from before does not go back.
        all.apply(
            activity(json!({"state": "thinking", "message": m}), T + 1).unwrap(),
            T + 4,
        );
        let shown = all.pending(&[], "channel/general", None, T + 5);
        assert_eq!(shown.len(), 1);
        assert_eq!(shown[0].text(), "Hello");
        assert!(all.pending(&[], "channel/other", None, T + 5).is_empty());
        assert!(
            all.pending(&[], "channel/general", Some(asked()), T + 5)
                .is_empty()
        );
        all.stopping("agent:helper", asked());
        all.apply(
            activity(
                json!({"state": "writing", "message": m, "text": "Hello!"}),
                T + 6,
            )
            .unwrap(),
            T + 6,
        );
        assert!(
            all.pending(&[], "channel/general", None, T + 7)[0].stopping,
            "still stopping"
        );
        all.apply(
            activity(json!({"state": "idle", "message": m}), T + 8).unwrap(),
            T + 8,
        );
        assert!(all.pending(&[], "channel/general", None, T + 9).is_empty());
    }

    #[test]
    fn the_final_message_replaces_it_and_only_its_agent_s() {
        let m = asked().to_string();
        let mut all = Activities::default();
        all.apply(
            activity(json!({"state": "writing", "message": m, "text": "4"}), T).unwrap(),
            T,
        );
        let answer = |source: &str| {
            let mut value = json!({
                "id": EventId::from_parts(T + 1, 3).to_string(), "type": MESSAGE_POSTED,
                "source": source, "target": "channel/general",
                "payload": {"content": "42", "answers": m}, "timestamp": T + 1,
            });
            value["metadata"] = json!({});
            let event = Event::from_value(value, &Limits::default()).unwrap();
            line_from(&event, LineState::Received, ME)
        };
        let other = answer("agent:other");
        assert_eq!(
            all.pending(std::slice::from_ref(&other), "channel/general", None, T)
                .len(),
            1
        );
        let own = answer("agent:helper");
        assert!(
            all.pending(std::slice::from_ref(&own), "channel/general", None, T)
                .is_empty()
        );
        assert!(all.working_in("channel/general", T));
        all.answered(&own);
        assert!(!all.working_in("channel/general", T));
    }

    #[test]
    fn an_activity_without_a_follow_up_expires_after_two_minutes() {
        let m = asked().to_string();
        let thread = EventId::from_parts(T, 2).to_string();
        let mut all = Activities::default();
        all.apply(
            activity(
                json!({"state": "thinking", "message": m, "thread": thread}),
                T,
            )
            .unwrap(),
            T,
        );
        let root = Some(EventId::from_parts(T, 2));
        assert_eq!(
            all.pending(&[], "channel/general", root, T + EXPIRES_MS)
                .len(),
            1
        );
        assert!(
            all.pending(&[], "channel/general", None, T).is_empty(),
            "in its thread only"
        );
        assert!(
            all.pending(&[], "channel/general", root, T + EXPIRES_MS + 1)
                .is_empty()
        );
        assert!(!all.working_in("channel/general", T + EXPIRES_MS + 1));
        // A follow-up keeps it alive.
        all.apply(
            activity(
                json!({"state": "calling_tool", "message": m, "thread": thread, "tool": "t"}),
                T + 100_000,
            )
            .unwrap(),
            T + 100_000,
        );
        assert_eq!(
            all.pending(&[], "channel/general", root, T + EXPIRES_MS + 1)
                .len(),
            1
        );
    }
}
