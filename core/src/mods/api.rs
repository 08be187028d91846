//! What a mod is and what it may touch: the [`Mod`] trait, its [`ModSpec`],
//! the [`Context`] it reads and the [`Outbox`] it writes to.

use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::{EventPattern, EventType};
use crate::ids::network_id::NetworkId;
use crate::ids::standing::Verification;
use crate::ids::ulid::{EventId, UlidGenerator};
use crate::model::state::State;
use serde_json::{Map, Value, json};

use crate::ids::time::Timestamp;
pub use crate::model::agent_mod::ModMode;

/// A mod's identity and place in the pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModSpec {
    /// `mod/{name}`.
    pub address: Address,
    /// Event-type patterns it intercepts.
    pub intercepts: Vec<EventPattern>,
    /// Lower runs earlier.
    pub priority: i32,
    /// Guard, transform or observe.
    pub mode: ModMode,
    /// The other stages it runs in too (`mod/workspace`, a transform, also
    /// checks what it intercepts among the guards and records it among the
    /// observers); empty for most.
    pub also: Vec<ModMode>,
}

impl ModSpec {
    pub(crate) fn standard(name: &str, patterns: &[&str], priority: i32, mode: ModMode) -> Self {
        let address = format!("mod/{name}")
            .parse()
            .unwrap_or_else(|_| Address::core());
        Self {
            address,
            intercepts: patterns.iter().filter_map(|p| p.parse().ok()).collect(),
            priority,
            mode,
            also: Vec::new(),
        }
    }

    /// True when the mod runs in the `stage` of that mode.
    pub fn runs_in(&self, stage: ModMode) -> bool {
        self.mode == stage || self.also.contains(&stage)
    }

    /// True when the mod intercepts this type.
    pub fn intercepts(&self, event_type: &EventType) -> bool {
        self.intercepts.iter().any(|p| p.matches(event_type))
    }
}

/// What a join claims, for guards that decide admission.
#[derive(Debug, Clone, PartialEq)]
pub struct JoinClaim {
    /// The address asking to join.
    pub address: Address,
    /// The verification level the core established for it.
    pub verification: Verification,
    /// The DID the join proved (level 2 tokens name one, level 3 proves one).
    pub did: Option<String>,
    /// Where the join came from, when the host knows (the client's IP, else
    /// its connection): throttles count joins by it, never by the address they claim.
    pub from: Option<String>,
}

/// The network's log read by event id, for mods that act on an earlier
/// event (a delegation names a message): durable, so it answers after the
/// network slept or restarted, for every event the log still keeps.
pub trait LoggedEvents {
    /// The logged event with this id, while the log keeps it.
    fn logged(&self, id: &EventId) -> Option<Event>;
}

/// A log that keeps nothing (tests of a mod alone).
pub struct NoLog;

impl LoggedEvents for NoLog {
    fn logged(&self, _id: &EventId) -> Option<Event> {
        None
    }
}

/// What mods may read: the network's state, its log and the moment.
pub struct Context<'a> {
    /// Members, channels, groups, resources.
    pub state: &'a State,
    /// The network's configuration.
    pub config: &'a crate::model::config::NetworkConfig,
    /// Current time, unix milliseconds.
    pub now: Timestamp,
    /// For `network.agent.join`: who joins and at which level.
    pub join: Option<&'a JoinClaim>,
    /// The network's log, by event id.
    pub log: &'a dyn LoggedEvents,
}

/// A state change a mod asks the network to make.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// Create a channel (if missing) and add these members.
    EnsureChannel {
        /// The channel name.
        name: String,
        /// Members to add.
        members: Vec<Address>,
    },
    /// Persist a mod's state under its name.
    SaveModState {
        /// The mod's name.
        name: &'static str,
        /// Its state.
        state: Value,
    },
}

/// Where mods put the events they emit and the changes they ask for.
pub struct Outbox<'a> {
    ids: &'a mut UlidGenerator,
    network: &'a NetworkId,
    now: Timestamp,
    pub(crate) events: Vec<Event>,
    pub(crate) commands: Vec<Command>,
}

impl<'a> Outbox<'a> {
    pub(crate) fn new(ids: &'a mut UlidGenerator, network: &'a NetworkId, now: Timestamp) -> Self {
        Self {
            ids,
            network,
            now,
            events: Vec::new(),
            commands: Vec::new(),
        }
    }

    /// Emits a new event from `source`; `in_reply_to` links it to a request.
    pub fn emit(
        &mut self,
        source: &Address,
        event_type: EventType,
        target: Address,
        payload: Value,
        in_reply_to: Option<&Event>,
    ) {
        let mut metadata = Map::new();
        if let Some(request) = in_reply_to {
            metadata.insert("in_reply_to".into(), json!(request.id));
        }
        self.events.push(Event {
            id: self.ids.next_id(self.now),
            event_type,
            source: source.clone(),
            target,
            payload,
            metadata,
            enrichment: None,
            timestamp: self.now,
            network: Some(self.network.clone()),
        });
    }

    /// Asks the network to change its state.
    pub fn command(&mut self, command: Command) {
        self.commands.push(command);
    }
}

/// A pipeline interceptor. Implement the method of the mod's mode.
pub trait Mod {
    /// Identity and place in the pipeline.
    fn spec(&self) -> &ModSpec;

    /// Guards: accept or reject.
    fn guard(&mut self, _cx: &Context<'_>, _event: &Event) -> Result<(), Rejection> {
        Ok(())
    }

    /// Transforms: rewrite the event, emit more.
    fn transform(&mut self, _cx: &Context<'_>, _event: &mut Event, _out: &mut Outbox<'_>) {}

    /// Observers: see the accepted event, emit more.
    fn observe(&mut self, _cx: &Context<'_>, _event: &Event, _out: &mut Outbox<'_>) {}

    /// Handles an event addressed to this mod (`target: mod/{name}`).
    fn handle(
        &mut self,
        _cx: &Context<'_>,
        event: &Event,
        _out: &mut Outbox<'_>,
    ) -> Result<(), Rejection> {
        Err(Rejection::new(
            crate::error::ErrorCode::UnknownTarget,
            format!("{} takes no events addressed to it", event.target),
        ))
    }

    /// What the mod reports to masters (`mod/analytics`: its counts); `None` for most.
    fn report(&self) -> Option<Value> {
        None
    }

    /// Restores state saved with [`Command::SaveModState`].
    fn restore(&mut self, _state: &Value) {}
}
