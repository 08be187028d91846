//! The [`Network`] itself: what it holds, how it is restored, and what hosts ask of it.
//!
//! The work on events is split by area in the sibling modules (admission,
//! presence, stages, reads, handlers, documents), each an `impl Network`.

use crate::error::Rejection;
use crate::event::Event;
use crate::event::trace::TraceContext;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::network_id::NetworkId;
use crate::ids::time::Timestamp;
use crate::ids::ulid::UlidGenerator;
use crate::model::config::{DeliveryMode, NetworkConfig};
use crate::model::membership::Member;
use crate::model::payloads::{ErrorPayload, NetworkProfile, Payload, ProfileAccess, Transport};
use crate::model::retention::LogMarks;
use crate::model::state::{Row, State};
use crate::mods::Pipeline;
use crate::network::delivery::ack::Ack;
use crate::network::delivery::tracker::Tracker;
use crate::network::delivery::{EventIndex, NoIndex};
use crate::network::log::dedupe::DedupeWindow;
use crate::verification::{Challenges, KeyRegistry, StaticKeys};
use serde_json::{Map, Value};

/// The network: configuration, state, mods and the routing pipeline.
pub struct Network {
    pub(super) config: NetworkConfig,
    pub(super) state: State,
    pub(super) pipeline: Pipeline,
    pub(super) challenges: Challenges,
    /// Throttles on failed joins and challenges, per source.
    pub(super) shield: crate::network::members::shield::Shield,
    pub(super) keys: Box<dyn KeyRegistry>,
    /// JWKS and DID documents the host fetched for joins (levels 2 and 3).
    pub(super) identity: crate::network::members::identity_cache::IdentityCache,
    /// Nonces of DIDWba headers already accepted.
    pub(super) didwba: crate::identity::didwba_verify::DidWbaVerifier,
    /// Nonces of DIDWba headers the deployment refused (`crate::network::members::nonce_claims`).
    pub(super) spent_elsewhere: crate::identity::nonces::NonceCache,
    /// Which URLs the network's host may fetch on a member's say-so (push targets, DID documents, JWKS).
    pub(super) outbound: crate::outbound::OutboundPolicy,
    pub(super) ids: UlidGenerator,
    /// The trace context of the request a binding is serving ([`Network::traced`]).
    pub(super) ambient_trace: Option<TraceContext>,
    /// While an event is handled: the context of what it causes (acks, replies, errors).
    pub(super) cause: Option<TraceContext>,
    pub(super) last_seq: u64,
    /// `mod/persistence` is loaded: logged rows are history and queries work.
    pub(super) keeps_history: bool,
    pub(super) tracker: Tracker,
    /// No later than the first online member's presence deadline (`super::wakeup`).
    pub(super) presence_floor: crate::network::floor::Floor,
    /// The log's age marks and how far it is pruned (`crate::network::log::retention`).
    pub(super) log_marks: LogMarks,
    /// The last pruning run stopped at its bound: the next follows soon.
    pub(super) prune_behind: bool,
    /// When the next idle member may be removed, as far as is known.
    pub(super) member_removal_due: Option<Timestamp>,
    pub(super) dedupe: DedupeWindow,
    /// Events waiting for agent mods' verdicts (`crate::network::pipeline::agent_mods`).
    pub(super) parked: crate::network::pipeline::parked::ParkedEvents,
    pub(super) index: Box<dyn EventIndex>,
    /// The last messages, for changes to them, when there is no log to read them from.
    pub(super) recent_messages: crate::network::messages::recent::RecentMessages,
    /// Members stored as online when this instance was restored: what was
    /// delivered to them before is unknown here, so until they join again
    /// they hold the log back from their stored cursors (`crate::network::log::retention`).
    pub(super) restored_online: std::collections::BTreeSet<crate::ids::address::Address>,
    /// Who keeps the shared documents of files and context.
    pub(super) documents: crate::network::documents::keeper::Keeper,
}

