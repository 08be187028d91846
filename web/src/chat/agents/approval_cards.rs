//! The approval requests the page has seen, as data: each request
//! (`workspace.approval.requested`, core's
//! [`agentnet_core::vocabulary::approvals`]) with what was decided of
//! it (`workspace.approval.decided`), who decides it and its outcome in
//! words. [`crate::chat::agents::approvals`] shows them.

use crate::chat::conversations::conversation_of;
use agentnet_core::vocabulary::approvals::{
    ActionKind, ApprovalAction, ApprovalDecision, ApprovalRequest, Decision,
};
use agentnet_core::vocabulary::event_types::{
    APPROVAL_DECIDED as DECIDED, APPROVAL_REQUESTED as REQUESTED,
};
use agentnet_core::{Event, EventId};
use serde_json::Value;
use std::collections::BTreeMap;

/// One request as the page knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Card {
    /// The request's id.
    pub id: EventId,
    /// The agent asking.
    pub requester: String,
    /// Where it went.
    pub target: String,
    /// The conversation it shows in, for this person.
    pub conversation: String,
    /// Who decides (none: the person it went to, or a channel's masters).
    pub approvers: Vec<String>,
    /// The step.
    pub action: ApprovalAction,
    /// When it expires, unix ms.
    pub expires_at: u64,
    /// What was decided, and by whom.
    pub decided: Option<(ApprovalDecision, String)>,
}

/// The requests seen, by id.
pub type Cards = BTreeMap<EventId, Card>;

/// Takes an approval event into `cards`; false for any other event.
pub fn take(cards: &mut Cards, event: &Event, me: &str) -> bool {
    match event.event_type.as_str() {
        REQUESTED => {
            if let Ok(request) = serde_json::from_value::<ApprovalRequest>(event.payload.clone()) {
                let (source, target) = (event.source.to_string(), event.target.to_string());
                cards.entry(event.id).or_insert(Card {
                    id: event.id,
                    conversation: conversation_of(&target, &source, me),
                    requester: source,
                    target,
                    approvers: request.approvers.iter().map(ToString::to_string).collect(),
                    action: request.action,
                    expires_at: request.expires_at.as_millis(),
                    decided: None,
                });
            }
            true
        }
        DECIDED => {
            if let Ok(decision) = serde_json::from_value::<ApprovalDecision>(event.payload.clone())
                && let Some(card) = cards.get_mut(&decision.approval)
            {
                card.decided = Some((decision, event.source.to_string()));
            }
            true
        }
        _ => false,
    }
}

impl Card {
    /// Whether `me` decides it: named, or the person it went to; a channel's
    /// card naming nobody is for its masters, whom the network checks.
    pub fn mine_to_decide(&self, me: &str) -> bool {
        if self.approvers.is_empty() {
            self.target == me
                || self.target.starts_with("channel/")
                || self.target == "agent:broadcast"
        } else {
            self.approvers.iter().any(|a| a == me)
        }
    }

    /// What came of it at `now`, in words (people named by `name`); `None` while it waits.
    pub fn outcome(&self, now: u64, name: impl Fn(&str) -> String) -> Option<String> {
        match &self.decided {
            Some((d, by)) => {
                let by = name(by);
                Some(match d.decision {
                    Decision::Approved if d.edited.is_some() => {
                        format!("Approved with changes by {by}")
                    }
                    Decision::Approved => format!("Approved by {by}"),
                    Decision::Denied => match &d.reason {
                        Some(why) => format!("Denied by {by}: {why}"),
                        None => format!("Denied by {by}"),
                    },
                    Decision::Expired => "Expired: nobody decided in time".to_owned(),
                })
            }
            None if now >= self.expires_at => Some("Expired: nobody decided in time".to_owned()),
            None => None,
        }
    }

    /// The detail as people read and edit it: text as is, arguments as pretty JSON.
    pub fn detail_text(&self) -> String {
        match &self.action.detail {
            Value::String(text) => text.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        }
    }
}

/// Reads an edited detail back in the step's shape: arguments must be a JSON object.
pub fn edited_detail(kind: ActionKind, text: &str) -> Result<Value, String> {
    match kind {
        ActionKind::ToolCall => match serde_json::from_str::<Value>(text) {
            Ok(value @ Value::Object(_)) => Ok(value),
            _ => Err(
                "The arguments must be a JSON object, like {\"to\": \"ann@example.com\"}.".into(),
            ),
        },
        _ if text.trim().is_empty() => Err("The text must not be empty.".into()),
        _ => Ok(Value::String(text.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(kind: &str, source: &str, target: &str, payload: Value, n: u128) -> Event {
        serde_json::from_value(json!({"id": EventId::from_parts(1, n), "type": kind,
            "source": source, "target": target, "payload": payload, "timestamp": 1}))
        .unwrap()
    }

    #[test]
    fn a_request_becomes_a_card_and_its_decision_its_outcome() {
        let mut cards = Cards::new();
        let asked = json!({"action": {"kind": "tool_call", "subject": "send_offer",
            "summary": "Call send_offer", "detail": {"to": "ann@example.com"}}, "expires_at": 100});
        let request = event(REQUESTED, "agent:helper", "human:ann", asked, 1);
        assert!(take(&mut cards, &request, "human:ann"));
        let card = &cards[&request.id];
        assert_eq!(
            card.conversation, "agent:helper",
            "a direct card shows with the agent"
        );
        assert!(card.mine_to_decide("human:ann") && !card.mine_to_decide("human:bob"));
        assert_eq!(card.outcome(99, str::to_owned), None);
        assert_eq!(
            card.outcome(100, str::to_owned).as_deref(),
            Some("Expired: nobody decided in time")
        );
        assert!(card.detail_text().contains("\"to\": \"ann@example.com\""));

        let decided = json!({"approval": request.id, "decision": "denied", "reason": "not now"});
        assert!(take(
            &mut cards,
            &event(DECIDED, "human:ann", "agent:helper", decided, 2),
            "human:ann"
        ));
        assert_eq!(
            cards[&request.id].outcome(1, str::to_owned).as_deref(),
            Some("Denied by human:ann: not now")
        );
        assert!(!take(
            &mut cards,
            &event(
                "workspace.message.posted",
                "human:ann",
                "agent:helper",
                json!({}),
                3
            ),
            "human:ann"
        ));
    }

    #[test]
    fn an_edit_keeps_the_step_s_shape() {
        assert_eq!(
            edited_detail(ActionKind::ToolCall, r#"{"a": 1}"#),
            Ok(json!({"a": 1}))
        );
        assert!(edited_detail(ActionKind::ToolCall, "[1]").is_err());
        assert!(edited_detail(ActionKind::ToolCall, "nope").is_err());
        assert_eq!(edited_detail(ActionKind::Message, "hi"), Ok(json!("hi")));
        assert!(edited_detail(ActionKind::Task, "  ").is_err());
    }
}
