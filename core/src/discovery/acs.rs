//! ACS — the Agent Capability Specification v01.00 of ACPs
//! (`03/ACPs-spec-ACS.md`, docs/protocols.md): [`validate`] checks every field of an
//! `AgentCapabilitySpec` and answers the first problem with a stable reason
//! (`acs_missing_field`, `acs_wrong_type`, `acs_invalid_value`,
//! `acs_duplicate_skill`, `acs_unknown_scheme`, `acs_wrong_aic`).
//!
//! The registry owns the `aic` field: a document without one gets the
//! agent's; one with another agent's AIC is refused.

use super::error::DiscoveryError;
use crate::identity::time::parse_rfc3339;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// The ACS protocol version agentnet accepts.
pub const PROTOCOL_VERSION: &str = "01.00";
/// The endpoint transports ACS defines.
pub const TRANSPORTS: [&str; 2] = ["JSONRPC", "HTTP_JSON"];

type Fields = Map<String, Value>;

fn object<'a>(value: &'a Value, path: &str) -> Result<&'a Fields, DiscoveryError> {
    value
        .as_object()
        .ok_or_else(|| DiscoveryError::acs_type(path, "is an object"))
}

fn required<'a>(fields: &'a Fields, path: &str, name: &str) -> Result<&'a Value, DiscoveryError> {
    fields
        .get(name)
        .filter(|v| !v.is_null())
        .ok_or_else(|| DiscoveryError::AcsMissing(join(path, name)))
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn text<'a>(fields: &'a Fields, path: &str, name: &str) -> Result<&'a str, DiscoveryError> {
    required(fields, path, name)?
        .as_str()
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| DiscoveryError::acs_type(join(path, name), "is a non-empty string"))
}

fn optional_text(fields: &Fields, path: &str, name: &str) -> Result<(), DiscoveryError> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(()),
        Some(_) => text(fields, path, name).map(|_| ()),
    }
}

fn url(fields: &Fields, path: &str, name: &str, optional: bool) -> Result<(), DiscoveryError> {
    if optional && fields.get(name).is_none_or(Value::is_null) {
        return Ok(());
    }
    let value = text(fields, path, name)?;
    if value.starts_with("https://") || value.starts_with("http://") {
        Ok(())
    } else {
        Err(DiscoveryError::acs_value(
            join(path, name),
            "an http(s) URL",
        ))
    }
}

fn boolean(fields: &Fields, path: &str, name: &str) -> Result<bool, DiscoveryError> {
    required(fields, path, name)?
        .as_bool()
        .ok_or_else(|| DiscoveryError::acs_type(join(path, name), "is true or false"))
}

fn strings(fields: &Fields, path: &str, name: &str, optional: bool) -> Result<(), DiscoveryError> {
    let value = match fields.get(name) {
        None | Some(Value::Null) if optional => return Ok(()),
        _ => required(fields, path, name)?,
    };
    let ok = value.as_array().is_some_and(|items| {
        items
            .iter()
            .all(|i| i.as_str().is_some_and(|s| !s.is_empty()))
    });
    if ok {
        Ok(())
    } else {
        Err(DiscoveryError::acs_type(
            join(path, name),
            "is an array of non-empty strings",
        ))
    }
}

fn array<'a>(fields: &'a Fields, path: &str, name: &str) -> Result<&'a Vec<Value>, DiscoveryError> {
    required(fields, path, name)?
        .as_array()
        .ok_or_else(|| DiscoveryError::acs_type(join(path, name), "is an array"))
}

fn provider(value: &Value) -> Result<(), DiscoveryError> {
    let p = object(value, "provider")?;
    if let Some(code) = p.get("countryCode").filter(|v| !v.is_null()) {
        let ok = code
            .as_str()
            .is_some_and(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()));
        if !ok {
            return Err(DiscoveryError::acs_value(
                "provider.countryCode",
                "two upper-case letters (ISO 3166-1)",
            ));
        }
    }
    text(p, "provider", "organization")?;
    optional_text(p, "provider", "department")?;
    url(p, "provider", "url", false)?;
    text(p, "provider", "license").map(|_| ())
}

fn security_schemes(value: &Value) -> Result<BTreeSet<String>, DiscoveryError> {
    let schemes = object(value, "securitySchemes")?;
    for (name, scheme) in schemes {
        let path = format!("securitySchemes.{name}");
        let fields = object(scheme, &path)?;
        optional_text(fields, &path, "description")?;
        match text(fields, &path, "type")? {
            "mutualTLS" => url(fields, &path, "x-caChallengeBaseUrl", false)?,
            "openIdConnect" => url(fields, &path, "openIdConnectUrl", false)?,
            other => {
                return Err(DiscoveryError::acs_value(
                    format!("{path}.type"),
                    format!("{other:?} is not mutualTLS or openIdConnect"),
                ));
            }
        }
    }
    Ok(schemes.keys().cloned().collect())
}

