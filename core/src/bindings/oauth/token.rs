//! The token endpoint, `oauth/token` (form-encoded POST): an authorization
//! code and its PKCE verifier, or a refresh token, for an access token and
//! a new refresh token. And [`bearer`]: the member an access token acts as
//! at the MCP endpoint.
//!
//! * A code is good once, for [`Policy::oauth_code_ttl_ms`], for the client
//!   it was issued to, with the `redirect_uri` of its request and the
//!   verifier of its challenge. Used a second time, every token it gave is
//!   revoked (OAuth 2.1 §4.1.3).
//! * A refresh token is good once too: each use answers a new pair
//!   (rotation); a rotated one presented again revokes the whole family
//!   (OAuth 2.1 §4.3.1).
//! * A `resource`, when sent, must be this network's MCP endpoint
//!   (`invalid_target`, RFC 8707). Tokens expire after
//!   [`Policy::oauth_access_ttl_ms`] and [`Policy::oauth_refresh_ttl_ms`].
//!
//! [`Policy::oauth_code_ttl_ms`]: crate::bindings::access::policy::Policy::oauth_code_ttl_ms
//! [`Policy::oauth_access_ttl_ms`]: crate::bindings::access::policy::Policy::oauth_access_ttl_ms
//! [`Policy::oauth_refresh_ttl_ms`]: crate::bindings::access::policy::Policy::oauth_refresh_ttl_ms

use super::errors::{Code, OAuthError, no_store};
use super::form::{self, Params};
use super::grants::{self, Grant, GrantKind, OAuthHost};
use super::metadata::resource;
use super::pkce;
use super::uris;
use crate::bindings::message::{Request, Response};
use crate::{Address, Network};
use serde_json::json;

fn fail(code: Code, description: &str) -> Result<Response, OAuthError> {
    Err(OAuthError::new(code, description))
}

/// `POST oauth/token`.
pub fn token<H: OAuthHost>(
    host: &mut H,
    network: &Network,
    req: &Request,
) -> Result<Response, H::Error> {
    let form = req.header("Content-Type").is_some_and(|t| {
        t.trim_start()
            .to_ascii_lowercase()
            .starts_with("application/x-www-form-urlencoded")
    });
    let answer = match form::parse(&req.body) {
        _ if !form => fail(
            Code::InvalidRequest,
            "send application/x-www-form-urlencoded",
        ),
        Err(repeated) => fail(Code::InvalidRequest, &repeated.to_string()),
        Ok(params) => exchange(host, &params, &resource(req.origin(), network.id()))?,
    };
    Ok(answer.unwrap_or_else(|error| error.response()))
}

fn exchange<H: OAuthHost>(
    host: &mut H,
    params: &Params,
    resource: &str,
) -> Result<Result<Response, OAuthError>, H::Error> {
    let Some(client_id) = params.get("client_id") else {
        return Ok(fail(Code::InvalidRequest, "client_id is required"));
    };
    if host.oauth_client(client_id)?.is_none() {
        return Ok(fail(Code::InvalidClient, "the client is not registered"));
    }
    if params
        .get("resource")
        .is_some_and(|asked| !uris::same_resource(asked, resource))
    {
        return Ok(fail(
            Code::InvalidTarget,
            "resource must be this network's MCP endpoint",
        ));
    }
    let (kind, secret_field) = match params.get("grant_type") {
        Some("authorization_code") => (GrantKind::Code, "code"),
        Some("refresh_token") => (GrantKind::Refresh, "refresh_token"),
        Some(_) => {
            return Ok(fail(
                Code::UnsupportedGrantType,
                "grant_type is authorization_code or refresh_token",
            ));
        }
        None => return Ok(fail(Code::InvalidRequest, "grant_type is required")),
    };
    let Some(secret) = params.get(secret_field) else {
        return Ok(fail(
            Code::InvalidRequest,
            &format!("{secret_field} is required"),
        ));
    };
    let what = if kind == GrantKind::Code {
        "code"
    } else {
        "refresh token"
    };
    let (hash, mut grant) = match grants::look_up(host, secret)? {
        Some((hash, grant)) if grant.kind == kind => (hash, grant),
        _ => return Ok(fail(Code::InvalidGrant, &format!("unknown {what}"))),
    };
    if grant.used {
        host.end_oauth_family(&grant.family)?;
        let message = format!("the {what} was used already; every token it gave is revoked");
        return Ok(fail(Code::InvalidGrant, &message));
    }
    if grant.expires_at <= host.now() {
        return Ok(fail(Code::InvalidGrant, &format!("the {what} expired")));
    }
    if grant.client_id != client_id {
        return Ok(fail(
            Code::InvalidGrant,
            &format!("the {what} is another client's"),
        ));
    }
    if kind == GrantKind::Code
        && let Err(error) = code_matches(params, &grant)
    {
        return Ok(Err(error));
    }
    grant.used = true;
    host.save_oauth_grant(&hash, &grant)?;
    Ok(Ok(tokens(host, &grant)?))
}

