//! `POST /v1/networks`: turning a creation request into a network configuration.
//!
//! Body: `{name, access: {policy, token?, min_verification?}, delivery?, mods?: [names],
//! public?, description?, presence_timeout_ms?, keys?: {address: ed25519 public key hex},
//! bridges?: {network id: bridge agent address}}`.
//! The id is generated; the administrator credential is random and returned once.

use crate::host::random_seed;
use agentnet_core::crypto::{sha256_hex, to_hex};
use agentnet_core::model::config::ModConfig;
use agentnet_core::model::config::{Access, AccessPolicy, DeliveryMode};
use agentnet_core::{NetworkConfig, Verification};
use serde_json::Value;

/// A fresh network id: 8 lowercase hex characters.
pub fn new_network_id() -> String {
    to_hex(&random_seed()[..4])
}

/// Builds the configuration (with its id from `body.id`) and a new administrator token.
pub fn config_from_request(body: &Value) -> Result<(NetworkConfig, String), String> {
    let id = body
        .get("id")
        .and_then(Value::as_str)
        .ok_or("id is missing")?;
    let id = id.parse().map_err(|e| format!("id: {e}"))?;
    let name = body
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim();
    if name.is_empty() || name.len() > 200 {
        return Err("name is required (1-200 characters)".into());
    }
    let mut config = NetworkConfig::open(id, name);
    let access = body.get("access").cloned().unwrap_or(Value::Null);
    let policy: AccessPolicy = match access.get("policy") {
        None | Some(Value::Null) => AccessPolicy::Open,
        Some(p) => serde_json::from_value(p.clone())
            .map_err(|_| "access.policy is open, token, invite or did-verify")?,
    };
    config.access = match policy {
        AccessPolicy::Token => {
            let token = access
                .get("token")
                .and_then(Value::as_str)
                .filter(|t| t.len() >= 8)
                .ok_or("access.token (8+ characters) is required for the token policy")?;
            Access {
                token_sha256: Some(sha256_hex(token.as_bytes())),
                ..Access::token(token)
            }
        }
        other => Access {
            policy: other,
            ..Access::open()
        },
    };
    if let Some(level) = access.get("min_verification") {
        let level = level
            .as_u64()
            .and_then(|l| u8::try_from(l).ok())
            .ok_or("access.min_verification is 0-3")?;
        config.access.min_verification = Verification::try_from(level)?;
    }
    if let Some(delivery) = body.get("delivery").filter(|d| !d.is_null()) {
        config.delivery = serde_json::from_value::<DeliveryMode>(delivery.clone())
            .map_err(|_| "delivery is at-least-once or at-most-once")?;
    }
    if let Some(mods) = body.get("mods").filter(|m| !m.is_null()) {
        let names = mods.as_array().ok_or("mods is a list of mod names")?;
        for name in names {
            let name = name.as_str().ok_or("mods is a list of mod names")?;
            config
                .mods
                .push(ModConfig::from_name(name).ok_or_else(|| format!("unknown mod {name}"))?);
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
        config.keys = serde_json::from_value(keys.clone()).map_err(
            |_| "keys maps registered addresses (openagents:{name}) to Ed25519 public keys in hex",
        )?;
    }
    if let Some(bridges) = body.get("bridges").filter(|b| !b.is_null()) {
        config.bridges = serde_json::from_value(bridges.clone())
            .map_err(|_| "bridges maps network ids to the local agent that relays to them")?;
    }
    config.validate().map_err(|e| e.to_string())?;
    Ok((config, to_hex(&random_seed())))
}
