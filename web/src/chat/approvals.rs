//! Approval cards: an agent asks a person before a step
//! (`workspace.approval.requested`, core's
//! [`agentnet_core::mods::workspace::approvals`]); the card shows in the
//! conversation it was sent to — what will happen, on what, the detail —
//! with Approve, Deny and Edit for those who decide, and then what was
//! decided (`workspace.approval.decided`), or that it expired. The network
//! checks who may decide; a refusal shows in the banner like any other.

use super::conversations::conversation_of;
use super::state::Chat;
use super::time::Clock;
use agentnet_core::mods::workspace::approvals::{
    ActionKind, ApprovalAction, ApprovalDecision, ApprovalRequest, DECIDED, Decision, REQUESTED,
};
use agentnet_core::{Address, Event, EventId};
use leptos::prelude::*;
use serde_json::{Value, json};
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
                    expires_at: request.expires_at,
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

    /// What came of it at `now`, in words; `None` while it waits.
    pub fn outcome(&self, now: u64) -> Option<String> {
        match &self.decided {
            Some((d, by)) => Some(match d.decision {
                Decision::Approved if d.edited.is_some() => {
                    format!("Approved with changes by {by}")
                }
                Decision::Approved => format!("Approved by {by}"),
                Decision::Denied => match &d.reason {
                    Some(why) => format!("Denied by {by}: {why}"),
                    None => format!("Denied by {by}"),
                },
                Decision::Expired => "Expired: nobody decided in time".to_owned(),
            }),
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

impl Chat {
    /// Takes an approval event; false for any other event.
    pub(super) fn take_approval(&self, event: &Event) -> bool {
        let me = self.session.me_text();
        let mut taken = false;
        self.approvals
            .update(|cards| taken = take(cards, event, &me));
        taken
    }

    /// Decides the card `id` as this person.
    fn decide(&self, card: &Card, decision: Decision, edited: Option<Value>) {
        let me = self.session.me_text();
        let direct = !(card.target.starts_with("channel/") || card.target == "agent:broadcast");
        let back = if direct && card.requester != me {
            &card.requester
        } else {
            &card.target
        };
        let Ok(to) = back.parse::<Address>() else {
            return;
        };
        let mut payload = json!({"approval": card.id.to_string(), "decision": decision});
        if let Some(edited) = &edited {
            payload["edited"] = edited.clone();
        }
        if self.session.post(DECIDED, to, payload).is_none() {
            return self.session.report("Not decided: not connected.");
        }
        // The network does not send a member its own events back: the card
        // shows the decision at once (a refusal shows in the banner).
        let decided = ApprovalDecision {
            approval: card.id,
            decision,
            edited,
            reason: None,
        };
        self.approvals.update(|cards| {
            if let Some(card) = cards.get_mut(&decided.approval) {
                card.decided = Some((decided, me));
            }
        });
    }
}

/// The approval cards of the open conversation, after its messages.
#[component]
pub fn ApprovalCards() -> impl IntoView {
    let chat = Chat::get();
    let cards = Memo::new(move |_| {
        let open = chat.current.get();
        chat.approvals.with(|c| {
            c.values()
                .filter(|c| c.conversation == open)
                .map(|c| c.id)
                .collect::<Vec<_>>()
        })
    });
    view! {
        <For each=move || cards.get() key=|id| *id let:id>
            <ApprovalCard id />
        </For>
    }
}

/// One request, with its controls while it waits.
#[component]
fn ApprovalCard(id: EventId) -> impl IntoView {
    let chat = Chat::get();
    let me = chat.session.me_text();
    let card = Memo::new(move |_| chat.approvals.with(|c| c.get(&id).cloned()));
    let editing = RwSignal::new(None::<String>);
    let problem = RwSignal::new(None::<String>);
    let outcome = move || card.with(|c| c.as_ref().and_then(|c| c.outcome(chat.clock.now.get())));
    let field =
        move |f: fn(&Card) -> String| move || card.with(|c| c.as_ref().map(f).unwrap_or_default());
    let may = {
        let me = me.clone();
        move || {
            card.with(|c| c.as_ref().is_some_and(|c| c.mine_to_decide(&me))) && outcome().is_none()
        }
    };
    let act = move |decision: Decision| {
        let Some(card) = card.get_untracked() else {
            return;
        };
        let edited = match editing.get_untracked() {
            Some(text) if decision == Decision::Approved => {
                match edited_detail(card.action.kind, &text) {
                    Ok(value) => Some(value),
                    Err(why) => return problem.set(Some(why)),
                }
            }
            _ => None,
        };
        problem.set(None);
        editing.set(None);
        chat.decide(&card, decision, edited);
    };
    view! {
        <li class="approval-card" data-approval=id.to_string() class:decided=move || outcome().is_some()>
            <p class="meta">
                <span class="source">{field(|c| c.requester.clone())}</span>
                <span class="approval-label">"asks for approval"</span>
            </p>
            <p class="approval-summary">{field(|c| c.action.summary.clone())}</p>
            <p class="approval-subject">{field(|c| format!("On {}", c.action.subject))}</p>
            <Show when=move || editing.with(Option::is_none) fallback=move || view! {
                <label class="approval-edit">
                    <span>"Edit before approving"</span>
                    <textarea rows="4" prop:value=move || editing.get().unwrap_or_default()
                        on:input=move |ev| editing.set(Some(event_target_value(&ev)))></textarea>
                </label>
            }>
                <pre class="approval-detail">{field(Card::detail_text)}</pre>
            </Show>
            {move || problem.get().map(|p| view! { <p class="approval-problem" role="alert">{p}</p> })}
            {move || match outcome() {
                Some(said) => view! { <p class="approval-outcome" role="status">{said}</p> }.into_any(),
                None => view! {
                    <p class="approval-expiry">{move || card.with(|c| c.as_ref().map(|c| format!(
                        "Waiting for {} · expires {}",
                        if c.approvers.is_empty() { "a decision".to_owned() } else { c.approvers.join(", ") },
                        Clock::clock_time(c.expires_at))).unwrap_or_default())}</p>
                }.into_any(),
            }}
            <Show when=may.clone()>
                <div class="approval-actions">
                    <button type="button" class="primary" on:click=move |_| act(Decision::Approved)>
                        {move || if editing.with(Option::is_some) { "Approve edited" } else { "Approve" }}
                    </button>
                    <button type="button" on:click=move |_| act(Decision::Denied)>"Deny"</button>
                    <Show when=move || editing.with(Option::is_none)>
                        <button type="button" on:click=move |_| {
                            let text = card.with_untracked(|c| c.as_ref().map(Card::detail_text));
                            editing.set(text);
                        }>"Edit"</button>
                    </Show>
                </div>
            </Show>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(card.outcome(99), None);
        assert_eq!(
            card.outcome(100).as_deref(),
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
            cards[&request.id].outcome(1).as_deref(),
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
