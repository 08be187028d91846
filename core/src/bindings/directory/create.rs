//! Creating networks: `POST /v1/networks` and the demo network.
//!
//! Body: `{name, access: {policy, token?, min_verification?}, delivery?, mods?: [names],
//! public?, description?, presence_timeout_ms?, keys?: {address: ed25519 public key hex},
//! bridges?: {network id: bridge agent address}, retention?: {history_ms?, history_events?,
//! undelivered_ms?, idle_member_ms?}, allowed_origins?: ["*" | "https://host[:port]"],
//! gateways?: {count}}`. The Worker gives the
//! network a fresh id ([`new_network_id`]) and hands the body to the
//! network's object, which builds the configuration ([`config_from_request`])
//! with a random administrator credential, returned once ([`created`]).

use crate::bindings::exchange::json_body;
use crate::bindings::message::Response;
use crate::crypto::{sha256_hex, to_hex};
use crate::ids::network_id::NetworkIdError;
use crate::model::config::ModConfig;
use crate::model::config::{Access, AccessPolicy, ConfigError, DeliveryMode};
use crate::model::origins::{AllowedOrigins, OriginError};
use crate::{Address, Coded, ErrorCode, Limits, NetworkConfig, NetworkId, Verification};
use serde_json::{Value, json};

/// The network every edge has from its first start, so newcomers can use agentnet at once.
pub const DEMO_NETWORK: &str = "demo";

/// The configuration of a network that exists without being created: the demo network.
pub fn builtin_config(id: &NetworkId) -> Option<NetworkConfig> {
    (id.as_str() == DEMO_NETWORK).then(|| {
        let mut config = NetworkConfig::open(id.clone(), "Demo");
        config.mods = vec![
            ModConfig::Workspace(Default::default()),
            ModConfig::Persistence,
        ];
        // Anyone may try the demo from a page of their own.
        config.allowed_origins = AllowedOrigins::any();
        config
    })
}

/// A fresh network id from randomness: 128 bits as 32 lowercase hex
/// characters, so ids neither collide nor can be enumerated.
pub fn new_network_id(seed: &[u8; 32]) -> String {
    to_hex(&seed[..16])
}

/// Why a creation request cannot become a network (all `invalid_request`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CreateError {
    /// The body has no `id` (the Worker sets it).
    #[error("id is missing")]
    MissingId,
    /// The id is not a network id.
    #[error("id: {0}")]
    InvalidId(#[from] NetworkIdError),
    /// No name, or a name over 200 characters.
    #[error("name is required (1-200 characters)")]
    InvalidName,
    /// An unknown access policy.
    #[error("access.policy is open, token, invite or did-verify")]
    InvalidPolicy,
    /// The token policy without a token of 8 characters or more.
    #[error("access.token (8+ characters) is required for the token policy")]
    TokenTooShort,
    /// `access.trusted_issuers` is not a short list of http(s) origins.
    #[error("access.trusted_issuers is a list of at most 16 http(s) origins")]
    InvalidIssuers,
    /// A verification minimum that is not a small whole number.
    #[error("access.min_verification is 0-3")]
    InvalidMinVerification,
    /// A verification level above 3.
    #[error("{0}")]
    VerificationLevel(String),
    /// An unknown delivery mode.
    #[error("delivery is at-least-once or at-most-once")]
    InvalidDelivery,
    /// `mods` is not a list of names.
    #[error("mods is a list of mod names")]
    InvalidMods,
    /// A mod name no mod has.
    #[error("unknown mod {0}")]
    UnknownMod(String),
    /// `keys` is not a map of addresses to keys.
    #[error("keys maps registered addresses (openagents:{{name}}) to Ed25519 public keys in hex")]
    InvalidKeys,
    /// `gateways` is not `{count}` with 1 to 1,024 gateways.
    #[error("gateways is {{count}} with 1 to 1024 gateway objects")]
    InvalidGateways,
    /// `bridges` is not a map of network ids to addresses.
    #[error("bridges maps network ids to the local agent that relays to them")]
    InvalidBridges,
    /// `a2a_guest` is not a local agent or human address.
    #[error("a2a_guest is the local agent or human address public A2A callers act as")]
    InvalidGuest,
    /// `retention` is not an object of windows in milliseconds.
    #[error(
        "retention is {{history_ms?, history_events?, undelivered_ms?, idle_member_ms?}} with whole numbers (null: for ever)"
    )]
    InvalidRetention,
    /// `allowed_origins` is not a list of `*` and web origins (`invalid_origin`).
    #[error(transparent)]
    Origins(#[from] OriginError),
    /// The configuration would not enforce what it promises.
    #[error(transparent)]
    Config(#[from] ConfigError),
}

impl Coded for CreateError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::Origins(err) => err.code(),
            _ => ErrorCode::InvalidRequest,
        }
    }
}

