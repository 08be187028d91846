//! Mods: ordered interceptors of the event pipeline (seed 000 §7).
//!
//! A mod has an address (`mod/{name}`), the event-type patterns it
//! intercepts, a priority (lower runs earlier) and a mode:
//!
//! | mode | may change the event | may reject | may emit |
//! |---|---|---|---|
//! | guard | no | yes | no |
//! | transform | yes | no | yes |
//! | observe | no | no | yes |
//!
//! The [`Pipeline`] runs the guards, then the transforms, then the observers,
//! each group by priority. A network's mods are configuration
//! ([`ModConfig`]): a bare network loads none.

mod access_control;
mod analytics;
mod auth;
mod enrichment;
mod persistence;
mod rate_limiter;
mod workspace;

pub use analytics::Analytics;
pub use rate_limiter::RateLimit;

use crate::address::{Address, Entity};
use crate::error::Rejection;
use crate::event::Event;
use crate::event_type::{EventPattern, EventType};
use crate::membership::Verification;
use crate::network::State;
use crate::network_id::NetworkId;
use crate::ulid::UlidGenerator;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

/// How a mod takes part in the pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModMode {
    /// Inspects and may reject.
    Guard,
    /// May rewrite the event and emit new ones.
    Transform,
    /// Sees the final event; may emit, never change.
    Observe,
}

/// The standard mods a network can load, with their settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "kebab-case")]
pub enum ModConfig {
    /// `mod/auth`: access policy, credentials and minimum verification at join.
    Auth,
    /// `mod/access-control`: resource permissions and channel membership.
    AccessControl,
    /// `mod/rate-limiter`: a token bucket per source.
    RateLimiter(RateLimit),
    /// `mod/enrichment`: adds the sender's role, verification and receive time.
    Enrichment,
    /// `mod/workspace`: sessions as channels, presence.
    Workspace,
    /// `mod/persistence`: keeps events queryable with `network.events.query`.
    Persistence,
    /// `mod/analytics`: counts per type and source, readable by masters.
    Analytics,
}

impl ModConfig {
    /// The mod's name (`auth`, `access-control`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Auth => "auth",
            Self::AccessControl => "access-control",
            Self::RateLimiter(_) => "rate-limiter",
            Self::Enrichment => "enrichment",
            Self::Workspace => "workspace",
            Self::Persistence => "persistence",
            Self::Analytics => "analytics",
        }
    }

    /// The mod's default configuration for a name, as `POST /v1/networks` lists them.
    pub fn from_name(name: &str) -> Option<Self> {
        let name = name.strip_prefix("mod/").unwrap_or(name);
        Some(match name {
            "auth" => Self::Auth,
            "access-control" => Self::AccessControl,
            "rate-limiter" => Self::RateLimiter(RateLimit::default()),
            "enrichment" => Self::Enrichment,
            "workspace" => Self::Workspace,
            "persistence" => Self::Persistence,
            "analytics" => Self::Analytics,
            _ => return None,
        })
    }

    fn instantiate(&self) -> Box<dyn Mod> {
        match self {
            Self::Auth => Box::new(auth::Auth::new()),
            Self::AccessControl => Box::new(access_control::AccessControl::new()),
            Self::RateLimiter(limit) => Box::new(rate_limiter::RateLimiter::new(*limit)),
            Self::Enrichment => Box::new(enrichment::Enrichment::new()),
            Self::Workspace => Box::new(workspace::Workspace::new()),
            Self::Persistence => Box::new(persistence::Persistence::new()),
            Self::Analytics => Box::new(analytics::AnalyticsMod::new()),
        }
    }
}

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
        }
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
}

/// What mods may read: the network's state and the moment.
pub struct Context<'a> {
    /// Members, channels, groups, resources.
    pub state: &'a State,
    /// The network's configuration.
    pub config: &'a crate::network::NetworkConfig,
    /// Current time, unix milliseconds.
    pub now: u64,
    /// For `network.agent.join`: who joins and at which level.
    pub join: Option<&'a JoinClaim>,
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
    now: u64,
    pub(crate) events: Vec<Event>,
    pub(crate) commands: Vec<Command>,
}

impl<'a> Outbox<'a> {
    pub(crate) fn new(ids: &'a mut UlidGenerator, network: &'a NetworkId, now: u64) -> Self {
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

    /// Restores state saved with [`Command::SaveModState`].
    fn restore(&mut self, _state: &Value) {}
}

/// The loaded mods, in pipeline order.
pub struct Pipeline {
    mods: Vec<Box<dyn Mod>>,
}

impl Pipeline {
    /// Instantiates the configured mods, ordered by mode then priority.
    pub fn new(configs: &[ModConfig]) -> Self {
        let mut mods: Vec<Box<dyn Mod>> = configs.iter().map(ModConfig::instantiate).collect();
        mods.sort_by_key(|m| (m.spec().mode, m.spec().priority));
        Self { mods }
    }

    /// The loaded mods' addresses in pipeline order.
    pub fn addresses(&self) -> Vec<Address> {
        self.mods.iter().map(|m| m.spec().address.clone()).collect()
    }

    /// True when a mod with this address is loaded.
    pub fn has(&self, address: &Address) -> bool {
        self.mods.iter().any(|m| &m.spec().address == address)
    }

    /// Runs the guards; the first rejection stops the pipeline.
    pub fn guard(&mut self, cx: &Context<'_>, event: &Event) -> Result<(), Rejection> {
        for m in self
            .mods
            .iter_mut()
            .filter(|m| m.spec().mode == ModMode::Guard)
        {
            if m.spec().intercepts(&event.event_type) {
                m.guard(cx, event)?;
            }
        }
        Ok(())
    }

    /// Runs the transforms in order.
    pub fn transform(&mut self, cx: &Context<'_>, event: &mut Event, out: &mut Outbox<'_>) {
        for m in self
            .mods
            .iter_mut()
            .filter(|m| m.spec().mode == ModMode::Transform)
        {
            if m.spec().intercepts(&event.event_type) {
                m.transform(cx, event, out);
            }
        }
    }

    /// Runs the observers in order.
    pub fn observe(&mut self, cx: &Context<'_>, event: &Event, out: &mut Outbox<'_>) {
        for m in self
            .mods
            .iter_mut()
            .filter(|m| m.spec().mode == ModMode::Observe)
        {
            if m.spec().intercepts(&event.event_type) {
                m.observe(cx, event, out);
            }
        }
    }

    /// Hands an event addressed to `mod/{name}` to that mod.
    pub fn handle(
        &mut self,
        cx: &Context<'_>,
        event: &Event,
        out: &mut Outbox<'_>,
    ) -> Result<(), Rejection> {
        match self
            .mods
            .iter_mut()
            .find(|m| m.spec().address == event.target.to_local())
        {
            Some(m) => m.handle(cx, event, out),
            None => Err(Rejection::new(
                crate::error::ErrorCode::UnknownTarget,
                format!("{} is not loaded in this network", event.target),
            )),
        }
    }

    /// Restores a mod's saved state by name.
    pub fn restore(&mut self, name: &str, state: &Value) {
        for m in &mut self.mods {
            if matches!(m.spec().address.entity(), Entity::Mod(n) if n.as_str() == name) {
                m.restore(state);
            }
        }
    }
}
