//! A network's configuration: identity, access, delivery, status, limits, mods (ONM §3).

use crate::error::{Coded, ErrorCode};
use crate::event::Limits;
use crate::ids::address::Address;
use crate::ids::network_id::NetworkId;
use crate::ids::standing::Verification;
use crate::model::origins::AllowedOrigins;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Who may join.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum AccessPolicy {
    /// Anyone, without credentials.
    Open,
    /// Joiners present the network token.
    Token,
    /// An existing member must invite the joiner.
    Invite,
    /// Joiners present a verified DID (verification level 3).
    DidVerify,
}

/// The access section of a network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    /// The join policy.
    pub policy: AccessPolicy,
    /// Lowest verification level accepted at join.
    #[serde(default)]
    pub min_verification: Verification,
    /// SHA-256 (lowercase hex) of the network token, for the `token` policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_sha256: Option<String>,
    /// SHA-256 of the administrator credential: presenting it (`credentials.admin_token`)
    /// admits whatever the policy and makes the member a master.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub admin_token_sha256: Option<String>,
    /// Issuers (origins such as `https://agentnet.example`) whose EdDSA JWTs
    /// prove level 2 here; their keys are read from `{issuer}/.well-known/jwks.json`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trusted_issuers: Vec<String>,
}

impl Access {
    /// Open access, no verification needed.
    pub fn open() -> Self {
        Self {
            policy: AccessPolicy::Open,
            min_verification: Verification::ANONYMOUS,
            token_sha256: None,
            admin_token_sha256: None,
            trusted_issuers: Vec::new(),
        }
    }

    /// Token access with the token's SHA-256 stored, never the token.
    pub fn token(token: &str) -> Self {
        Self {
            policy: AccessPolicy::Token,
            min_verification: Verification::ANONYMOUS,
            token_sha256: Some(crate::crypto::sha256_hex(token.as_bytes())),
            admin_token_sha256: None,
            trusted_issuers: Vec::new(),
        }
    }
}

/// Delivery guarantee (ONM §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum DeliveryMode {
    /// Persist and retry until acknowledged.
    #[default]
    AtLeastOnce,
    /// Deliver to whoever is online; no retention.
    AtMostOnce,
}

/// Default presence timeout: three missed 20-second heartbeats.
pub const DEFAULT_PRESENCE_TIMEOUT_MS: u64 = 60_000;

fn default_presence_timeout() -> u64 {
    DEFAULT_PRESENCE_TIMEOUT_MS
}

/// Lifecycle status of a network.
///
/// * `active` — everything works;
/// * `paused` — members may join, ping, discover and query, but no other
///   event is accepted (`network_unavailable`);
/// * `archived` — read-only history: no joins, only ping, discover and query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum NetworkStatus {
    /// Fully working.
    #[default]
    Active,
    /// Temporarily read-only.
    Paused,
    /// Permanently read-only.
    Archived,
}

/// Why a configuration is unsafe or inconsistent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A non-open policy or a verification minimum without `mod/auth` would not be enforced.
    #[error("access policy {0:?} and min_verification need mod/auth in the mods list")]
    AuthModRequired(AccessPolicy),
    /// The token policy without a token hash.
    #[error("the token policy needs a token")]
    TokenMissing,
    /// The same mod twice.
    #[error("mod {0} is listed twice")]
    DuplicateMod(String),
    /// A registered key that is not a valid Ed25519 public key for a local registered address.
    #[error(
        "the key for {0} must be 64 hex characters of an Ed25519 public key registered for an openagents:{{name}} style address"
    )]
    InvalidKey(Address),
    /// A bridge for this network itself, or one that is not a local agent.
    #[error(
        "the bridge for {0} must be a local agent, human or registered agent of this network, for another network"
    )]
    InvalidBridge(NetworkId),
}

impl Coded for ConfigError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRequest
    }
}