impl From<&CreateError> for Response {
    fn from(err: &CreateError) -> Self {
        Response::error(err.code(), err.to_string())
    }
}

/// Builds the configuration (with its id from `body.id`) and the new
/// administrator token (whose SHA-256 the configuration keeps), from `seed`.
pub fn config_from_request(
    body: &Value,
    seed: &[u8; 32],
) -> Result<(NetworkConfig, String), CreateError> {
    let id = body
        .get("id")
        .and_then(Value::as_str)
        .ok_or(CreateError::MissingId)?;
    let name = body
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim();
    let id: NetworkId = id.parse()?;
    if name.is_empty() || name.len() > 200 {
        return Err(CreateError::InvalidName);
    }
    let mut config = NetworkConfig::open(id, name);
    config.access = access(body.get("access").unwrap_or(&Value::Null))?;
    if let Some(delivery) = body.get("delivery").filter(|d| !d.is_null()) {
        config.delivery = serde_json::from_value::<DeliveryMode>(delivery.clone())
            .map_err(|_| CreateError::InvalidDelivery)?;
    }
    if let Some(mods) = body.get("mods").filter(|m| !m.is_null()) {
        for name in mods.as_array().ok_or(CreateError::InvalidMods)? {
            let name = name.as_str().ok_or(CreateError::InvalidMods)?;
            let module =
                ModConfig::from_name(name).ok_or_else(|| CreateError::UnknownMod(name.into()))?;
            config.mods.push(module);
        }
    }
    // A policy other than open is only enforced by mod/auth: load it when it is missing.
    let needs_auth = config.access.policy != AccessPolicy::Open
        || config.access.min_verification > Verification::ANONYMOUS;
    if needs_auth && !config.mods.iter().any(|m| matches!(m, ModConfig::Auth)) {
        config.mods.insert(0, ModConfig::Auth);
    }
    config.public = body.get("public").and_then(Value::as_bool).unwrap_or(false);
    if let Some(timeout) = body.get("presence_timeout_ms").and_then(Value::as_u64) {
        config.presence_timeout_ms = timeout.clamp(1_000, 24 * 3600 * 1000);
    }
    if let Some(description) = body.get("description").and_then(Value::as_str) {
        config
            .metadata
            .insert("description".into(), Value::String(description.to_owned()));
    }
    if let Some(keys) = body.get("keys").filter(|k| !k.is_null()) {
        config.keys = serde_json::from_value(keys.clone()).map_err(|_| CreateError::InvalidKeys)?;
    }
    if let Some(bridges) = body.get("bridges").filter(|b| !b.is_null()) {
        config.bridges =
            serde_json::from_value(bridges.clone()).map_err(|_| CreateError::InvalidBridges)?;
    }
    if let Some(guest) = body.get("a2a_guest").filter(|g| !g.is_null()) {
        let guest: Address = guest
            .as_str()
            .and_then(|g| g.parse().ok())
            .filter(|g: &Address| g.is_local() && g.entity().is_participant())
            .filter(|g| g != &Address::broadcast())
            .ok_or(CreateError::InvalidGuest)?;
        config.a2a_guest = Some(guest);
    }
    if let Some(retention) = body.get("retention").filter(|r| !r.is_null()) {
        let retention: crate::model::retention::Retention =
            serde_json::from_value(retention.clone()).map_err(|_| CreateError::InvalidRetention)?;
        config.retention = retention.clamped();
    }
    if let Some(origins) = body.get("allowed_origins").filter(|o| !o.is_null()) {
        let entries = serde_json::from_value::<Vec<String>>(origins.clone())
            .map_err(|_| OriginError::NotAList)?;
        config.allowed_origins = AllowedOrigins::parse(&entries)?;
    }
    if let Some(gateways) = body.get("gateways").filter(|g| !g.is_null()) {
        let count = gateways
            .get("count")
            .and_then(Value::as_u64)
            .and_then(|c| u32::try_from(c).ok())
            .and_then(crate::model::config::Gateways::new)
            .ok_or(CreateError::InvalidGateways)?;
        config.gateways = Some(count);
    }
    config.validate()?;
    let admin_token = to_hex(seed);
    config.access.admin_token_sha256 = Some(sha256_hex(admin_token.as_bytes()));
    Ok((config, admin_token))
}

