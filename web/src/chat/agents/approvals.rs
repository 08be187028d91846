//! Approval cards: an agent asks a person before a step
//! (`workspace.approval.requested`, core's
//! [`agentnet_core::vocabulary::approvals`]); the card shows in the
//! conversation it was sent to — what will happen, on what, the detail —
//! with Approve, Deny and Edit for those who decide, and then what was
//! decided (`workspace.approval.decided`), or that it expired. The network
//! checks who may decide; a refusal shows in the banner like any other.
//!
//! The cards are a part ([`approval_cards`]), loaded the first time a
//! conversation holds one: most conversations never do. What an approval
//! event changes ([`Chat::take_approval`]) stays on the first page, so the
//! cards that arrived earlier are there when the part opens.

use crate::chat::agents::approval_cards::{Card, edited_detail, take};
use crate::chat::list::time::Clock;
use crate::chat::state::Chat;
use crate::lazy::split_views;
use crate::people::person::Members;
use agentnet_core::mods::workspace::approvals::decision_target;
use agentnet_core::vocabulary::approvals::{ApprovalDecision, Decision};
use agentnet_core::vocabulary::event_types::APPROVAL_DECIDED as DECIDED;
use agentnet_core::{Address, Event, EventId};
use leptos::prelude::*;
use serde_json::{Value, json};

impl Chat {
    /// Takes an approval event; false for any other event.
    pub(crate) fn take_approval(&self, event: &Event) -> bool {
        let me = self.session.me_text();
        let mut taken = false;
        self.approvals
            .update(|cards| taken = take(cards, event, &me));
        taken
    }

    /// True when `conversation` holds an approval card.
    pub fn has_approvals(&self, conversation: &str) -> bool {
        self.approvals
            .with(|c| c.values().any(|c| c.conversation == conversation))
    }

    /// Decides the card `id` as this person.
    fn decide(&self, card: &Card, decision: Decision, edited: Option<Value>) {
        let me = self.session.me_text();
        let (Ok(requester), Ok(place), Ok(decider)) = (
            card.requester.parse::<Address>(),
            card.target.parse::<Address>(),
            me.parse::<Address>(),
        ) else {
            return;
        };
        let to = decision_target(&requester, &place, &decider).clone();
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

split_views! {
    /// The approval cards of the open conversation, as a part.
    approval_cards in approval_cards_chunk => view! { <ApprovalCards /> };
}

/// The approval cards of the open conversation, after its messages.
#[component]
fn ApprovalCards() -> impl IntoView {
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
        <ul class="approval-cards">
            <For each=move || cards.get() key=|id| *id let:id>
                <ApprovalCard id />
            </For>
        </ul>
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
    let outcome = move || {
        card.with(|c| {
            c.as_ref()
                .and_then(|c| c.outcome(chat.clock.now.get(), Members::name_of))
        })
    };
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
                <span class="source">{field(|c| Members::name_of(&c.requester))}</span>
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
                        if c.approvers.is_empty() { "a decision".to_owned() }
                        else { c.approvers.iter().map(|a| Members::name_of(a)).collect::<Vec<_>>().join(", ") },
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