fn endpoint(value: &Value, path: &str, schemes: &BTreeSet<String>) -> Result<(), DiscoveryError> {
    let fields = object(value, path)?;
    url(fields, path, "url", false)?;
    let transport = text(fields, path, "transport")?;
    if !TRANSPORTS.contains(&transport) {
        return Err(DiscoveryError::acs_value(
            format!("{path}.transport"),
            format!("{transport:?} is not JSONRPC or HTTP_JSON"),
        ));
    }
    let Some(security) = fields.get("security").filter(|v| !v.is_null()) else {
        return Ok(());
    };
    let alternatives = security
        .as_array()
        .ok_or_else(|| DiscoveryError::acs_type(format!("{path}.security"), "is an array"))?;
    for (i, all) in alternatives.iter().enumerate() {
        let all = object(all, &format!("{path}.security[{i}]"))?;
        for (name, scopes) in all {
            if !schemes.contains(name) {
                return Err(DiscoveryError::AcsUnknownScheme(name.clone()));
            }
            if !scopes
                .as_array()
                .is_some_and(|s| s.iter().all(Value::is_string))
            {
                return Err(DiscoveryError::acs_type(
                    format!("{path}.security[{i}].{name}"),
                    "is an array of scopes",
                ));
            }
        }
    }
    Ok(())
}

fn capabilities(value: &Value) -> Result<(), DiscoveryError> {
    let c = object(value, "capabilities")?;
    boolean(c, "capabilities", "streaming")?;
    boolean(c, "capabilities", "notification")?;
    strings(c, "capabilities", "messageQueue", false)
}

fn skill(value: &Value, path: &str) -> Result<String, DiscoveryError> {
    let s = object(value, path)?;
    let id = text(s, path, "id")?.to_owned();
    for name in ["name", "description", "version"] {
        text(s, path, name)?;
    }
    strings(s, path, "tags", false)?;
    for name in ["examples", "inputModes", "outputModes"] {
        strings(s, path, name, true)?;
    }
    Ok(id)
}

/// Checks `acs` as the ACS document of the agent with AIC `aic`; answers it
/// with `aic` filled in.
pub fn validate(acs: &Value, aic: &str) -> Result<Value, DiscoveryError> {
    let root = object(acs, "acs")?;
    match root.get("aic") {
        None | Some(Value::Null) => {}
        Some(Value::String(given)) if given == aic => {}
        Some(other) => {
            return Err(DiscoveryError::AcsWrongAic(
                other.as_str().unwrap_or_default().to_owned(),
            ));
        }
    }
    boolean(root, "", "active")?;
    let modified = text(root, "", "lastModifiedTime")?;
    let has_offset = modified.ends_with('Z')
        || modified.ends_with('z')
        || modified
            .get(modified.len().saturating_sub(6)..)
            .is_some_and(|t| t.starts_with(['+', '-']));
    if parse_rfc3339(modified).is_err() || !has_offset {
        return Err(DiscoveryError::acs_value(
            "lastModifiedTime",
            "ISO 8601 with an offset (2025-01-01T00:00:00Z)",
        ));
    }
    if text(root, "", "protocolVersion")? != PROTOCOL_VERSION {
        return Err(DiscoveryError::acs_value(
            "protocolVersion",
            format!("only {PROTOCOL_VERSION:?} is accepted"),
        ));
    }
    for name in ["name", "description", "version"] {
        text(root, "", name)?;
    }
    for name in ["iconUrl", "documentationUrl", "webAppUrl"] {
        url(root, "", name, true)?;
    }
    provider(required(root, "", "provider")?)?;
    let schemes = security_schemes(required(root, "", "securitySchemes")?)?;
    for (i, e) in array(root, "", "endPoints")?.iter().enumerate() {
        endpoint(e, &format!("endPoints[{i}]"), &schemes)?;
    }
    capabilities(required(root, "", "capabilities")?)?;
    strings(root, "", "defaultInputModes", false)?;
    strings(root, "", "defaultOutputModes", false)?;
    let mut ids = BTreeSet::new();
    for (i, s) in array(root, "", "skills")?.iter().enumerate() {
        let id = skill(s, &format!("skills[{i}]"))?;
        if !ids.insert(id.clone()) {
            return Err(DiscoveryError::AcsDuplicateSkill(id));
        }
    }
    let mut filled = root.clone();
    filled.insert("aic".into(), Value::String(aic.to_owned()));
    Ok(Value::Object(filled))
}

#[cfg(test)]
#[path = "acs_tests.rs"]
mod tests;

/// A complete, valid ACS document for other modules' tests.
#[cfg(test)]
pub(crate) fn tests_sample() -> Value {
    tests::sample()
}
