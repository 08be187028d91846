//! `mod/workspace`: the Workspace features of ONM §12 (a transform,
//! priority 50, that also checks what it intercepts among the guards and
//! records it among the observers, once the network accepted it).
//!
//! * Sessions ([`sessions`]): `workspace.session.created` (payload.session
//!   or the event id) creates `channel/session-{id}` with the creator (and
//!   the session's master) as members, and writes `session`, `channel`,
//!   `status` and `master` into the payload; `workspace.session.updated`
//!   `{session, title?, status?, master?}` changes it. Session records are
//!   saved with the mod's state.
//! * The master as first responder and delegation ([`threads`]).
//! * Editing and deleting a message, as `workspace.message.edited` and
//!   `workspace.message.deleted` events ([`edits`]: only the author edits;
//!   the author or a master deletes), and reactions, as
//!   `workspace.reaction.added` and `.removed` events ([`reactions`]: to a
//!   message the network keeps, where its conversation is). The network
//!   checks both itself, whatever mods are loaded
//!   ([`crate::network::messages::changes`]).
//! * Files attached to a message (`payload.attachments`, see
//!   [`crate::model::attachment`]) are checked: a list of at most ten
//!   `{resource, name, mime, size}` under `resource/file/attachments/`.
//! * Agents talking among themselves without a person are stopped after
//!   [`agent_runs::MAX_AGENT_RUN`] messages in a row in one conversation
//!   ([`agent_runs`]).
//! * Approvals ([`approvals`]): `workspace.approval.requested` and
//!   `.decided`, a person deciding an agent's step before it is taken.
//! * Joins, leaves and disconnects emit `workspace.presence.changed`
//!   (`{address, status}`) to `agent:broadcast`, so every workspace shows
//!   who is online; a member's new profile (its display name, picture…)
//!   emits `workspace.member.updated` (`{address, profile}`) there, so every
//!   workspace shows the new name.

pub mod agent_runs;
pub mod approvals;
pub mod edits;
pub mod reactions;
pub mod sessions;
pub mod threads;

use super::api::{Command, Context, Mod, ModMode, ModSpec, Outbox};
use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::core_types;
use crate::ids::ulid::EventId;
use crate::model::config::WorkspaceSettings;
use crate::model::membership::Presence;
use crate::model::payloads::Payload;
use crate::model::requests::field::{AsSent, read};
use crate::model::requests::sessions::SessionRequest;
use crate::vocabulary::event_types::{
    APPROVAL_DECIDED, APPROVAL_REQUESTED, MESSAGE_DELEGATED, MESSAGE_POSTED, SESSION_CREATED,
    SESSION_UPDATED, WorkspaceEventType,
};
use crate::vocabulary::presence::{MemberUpdated, PresenceChanged};
use crate::vocabulary::sessions::{SessionCreated, SessionStatus, SessionUpdated};
use serde_json::{Value, json};
use sessions::Sessions;
use std::collections::BTreeMap;
use threads::{DELEGATION, FIRST_RESPONDER, Threads};

/// The metadata marks the network asserts (who answers a message first, who
/// delegated it): set by `mod/workspace` alone, removed from every event a
/// member sends whatever its type.
pub const NETWORK_MARKS: [&str; 2] = [FIRST_RESPONDER, DELEGATION];

/// Writes `news`'s fields into an event's `payload` (an object), keeping
/// whatever else the sender put there.
fn write_into(payload: &mut Value, news: &impl Payload) {
    if let (Value::Object(payload), Value::Object(news)) = (payload, news.to_json()) {
        payload.extend(news);
    }
}

/// The name its state is saved under.
const NAME: &str = "workspace";
/// Where its saved state keeps the approval requests.
const APPROVALS: &str = "approvals";

/// The approval requests `saved` (the workspace's saved state) keeps.
fn approvals_in(saved: &Value) -> Option<BTreeMap<EventId, approvals::OpenApproval>> {
    serde_json::from_value(saved.get(APPROVALS)?.clone()).ok()
}

/// The approval requests a network's workspace remembers, from its saved
/// state (none without the workspace mod), for the bindings that ask of them.
pub fn saved_approvals(
    state: &crate::model::state::State,
) -> BTreeMap<EventId, approvals::OpenApproval> {
    state
        .mod_state
        .get(NAME)
        .and_then(approvals_in)
        .unwrap_or_default()
}

