//! The Admin view's state: the configuration a master reads
//! (`network.admin.config`, with what the core offers it now: the status
//! changes the network's state allows and each member's actions),
//! `mod/analytics`' counts, the admin events in flight and what became of
//! them, and the invitation news the network sends.
//!
//! Whether the person is a master is the core's answer to that read, asked
//! once online: accepted, the Admin tab shows; refused, it never does.

use crate::session::Session;
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::vocabulary::event_types::{INVITATION_ACCEPTED, INVITATION_REJECTED};
use agentnet_core::{Address, EventId};
use leptos::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// How long a read of the configuration or the counts may take.
const READ_TIMEOUT_MS: u64 = 10_000;

/// What an admin event in flight was for.
#[derive(Clone, Debug)]
enum Sent {
    /// The configuration read.
    Config,
    /// A change, named for the person.
    Change(String),
}

/// The Admin view's state: cheap to copy, from context with [`Admin::get`].
#[derive(Clone, Copy)]
pub struct Admin {
    session: Session,
    /// The configuration read's ack (`{config, invitations, mods, actions,
    /// members, banned}`), or why it was refused.
    pub config: RwSignal<Option<Result<Value, String>>>,
    /// `mod/analytics`' counts, or why there are none.
    pub analytics: RwSignal<Option<Result<Value, String>>>,
    /// What became of the last change, in words.
    pub notice: RwSignal<Option<String>>,
    /// Invitation news (`workspace.invitation.*`), newest last.
    pub news: RwSignal<Vec<String>>,
    sent: StoredValue<BTreeMap<EventId, Sent>>,
    analytics_request: StoredValue<Option<EventId>>,
}

impl Admin {
    /// The Admin state of `session`'s network, provided to the components below.
    pub fn provide(session: Session) -> Self {
        let admin = Self {
            session,
            config: RwSignal::new(None),
            analytics: RwSignal::new(None),
            notice: RwSignal::new(None),
            news: RwSignal::new(Vec::new()),
            sent: StoredValue::new(BTreeMap::new()),
            analytics_request: StoredValue::new(None),
        };
        provide_context(admin);
        admin
    }

    /// The Admin state of the workspace around the calling component.
    pub fn get() -> Self {
        expect_context()
    }

    /// True when the core let the person read the configuration: a master.
    pub fn is_master(&self) -> bool {
        self.config.with(|c| matches!(c, Some(Ok(_))))
    }

    /// Reads the configuration again (and then, in the Admin pane, the counts).
    pub fn refresh(&self) {
        if let Some(id) = self
            .session
            .post("network.admin.config", Address::core(), json!({}))
        {
            self.sent.update_value(|s| {
                s.insert(id, Sent::Config);
            });
        }
    }

    /// Reads `mod/analytics`' counts (after the core let a master read the configuration).
    fn read_counts(&self) {
        let Ok(analytics) = "mod/analytics".parse::<Address>() else {
            return;
        };
        let id = self
            .session
            .request("analytics.read", analytics, json!({}), READ_TIMEOUT_MS);
        self.analytics_request.set_value(id);
    }

    /// Sends the admin event `kind` with `payload`; `label` names it in the notice.
    pub fn change(&self, kind: &'static str, payload: Value, label: &str) {
        match self.session.post(kind, Address::core(), payload) {
            Some(id) => self.sent.update_value(|s| {
                s.insert(id, Sent::Change(label.to_owned()));
            }),
            None => self
                .notice
                .set(Some("Not connected: try again once online.".into())),
        }
    }

    /// True when the Admin pane is the one open.
    fn shown(&self) -> bool {
        self.session
            .place
            .with_untracked(|p| *p == crate::routes::Place::Admin)
    }

    fn take(&self, id: &EventId) -> Option<Sent> {
        let mut found = None;
        self.sent.update_value(|s| found = s.remove(id));
        found
    }

    /// What the replica reports that concerns the Admin view.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        match effect {
            // Online with the Admin pane open: read the configuration (the core
            // decides whether the person may). Elsewhere nothing is asked, so a
            // reload queues nothing: the roster says who is a master.
            ReplicaEffect::Online if self.shown() => self.refresh(),
            ReplicaEffect::Accepted { id, ack, .. } => match self.take(id) {
                Some(Sent::Config) => {
                    self.config.set(Some(Ok(ack.clone())));
                    if self.shown() {
                        self.read_counts();
                    }
                }
                Some(Sent::Change(label)) => {
                    let mut notice = done_notice(&label, ack);
                    if let Some(code) = ack.get("code").and_then(Value::as_str) {
                        // The link that opens the invitation page (Accept or Decline).
                        let origin = window().location().origin().unwrap_or_default();
                        let network = self.session.network_name();
                        let link = crate::invite::invitation_link(&origin, &network, code);
                        notice.push_str(&format!(" · link: {link}"));
                    }
                    self.notice.set(Some(notice));
                    if ack.get("status").and_then(Value::as_str) == Some("archived") {
                        // Everyone's session ends now, this page's too: show the final state
                        // from the answer, as nothing can be read again.
                        self.config.update(|c| {
                            if let Some(Ok(offer)) = c {
                                archived(offer);
                            }
                        });
                    } else {
                        self.refresh();
                    }
                }
                None => {}
            },
            ReplicaEffect::Rejected { id, rejection } => match self.take(id) {
                Some(Sent::Config) => self.config.set(Some(Err(rejection.message.clone()))),
                Some(Sent::Change(label)) => self.notice.set(Some(format!(
                    "{label}: refused ({}: {}).",
                    rejection.code, rejection.message
                ))),
                None => {}
            },
            ReplicaEffect::Replied { request, reply }
                if self.analytics_request.get_value() == Some(*request) =>
            {
                self.analytics.set(Some(Ok(reply.payload.clone())));
            }
            ReplicaEffect::RequestFailed { request, rejection }
                if self.analytics_request.get_value() == Some(*request) =>
            {
                self.analytics.set(Some(Err(rejection.message.clone())));
            }
            // Invitation news is the network's: believed only from core.
            ReplicaEffect::Received(event)
                if event
                    .event_type
                    .as_str()
                    .starts_with("workspace.invitation.")
                    && event.source == agentnet_core::Address::core() =>
            {
                self.news.update(|n| n.push(invitation_news(event)));
                self.refresh();
            }
            // Someone came or went while a master looks at the members: read them again.
            ReplicaEffect::Received(event)
                if event.event_type.as_str()
                    == agentnet_core::vocabulary::event_types::PRESENCE_CHANGED
                    && self.shown()
                    && self.config.with_untracked(|c| matches!(c, Some(Ok(_)))) =>
            {
                self.refresh();
            }
            _ => {}
        }
    }
}

