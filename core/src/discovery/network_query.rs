//! `network.discovery.query` inside a network: the query a member sends
//! ([`query_from_payload`], the fields of `GET /registry/v1/discover`), the
//! registry search the host makes for it ([`registry_path`]), and the ranked
//! merge of the network's own members with the registry's answer ([`merge`]).

use super::error::DiscoveryError;
use super::search::{Query, encode_component};
use crate::model::requests::discovery::{DiscoveryQuery, Tags};
use crate::model::requests::field::{AsSent, read};
use serde_json::Value;
use std::cmp::Ordering;

/// A member asks the network (to `core`) for agents by capability.
pub const QUERY: &str = "network.discovery.query";
/// The network's answer, delivered to the member who asked.
pub const RESPONSE: &str = "network.discovery.response";
/// Results unless the query asks for fewer.
pub const DEFAULT_LIMIT: usize = 20;
/// Most results.
pub const MAX_LIMIT: usize = 100;

fn bad(name: &'static str, detail: &str) -> DiscoveryError {
    DiscoveryError::BadParameter {
        name,
        detail: detail.to_owned(),
    }
}

/// A text field: absent, `null` or blank is none; another type is refused.
fn optional_text(
    field: AsSent<String>,
    name: &'static str,
) -> Result<Option<String>, DiscoveryError> {
    Ok(field
        .checked(|| bad(name, "is a string"))?
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty()))
}

/// Reads a query payload `{q?, tags?, mode?, transport?, verification?,
/// network?, limit?}`: `tags` an array of strings (or one comma-separated
/// string), `verification` 0–3, `limit` 1–[`MAX_LIMIT`] (default
/// [`DEFAULT_LIMIT`]). A field of the wrong type is `invalid_parameter`.
pub fn query_from_payload(payload: &Value) -> Result<Query, DiscoveryError> {
    if !payload.is_object() {
        return Err(bad("payload", "is a JSON object"));
    }
    let sent = read::<DiscoveryQuery>(payload);
    let limit = match sent.limit.non_null().sent() {
        None => DEFAULT_LIMIT,
        Some(n) => n
            .filter(|n| *n >= 1)
            .map(|n| usize::try_from(n).unwrap_or(MAX_LIMIT).min(MAX_LIMIT))
            .ok_or_else(|| bad("limit", "is a whole number from 1"))?,
    };
    let mut query = Query::text(&optional_text(sent.q, "q")?.unwrap_or_default(), limit);
    let tags = sent
        .tags
        .checked(|| bad("tags", "is an array of strings"))?;
    query.tags = match tags {
        None => Vec::new(),
        Some(Tags::Joined(list)) => list
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
        Some(Tags::Listed(items)) => items
            .iter()
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect(),
    };
    query.mode = optional_text(sent.mode, "mode")?;
    query.transport = optional_text(sent.transport, "transport")?;
    query.network = optional_text(sent.network, "network")?;
    query.verification = match sent.verification.non_null().sent() {
        None => 0,
        Some(n) => n
            .filter(|n| *n <= 3)
            .ok_or_else(|| bad("verification", "is a level from 0 to 3"))?,
    };
    Ok(query)
}

/// The registry's `discover` path and query string for `query`.
pub fn registry_path(query: &Query) -> String {
    let mut params = vec![
        format!("q={}", encode_component(&query.terms.join(" "))),
        format!("limit={}", query.limit),
    ];
    if !query.tags.is_empty() {
        params.push(format!("tags={}", encode_component(&query.tags.join(","))));
    }
    for (name, value) in [
        ("mode", &query.mode),
        ("transport", &query.transport),
        ("network", &query.network),
    ] {
        if let Some(value) = value {
            params.push(format!("{name}={}", encode_component(value)));
        }
    }
    if query.verification > 0 {
        params.push(format!("verification={}", query.verification));
    }
    format!("/registry/v1/discover?{}", params.join("&"))
}

fn score(hit: &Value) -> u64 {
    hit.get("score").and_then(Value::as_u64).unwrap_or(0)
}

fn text<'a>(hit: &'a Value, key: &str) -> &'a str {
    hit.get(key).and_then(Value::as_str).unwrap_or("")
}

fn order(a: &Value, b: &Value) -> Ordering {
    score(b)
        .cmp(&score(a))
        .then_with(|| text(a, "name").cmp(text(b, "name")))
        .then_with(|| text(a, "id").cmp(text(b, "id")))
}

/// True for the registry's entry of a member of `network` itself (the
/// network's own answer has that member, current).
pub fn is_own_member(hit: &Value, network: &str) -> bool {
    text(hit, "kind") == "member" && text(hit, "network") == network
}

/// The network's own hits and the registry's, ranked as one list (best
/// score, then name, then id), at most `limit`. The registry's entries for
/// members of `network` itself are dropped: the network's own are current.
pub fn merge(local: Vec<Value>, registry: Vec<Value>, network: &str, limit: usize) -> Vec<Value> {
    let mut all = local;
    all.extend(
        registry
            .into_iter()
            .filter(|hit| hit.is_object() && !is_own_member(hit, network)),
    );
    crate::sorting::sort_by(&mut all, order);
    all.truncate(limit);
    all
}

#[cfg(test)]
#[path = "network_query_tests.rs"]
mod tests;
