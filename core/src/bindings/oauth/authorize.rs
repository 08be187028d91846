//! The authorization endpoint, `oauth/authorize`: an authorization request
//! (authorization code with PKCE) read and checked, the consent page, and
//! its form, whose POST joins the network and sends the code back.
//!
//! Checked in this order (RFC 6749 §4.1.2.1): an unknown `client_id`, or a
//! `redirect_uri` missing or not registered exactly, is shown on a page and
//! redirects nowhere. Everything else goes back to the redirect URI as
//! `error` with `state` and `iss` (RFC 9207): `response_type` other than
//! `code`, a missing `code_challenge` or a method other than `S256`
//! ([`super::pkce`]), a `resource` other than this network's MCP endpoint
//! (`invalid_target`; omitted, it is that endpoint), and Cancel
//! (`access_denied`). The POST joins through
//! [`crate::bindings::http::membership::admit`], exactly as `POST v1/join` does;
//! a refused join shows the page again with the reason and issues no code.

use super::consent::{self, Page};
use super::errors::Code;
use super::form::{self, Params};
use super::grants::{self, Client, Grant, GrantKind, OAuthHost};
use super::metadata::{Endpoint, endpoint, issuer, resource};
use super::pkce;
use super::uris;
use crate::Network;
use crate::bindings::exchange::claimed_address;
use crate::bindings::http::membership::{JoinBody, admit};
use crate::bindings::message::{Request, Response};
use crate::bindings::step::Step;
use crate::bindings::transport::ws::peer_of;
use serde_json::{Map, Value, json};

/// The parameters of an authorization request, carried through the form.
pub const PARAMS: [&str; 8] = [
    "response_type",
    "client_id",
    "redirect_uri",
    "state",
    "code_challenge",
    "code_challenge_method",
    "resource",
    "scope",
];

/// A checked authorization request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Authorization {
    /// The registered client.
    pub client: Client,
    /// One of its redirect URIs, exactly.
    pub redirect_uri: String,
    /// The client's `state`, given back as sent.
    pub state: Option<String>,
    /// The S256 challenge.
    pub code_challenge: String,
    /// The MCP endpoint the tokens are for.
    pub resource: String,
}

/// Why an authorization request does not go on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The client or its redirect URI cannot be trusted: shown, redirecting nowhere.
    Page(String),
    /// Sent back to the client's redirect URI.
    Redirect(String),
}

fn back(redirect_uri: &str, state: Option<&str>, iss: &str, pairs: &[(&str, &str)]) -> String {
    let mut all: Vec<(&str, &str)> = pairs.to_vec();
    if let Some(state) = state {
        all.push(("state", state));
    }
    all.push(("iss", iss));
    uris::with_params(redirect_uri, all)
}

/// Checks the request `params` make for network `network` reached at `origin`.
pub fn check<H: OAuthHost>(
    host: &mut H,
    params: &Params,
    origin: &str,
    network: &Network,
) -> Result<Result<Authorization, Refusal>, H::Error> {
    let Some(client_id) = params.get("client_id") else {
        return Ok(Err(Refusal::Page("the request names no client_id".into())));
    };
    let Some(client) = host.oauth_client(client_id)? else {
        return Ok(Err(Refusal::Page(
            "the client is not registered with this network; connect again so it registers".into(),
        )));
    };
    let Some(redirect_uri) = params
        .get("redirect_uri")
        .filter(|uri| client.redirect_uris.iter().any(|r| r == uri))
    else {
        return Ok(Err(Refusal::Page(
            "the redirect_uri is missing or is not one the client registered".into(),
        )));
    };
    let state = params.get("state");
    let iss = issuer(origin, network.id());
    let error = |code: Code, description: &str| {
        Err(Refusal::Redirect(back(
            redirect_uri,
            state,
            &iss,
            &[("error", code.as_str()), ("error_description", description)],
        )))
    };
    if params.get("response_type") != Some("code") {
        return Ok(error(
            Code::UnsupportedResponseType,
            "response_type must be code",
        ));
    }
    let challenge = params.get("code_challenge");
    if let Some(why) = pkce::challenge_refusal(challenge, params.get("code_challenge_method")) {
        return Ok(error(Code::InvalidRequest, why));
    }
    let resource = resource(origin, network.id());
    if params
        .get("resource")
        .is_some_and(|asked| !uris::same_resource(asked, &resource))
    {
        return Ok(error(
            Code::InvalidTarget,
            "resource must be this network's MCP endpoint",
        ));
    }
    Ok(Ok(Authorization {
        redirect_uri: redirect_uri.to_owned(),
        state: state.map(str::to_owned),
        code_challenge: challenge.unwrap_or_default().to_owned(),
        resource,
        client,
    }))
}

fn refused(refusal: Refusal) -> Response {
    match refusal {
        Refusal::Page(message) => consent::html(400, consent::refusal_page(&message)),
        Refusal::Redirect(location) => redirect(location),
    }
}