/// The actions an offer (`{actions: [event type, …]}`) holds.
pub fn offered(offer: &Value) -> Vec<String> {
    offer
        .get("actions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|a| a.as_str().map(str::to_owned))
        .collect()
}

/// A member action: its event type, its button's label and the notice's
/// name for it; `None` for an action this page does not know (no button).
pub fn member_action_label(kind: &str) -> Option<(&'static str, &'static str, &'static str)> {
    use agentnet_core::network::admin_types as t;
    match kind {
        t::MEMBER_REMOVE => Some((t::MEMBER_REMOVE, "Remove", "Remove a member")),
        t::MEMBER_BAN => Some((t::MEMBER_BAN, "Ban", "Ban a member")),
        t::MEMBER_UNBAN => Some((t::MEMBER_UNBAN, "Unban", "Lift a ban")),
        _ => None,
    }
}

/// What a change's ack tells the person: a new token or invitation code is shown once.
pub fn done_notice(label: &str, ack: &Value) -> String {
    if let Some(token) = ack.get("token").and_then(Value::as_str) {
        return format!("{label}: done. The new token (shown once): {token}");
    }
    if let Some(code) = ack.get("code").and_then(Value::as_str) {
        return format!("{label}: done. Invitation code: {code}");
    }
    if ack.get("status").and_then(Value::as_str) == Some("archived") {
        return format!(
            "{label}: done. Everyone's session has ended, yours too; the network stays as history."
        );
    }
    format!("{label}: done.")
}

/// The offer as it stands once the network is archived: status `archived`,
/// no action left, nobody online (every member's session ended).
pub fn archived(offer: &mut Value) {
    offer["config"]["status"] = json!("archived");
    offer["actions"] = json!([]);
    for list in ["members", "banned"] {
        if let Some(rows) = offer.get_mut(list).and_then(Value::as_array_mut) {
            for row in rows {
                row["actions"] = json!([]);
                if list == "members" {
                    row["status"] = json!("offline");
                }
            }
        }
    }
}

/// A line about an invitation event.
pub fn invitation_news(event: &agentnet_core::Event) -> String {
    let invitee = event
        .payload
        .get("invitee")
        .and_then(Value::as_str)
        .unwrap_or("someone");
    let invitee = crate::bidi::isolate(invitee);
    match event.event_type.as_str() {
        INVITATION_ACCEPTED => format!("{invitee} accepted your invitation."),
        INVITATION_REJECTED => format!("{invitee} declined your invitation."),
        other => format!("{other} about {invitee}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_are_read_as_event_types_and_only_known_member_actions_get_buttons() {
        let member = json!({"address": "agent:a", "actions": ["network.admin.member.remove", 3]});
        assert_eq!(offered(&member), ["network.admin.member.remove"]);
        assert!(offered(&json!({})).is_empty());
        assert_eq!(
            member_action_label("network.admin.member.ban").map(|l| l.1),
            Some("Ban")
        );
        assert_eq!(member_action_label("network.admin.member.promote"), None);
    }

    #[test]
    fn a_new_token_or_code_is_shown_in_the_notice() {
        assert_eq!(
            done_notice("Rotate the admin token", &json!({"token": "abc"})),
            "Rotate the admin token: done. The new token (shown once): abc"
        );
        assert!(done_notice("Invite", &json!({"code": "c0de"})).ends_with("Invitation code: c0de"));
        assert_eq!(
            done_notice("Pause", &json!({"status": "paused"})),
            "Pause: done."
        );
    }

    #[test]
    fn an_archived_offer_offers_nothing_and_shows_nobody_online() {
        let mut offer = json!({"config": {"status": "active"}, "actions": ["network.admin.pause"],
            "members": [{"address": "agent:a", "status": "online", "actions": ["network.admin.member.ban"]}],
            "banned": [{"address": "agent:b", "actions": ["network.admin.member.unban"]}]});
        archived(&mut offer);
        assert_eq!(offer["config"]["status"], "archived");
        assert_eq!(offer["actions"], json!([]));
        assert_eq!(offer["members"][0]["status"], "offline");
        assert_eq!(offer["members"][0]["actions"], json!([]));
        assert_eq!(offer["banned"][0]["actions"], json!([]));
        assert!(
            done_notice("Archive", &json!({"status": "archived"})).contains("session has ended")
        );
    }
}