impl Network {
    /// A network restored from its configuration, stored rows and last sequence number.
    /// `seed` is host randomness for the ids and nonces the network creates.
    pub fn new(
        config: NetworkConfig,
        rows: impl IntoIterator<Item = Row>,
        last_seq: u64,
        seed: [u8; 32],
    ) -> Self {
        let mut state = State {
            bridges: config.bridges.clone(),
            ..State::default()
        };
        let mut tracker = Tracker::default();
        let mut log_marks = LogMarks::default();
        #[allow(unused_mut)]
        let mut documents = crate::network::documents::keeper::Keeper::default_for(&config.id);
        for row in rows {
            match row {
                Row::Cursor { address, seq } => {
                    tracker.cursors.insert(address, seq);
                }
                Row::CatchUp {
                    address,
                    after,
                    delivered,
                } => tracker.restore_catch_up(address, after, delivered),
                Row::LogMarks(marks) => log_marks = marks,
                #[cfg(feature = "documents")]
                Row::Document(row) => {
                    if let crate::network::documents::keeper::Keeper::Here(host) = &mut documents {
                        host.restore(&row);
                    }
                }
                other => state.apply(other),
            }
        }
        let mut pipeline = Pipeline::new(&config.mods, &config.mod_priorities);
        for (name, saved) in &state.mod_state {
            pipeline.restore(name, saved);
        }
        let keeps_history = pipeline.has(&mod_address("persistence"));
        let restored_online = state
            .members
            .values()
            .filter(|m| m.is_online())
            .map(|m| m.address.clone())
            .collect();
        let keys = Box::new(StaticKeys::from_config(&config));
        let mut network = Self {
            tracker,
            presence_floor: Default::default(),
            log_marks,
            prune_behind: false,
            member_removal_due: None,
            dedupe: DedupeWindow::default(),
            parked: Default::default(),
            index: Box::new(NoIndex),
            recent_messages: Default::default(),
            restored_online,
            keeps_history,
            config,
            state,
            pipeline,
            challenges: Challenges::default(),
            shield: Default::default(),
            keys,
            identity: Default::default(),
            didwba: Default::default(),
            spent_elsewhere: Default::default(),
            outbound: Default::default(),
            ambient_trace: None,
            cause: None,
            ids: UlidGenerator::new(seed),
            last_seq,
            documents,
        };
        network.refresh_wakeup();
        network
    }

    /// Uses `index` to recognise resubmitted events older than the dedupe window.
    pub fn set_event_index(&mut self, index: Box<dyn EventIndex>) {
        self.dedupe.note_outside(index.newest_timestamp());
        self.index = index;
    }

    /// True when logged events are kept for delivery to offline members.
    pub(super) fn at_least_once(&self) -> bool {
        self.config.delivery == DeliveryMode::AtLeastOnce
    }

    /// When the host should next call [`Network::on_alarm`], if ever.
    ///
    /// Exact, and it looks at every member: a host that asks after every
    /// drain of frames asks [`Network::wakeup_bound`] instead.
    pub fn next_wakeup(&self) -> Option<Timestamp> {
        let exact = self.earliest_wakeup(self.tracker.next_wakeup(), self.presence_deadline());
        #[cfg(test)]
        self.check_wakeup_bound(exact);
        exact
    }

    /// The acknowledged delivery cursor of `member` (0 when none).
    pub fn cursor(&self, member: &Address) -> u64 {
        self.tracker.cursor(member)
    }

    /// True while some delivery waits for its acknowledgement.
    pub fn awaiting_acks(&self) -> bool {
        self.tracker.next_wakeup().is_some()
    }

    /// Uses `registry` to find registered agents' keys (verification level 1).
    pub fn set_key_registry(&mut self, registry: Box<dyn KeyRegistry>) {
        self.keys = registry;
    }

    /// Fetches only URLs `policy` lets through (the default: public hosts only).
    pub fn set_outbound(&mut self, policy: crate::outbound::OutboundPolicy) {
        self.outbound = policy;
    }

    /// Which URLs the host may fetch on a member's say-so.
    pub fn outbound(&self) -> &crate::outbound::OutboundPolicy {
        &self.outbound
    }

    /// The configuration.
    pub fn config(&self) -> &NetworkConfig {
        &self.config
    }

    /// The network id.
    pub fn id(&self) -> &NetworkId {
        &self.config.id
    }

    /// Members, channels, groups, resources.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The membership record of `address`.
    pub fn member(&self, address: &Address) -> Option<&Member> {
        self.state.members.get(address)
    }

