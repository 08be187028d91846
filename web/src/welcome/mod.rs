//! The step after creating a network: invite people. The new network's
//! workspace opens on it:
//! an invitation link for anyone, reusable, with the expiry and the number
//! of people it admits that the creator picks (`workspace.invitation.created`
//! with `ttl_ms` and `max_uses`), and single-use invitations for named
//! addresses. [`Welcome`] holds the step's state and sees the network's
//! answers; [`view`] draws it. The bar marks a network it created
//! (`crate::networks::created_key`).

pub mod view;

use crate::session::Session;
use crate::storage;
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::{Address, EventId};
use leptos::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// How long a link may work: `(label, ms)`, the default first.
pub const EXPIRIES: [(&str, u64); 4] = [
    ("7 days", 7 * DAY),
    ("1 day", DAY),
    ("30 days", 30 * DAY),
    ("1 hour", 3_600_000),
];
/// How many people a link may admit, the default first.
pub const USES: [u32; 5] = [25, 1, 5, 100, 1_000];
const DAY: u64 = 24 * 3_600_000;

/// The key that marks `network` as just created here.
fn key(network: &str) -> String {
    crate::networks::created_key(network)
}

/// The request for a link: `ttl_ms` and `max_uses` (for anyone), or one
/// `invitee`'s single use.
pub fn request(ttl_ms: u64, max_uses: u32, invitee: Option<&str>) -> Value {
    match invitee {
        Some(who) => json!({ "invitee": who.trim(), "ttl_ms": ttl_ms }),
        None => json!({ "ttl_ms": ttl_ms, "max_uses": max_uses }),
    }
}

/// An invitation made in the step: its link, whom it is for, what it allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Made {
    /// The link that opens the invitation page.
    pub link: String,
    /// The one address it is for, or `None`: anyone.
    pub invitee: Option<String>,
    /// When it stops working (unix ms).
    pub expires_at: u64,
    /// How many people it admits.
    pub max_uses: u64,
}

/// The step's state, from context.
#[derive(Clone, Copy)]
pub struct Welcome {
    session: Session,
    /// The step shows.
    pub open: RwSignal<bool>,
    /// The invitations made here, newest last.
    pub made: RwSignal<Vec<Made>>,
    /// Why the network refused the last one.
    pub problem: RwSignal<Option<String>>,
    /// Requests in flight: whom each is for.
    sent: StoredValue<BTreeMap<EventId, Option<String>>>,
}

impl Welcome {
    /// The step of `session`'s network (open when it was just created here).
    pub fn provide(session: Session) -> Self {
        let network = session.network_name();
        let welcome = Self {
            session,
            open: RwSignal::new(storage::recall(&key(&network)).as_deref() == Some("1")),
            made: RwSignal::new(Vec::new()),
            problem: RwSignal::new(None),
            sent: StoredValue::new(BTreeMap::new()),
        };
        provide_context(welcome);
        welcome
    }

    /// The step of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// Asks the network for an invitation (see [`request`]).
    pub fn invite(&self, ttl_ms: u64, max_uses: u32, invitee: Option<String>) {
        let payload = request(ttl_ms, max_uses, invitee.as_deref());
        match self.session.post(
            agentnet_core::vocabulary::event_types::INVITATION_CREATED,
            Address::core(),
            payload,
        ) {
            Some(id) => self.sent.update_value(|s| {
                s.insert(id, invitee);
            }),
            None => self.problem.set(Some(
                "The workspace is still opening: try again in a moment.".into(),
            )),
        }
    }

    /// Done: the step closes for good.
    pub fn close(&self) {
        storage::keep(&key(&self.session.network_name()), "");
        self.open.set(false);
    }

    /// The network's answers to the step's requests.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        match effect {
            ReplicaEffect::Accepted { id, ack, .. } => {
                let Some(invitee) = self.sent.try_update_value(|s| s.remove(id)).flatten() else {
                    return;
                };
                let Some(code) = ack.get("code").and_then(Value::as_str) else {
                    return;
                };
                let origin = window().location().origin().unwrap_or_default();
                let network = self.session.network_name();
                self.problem.set(None);
                self.made.update(|m| {
                    m.push(Made {
                        link: crate::invite::invitation_link(&origin, &network, code),
                        invitee,
                        expires_at: ack.get("expires_at").and_then(Value::as_u64).unwrap_or(0),
                        max_uses: ack.get("max_uses").and_then(Value::as_u64).unwrap_or(1),
                    });
                });
            }
            ReplicaEffect::Rejected { id, rejection }
                if self
                    .sent
                    .try_update_value(|s| s.remove(id))
                    .flatten()
                    .is_some() =>
            {
                self.problem
                    .set(Some(format!("Not invited: {}", rejection.message)));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_for_anyone_carries_its_limits_and_one_for_a_person_is_theirs() {
        assert_eq!(
            request(DAY, 25, None),
            json!({"ttl_ms": 86_400_000u64, "max_uses": 25})
        );
        assert_eq!(
            request(DAY, 25, Some(" human:ann ")),
            json!({"invitee": "human:ann", "ttl_ms": 86_400_000u64})
        );
        assert_eq!(
            EXPIRIES[0].1,
            7 * DAY,
            "a week unless the creator picks otherwise"
        );
        assert!(USES.iter().all(|n| (1..=10_000).contains(n)));
    }
}
