//! Approvals: a person in the loop of an agent's step.
//!
//! * `workspace.approval.requested` ([`ApprovalRequest`]): an agent asks
//!   before a step — a tool call with its arguments, a task to another
//!   agent, a message to a channel. It goes to the conversation where the
//!   card shows: a channel (the people it names decide, or the network's
//!   masters when it names none) or one person directly (that person
//!   decides). It expires at `expires_at`, at most [`MAX_WAIT_MS`] away.
//! * `workspace.approval.decided` ([`ApprovalDecision`]): `approved` (with
//!   `edited`, the step's detail as the approver changed it), `denied`, or
//!   `expired`. It goes where the request went — back to the requester from
//!   the person of a direct one. Only an approver decides, once, before the request expires;
//!   only the requester says `expired`, once it has.
//!
//! The network checks these rules ([`Approvals::check_requested`],
//! [`Approvals::check_decided`]) and remembers the open requests with the
//! mod's state; the payloads are public types the hosts use.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::standing::Role;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::mods::api::Context;
use crate::vocabulary::approvals::{ActionKind, ApprovalDecision, ApprovalRequest, Decision};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The most people one request names.
pub const MAX_APPROVERS: usize = 20;
/// The longest an approval may wait: a week.
pub const MAX_WAIT_MS: u64 = 7 * 24 * 3600 * 1000;
/// The longest summary, in characters.
pub const MAX_SUMMARY: usize = 500;
/// The most requests the network remembers (the oldest are forgotten).
pub const MAX_REMEMBERED: usize = 10_000;

/// A request the network remembers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OpenApproval {
    /// Who asked.
    pub requester: Address,
    /// Where the request went.
    pub place: Address,
    /// Who decides (empty: the network's masters).
    pub approvers: Vec<Address>,
    /// What kind of step (an edit keeps its shape).
    pub kind: ActionKind,
    /// When it expires.
    pub expires_at: Timestamp,
    /// Its decision, once made.
    pub decided: Option<Decision>,
}

/// The requests the network remembers, by id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Approvals {
    /// By the request's event id (oldest first: ids are ULIDs).
    pub by_id: BTreeMap<EventId, OpenApproval>,
}

fn invalid(message: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::InvalidRequest, message)
}

fn payload<T: for<'de> Deserialize<'de>>(event: &Event, shape: &str) -> Result<T, Rejection> {
    serde_json::from_value(event.payload.clone())
        .map_err(|e| invalid(format!("{} is {shape}: {e}", event.event_type)))
}

impl Approvals {
    /// Checks a request; answers what the network remembers of it.
    pub fn check_requested(
        &self,
        cx: &Context<'_>,
        event: &Event,
    ) -> Result<OpenApproval, Rejection> {
        let request: ApprovalRequest = payload(
            event,
            "{approvers?, action: {kind, subject, summary, detail}, expires_at}",
        )?;
        let summary = request.action.summary.trim();
        if summary.is_empty() || summary.chars().count() > MAX_SUMMARY {
            return Err(invalid(format!(
                "action.summary says what will happen in 1 to {MAX_SUMMARY} characters"
            )));
        }
        check_detail(request.action.kind, &request.action.detail)?;
        let now = cx.now;
        if request.expires_at <= now || request.expires_at > now.plus_millis(MAX_WAIT_MS) {
            return Err(invalid(
                "expires_at is a time (unix ms) within the next 7 days",
            ));
        }
        if request.approvers.len() > MAX_APPROVERS {
            return Err(invalid(format!("at most {MAX_APPROVERS} approvers")));
        }
        if let Some(bad) = request
            .approvers
            .iter()
            .find(|a| !a.is_local() || !a.entity().is_participant() || *a == &event.source)
        {
            return Err(invalid(format!(
                "{bad} cannot approve: approvers are other members of this network"
            )));
        }
        let place = &event.target;
        let mut approvers = request.approvers;
        if place.entity().is_participant() {
            if approvers.iter().any(|a| a != place) {
                return Err(invalid(
                    "a request sent to one person is decided by that person: send it to a channel to name others",
                ));
            }
            approvers = vec![place.clone()];
        }
        Ok(OpenApproval {
            requester: event.source.clone(),
            place: place.clone(),
            approvers,
            kind: request.action.kind,
            expires_at: request.expires_at,
            decided: None,
        })
    }