/// A network's configuration.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NetworkConfig {
    /// Short, unique id.
    pub id: NetworkId,
    /// Human-readable name.
    pub name: String,
    /// Access policy and verification minimum.
    pub access: Access,
    /// Delivery guarantee.
    #[serde(default)]
    pub delivery: DeliveryMode,
    /// Lifecycle status.
    #[serde(default)]
    pub status: NetworkStatus,
    /// Size limits for incoming events.
    #[serde(default)]
    pub limits: Limits,
    /// The mods loaded, each with its settings; a bare network loads none.
    #[serde(default)]
    pub mods: Vec<ModConfig>,
    /// Addresses that join as `master`.
    #[serde(default)]
    pub masters: Vec<Address>,
    /// A member without a sign of life (frame, heartbeat) for this long goes offline.
    #[serde(default = "default_presence_timeout")]
    pub presence_timeout_ms: u64,
    /// Whether `GET /v1/networks` lists this network.
    #[serde(default)]
    pub public: bool,
    /// How long events, history and idle members are kept.
    #[serde(default)]
    pub retention: crate::model::retention::Retention,
    /// Description, icon, tags, …
    #[serde(default)]
    pub metadata: Map<String, Value>,
    /// Registered agents' Ed25519 public keys (64 hex characters), for
    /// verification level 1 (ONM §5): the network's key registry.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub keys: BTreeMap<Address, String>,
    /// Cross-network routing: events addressed `{network}::{entity}` go to the
    /// member named here for `{network}` (a bridge agent that relays them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub bridges: BTreeMap<NetworkId, Address>,
    /// A2A callers without a session act as this member, which may only
    /// start and take part in tasks (`task.*`); `None` (the default): they
    /// are refused with `401`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub a2a_guest: Option<Address>,
    /// Web origins whose pages may use the network's HTTP endpoints from a
    /// browser (CORS); empty (the default): only the network's own origin.
    #[serde(default, skip_serializing_if = "AllowedOrigins::is_empty")]
    pub allowed_origins: AllowedOrigins,
    /// Member agents installed as mods (`network.admin.mod.load` with `agent`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agent_mods: Vec<crate::model::agent_mod::AgentMod>,
    /// LLM agents the network's host runs (`network.admin.agent.host`); their keys are not here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosted_agents: Vec<crate::model::hosted::HostedAgent>,
    /// Standard mods' priorities a master set, by mod name (the rest keep their own).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub mod_priorities: BTreeMap<String, i32>,
    /// Addresses a master banned: they may not join again.
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub banned: std::collections::BTreeSet<Address>,
    /// Connection gateways (`docs/scale.md`): the sockets of members that join
    /// at their upgrade are held by this many gateway objects; `None` (the
    /// default): the network's own object holds every socket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gateways: Option<Gateways>,
    /// How big attached files may be, one and all together (`crate::files`).
    #[serde(
        default,
        skip_serializing_if = "crate::model::file_limits::FileLimits::is_default"
    )]
    pub files: crate::model::file_limits::FileLimits,
}

/// How many gateway objects hold a network's sockets (fixed for the
/// network's life: a member's gateway is a hash over them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gateways {
    /// The number of gateways, 1 to [`Gateways::MAX`].
    pub count: u32,
}

impl Gateways {
    /// The most gateways a network may have.
    pub const MAX: u32 = 1_024;

    /// `count` gateways, when within 1 to [`Gateways::MAX`].
    pub fn new(count: u32) -> Option<Self> {
        (1..=Self::MAX).contains(&count).then_some(Self { count })
    }
}

impl NetworkConfig {
    /// An open, active, at-least-once network without mods.
    pub fn open(id: NetworkId, name: impl Into<String>) -> Self {
        Self {
            id,
            name: name.into(),
            access: Access::open(),
            delivery: DeliveryMode::AtLeastOnce,
            status: NetworkStatus::Active,
            limits: Limits::default(),
            mods: Vec::new(),
            masters: Vec::new(),
            presence_timeout_ms: default_presence_timeout(),
            public: false,
            retention: crate::model::retention::Retention::default(),
            metadata: Map::new(),
            keys: BTreeMap::new(),
            bridges: BTreeMap::new(),
            a2a_guest: None,
            allowed_origins: AllowedOrigins::default(),
            agent_mods: Vec::new(),
            hosted_agents: Vec::new(),
            mod_priorities: BTreeMap::new(),
            banned: Default::default(),
            gateways: None,
            files: Default::default(),
        }
    }

    /// True when `source` is the A2A guest and `event_type` is more than it
    /// may send: it sends `task.*` events only, and nobody joins as it (the
    /// network admits it itself, `Network::admit_a2a_guest`).
    pub fn guest_overreaches(&self, source: &Address, event_type: &str) -> bool {
        self.a2a_guest.as_ref() == Some(source) && !event_type.starts_with("task.")
    }

    /// True when `credentials.admin_token` in a join matches the administrator credential.
    pub fn is_admin_credential(&self, token: Option<&str>) -> bool {
        match (&self.access.admin_token_sha256, token) {
            (Some(expected), Some(token)) => crate::crypto::constant_time_eq(
                crate::crypto::sha256_hex(token.as_bytes()).as_bytes(),
                expected.as_bytes(),
            ),
            _ => false,
        }
    }