/// The redirect URI and PKCE verifier a code's redemption must bring.
fn code_matches(params: &Params, code: &Grant) -> Result<(), OAuthError> {
    if params.get("redirect_uri") != code.redirect_uri.as_deref() {
        return Err(OAuthError::new(
            Code::InvalidGrant,
            "redirect_uri differs from the authorization request's",
        ));
    }
    let Some(verifier) = params.get("code_verifier") else {
        return Err(OAuthError::new(
            Code::InvalidRequest,
            "code_verifier is required (PKCE)",
        ));
    };
    let challenge = code.code_challenge.as_deref().unwrap_or_default();
    if !pkce::verifies(verifier, challenge) {
        return Err(OAuthError::new(
            Code::InvalidGrant,
            "code_verifier does not match the code_challenge",
        ));
    }
    Ok(())
}

/// A new access and refresh token for what `from` grants.
fn tokens<H: OAuthHost>(host: &mut H, from: &Grant) -> Result<Response, H::Error> {
    let now = host.now();
    let policy = host.policy();
    host.prune_oauth_grants(now)?;
    let grant = |kind, ttl: u64| Grant {
        kind,
        address: from.address.clone(),
        client_id: from.client_id.clone(),
        resource: from.resource.clone(),
        family: from.family.clone(),
        expires_at: now.plus_millis(ttl),
        used: false,
        redirect_uri: None,
        code_challenge: None,
    };
    let access = grants::issue(host, &grant(GrantKind::Access, policy.oauth_access_ttl_ms))?;
    let refresh = grants::issue(
        host,
        &grant(GrantKind::Refresh, policy.oauth_refresh_ttl_ms),
    )?;
    Ok(no_store(Response::json(json!({
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": (policy.oauth_access_ttl_ms / 1000).max(1),
        "refresh_token": refresh,
    }))))
}

/// What a bearer token presented at the MCP endpoint `resource` is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bearer {
    /// No access token of this authorization server (perhaps a session token).
    Unknown,
    /// A valid access token of this member.
    Member(Address),
    /// An access token that may not be used here, and why.
    Refused(&'static str),
}

/// Reads an access token presented to `resource`.
pub fn bearer<H: OAuthHost>(host: &mut H, token: &str, resource: &str) -> Result<Bearer, H::Error> {
    let Some((_, grant)) = grants::look_up(host, token)? else {
        return Ok(Bearer::Unknown);
    };
    Ok(if grant.kind != GrantKind::Access {
        Bearer::Refused("that is not an access token")
    } else if grant.expires_at <= host.now() {
        Bearer::Refused("the access token expired; refresh it")
    } else if !uris::same_resource(&grant.resource, resource) {
        Bearer::Refused("the access token is for another resource")
    } else {
        match grant.address.parse() {
            Ok(address) => Bearer::Member(address),
            Err(_) => Bearer::Refused("the access token is damaged"),
        }
    })
}
