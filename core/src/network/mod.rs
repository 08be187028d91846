//! The network state machine: admits members and runs every event through
//! the pipeline of seed 000 §7 — checks, guards, transforms, the network's
//! own handling, observers — then routes it (§6).
//!
//! A host owns one [`Network`] and feeds it frames with
//! [`Network::handle_frame`], passing the connection's authenticated address
//! and the time. The network never does I/O: it returns [`Effect`]s — events
//! to deliver, rows to store, connections to bind — that the host applies
//! in order. Restoring is cheap: configuration, state rows and the last
//! sequence number; never the event log.

mod ack;
mod dedupe;
mod delivery;
#[cfg(feature = "documents")]
mod documents;
mod handlers;
mod reads;
mod routing;
mod state;

pub use ack::Ack;
pub use delivery::{DEDUPE_WINDOW, EventIndex, NoIndex, REDELIVERY_TIMEOUT_MS, delivery_frame};
pub use reads::{BACKLOG_PAGE, LogFilter, MAX_READ_LIMIT, Page, ReadRequest, Reader};

pub use crate::config::{
    Access, AccessPolicy, ConfigError, DeliveryMode, NetworkConfig, NetworkStatus,
};
pub use crate::membership::{Member, Presence, Role, Verification};
pub use routing::{default_visibility, visible_to};
pub use state::{Channel, Group, Invitation, Resource, Row, RowKind, State};

use crate::address::{Address, Entity};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::event_type::{EventType, core_types};
use crate::metadata::ProtocolMetadata;
use crate::mods::{Command, Context, JoinClaim, Outbox, Pipeline};
use crate::network_id::NetworkId;
use crate::ulid::UlidGenerator;
use crate::verification::{Challenges, KeyRegistry, StaticKeys};
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::rc::Rc;

/// What the host must do after an input.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Send the event on the connection whose input produced it.
    Reply(Event),
    /// Send this `network.event.ack` on the connection whose input produced
    /// it ([`Ack::encode`] gives its text, [`Ack::to_event`] the event).
    Ack(Ack),
    /// Send the event to every connection of each member in `to`.
    /// Use [`Effect::frames`] to get each recipient's frame.
    Deliver {
        /// Recipient members.
        to: Vec<Address>,
        /// The event, shared with the log entry rather than copied.
        event: Rc<Event>,
        /// For logged events: the `seq` and each recipient's `prev`.
        order: Option<Order>,
    },
    /// The current connection is now authenticated as this address.
    Bind(Address),
    /// The current connection is no longer a member's (it left).
    Unbind,
    /// Append the accepted event to the log at `seq`.
    Append {
        /// Sequence number, strictly increasing within the network.
        seq: u64,
        /// The accepted event as delivered.
        event: Rc<Event>,
        /// Keep it as history (`mod/persistence`), not only until delivered.
        retain: bool,
        /// Index it under these audiences for catch-up reads.
        audiences: Vec<String>,
    },
    /// Read log rows and answer with [`Network::answer_read`] (catch-up, a page, a query).
    Read(ReadRequest),
    /// A page of the log for the connection whose input asked for it ([`Network::read_page`]).
    Page(Page),
    /// Insert or replace a state row.
    Store(Row),
    /// Delete a state row.
    Remove {
        /// Row kind.
        kind: RowKind,
        /// Row key.
        key: String,
    },
}

/// Where a logged event sits in each recipient's delivery chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    /// The event's network-wide sequence number.
    pub seq: u64,
    /// For each recipient (parallel to `to`): the `seq` delivered to it before this one.
    pub prev: Vec<u64>,
}