/// The `access` section of a creation request.
fn access(access: &Value) -> Result<Access, CreateError> {
    let policy: AccessPolicy = match access.get("policy") {
        None | Some(Value::Null) => AccessPolicy::Open,
        Some(p) => serde_json::from_value(p.clone()).map_err(|_| CreateError::InvalidPolicy)?,
    };
    let mut result = match policy {
        AccessPolicy::Token => {
            let token = access
                .get("token")
                .and_then(Value::as_str)
                .filter(|t| t.len() >= 8)
                .ok_or(CreateError::TokenTooShort)?;
            Access::token(token)
        }
        other => Access {
            policy: other,
            ..Access::open()
        },
    };
    if let Some(issuers) = access.get("trusted_issuers").filter(|i| !i.is_null()) {
        result.trusted_issuers = serde_json::from_value::<Vec<String>>(issuers.clone())
            .ok()
            .filter(|list| list.len() <= 16 && list.iter().all(|i| i.starts_with("http")))
            .ok_or(CreateError::InvalidIssuers)?;
    }
    if let Some(level) = access.get("min_verification") {
        let level = level
            .as_u64()
            .and_then(|l| u8::try_from(l).ok())
            .ok_or(CreateError::InvalidMinVerification)?;
        result.min_verification =
            Verification::try_from(level).map_err(CreateError::VerificationLevel)?;
    }
    Ok(result)
}

/// Reads a creation body (JSON, within the default frame limit) into a
/// configuration and its administrator token, or the answer that refuses it.
pub fn request(text: &str, seed: &[u8; 32]) -> Result<(NetworkConfig, String), Response> {
    let body = json_body(text, &Limits::default())?;
    config_from_request(&body, seed).map_err(|err| Response::from(&err))
}

/// The answer when the network to create exists already.
pub fn already_exists(id: &NetworkId) -> Response {
    Response::error(ErrorCode::AlreadyExists, format!("network {id} exists"))
}

