//! Dynamic client registration (RFC 7591): `POST oauth/register` with the
//! client's metadata as JSON; `201` with its `client_id`.
//!
//! Every client is public (`token_endpoint_auth_method: none`; PKCE stands
//! in for a secret), may use the `authorization_code` and `refresh_token`
//! grants and the `code` response type, and registers 1 to
//! [`MAX_REDIRECT_URIS`] redirect URIs ([`super::uris::redirect_refusal`]).
//! Other metadata asking for more is refused with
//! `invalid_client_metadata`; a bad redirect URI with `invalid_redirect_uri`.

use super::errors::{Code, OAuthError, no_store};
use super::grants::{Client, OAuthHost};
use super::uris::redirect_refusal;
use crate::bindings::message::Response;
use crate::crypto::to_hex;
use serde_json::{Map, Value, json};

/// Most redirect URIs one client registers.
pub const MAX_REDIRECT_URIS: usize = 10;
/// Longest registration body read.
pub const MAX_BODY: usize = 16 * 1024;
/// Longest client name kept.
pub const MAX_NAME_CHARS: usize = 100;

fn invalid(description: impl Into<String>) -> OAuthError {
    OAuthError::new(Code::InvalidClientMetadata, description)
}

/// The strings of `field`, all of which must be among `allowed`.
fn only(metadata: &Map<String, Value>, field: &str, allowed: &[&str]) -> Result<(), OAuthError> {
    let Some(value) = metadata.get(field) else {
        return Ok(());
    };
    let values = value
        .as_array()
        .ok_or_else(|| invalid(format!("{field} is an array of strings")))?;
    for value in values {
        match value.as_str() {
            Some(v) if allowed.contains(&v) => {}
            _ => {
                return Err(invalid(format!(
                    "{field} may only hold {}",
                    allowed.join(", ")
                )));
            }
        }
    }
    Ok(())
}

/// Reads a registration request into a client with id `client_id`, registered `now_s`.
pub fn read(text: &str, client_id: String, now_s: u64) -> Result<Client, OAuthError> {
    if text.len() > MAX_BODY {
        return Err(invalid("the registration is at most 16 KiB"));
    }
    let metadata: Map<String, Value> = serde_json::from_str(text)
        .map_err(|_| OAuthError::new(Code::InvalidRequest, "the body is a JSON object"))?;
    let uris = metadata
        .get("redirect_uris")
        .and_then(Value::as_array)
        .filter(|uris| !uris.is_empty())
        .ok_or_else(|| {
            OAuthError::new(
                Code::InvalidRedirectUri,
                "redirect_uris is a non-empty array",
            )
        })?;
    if uris.len() > MAX_REDIRECT_URIS {
        return Err(OAuthError::new(
            Code::InvalidRedirectUri,
            format!("at most {MAX_REDIRECT_URIS} redirect_uris"),
        ));
    }
    let mut redirect_uris = Vec::with_capacity(uris.len());
    for uri in uris {
        let uri = uri.as_str().ok_or_else(|| {
            OAuthError::new(Code::InvalidRedirectUri, "each redirect URI is a string")
        })?;
        if let Some(why) = redirect_refusal(uri) {
            return Err(OAuthError::new(
                Code::InvalidRedirectUri,
                format!("{uri}: {why}"),
            ));
        }
        redirect_uris.push(uri.to_owned());
    }
    only(
        &metadata,
        "grant_types",
        &["authorization_code", "refresh_token"],
    )?;
    only(&metadata, "response_types", &["code"])?;
    let client_name = match metadata.get("client_name") {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some(name.chars().take(MAX_NAME_CHARS).collect()),
        Some(_) => return Err(invalid("client_name is a string")),
    };
    Ok(Client {
        client_id,
        client_name,
        redirect_uris,
        client_id_issued_at: now_s,
    })
}

/// The registration response (RFC 7591 §3.2.1).
pub fn registered(client: &Client) -> Response {
    let mut body = json!({
        "client_id": client.client_id,
        "client_id_issued_at": client.client_id_issued_at,
        "redirect_uris": client.redirect_uris,
        "grant_types": ["authorization_code", "refresh_token"],
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    if let Some(name) = &client.client_name {
        body["client_name"] = json!(name);
    }
    no_store(Response::json(body)).with_status(201)
}

/// `POST oauth/register`.
pub fn register<H: OAuthHost>(host: &mut H, body: &str) -> Result<Response, H::Error> {
    let seed = host.random_seed();
    let client_id = format!("mcp-{}", to_hex(seed.get(..16).unwrap_or(&seed)));
    match read(body, client_id, host.now().as_secs()) {
        Ok(client) => {
            host.add_oauth_client(&client)?;
            Ok(registered(&client))
        }
        Err(error) => Ok(error.response()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(text: &str) -> &'static str {
        read(text, "c".into(), 1).unwrap_err().code.as_str()
    }

    #[test]
    fn a_registration_keeps_what_it_may_and_refuses_the_rest() {
        let client = read(
            r#"{"redirect_uris": ["http://127.0.0.1:9/cb"], "client_name": "Inspector",
                "token_endpoint_auth_method": "client_secret_post", "scope": "x"}"#,
            "c".into(),
            7,
        )
        .unwrap();
        assert_eq!(client.redirect_uris, ["http://127.0.0.1:9/cb"]);
        assert_eq!(client.client_name.as_deref(), Some("Inspector"));
        let answer = registered(&client);
        assert_eq!(answer.status, 201);
        // Public whatever it asked: no secret is issued.
        assert_eq!(
            answer.json_body().unwrap()["token_endpoint_auth_method"],
            "none"
        );
        assert!(answer.json_body().unwrap().get("client_secret").is_none());

        assert_eq!(code_of("{}"), "invalid_redirect_uri");
        assert_eq!(code_of(r#"{"redirect_uris": []}"#), "invalid_redirect_uri");
        assert_eq!(
            code_of(r#"{"redirect_uris": ["http://evil.example/cb"]}"#),
            "invalid_redirect_uri"
        );
        assert_eq!(code_of(r#"{"redirect_uris": [1]}"#), "invalid_redirect_uri");
        let many: Vec<String> = (0..11).map(|i| format!("https://c.example/{i}")).collect();
        assert_eq!(
            code_of(&json!({"redirect_uris": many}).to_string()),
            "invalid_redirect_uri"
        );
        assert_eq!(
            code_of(
                r#"{"redirect_uris": ["https://c.example/cb"], "grant_types": ["client_credentials"]}"#
            ),
            "invalid_client_metadata"
        );
        assert_eq!(
            code_of(r#"{"redirect_uris": ["https://c.example/cb"], "response_types": ["token"]}"#),
            "invalid_client_metadata"
        );
        assert_eq!(code_of("[1]"), "invalid_request");
        assert_eq!(
            code_of(&"x".repeat(MAX_BODY + 1)),
            "invalid_client_metadata"
        );
    }
}