impl Effect {
    /// The event a `Reply` or an `Ack` sends on the connection whose input
    /// produced it (the ack built as an event); `None` for other effects.
    pub fn reply(&self) -> Option<Cow<'_, Event>> {
        match self {
            Effect::Reply(event) => Some(Cow::Borrowed(event)),
            Effect::Ack(ack) => Some(Cow::Owned(ack.to_event())),
            _ => None,
        }
    }

    /// The JSON text of [`Effect::reply`]'s event.
    pub fn reply_text(&self) -> Option<String> {
        match self {
            Effect::Reply(event) => Some(event.encode()),
            Effect::Ack(ack) => Some(ack.encode()),
            _ => None,
        }
    }

    /// The frames of a `Deliver`: `(recipient, JSON text)`, with
    /// `metadata.delivery` set per recipient for logged events. Empty for other effects.
    pub fn frames(&self) -> Vec<(&Address, String)> {
        match self {
            Effect::Deliver {
                to,
                event,
                order: None,
            } => {
                let frame = event.encode();
                to.iter().map(|a| (a, frame.clone())).collect()
            }
            Effect::Deliver {
                to,
                event,
                order: Some(order),
            } => {
                if to.len() >= delivery::FRAME_TEMPLATE_FROM
                    && let Some(template) = delivery::FrameTemplate::new(event, order.seq)
                {
                    // A fan-out: encoded twice, then only the `prev` digits differ.
                    return to
                        .iter()
                        .zip(&order.prev)
                        .map(|(a, prev)| (a, template.with_prev(*prev)))
                        .collect();
                }
                to.iter()
                    .zip(&order.prev)
                    .map(|(a, prev)| (a, event.encode_delivered(order.seq, *prev)))
                    .collect()
            }
            _ => Vec::new(),
        }
    }
}

/// Agents may not emit these: they are the network's own answers.
const NETWORK_ONLY_TYPES: &[&str] = &[
    core_types::PONG,
    core_types::EVENT_ERROR,
    core_types::AGENT_DISCOVER_RESPONSE,
    core_types::AGENT_CHALLENGE_RESPONSE,
    core_types::RESOURCE_DISCOVER_RESPONSE,
    core_types::RESOURCE_READ_RESPONSE,
    core_types::EVENTS_RESPONSE,
];

/// What a paused or archived network still accepts.
const READ_ONLY_TYPES: &[&str] = &[
    core_types::AGENT_LEAVE,
    core_types::AGENT_RESUME,
    core_types::AGENT_DISCOVER,
    core_types::PING,
    core_types::EVENT_ACK,
    core_types::EVENTS_QUERY,
    core_types::RESOURCE_DISCOVER,
    core_types::RESOURCE_READ,
];

/// The network: configuration, state, mods and the routing pipeline.
pub struct Network {
    config: NetworkConfig,
    state: State,
    pipeline: Pipeline,
    challenges: Challenges,
    keys: Box<dyn KeyRegistry>,
    ids: UlidGenerator,
    last_seq: u64,
    /// `mod/persistence` is loaded: logged rows are history and queries work.
    keeps_history: bool,
    tracker: delivery::Tracker,
    dedupe: dedupe::DedupeWindow,
    index: Box<dyn EventIndex>,
    /// Shared documents of files and context.
    #[cfg(feature = "documents")]
    documents: documents::Documents,
}

