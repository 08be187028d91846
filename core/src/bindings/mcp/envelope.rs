//! The per-request envelope of revision 2026-07-28 and the headers that mirror it.
//!
//! A modern request carries its revision and the client's capabilities in
//! `params._meta` (`io.modelcontextprotocol/protocolVersion`,
//! `…/clientCapabilities`, optionally `…/clientInfo`). Over HTTP the body's
//! values are mirrored in headers — `MCP-Protocol-Version`, `Mcp-Method` and,
//! for `tools/call`, `resources/read` and `prompts/get`, `Mcp-Name` (plain
//! ASCII or `=?base64?…?=`) — which must match it. The checks, in the order
//! the revision's SDKs answer them: a missing envelope is invalid params
//! (-32602); a revision this server does not serve statelessly is
//! `UnsupportedProtocolVersion` (-32022, listing what it supports); a missing
//! or different header is `HeaderMismatch` (-32020). All are `400`.

use super::errors::McpError;
use super::revision::Revision;
use crate::bindings::jsonrpc::RpcError;
use crate::bindings::message::Request;
use base64::Engine;
use serde_json::{Map, Value, json};

/// `_meta` key of a request's protocol revision.
pub const PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// `_meta` key of the client's capabilities.
pub const CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
/// `_meta` key of the server's identity in a result.
pub const SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";
/// `_meta` key of the subscription a notification belongs to.
pub const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";
/// The header that names the revision.
pub const VERSION_HEADER: &str = "MCP-Protocol-Version";

/// The revision a request's envelope claims, if it has one.
pub fn claimed(params: &Map<String, Value>) -> Option<&str> {
    params.get("_meta")?.get(PROTOCOL_VERSION)?.as_str()
}

/// Whether a request belongs to the modern era: it carries an envelope, or
/// its `MCP-Protocol-Version` header names a modern revision.
pub fn is_modern(req: &Request, params: &Map<String, Value>) -> bool {
    let header = req.header(VERSION_HEADER).map(str::trim);
    claimed(params).is_some()
        || header
            .and_then(Revision::parse)
            .is_some_and(Revision::is_modern)
}

/// The error for a revision this server does not serve statelessly.
pub fn unsupported(requested: &str) -> RpcError {
    RpcError::new(
        McpError::UnsupportedProtocolVersion,
        "Unsupported protocol version",
    )
    .with_data(json!({"supported": Revision::supported(), "requested": requested}))
}

fn mismatch(message: impl Into<String>) -> RpcError {
    RpcError::new(
        McpError::HeaderMismatch,
        format!("Header mismatch: {}", message.into()),
    )
}

/// Decodes a header value that may be a `=?base64?…?=` sentinel.
pub fn decode_header_value(value: &str) -> Option<String> {
    match value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    {
        Some(encoded) => base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok()),
        None => Some(value.to_owned()),
    }
}

/// The body value `Mcp-Name` mirrors for `method`, if it mirrors one.
fn name_source<'a>(method: &str, params: &'a Map<String, Value>) -> Option<Option<&'a str>> {
    let key = match method {
        "tools/call" | "prompts/get" => "name",
        "resources/read" => "uri",
        _ => return None,
    };
    Some(params.get(key).and_then(Value::as_str))
}