    /// Checks a decision: by one who may make it, in time, once, where the request went.
    pub fn check_decided(
        &self,
        cx: &Context<'_>,
        event: &Event,
    ) -> Result<ApprovalDecision, Rejection> {
        let decision: ApprovalDecision = payload(
            event,
            "{approval, decision: approved|denied|expired, edited?, reason?}",
        )?;
        let open = self.by_id.get(&decision.approval).ok_or_else(|| {
            Rejection::new(
                ErrorCode::NotFound,
                format!("no approval request {} in this network", decision.approval),
            )
        })?;
        if let Some(done) = open.decided {
            return Err(Rejection::new(
                ErrorCode::AlreadyExists,
                format!(
                    "approval {} was decided already: {done:?}",
                    decision.approval
                )
                .to_lowercase(),
            ));
        }
        let who = &event.source;
        if decision.decision == Decision::Expired {
            if who != &open.requester || cx.now < open.expires_at {
                return Err(Rejection::new(
                    ErrorCode::Forbidden,
                    "only the requester says a request expired, once it has",
                ));
            }
        } else {
            let may = if open.approvers.is_empty() {
                cx.state.role_of(who) == Some(Role::Master)
            } else {
                open.approvers.contains(who)
            };
            if !may {
                return Err(Rejection::new(
                    ErrorCode::Forbidden,
                    format!("{who} is not among the approvers of {}", decision.approval),
                ));
            }
            if cx.now >= open.expires_at {
                return Err(Rejection::new(
                    ErrorCode::Timeout,
                    format!(
                        "approval {} expired: it can no longer be decided",
                        decision.approval
                    ),
                ));
            }
        }
        match (&decision.edited, decision.decision) {
            (Some(_), Decision::Denied | Decision::Expired) => {
                return Err(invalid("only an approval carries an edited step"));
            }
            (Some(edited), Decision::Approved) => check_detail(open.kind, edited)?,
            _ => {}
        }
        let back = decision_target(&open.requester, &open.place, who);
        if event.target != *back {
            return Err(invalid(format!(
                "a decision goes where the request went: {back}"
            )));
        }
        Ok(decision)
    }

    /// Remembers an accepted request.
    pub fn open(&mut self, id: EventId, open: OpenApproval) {
        self.by_id.insert(id, open);
        while self.by_id.len() > MAX_REMEMBERED {
            self.by_id.pop_first();
        }
    }

    /// Records an accepted decision.
    pub fn decide(&mut self, decision: &ApprovalDecision) {
        if let Some(open) = self.by_id.get_mut(&decision.approval) {
            open.decided = Some(decision.decision);
        }
    }
}

/// Where `decider`'s decision on a request that `requester` sent to `place`
/// goes: back to the requester from the person of a direct request; else
/// where the request went (the requester's expiry, too, tells that person).
pub fn decision_target<'a>(
    requester: &'a Address,
    place: &'a Address,
    decider: &Address,
) -> &'a Address {
    if place.entity().is_participant() && decider != requester {
        requester
    } else {
        place
    }
}

/// A step's detail has its kind's shape: arguments are an object, text is text.
fn check_detail(kind: ActionKind, detail: &Value) -> Result<(), Rejection> {
    match (kind, detail) {
        (ActionKind::ToolCall, Value::Object(_)) => Ok(()),
        (ActionKind::Task | ActionKind::Message, Value::String(text))
            if !text.trim().is_empty() =>
        {
            Ok(())
        }
        (ActionKind::ToolCall, _) => {
            Err(invalid("a tool call's detail is its arguments, an object"))
        }
        _ => Err(invalid("a task's or message's detail is its text")),
    }
}