pub(super) struct Workspace {
    spec: ModSpec,
    settings: WorkspaceSettings,
    sessions: Sessions,
    threads: Threads,
    agent_runs: agent_runs::AgentRuns,
    approvals: approvals::Approvals,
}

impl Workspace {
    pub(super) fn new(settings: &WorkspaceSettings) -> Self {
        let mut spec = ModSpec::standard(
            NAME,
            &[
                "workspace.*",
                core_types::AGENT_JOIN,
                core_types::AGENT_LEAVE,
                core_types::AGENT_PROFILE,
            ],
            50,
            ModMode::Transform,
        );
        spec.also = vec![ModMode::Guard, ModMode::Observe];
        Self {
            spec,
            settings: settings.clone(),
            sessions: Sessions::default(),
            threads: Threads::default(),
            agent_runs: agent_runs::AgentRuns::default(),
            approvals: approvals::Approvals::default(),
        }
    }

    /// Broadcasts `kind` with `payload` from the workspace mod.
    fn announce(&self, out: &mut Outbox<'_>, kind: WorkspaceEventType, payload: Value) {
        let kind = kind.event_type();
        out.emit(
            &self.spec.address,
            kind,
            Address::broadcast(),
            payload,
            None,
        );
    }

    fn save(&self, out: &mut Outbox<'_>) {
        out.command(Command::SaveModState {
            name: NAME,
            state: json!({
                "sessions": self.sessions.by_id,
                "delegations": self.threads.delegations,
                APPROVALS: self.approvals.by_id,
            }),
        });
    }

    /// The master of a new session: the one it names, else the network's.
    fn master_of_new(&self, event: &Event) -> Option<Address> {
        match read::<SessionRequest>(&event.payload).master {
            AsSent::Given(m) => m.parse().ok(),
            AsSent::Null | AsSent::Wrong(_) => None,
            AsSent::Absent => self.settings.master.clone(),
        }
    }

    fn transform_session_created(&self, event: &mut Event, out: &mut Outbox<'_>) {
        let id = sessions::id_for_new(event);
        let name = id.channel_name();
        let master = self.master_of_new(event);
        let mut members = vec![event.source.clone()];
        members.extend(master.iter().cloned());
        if let Some(master) = master.as_ref().filter(|m| *m != &event.source) {
            event.metadata.insert(FIRST_RESPONDER.into(), json!(master));
        }
        let created = SessionCreated {
            channel: id.channel_address(),
            master,
            session: id,
            status: SessionStatus::Open,
            title: read::<SessionRequest>(&event.payload)
                .title
                .given()
                .map(|title| title.trim().to_owned()),
        };
        write_into(&mut event.payload, &created);
        out.command(Command::EnsureChannel { name, members });
    }

    fn transform_session_updated(&self, cx: &Context<'_>, event: &mut Event, out: &mut Outbox<'_>) {
        let Ok((id, change)) = self.sessions.check_updated(cx, event) else {
            return;
        };
        let updated = SessionUpdated {
            channel: Some(id.channel_address()),
            session: id.to_string(),
            title: change.title.clone(),
            ..SessionUpdated::default()
        };
        write_into(&mut event.payload, &updated);
        if let Some(Some(master)) = change.master {
            out.command(Command::EnsureChannel {
                name: id.channel_name(),
                members: vec![master],
            });
        }
    }

    fn transform_message(&self, event: &mut Event, out: &mut Outbox<'_>) {
        // Who answers first and what a delegation is are the network's to say.
        event.metadata.remove(FIRST_RESPONDER);
        event.metadata.remove(DELEGATION);
        if self.threads.answered(event).is_some() {
            self.threads.route_back(event);
            return;
        }
        let Some(master) = Threads::responder(&self.sessions, self.settings.master.as_ref(), event)
        else {
            return;
        };
        if let Some((id, _)) = self.sessions.of_channel(&event.target) {
            out.command(Command::EnsureChannel {
                name: id.channel_name(),
                members: vec![master.clone()],
            });
        }
        event.metadata.insert(FIRST_RESPONDER.into(), json!(master));
    }