/// `303 See Other` to `location`.
pub fn redirect(location: String) -> Response {
    Response::text("")
        .with_status(303)
        .with_header("Location", &location)
        .with_header("Cache-Control", "no-store")
}

fn show(
    network: &Network,
    origin: &str,
    params: &Params,
    authorization: &Authorization,
    (status, error): (u16, Option<&str>),
) -> Response {
    let action = endpoint(origin, network.id(), Endpoint::Authorize);
    let action = action.strip_prefix(origin).unwrap_or(&action);
    let hidden = PARAMS
        .iter()
        .filter_map(|name| params.get(name).map(|value| (*name, value)))
        .collect();
    // The host the browser will send the answer to, as it reads the URI.
    let to = uris::host(&authorization.redirect_uri);
    let page = Page {
        network: (&network.config().name, network.id().as_str()),
        policy: network.config().access.policy,
        client: (
            authorization.client.client_name.as_deref(),
            to.as_deref().unwrap_or(&authorization.redirect_uri),
        ),
        action,
        hidden,
        name: params.get("name"),
        error,
    };
    consent::html(status, consent::page(&page))
}

/// `GET oauth/authorize`: the consent page, or the refusal.
pub fn get<H: OAuthHost>(
    host: &mut H,
    network: &Network,
    req: &Request,
) -> Result<Response, H::Error> {
    let params = match form::parse(form::query_of(&req.url)) {
        Ok(params) => params,
        Err(repeated) => return Ok(refused(Refusal::Page(repeated.to_string()))),
    };
    Ok(match check(host, &params, req.origin(), network)? {
        Ok(authorization) => show(network, req.origin(), &params, &authorization, (200, None)),
        Err(refusal) => refused(refusal),
    })
}

/// The join credentials the form's fields make.
fn credentials(params: &Params) -> Option<Value> {
    let mut credentials = Map::new();
    for field in ["token", "invite", "member_secret"] {
        if let Some(value) = params.get(field) {
            credentials.insert(field.to_owned(), json!(value));
        }
    }
    (!credentials.is_empty()).then_some(Value::Object(credentials))
}

/// `POST oauth/authorize`: the form. Cancel sends `access_denied`; otherwise
/// the join, then the code to the redirect URI, or the page again with why.
pub fn post<H: OAuthHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
) -> Result<Response, H::Error> {
    let params = match form::parse(&req.body) {
        Ok(params) => params,
        Err(repeated) => return Ok(refused(Refusal::Page(repeated.to_string()))),
    };
    let origin = req.origin();
    let authorization = match check(host, &params, origin, network)? {
        Ok(authorization) => authorization,
        Err(refusal) => return Ok(refused(refusal)),
    };
    let iss = issuer(origin, network.id());
    let state = authorization.state.as_deref();
    if params.get("decision") == Some("deny") {
        let denied = [
            ("error", Code::AccessDenied.as_str()),
            ("error_description", "the person declined"),
        ];
        return Ok(redirect(back(
            &authorization.redirect_uri,
            state,
            &iss,
            &denied,
        )));
    }
    let address = match params.get("name").map(|name| claimed_address(name.trim())) {
        Some(Ok(address)) => address,
        Some(Err(refusal)) => {
            let message = refusal.json_body().and_then(|b| b["message"].as_str());
            let message = message.unwrap_or("that name is not an address").to_owned();
            return Ok(show(
                network,
                origin,
                &params,
                &authorization,
                (400, Some(&message)),
            ));
        }
        None => {
            let message = "enter a name to join as";
            return Ok(show(
                network,
                origin,
                &params,
                &authorization,
                (400, Some(message)),
            ));
        }
    };
    let body = JoinBody {
        address,
        credentials: credentials(&params),
        role: None,
        resume_after: None,
        profile: None,
    };
    let admitted = match admit(host, network, body, peer_of(req).as_deref(), None)? {
        Step::Go(admitted) => admitted,
        Step::Answer(refusal) => {
            let message = refusal.json_body().and_then(|b| b["message"].as_str());
            let message = message
                .unwrap_or("the network did not accept the join")
                .to_owned();
            let status = refusal.status;
            return Ok(show(
                network,
                origin,
                &params,
                &authorization,
                (status, Some(&message)),
            ));
        }
    };
    let now = host.now();
    host.prune_oauth_grants(now)?;
    let grant = Grant {
        kind: GrantKind::Code,
        address: admitted.address.to_string(),
        client_id: authorization.client.client_id.clone(),
        resource: authorization.resource.clone(),
        family: grants::secret(host),
        expires_at: now.plus_millis(host.policy().oauth_code_ttl_ms),
        used: false,
        redirect_uri: Some(authorization.redirect_uri.clone()),
        code_challenge: Some(authorization.code_challenge.clone()),
    };
    let code = grants::issue(host, &grant)?;
    let location = back(&authorization.redirect_uri, state, &iss, &[("code", &code)]);
    Ok(redirect(location))
}