    /// The sequence number of the last logged event (0 when none).
    pub fn last_seq(&self) -> u64 {
        self.last_seq
    }

    /// The addresses of the loaded mods, in pipeline order.
    pub fn mods(&self) -> Vec<Address> {
        self.pipeline.addresses()
    }

    /// `mod/analytics`' counts as a master reads them, when it is loaded.
    pub fn analytics(&self) -> Option<Value> {
        self.pipeline.report("analytics")
    }

    /// The network profile of ONM §9; the host supplies its transports.
    pub fn network_profile(&self, transports: Vec<Transport>) -> NetworkProfile {
        let online = self
            .state
            .members
            .values()
            .filter(|m| m.is_online())
            .count();
        let description = self
            .config
            .metadata
            .get("description")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let mut capabilities: Vec<&str> =
            vec!["network.agent", "network.channel", "network.resource"];
        if self.pipeline.has(&mod_address("workspace")) {
            capabilities.extend(["workspace.message", "workspace.session"]);
        }
        if self.keeps_history {
            capabilities.push("network.events");
        }
        NetworkProfile {
            access: ProfileAccess {
                min_verification: self.config.access.min_verification,
                policy: self.config.access.policy,
            },
            agents_online: u64::try_from(online).unwrap_or(u64::MAX),
            members: u64::try_from(self.state.members.len()).unwrap_or(u64::MAX),
            capabilities: capabilities.into_iter().map(str::to_owned).collect(),
            delivery: self.config.delivery,
            description,
            id: self.config.id.clone(),
            mods: self.pipeline.addresses(),
            name: self.config.name.clone(),
            status: self.config.status,
            transports,
        }
    }

    /// The acknowledgement of `event`, with a handler's `extra` payload fields.
    pub(super) fn ack(&mut self, event: &Event, extra: Map<String, Value>, now: Timestamp) -> Ack {
        Ack {
            id: self.ids.next_id(now),
            to: event.source.clone(),
            acknowledged: event.id,
            seq: None,
            duplicate: false,
            trace: self.cause.clone(),
            extra,
            timestamp: now,
            network: self.config.id.clone(),
        }
    }

    /// The answer from `core` to `event`'s source: `event_type` carrying `payload`.
    pub(crate) fn reply_to(
        &mut self,
        event: &Event,
        event_type: &'static str,
        payload: Value,
        now: Timestamp,
    ) -> Event {
        self.core_event(event_type, &event.source, Some(event.id), payload, now)
    }

    /// An event from `core` to `to`, optionally answering `in_reply_to`.
    pub(crate) fn core_event(
        &mut self,
        event_type: &'static str,
        to: &Address,
        in_reply_to: Option<crate::ids::ulid::EventId>,
        payload: Value,
        now: Timestamp,
    ) -> Event {
        let mut metadata = Map::new();
        if let Some(id) = in_reply_to {
            metadata.insert("in_reply_to".into(), id.to_json());
        }
        if let Some(cause) = &self.cause {
            cause.write(&mut metadata);
        }
        Event {
            id: self.ids.next_id(now),
            event_type: EventType::from_static(event_type),
            source: Address::core(),
            target: to.clone(),
            payload,
            metadata,
            enrichment: None,
            timestamp: now,
            network: Some(self.config.id.clone()),
        }
    }

    pub(super) fn error_event(
        &mut self,
        to: &Address,
        request: Option<crate::ids::ulid::EventId>,
        rejection: &Rejection,
        now: Timestamp,
    ) -> Event {
        let payload = ErrorPayload {
            code: rejection.code,
            event_id: request,
            message: rejection.message.clone(),
        };
        self.core_event(core_types::EVENT_ERROR, to, request, payload.to_json(), now)
    }
}

/// `mod/{name}`.
pub(super) fn mod_address(name: &str) -> Address {
    format!("mod/{name}")
        .parse()
        .unwrap_or_else(|_| Address::core())
}

/// Who an undecodable frame from an unjoined connection is answered as.
pub(super) fn anonymous() -> Address {
    "agent:anonymous"
        .parse()
        .unwrap_or_else(|_| Address::core())
}