    fn transform_delegated(&self, cx: &Context<'_>, event: &mut Event, out: &mut Outbox<'_>) {
        event.metadata.remove(DELEGATION);
        let Ok(delegation) = self.threads.check_delegation(cx, &self.sessions, event) else {
            return;
        };
        if let Some((id, _)) = self.sessions.of_channel(&delegation.place) {
            out.command(Command::EnsureChannel {
                name: id.channel_name(),
                members: vec![delegation.to.clone()],
            });
        }
        event.metadata.insert(
            DELEGATION.into(),
            json!({"message": delegation.message, "from": delegation.from, "place": delegation.place}),
        );
    }
}

impl Mod for Workspace {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn guard(&mut self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        match event.event_type.as_str() {
            SESSION_CREATED => self.sessions.check_created(cx, event),
            SESSION_UPDATED => self.sessions.check_updated(cx, event).map(|_| ()),
            MESSAGE_DELEGATED => self
                .threads
                .check_delegation(cx, &self.sessions, event)
                .map(|_| ()),
            MESSAGE_POSTED => {
                self.agent_runs.check(event)?;
                crate::model::attachment::attachments_of(&event.payload)
                    .map(|_| ())
                    .map_err(|e| Rejection::from(&e))
            }
            APPROVAL_REQUESTED => self.approvals.check_requested(cx, event).map(|_| ()),
            APPROVAL_DECIDED => self.approvals.check_decided(cx, event).map(|_| ()),
            _ => Ok(()),
        }
    }

    fn transform(&mut self, cx: &Context<'_>, event: &mut Event, out: &mut Outbox<'_>) {
        match event.event_type.as_str() {
            SESSION_CREATED => self.transform_session_created(event, out),
            SESSION_UPDATED => self.transform_session_updated(cx, event, out),
            MESSAGE_DELEGATED => self.transform_delegated(cx, event, out),
            kind if kind.starts_with("workspace.message.") => self.transform_message(event, out),
            core_types::AGENT_JOIN | core_types::AGENT_LEAVE => {
                let status = if event.event_type.as_str() == core_types::AGENT_JOIN {
                    Presence::Online
                } else {
                    Presence::Offline
                };
                let presence = PresenceChanged::of(event.source.clone(), status);
                self.announce(out, WorkspaceEventType::PresenceChanged, presence.to_json());
            }
            _ => {}
        }
    }

    fn observe(&mut self, cx: &Context<'_>, event: &Event, out: &mut Outbox<'_>) {
        match event.event_type.as_str() {
            SESSION_CREATED => {
                let master = self.master_of_new(event);
                self.sessions
                    .create(sessions::id_for_new(event), event, master);
                self.save(out);
            }
            SESSION_UPDATED => {
                if let Ok((id, change)) = self.sessions.check_updated(cx, event) {
                    self.sessions.update(&id, change);
                    self.save(out);
                }
            }
            MESSAGE_DELEGATED => {
                if let Ok(delegation) = self.threads.check_delegation(cx, &self.sessions, event) {
                    self.threads.delegate(event.id, delegation);
                    self.save(out);
                }
            }
            MESSAGE_POSTED => {
                let master = self
                    .sessions
                    .of_channel(&event.target)
                    .and_then(|(_, s)| s.master.clone());
                self.threads.remember(event, master);
                self.agent_runs.record(event);
            }
            APPROVAL_REQUESTED => {
                if let Ok(open) = self.approvals.check_requested(cx, event) {
                    self.approvals.open(event.id, open);
                    self.save(out);
                }
            }
            APPROVAL_DECIDED => {
                if let Ok(decision) = self.approvals.check_decided(cx, event) {
                    self.approvals.decide(&decision);
                    self.save(out);
                }
            }
            core_types::AGENT_PROFILE => {
                if let Some(member) = cx.state.members.get(&event.source) {
                    let news = MemberUpdated {
                        address: event.source.clone(),
                        profile: member.profile.clone(),
                    };
                    self.announce(out, WorkspaceEventType::MemberUpdated, news.to_json());
                }
            }
            _ => {}
        }
    }

    fn restore(&mut self, state: &Value) {
        if let Some(saved) = state
            .get("sessions")
            .and_then(|s| serde_json::from_value(s.clone()).ok())
        {
            self.sessions.by_id = saved;
        }
        if let Some(saved) = state
            .get("delegations")
            .and_then(|d| serde_json::from_value::<BTreeMap<EventId, _>>(d.clone()).ok())
        {
            self.threads.restore(saved);
        }
        if let Some(saved) = approvals_in(state) {
            self.approvals.by_id = saved;
        }
    }
}
