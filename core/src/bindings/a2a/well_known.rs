//! The card a well-known URI answers, by the `A2A-Version` asked for.
//!
//! The current card is 1.0's. A request without `A2A-Version` (what A2A
//! 1.0 §8.2's discovery and every SDK's plain fetch send) or naming a 0.x
//! version gets it as the official SDKs' compatibility layers serve it: the
//! 1.0 card with 0.3's fields merged in (`url`, `protocolVersion`,
//! `preferredTransport`, `security`, and each security scheme in both
//! shapes). Their fields are disjoint, so a 1.0 client reads
//! `supportedInterfaces` and a 0.3 client reads `url` from one document.
//! `A2A-Version: 1.0` gets the 1.0 card alone.

use super::card;
use super::version::Version;
use crate::bindings::message::Request;
use crate::{Address, Network};
use serde_json::Value;

/// True when the request asks for a 0.x card (or names no version).
fn legacy(req: &Request) -> bool {
    match Version::of(req) {
        Ok(Version::V03) => true,
        Ok(Version::V1) => false,
        Err(asked) => asked.starts_with("0."),
    }
}

/// The card of `agent` (the network's when `None`) as `req` asks for it and
/// as `viewer` may read it, or `None` when that agent offers no skill.
pub fn card(
    network: &Network,
    req: &Request,
    origin: &str,
    agent: Option<&Address>,
    viewer: card::Viewer<'_>,
) -> Option<Value> {
    let current = card::card(network, origin, agent, Version::V1, viewer)?;
    if !legacy(req) {
        return Some(current);
    }
    let old = card::card(network, origin, agent, Version::V03, viewer)?;
    Some(merge(current, old))
}

/// `into` with the fields of `from` it lacks; objects merge field by field,
/// lists element by element (the first wins where both have a field).
pub fn merge(into: Value, from: Value) -> Value {
    match (into, from) {
        (Value::Object(mut into), Value::Object(from)) => {
            for (key, value) in from {
                let merged = match into.remove(&key) {
                    Some(existing) => merge(existing, value),
                    None => value,
                };
                into.insert(key, merged);
            }
            Value::Object(into)
        }
        (Value::Array(into), Value::Array(from)) => {
            let mut from = from.into_iter();
            Value::Array(
                into.into_iter()
                    .map(|item| match from.next() {
                        Some(other) if item.is_object() && other.is_object() => merge(item, other),
                        _ => item,
                    })
                    .collect(),
            )
        }
        (into, _) => into,
    }
}

#[cfg(test)]
mod tests {
    use super::merge;
    use serde_json::json;

    #[test]
    fn merging_keeps_the_first_and_adds_what_it_lacks() {
        let current = json!({"name": "a", "supportedInterfaces": [{"url": "u"}],
            "securitySchemes": {"s": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}},
            "skills": [{"id": "x", "tags": ["t"]}]});
        let old = json!({"name": "b", "url": "u", "protocolVersion": "0.3.0",
            "securitySchemes": {"s": {"type": "http", "scheme": "bearer"}},
            "skills": [{"id": "y", "examples": ["e"]}, {"id": "z"}]});
        assert_eq!(
            merge(current, old),
            json!({"name": "a", "supportedInterfaces": [{"url": "u"}], "url": "u",
                "protocolVersion": "0.3.0",
                "securitySchemes": {"s": {"httpAuthSecurityScheme": {"scheme": "Bearer"},
                    "type": "http", "scheme": "bearer"}},
                "skills": [{"id": "x", "tags": ["t"], "examples": ["e"]}]})
        );
    }
}