/// Checks a modern request's envelope and headers; answers its revision.
pub fn check(
    req: &Request,
    method: &str,
    params: &Map<String, Value>,
) -> Result<Revision, RpcError> {
    let meta = params.get("_meta").and_then(Value::as_object);
    let version = meta
        .and_then(|m| m.get(PROTOCOL_VERSION))
        .and_then(Value::as_str);
    let capabilities = meta.and_then(|m| m.get(CLIENT_CAPABILITIES));
    let (Some(version), Some(Value::Object(_))) = (version, capabilities) else {
        return Err(RpcError::invalid_params(format!(
            "Invalid params: a {} request carries _meta with {PROTOCOL_VERSION} and {CLIENT_CAPABILITIES}",
            Revision::V2026_07_28
        )));
    };
    let revision = Revision::parse(version)
        .filter(|r| r.is_modern())
        .ok_or_else(|| unsupported(version))?;
    match req.header(VERSION_HEADER).map(str::trim) {
        None => return Err(mismatch("the MCP-Protocol-Version header is missing")),
        Some(header) if header != version => {
            return Err(mismatch(format!(
                "MCP-Protocol-Version header value '{header}' does not match body value '{version}'"
            )));
        }
        Some(_) => {}
    }
    match req.header("Mcp-Method").map(str::trim) {
        None => return Err(mismatch("the Mcp-Method header is missing")),
        Some(header) if header != method => {
            return Err(mismatch(format!(
                "Mcp-Method header value '{header}' does not match body value '{method}'"
            )));
        }
        Some(_) => {}
    }
    if let Some(body) = name_source(method, params) {
        let header = req.header("Mcp-Name").map(str::trim);
        let decoded = header.map(decode_header_value);
        match (decoded, body) {
            (None, _) => return Err(mismatch("the Mcp-Name header is missing")),
            (Some(None), _) => {
                return Err(mismatch("the Mcp-Name header is not valid base64 UTF-8"));
            }
            (Some(Some(name)), Some(body)) if name != body => {
                return Err(mismatch(format!(
                    "Mcp-Name header value '{name}' does not match body value '{body}'"
                )));
            }
            _ => {}
        }
    }
    Ok(revision)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::Method;

    fn params(version: &str) -> Map<String, Value> {
        let value =
            json!({"name": "echo", "_meta": {PROTOCOL_VERSION: version, CLIENT_CAPABILITIES: {}}});
        value.as_object().cloned().unwrap()
    }

    fn request(headers: &[(&str, &str)]) -> Request {
        headers.iter().fold(
            Request::new(Method::Post, "http://h/networks/n/mcp"),
            |r, (k, v)| r.with_header(k, v),
        )
    }

    const GOOD: [(&str, &str); 3] = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "echo"),
    ];

    #[test]
    fn a_complete_envelope_with_matching_headers_passes() {
        assert_eq!(
            check(&request(&GOOD), "tools/call", &params("2026-07-28")),
            Ok(Revision::V2026_07_28)
        );
        let encoded = request(&[GOOD[0], GOOD[1], ("Mcp-Name", "=?base64?ZWNobw==?=")]);
        assert_eq!(
            check(&encoded, "tools/call", &params("2026-07-28")),
            Ok(Revision::V2026_07_28)
        );
    }

    #[test]
    fn each_failure_has_its_code() {
        let no_meta = json!({"name": "echo"}).as_object().cloned().unwrap();
        let code =
            |req: &Request, p: &Map<String, Value>| check(req, "tools/call", p).map_err(|e| e.code);
        assert_eq!(code(&request(&GOOD), &no_meta), Err(-32602));
        let err = check(&request(&GOOD), "tools/call", &params("2099-01-01")).unwrap_err();
        assert_eq!(err.code, -32022);
        assert_eq!(err.data.unwrap()["requested"], "2099-01-01");
        assert_eq!(code(&request(&GOOD), &params("2025-11-25")), Err(-32022));
        assert_eq!(
            code(&request(&GOOD[1..]), &params("2026-07-28")),
            Err(-32020)
        );
        assert_eq!(
            code(
                &request(&[GOOD[0], ("Mcp-Method", "tools/list"), GOOD[2]]),
                &params("2026-07-28")
            ),
            Err(-32020)
        );
        assert_eq!(
            code(&request(&GOOD[..2]), &params("2026-07-28")),
            Err(-32020)
        );
        assert_eq!(
            code(
                &request(&[GOOD[0], GOOD[1], ("Mcp-Name", "other")]),
                &params("2026-07-28")
            ),
            Err(-32020)
        );
        assert_eq!(
            code(
                &request(&[GOOD[0], GOOD[1], ("Mcp-Name", "=?base64?!!?=")]),
                &params("2026-07-28")
            ),
            Err(-32020)
        );
        // tools/list mirrors no name.
        let list = request(&[GOOD[0], ("Mcp-Method", "tools/list")]);
        assert_eq!(
            check(&list, "tools/list", &params("2026-07-28")),
            Ok(Revision::V2026_07_28)
        );
    }

    #[test]
    fn the_era_is_read_from_the_envelope_or_the_header() {
        assert!(is_modern(&request(&[]), &params("2026-07-28")));
        assert!(is_modern(
            &request(&[("MCP-Protocol-Version", "2026-07-28")]),
            &Map::new()
        ));
        assert!(!is_modern(
            &request(&[("MCP-Protocol-Version", "2025-06-18")]),
            &Map::new()
        ));
        assert!(!is_modern(&request(&[]), &Map::new()));
        assert_eq!(
            decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=").as_deref(),
            Some("Hello, 世界")
        );
    }
}