/// The answer to a creation: `201 {id, profile, admin_token}`.
pub fn created(id: &NetworkId, profile: Value, admin_token: &str) -> Response {
    Response::json(json!({"id": id, "profile": profile, "admin_token": admin_token}))
        .with_status(201)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn creation_requests_become_configurations_or_coded_errors() {
        let seed = [4; 32];
        let ok = json!({"id": "abcd1234", "name": " Team ", "access": {"policy": "token", "token": "12345678"},
            "mods": ["workspace"], "public": true, "description": "d", "presence_timeout_ms": 5,
            "retention": {"undelivered_ms": 10, "history_ms": 60000}});
        let (config, admin) = config_from_request(&ok, &seed).unwrap();
        assert_eq!(config.name, "Team");
        assert_eq!(config.retention.undelivered_ms, 1_000);
        assert_eq!(config.retention.history_ms, Some(60_000));
        assert!(config.public && config.presence_timeout_ms == 1_000);
        assert_eq!(
            config.mods.first().map(|m| m.name()),
            Some("auth"),
            "auth is added"
        );
        assert!(config.is_admin_credential(Some(&admin)));
        for (body, expected) in [
            (json!({"name": "x"}), CreateError::MissingId),
            (json!({"id": "abcd1234"}), CreateError::InvalidName),
            (
                json!({"id": "abcd1234", "name": "x", "access": {"policy": "nope"}}),
                CreateError::InvalidPolicy,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "access": {"policy": "token", "token": "short"}}),
                CreateError::TokenTooShort,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "access": {"min_verification": "high"}}),
                CreateError::InvalidMinVerification,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "delivery": "sometimes"}),
                CreateError::InvalidDelivery,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "mods": "workspace"}),
                CreateError::InvalidMods,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "mods": ["mod/none"]}),
                CreateError::UnknownMod("mod/none".into()),
            ),
            (
                json!({"id": "abcd1234", "name": "x", "keys": [1]}),
                CreateError::InvalidKeys,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "bridges": 3}),
                CreateError::InvalidBridges,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "retention": {"history_ms": -1}}),
                CreateError::InvalidRetention,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "gateways": {"count": 0}}),
                CreateError::InvalidGateways,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "gateways": {"count": 1025}}),
                CreateError::InvalidGateways,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "gateways": 4}),
                CreateError::InvalidGateways,
            ),
            (
                json!({"id": "abcd1234", "name": "x", "mods": ["workspace", "workspace"]}),
                CreateError::Config(crate::model::config::ConfigError::DuplicateMod(
                    "workspace".into(),
                )),
            ),
        ] {
            let err = config_from_request(&body, &seed).unwrap_err();
            assert_eq!(err, expected, "{body}");
            assert_eq!(
                Response::from(&err).status_and_code(),
                (400, "invalid_request")
            );
        }
        let gateways = json!({"id": "abcd1234", "name": "x", "gateways": {"count": 8}});
        let (config, _) = config_from_request(&gateways, &seed).unwrap();
        assert_eq!(config.gateways.map(|g| g.count), Some(8));
        let plain = json!({"id": "abcd1234", "name": "x"});
        assert_eq!(config_from_request(&plain, &seed).unwrap().0.gateways, None);
        let origins = json!({"id": "abcd1234", "name": "x", "allowed_origins": ["https://App.example:443", "*"]});
        let (config, _) = config_from_request(&origins, &seed).unwrap();
        assert_eq!(
            serde_json::to_value(&config.allowed_origins).unwrap(),
            json!(["*", "https://app.example"])
        );
        for bad in [
            json!("https://a.example"),
            json!(["https://a.example/"]),
            json!([7]),
        ] {
            let body = json!({"id": "abcd1234", "name": "x", "allowed_origins": bad});
            let err = config_from_request(&body, &seed).unwrap_err();
            assert!(matches!(err, CreateError::Origins(_)), "{body}");
            assert_eq!(
                Response::from(&err).status_and_code(),
                (400, "invalid_origin")
            );
        }
        let level = json!({"id": "abcd1234", "name": "x", "access": {"min_verification": 5}});
        assert!(matches!(
            config_from_request(&level, &seed),
            Err(CreateError::VerificationLevel(_))
        ));
        assert!(matches!(
            config_from_request(&json!({"id": "A B", "name": "x"}), &seed),
            Err(CreateError::InvalidId(_))
        ));

        let demo = builtin_config(&"demo".parse().unwrap()).unwrap();
        let names: Vec<&str> = demo.mods.iter().map(|m| m.name()).collect();
        assert_eq!(
            (demo.name.as_str(), names),
            ("Demo", vec!["workspace", "persistence"])
        );
        assert!(builtin_config(&"other".parse().unwrap()).is_none());
        assert_eq!(new_network_id(&[0xab; 32]), "ab".repeat(16));
    }
}