/// What one core handler decided.
#[derive(Default)]
pub(crate) struct Outcome {
    /// Effects to apply (replies, stores, binds).
    pub effects: Vec<Effect>,
    /// Route the event to its target's recipients.
    pub route: bool,
    /// Give the event a sequence number and log it.
    pub log: bool,
    /// Extra ack payload fields.
    pub ack: Map<String, Value>,
    /// Send no ack (the handler replied itself).
    pub no_ack: bool,
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
        let mut tracker = delivery::Tracker::default();
        #[cfg(feature = "documents")]
        let mut documents = documents::Documents::new(&config.id);
        for row in rows {
            match row {
                Row::Cursor { address, seq } => {
                    tracker.cursors.insert(address, seq);
                }
                #[cfg(feature = "documents")]
                Row::Document(row) => documents.restore(&row),
                other => state.apply(other),
            }
        }
        let mut pipeline = Pipeline::new(&config.mods);
        for (name, saved) in &state.mod_state {
            pipeline.restore(name, saved);
        }
        let keeps_history = pipeline.has(&mod_address("persistence"));
        let keys = Box::new(StaticKeys::from_config(&config));
        Self {
            tracker,
            dedupe: dedupe::DedupeWindow::default(),
            index: Box::new(NoIndex),
            keeps_history,
            config,
            state,
            pipeline,
            challenges: Challenges::default(),
            keys,
            ids: UlidGenerator::new(seed),
            last_seq,
            #[cfg(feature = "documents")]
            documents,
        }
    }

    /// Uses `index` to recognise resubmitted events older than the dedupe window.
    pub fn set_event_index(&mut self, index: Box<dyn EventIndex>) {
        self.dedupe.note_outside(index.newest_timestamp());
        self.index = index;
    }

    /// True when logged events are kept for delivery to offline members.
    fn at_least_once(&self) -> bool {
        self.config.delivery == DeliveryMode::AtLeastOnce
    }

    /// When the host should next call [`Network::on_alarm`] (unix ms), if ever.
    pub fn next_wakeup(&self) -> Option<u64> {
        let presence = self
            .state
            .members
            .values()
            .filter(|m| m.is_online())
            .map(|m| m.last_seen.saturating_add(self.config.presence_timeout_ms))
            .min();
        [self.tracker.next_wakeup(), presence]
            .into_iter()
            .flatten()
            .min()
    }

    /// The acknowledged delivery cursor of `member` (0 when none).
    pub fn cursor(&self, member: &Address) -> u64 {
        self.tracker.cursor(member)
    }

    /// True while some delivery waits for its acknowledgement.
    pub fn awaiting_acks(&self) -> bool {
        self.tracker.next_wakeup().is_some()
    }

    /// The host's alarm fired: resend deliveries that waited too long for an ack.
    pub fn on_alarm(&mut self, now: u64) -> Vec<Effect> {
        let mut effects = Vec::new();
        // Presence: members silent for longer than the timeout go offline.
        let timeout = self.config.presence_timeout_ms;
        let silent: Vec<Address> = self
            .state
            .members
            .values()
            .filter(|m| m.is_online() && m.last_seen.saturating_add(timeout) <= now)
            .map(|m| m.address.clone())
            .collect();
        for member in silent {
            effects.extend(self.disconnect(&member, now));
        }
        for member in self.tracker.overdue(now) {
            let online = self
                .state
                .members
                .get(&member)
                .is_some_and(Member::is_online);
            if online {
                let after = self.tracker.cursor(&member);
                effects.push(self.catch_up(&member, after));
            } else {
                self.tracker.forget_unacked(&member);
            }
        }
        effects
    }

    /// Uses `registry` to find registered agents' keys (verification level 1).
    pub fn set_key_registry(&mut self, registry: Box<dyn KeyRegistry>) {
        self.keys = registry;
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

    /// The network profile of seed 000 §9; the host supplies its transports.
    pub fn profile(&self, transports: Value) -> Value {
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
            .cloned()
            .unwrap_or(json!(""));
        let mut capabilities: Vec<&str> =
            vec!["network.agent", "network.channel", "network.resource"];
        if self.pipeline.has(&mod_address("workspace")) {
            capabilities.extend(["workspace.message", "workspace.session"]);
        }
        if self.keeps_history {
            capabilities.push("network.events");
        }
        json!({
            "id": self.config.id,
            "name": self.config.name,
            "description": description,
            "access": {"policy": self.config.access.policy, "min_verification": self.config.access.min_verification},
            "delivery": self.config.delivery,
            "status": self.config.status,
            "transports": transports,
            "capabilities": capabilities,
            "mods": self.pipeline.addresses(),
            "agents_online": online,
        })
    }

    /// Handles one frame from a connection authenticated as `session` (or not yet joined).
    pub fn handle_frame(
        &mut self,
        session: Option<&Address>,
        frame: &str,
        now: u64,
    ) -> Vec<Effect> {
        match Event::decode(frame, &self.config.limits) {
            Ok(event) => self.handle_event(session, event, now),
            Err(err) => {
                let to = session.cloned().unwrap_or_else(anonymous);
                // Name the refused event when its id can still be read (a payload over the
                // limit, a bad target…), so the sender knows which one failed and stops resending it.
                let refused = serde_json::from_str::<Value>(frame)
                    .ok()
                    .and_then(|v| v.get("id")?.as_str()?.parse::<crate::ulid::EventId>().ok());
                vec![Effect::Reply(self.error_event(
                    &to,
                    refused,
                    &(&err).into(),
                    now,
                ))]
            }
        }
    }

    /// Handles one decoded event from a connection authenticated as `session`.
    pub fn handle_event(
        &mut self,
        session: Option<&Address>,
        event: Event,
        now: u64,
    ) -> Vec<Effect> {
        let reply_to = session.cloned().unwrap_or_else(|| event.source.clone());
        let id = event.id;
        match self.accept(session, event, now) {
            Ok(effects) => effects,
            Err(rejection) => vec![Effect::Reply(self.error_event(
                &reply_to,
                Some(id),
                &rejection,
                now,
            ))],
        }
    }

    /// Records a sign of life from a member (heartbeat); it goes online if it was not.
    pub fn heartbeat(&mut self, address: &Address, now: u64) -> Vec<Effect> {
        match self.state.members.get_mut(address) {
            Some(member) => {
                member.last_seen = now;
                member.status = Presence::Online;
                vec![Effect::Store(Row::Member(member.clone()))]
            }
            None => Vec::new(),
        }
    }

    /// Notes a sign of life; returns the row to store when the member comes back online.
    fn heartbeat_if_offline(&mut self, address: &Address, now: u64) -> Vec<Effect> {
        match self.state.members.get_mut(address) {
            Some(member) if member.is_online() => {
                member.last_seen = now;
                Vec::new()
            }
            Some(_) => self.heartbeat(address, now),
            None => Vec::new(),
        }
    }

    /// The last connection of `address` closed or its heartbeat timed out: mark it
    /// offline and let the mods see a `network.agent.leave` with reason `disconnected`.
    pub fn disconnect(&mut self, address: &Address, now: u64) -> Vec<Effect> {
        let Some(member) = self.state.members.get_mut(address) else {
            return Vec::new();
        };
        if !member.is_online() {
            return Vec::new();
        }
        member.status = Presence::Offline;
        let mut effects = vec![Effect::Store(Row::Member(member.clone()))];
        self.tracker.catching_up.remove(address);
        self.tracker.forget_unacked(address);
        let mut metadata = Map::new();
        metadata.insert("reason".into(), json!("disconnected"));
        let leave = Event {
            id: self.ids.next_id(now),
            event_type: EventType::from_static(core_types::AGENT_LEAVE),
            source: address.clone(),
            target: Address::core(),
            payload: json!({}),
            metadata,
            enrichment: None,
            timestamp: now,
            network: Some(self.config.id.clone()),
        };
        let mut leave = leave;
        effects.extend(self.run_stage(Stage::Transform, &mut leave, now));
        effects.extend(self.run_stage(Stage::Observe, &mut leave, now));
        #[cfg(feature = "documents")]
        effects.extend(self.close_documents_of(address, now));
        effects
    }

    fn accept(
        &mut self,
        session: Option<&Address>,
        mut event: Event,
        now: u64,
    ) -> Result<Vec<Effect>, Rejection> {
        match &event.network {
            Some(network) if network != &self.config.id => {
                return Err(Rejection::new(
                    ErrorCode::WrongNetwork,
                    format!("event is for network {network}, this is {}", self.config.id),
                ));
            }
            _ => event.network = Some(self.config.id.clone()),
        }
        // `metadata.delivery` is the network's to write, per recipient: a
        // sender's own would reach recipients of unlogged events as if it were.
        event.metadata.remove("delivery");
        let event_type = event.event_type.as_str();
        if event_type != core_types::AGENT_JOIN
            && let Some(seq) = self.dedupe.seq_of(&event.id).or_else(|| {
                // The host's index is only asked about ids that may have left the window.
                if self.dedupe.may_be_outside(&event.id) {
                    self.index.seq_of(&event.id)
                } else {
                    None
                }
            })
        {
            // A resubmission: answer with the original ack and change nothing.
            let mut ack = self.ack(&event, Map::new(), now);
            ack.seq = Some(seq);
            ack.duplicate = true;
            return Ok(vec![Effect::Ack(ack)]);
        }
        if event_type == core_types::AGENT_CHALLENGE {
            return self.issue_challenge(&event, now);
        }
        let joining = event_type == core_types::AGENT_JOIN;
        if joining {
            self.check_joiner(session, &event)?;
        } else {
            self.check_sender(session, &event)?;
        }
        let metadata = ProtocolMetadata::read(&event.metadata).map_err(|e| Rejection::from(&e))?;
        // Any accepted frame is a sign of life.
        let revived = if joining {
            Vec::new()
        } else {
            self.heartbeat_if_offline(&event.source, now)
        };
        if let Some(visibility) = metadata.visibility {
            routing::check_visibility(&event.target, visibility)?;
        }
        let claim = if joining {
            Some(JoinClaim {
                address: event.source.clone(),
                verification: self.verify_join(&event, now)?,
            })
        } else {
            None
        };
        let cx = Context {
            state: &self.state,
            config: &self.config,
            now,
            join: claim.as_ref(),
        };
        self.pipeline.guard(&cx, &event)?;

        let mut staged = revived;
        staged.extend(self.run_stage(Stage::Transform, &mut event, now));
        let mut outcome = handlers::handle(self, &event, claim.as_ref(), &metadata, now)?;
        // Resolve recipients before anything is logged: an unroutable event changes nothing.
        let recipients = if outcome.route {
            routing::recipients(&self.state, &event)?
        } else {
            Vec::new()
        };
        staged.extend(self.run_stage(Stage::Observe, &mut event, now));
        // In order: the log entry, the handler's effects, the mods', the delivery, the ack.
        let mut effects = Vec::with_capacity(outcome.effects.len() + staged.len() + 3);

        let event = Rc::new(event);
        let visibility = metadata
            .visibility
            .unwrap_or_else(|| default_visibility(&event.target));
        // Logged events are sequenced; without at-least-once they stay in the log only as history.
        let seq = if outcome.log {
            self.last_seq += 1;
            let seq = self.last_seq;
            self.dedupe.insert(event.id, seq);
            if self.at_least_once() || self.keeps_history {
                effects.push(Effect::Append {
                    seq,
                    event: Rc::clone(&event),
                    retain: self.keeps_history,
                    audiences: delivery::audiences_of(&self.state, &event, visibility),
                });
            }
            Some(seq)
        } else {
            None
        };
        effects.append(&mut outcome.effects);
        effects.append(&mut staged);
        let to: Vec<Address> = recipients
            .into_iter()
            .filter(|to| {
                // Online implies a member: visibility need not look the member up again.
                self.state.members.get(to).is_some_and(Member::is_online)
                    && !self.tracker.catching_up.contains(to)
                    && routing::visible_to_known(&self.state, &event, visibility, to, true)
            })
            .collect();
        if !to.is_empty() {
            let order = match seq {
                Some(seq) if self.at_least_once() => Some(Order {
                    seq,
                    prev: to
                        .iter()
                        .map(|r| self.tracker.delivered(r, seq, now))
                        .collect(),
                }),
                _ => None,
            };
            effects.push(Effect::Deliver {
                to,
                event: Rc::clone(&event),
                order,
            });
        }
        if !outcome.no_ack {
            let mut ack = self.ack(&event, outcome.ack, now);
            ack.seq = seq;
            effects.push(Effect::Ack(ack));
        }
        Ok(effects)
    }

    /// Runs the transforms or the observers, applies what they asked for and routes what they emitted.
    fn run_stage(&mut self, stage: Stage, event: &mut Event, now: u64) -> Vec<Effect> {
        let mut out = Outbox::new(&mut self.ids, &self.config.id, now);
        let cx = Context {
            state: &self.state,
            config: &self.config,
            now,
            join: None,
        };
        match stage {
            Stage::Transform => self.pipeline.transform(&cx, event, &mut out),
            Stage::Observe => self.pipeline.observe(&cx, event, &mut out),
        }
        let (emitted, commands) = (
            std::mem::take(&mut out.events),
            std::mem::take(&mut out.commands),
        );
        let mut effects = Vec::new();
        for command in commands {
            effects.extend(self.apply_command(command));
        }
        for emitted in emitted {
            if let Ok(recipients) = routing::recipients(&self.state, &emitted) {
                let to: Vec<Address> = recipients
                    .into_iter()
                    .filter(|to| self.state.members.get(to).is_some_and(Member::is_online))
                    .collect();
                if !to.is_empty() {
                    effects.push(Effect::Deliver {
                        to,
                        event: Rc::new(emitted),
                        order: None,
                    });
                }
            }
        }
        effects
    }

    fn apply_command(&mut self, command: Command) -> Vec<Effect> {
        match command {
            Command::EnsureChannel { name, members } => {
                let Ok(name) = format!("channel/{name}").parse::<Address>() else {
                    return Vec::new();
                };
                let Entity::Channel(name) = name.entity().clone() else {
                    return Vec::new();
                };
                let creator = members.first().cloned().unwrap_or_else(Address::core);
                let channel = self
                    .state
                    .channels
                    .entry(name.clone())
                    .or_insert_with(|| Channel {
                        name,
                        members: Default::default(),
                        created_by: creator,
                    });
                channel.members.extend(members);
                vec![Effect::Store(Row::Channel(channel.clone()))]
            }
            Command::SaveModState { name, state } => {
                self.state.mod_state.insert(name.to_owned(), state.clone());
                vec![Effect::Store(Row::ModState {
                    name: name.to_owned(),
                    state,
                })]
            }
        }
    }

    fn check_joiner(&self, session: Option<&Address>, event: &Event) -> Result<(), Rejection> {
        let address = &event.source;
        if !address.is_local()
            || !address.entity().is_participant()
            || address == &Address::broadcast()
        {
            return Err(Rejection::new(
                ErrorCode::InvalidAddress,
                format!("{address} cannot join: members are agent:, human: or registered agents"),
            ));
        }
        if let Some(bound) = session
            && bound != address
        {
            return Err(Rejection::new(
                ErrorCode::SourceMismatch,
                format!("this connection already joined as {bound}"),
            ));
        }
        if self.config.status == NetworkStatus::Archived {
            return Err(Rejection::new(
                ErrorCode::NetworkUnavailable,
                "this network is archived: no new joins",
            ));
        }
        Ok(())
    }

    fn check_sender(&self, session: Option<&Address>, event: &Event) -> Result<(), Rejection> {
        let Some(session) = session else {
            return Err(Rejection::new(
                ErrorCode::NotJoined,
                "send network.agent.join before other events",
            ));
        };
        if &event.source != session {
            return Err(Rejection::new(
                ErrorCode::SourceMismatch,
                format!("source {} is not the joined member {session}", event.source),
            ));
        }
        let Some(member) = self.state.members.get(session) else {
            return Err(Rejection::new(
                ErrorCode::NotJoined,
                format!("{session} is not a member"),
            ));
        };
        let event_type = event.event_type.as_str();
        if NETWORK_ONLY_TYPES.contains(&event_type) {
            return Err(Rejection::new(
                ErrorCode::ReservedType,
                format!("{event_type} is emitted only by the network"),
            ));
        }
        // Observers may read, acknowledge and leave, and follow channels.
        let observer_may = READ_ONLY_TYPES.contains(&event_type)
            || event_type == core_types::CHANNEL_JOIN
            || event_type == core_types::CHANNEL_LEAVE;
        if member.role == Role::Observer && !observer_may {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                "observers receive events but cannot emit them",
            ));
        }
        if self.config.status != NetworkStatus::Active && !READ_ONLY_TYPES.contains(&event_type) {
            return Err(Rejection::new(
                ErrorCode::NetworkUnavailable,
                format!(
                    "this network is {:?}: it accepts no new events",
                    self.config.status
                )
                .to_lowercase(),
            ));
        }
        Ok(())
    }

    fn verify_join(&mut self, event: &Event, now: u64) -> Result<Verification, Rejection> {
        let credentials = event.payload.get("credentials");
        let field = |key: &str| credentials.and_then(|c| c.get(key)).and_then(Value::as_str);
        match (field("nonce"), field("signature")) {
            (Some(nonce), Some(signature)) => {
                self.challenges.verify(
                    self.keys.as_ref(),
                    &self.config.id,
                    &event.source,
                    nonce,
                    signature,
                    now,
                )?;
                Ok(Verification::KEY_PROOF)
            }
            (None, None) => Ok(Verification::ANONYMOUS),
            _ => Err(Rejection::new(
                ErrorCode::VerificationFailed,
                "key proof needs both credentials.nonce and credentials.signature",
            )),
        }
    }

    fn issue_challenge(&mut self, event: &Event, now: u64) -> Result<Vec<Effect>, Rejection> {
        let nonce = crate::crypto::to_hex(&self.ids.random_bytes());
        let expires_at = self.challenges.issue(&event.source, nonce.clone(), now)?;
        let payload = json!({"nonce": nonce, "expires_at": expires_at, "network": self.config.id, "address": event.source});
        let response = self.core_event(
            core_types::AGENT_CHALLENGE_RESPONSE,
            &event.source,
            Some(event.id),
            payload,
            now,
        );
        Ok(vec![Effect::Reply(response)])
    }

    /// The acknowledgement of `event`, with a handler's `extra` payload fields.
    fn ack(&mut self, event: &Event, extra: Map<String, Value>, now: u64) -> Ack {
        Ack {
            id: self.ids.next_id(now),
            to: event.source.clone(),
            acknowledged: event.id,
            seq: None,
            duplicate: false,
            extra,
            timestamp: now,
            network: self.config.id.clone(),
        }
    }

    /// An event from `core` to `to`, optionally answering `in_reply_to`.
    pub(crate) fn core_event(
        &mut self,
        event_type: &'static str,
        to: &Address,
        in_reply_to: Option<crate::ulid::EventId>,
        payload: Value,
        now: u64,
    ) -> Event {
        let mut metadata = Map::new();
        if let Some(id) = in_reply_to {
            metadata.insert("in_reply_to".into(), id.to_json());
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

    fn error_event(
        &mut self,
        to: &Address,
        request: Option<crate::ulid::EventId>,
        rejection: &Rejection,
        now: u64,
    ) -> Event {
        let payload =
            json!({"code": rejection.code, "message": rejection.message, "event_id": request});
        self.core_event(core_types::EVENT_ERROR, to, request, payload, now)
    }
}

/// The two pipeline stages after the guards.
#[derive(Clone, Copy)]
enum Stage {
    Transform,
    Observe,
}

fn mod_address(name: &str) -> Address {
    format!("mod/{name}")
        .parse()
        .unwrap_or_else(|_| Address::core())
}

fn anonymous() -> Address {
    "agent:anonymous"
        .parse()
        .unwrap_or_else(|_| Address::core())
}

#[cfg(test)]
mod tests;