    /// Checks that the configuration enforces what it promises.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let has_auth = self.mods.iter().any(|m| matches!(m, ModConfig::Auth));
        let needs_auth = self.access.policy != AccessPolicy::Open
            || self.access.min_verification > Verification::ANONYMOUS;
        if needs_auth && !has_auth {
            return Err(ConfigError::AuthModRequired(self.access.policy));
        }
        if self.access.policy == AccessPolicy::Token && self.access.token_sha256.is_none() {
            return Err(ConfigError::TokenMissing);
        }
        for (address, key) in &self.keys {
            let registered = matches!(
                address.entity(),
                crate::ids::address::Entity::Registered { .. }
            );
            let valid_key = crate::crypto::from_hex::<32>(key)
                .is_some_and(|k| ed25519_dalek::VerifyingKey::from_bytes(&k).is_ok());
            if !registered || !address.is_local() || !valid_key {
                return Err(ConfigError::InvalidKey(address.clone()));
            }
        }
        for (network, bridge) in &self.bridges {
            if network == &self.id || !bridge.is_local() || !bridge.entity().is_participant() {
                return Err(ConfigError::InvalidBridge(network.clone()));
            }
        }
        let mut seen = std::collections::BTreeSet::new();
        for m in &self.mods {
            if !seen.insert(m.name()) {
                return Err(ConfigError::DuplicateMod(m.name().to_owned()));
            }
        }
        Ok(())
    }
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
    /// `mod/workspace`: sessions as channels, presence, the master as
    /// first responder, delegation.
    Workspace(WorkspaceSettings),
    /// `mod/persistence`: keeps events queryable with `network.events.query`.
    Persistence,
    /// `mod/analytics`: counts per type and source, readable by masters.
    Analytics,
}

impl ModConfig {
    /// Every standard mod's name, in the pipeline's usual order.
    pub const STANDARD_NAMES: [&'static str; 7] = [
        "auth",
        "access-control",
        "rate-limiter",
        "enrichment",
        "workspace",
        "persistence",
        "analytics",
    ];

    /// The mod's name (`auth`, `access-control`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Self::Auth => "auth",
            Self::AccessControl => "access-control",
            Self::RateLimiter(_) => "rate-limiter",
            Self::Enrichment => "enrichment",
            Self::Workspace(_) => "workspace",
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
            "workspace" => Self::Workspace(WorkspaceSettings::default()),
            "persistence" => Self::Persistence,
            "analytics" => Self::Analytics,
            _ => return None,
        })
    }
}

/// `mod/workspace` settings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkspaceSettings {
    /// The network's master agent: the first responder of messages to
    /// `agent:broadcast` with no addressee, and the master of sessions
    /// created without one of their own. `None`: only sessions that name a
    /// master have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub master: Option<Address>,
}

/// Rate-limiter settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RateLimit {
    /// Bucket size: events a source may send at once.
    pub burst: u32,
    /// Refill rate in events per second.
    pub per_second: f64,
}

impl Default for RateLimit {
    fn default() -> Self {
        Self {
            burst: 50,
            per_second: 20.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_standard_name_is_a_mod_of_that_name() {
        for name in ModConfig::STANDARD_NAMES {
            assert_eq!(ModConfig::from_name(name).map(|m| m.name()), Some(name));
        }
    }

    #[test]
    fn registered_keys_must_be_ed25519_keys_of_local_registered_addresses() {
        let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
        let key = crate::crypto::to_hex(&crate::verification::public_key_of(&[5; 32]));
        config
            .keys
            .insert("openagents:alice".parse().unwrap(), key.clone());
        assert_eq!(config.validate(), Ok(()));

        let mut agent = config.clone();
        agent.keys.insert("agent:bob".parse().unwrap(), key.clone());
        assert!(matches!(agent.validate(), Err(ConfigError::InvalidKey(_))));

        let mut short = config.clone();
        short
            .keys
            .insert("openagents:carol".parse().unwrap(), "abcd".into());
        let err = short.validate().unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidRequest);
        assert!(err.to_string().contains("openagents:carol"));

        // Keys survive a round trip through the stored JSON.
        let text = serde_json::to_string(&config).unwrap();
        let back: NetworkConfig = serde_json::from_str(&text).unwrap();
        assert_eq!(back.keys, config.keys);
    }
}
