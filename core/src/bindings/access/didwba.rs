//! DID authentication for any binding, in both forms ANP clients send: the
//! `Authorization: DIDWba …` header (did:wba method spec §3) and ANP 1.2's
//! HTTP Message Signatures (RFC 9421: `Signature-Input`, `Signature`,
//! `Content-Digest`; the `anp` SDK's default). Here: reading a request's
//! proof ([`proof_of`]) and the domain it reached, the access token the
//! answer carries ([`Grant`]), and the `WWW-Authenticate` challenge of a
//! refusal. The checks themselves are the network's
//! ([`crate::network::Network::verify_identity`] through
//! [`crate::identity::didwba_verify::DidWbaVerifier`]); the host resolves the DID's
//! document first ([`crate::network::Network::didwba_lookups`]).
//!
//! The HTTP binding's `POST v1/join` takes the header in place of
//! credentials (level 3) and answers with a session token; the MCP endpoint
//! takes it on any request ([`exchange`]: the DID joins, the request goes on
//! with the session, the answer carries its token), and an A2A endpoint can
//! do the same. The token travels as ANP-02 §3.2.3 says, in RFC 9110's
//! `Authentication-Info: access_token="…", token_type="Bearer",
//! expires_in=…` (what the `anp` SDK reads first), and also in
//! `Authorization: Bearer …`, which the SDK falls back to, as its own
//! server sends by default, and which agentnet's clients read.

use crate::Timestamp;
use crate::bindings::exchange::{BindingHost, join_event};
use crate::bindings::message::{Request, Response};
use crate::bindings::step::Step;
use crate::identity::did::Did;
use crate::identity::didwba_proof::DidProof;
use crate::identity::http_signature::{ACCEPT_SIGNATURE, Received, SignedRequest};
use crate::network::Inbound;
use crate::{Address, Network};

/// The DID proof of a request, as the text the network checks
/// ([`DidProof::parse`]): its HTTP Message Signature, read against the
/// request as received (an unreadable one becomes a proof that is refused,
/// never ignored), else its `DIDWba …` header; `None` without either.
pub fn proof_of(req: &Request) -> Option<String> {
    if let Some(signed) = as_received(req, SignedRequest::of) {
        return Some(DidProof::signed_text(signed));
    }
    req.header("authorization")
        .filter(|h| h.trim_start().starts_with("DIDWba "))
        .map(str::to_owned)
}

/// `read` of `req` as an HTTP Message Signature sees it ([`Received`]).
pub fn as_received<T>(req: &Request, read: impl FnOnce(&Received<'_, '_>) -> T) -> T {
    let method = req.method.to_string();
    let header = |name: &str| req.header(name);
    read(&Received {
        method: &method,
        url: &req.url,
        header: &header,
        body: req.body.as_bytes(),
    })
}

/// The headers a DID proof travels in, dropped once it is exchanged for a bearer.
const PROOF_HEADERS: [&str; 4] = [
    "authorization",
    "signature-input",
    "signature",
    "content-digest",
];

/// The service domain a DIDWba signature covers: the request's host name, without port.
pub fn domain_of(req: &Request) -> &str {
    let origin = req.origin();
    let host = origin.split_once("://").map_or(origin, |(_, host)| host);
    match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => host.split(':').next().unwrap_or(host),
    }
}

/// The bearer session a DID proof was exchanged for: what the answer
/// hands the client for the requests that follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    /// The session token.
    pub token: String,
    /// Seconds it lasts unused (each use extends it).
    pub expires_in: u64,
}

impl Grant {
    /// The grant of a session `token` that expires at `expires_at` unless used, at `now`.
    pub fn new(token: String, expires_at: Timestamp, now: Timestamp) -> Self {
        Self {
            token,
            expires_in: expires_at.millis_since(now) / 1000,
        }
    }

    /// The answer's headers: `Authentication-Info` (ANP-02 §3.2.3, RFC 9110
    /// §11.6.3) and `Authorization: Bearer …` for the clients that read that.
    pub fn headers(&self) -> [(&'static str, String); 2] {
        [
            (
                "Authentication-Info",
                format!(
                    "access_token=\"{}\", token_type=\"Bearer\", expires_in={}",
                    self.token, self.expires_in
                ),
            ),
            ("Authorization", format!("Bearer {}", self.token)),
        ]
    }
}

/// `response` carrying `grant` for the requests that follow ([`Grant::headers`]).
pub fn with_bearer(response: Response, grant: &Grant) -> Response {
    grant
        .headers()
        .into_iter()
        .fold(response, |response, (name, value)| {
            response.with_header(name, &value)
        })
}

/// A refused DIDWba request: 401 with the method spec's `WWW-Authenticate`
/// challenge naming the reason (`invalid_nonce`, `invalid_timestamp`, …),
/// read from the refusal's message (`<reason>: …`, see [`crate::identity::error::IdentityError::rejection`]).
pub fn unauthorized(refused: Response) -> Response {
    let message = refused
        .json_body()
        .and_then(|b| b["message"].as_str())
        .unwrap_or("")
        .replace('"', "'");
    let reason = message.split(':').next().unwrap_or("").to_owned();
    refused
        .with_status(401)
        .with_header(
            "WWW-Authenticate",
            &format!("DIDWba error=\"{reason}\", error_description=\"{message}\""),
        )
        .with_header("Accept-Signature", ACCEPT_SIGNATURE)
}

/// The address a DID joins as where the request names none (MCP, A2A):
/// `did:openagents:{name}` → `openagents:{name}`; a did:wba →
/// `agent:{its last path segment, else its host's first label}`, passing
/// over a last segment that binds its key (`did:wba:…:agents:ana:e1_…` → `agent:ana`).
pub fn address_for(did: &Did) -> Option<Address> {
    let name = match did {
        Did::OpenAgents(name) => return format!("openagents:{name}").parse().ok(),
        // A last segment that binds the key (`e1_…`, `k1_…`) names no one: the one before does.
        Did::Wba { host, path } => path
            .iter()
            .rev()
            .find(|s| !s.starts_with("e1_") && !s.starts_with("k1_"))
            .cloned()
            .unwrap_or_else(|| host.split(['.', ':']).next().unwrap_or("").to_owned()),
    };
    format!("agent:{}", name.to_ascii_lowercase()).parse().ok()
}

fn refused(message: String) -> Response {
    unauthorized(Response::error(
        crate::ErrorCode::VerificationFailed,
        message,
    ))
}

/// The address a proof's DID joins as ([`address_for`]), or the 401 to answer.
pub fn address_of_header(header: &str) -> Result<Address, Response> {
    let did = DidProof::parse(header)
        .and_then(|h| h.did().parse::<Did>())
        .map_err(|error| refused(error.rejection().message))?;
    address_for(&did).ok_or_else(|| refused(format!("malformed: {did} names no address")))
}

/// For endpoints that take a bearer session (MCP, A2A): a request with a
/// DID proof (either form) joins as its DID's address ([`address_for`]) at level 3
/// and gets a session. `Go(Some((request, grant)))`: the request rewritten to
/// carry `Authorization: Bearer {token}`, and the session to answer with
/// ([`with_bearer`]); `Go(None)`: no DIDWba header; `Answer`: the 401.
/// Bindings reach it through [`super::caller::Caller::resolve`].
#[allow(clippy::type_complexity)]
pub fn exchange<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
) -> Result<Step<Option<(Request, Grant)>>, H::Error> {
    let Some(header) = proof_of(req) else {
        return Ok(Step::Go(None));
    };
    let header = header.as_str();
    let address = match address_of_header(header) {
        Ok(address) => address,
        Err(refused) => return Ok(Step::Answer(refused)),
    };
    let join = join_event(host, network, &address, None, None, None);
    let inbound = Inbound {
        didwba: Some((header, domain_of(req))),
        ..Inbound::default()
    };
    let effects = network.handle_event_on(&inbound, join, host.now());
    let collected = host.collect(network, effects, None)?;
    if collected.bound.as_ref() != Some(&address) {
        let message = collected
            .replies
            .last()
            .and_then(|r| r.payload["message"].as_str())
            .unwrap_or("the DIDWba join was refused")
            .to_owned();
        return Ok(Step::Answer(refused(message)));
    }
    let (token, expires_at) = super::session::start(host, &address)?;
    let mut rewritten = req.clone();
    rewritten
        .headers
        .retain(|(name, _)| !PROOF_HEADERS.iter().any(|p| name.eq_ignore_ascii_case(p)));
    rewritten
        .headers
        .push(("Authorization".to_owned(), format!("Bearer {token}")));
    let grant = Grant::new(token, expires_at, host.now());
    Ok(Step::Go(Some((rewritten, grant))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::Method;
    use crate::identity::error::IdentityError;

    #[test]
    fn the_header_and_domain_are_read_from_the_request() {
        let req = Request::new(Method::Post, "http://localhost:8787/networks/x/v1/join")
            .with_header("Authorization", "DIDWba did=\"d\"");
        assert_eq!(proof_of(&req).as_deref(), Some("DIDWba did=\"d\""));
        assert_eq!(domain_of(&req), "localhost");
        let bearer = Request::new(Method::Get, "https://example.com/x")
            .with_header("authorization", "Bearer abc");
        assert_eq!(proof_of(&bearer), None);
        assert_eq!(domain_of(&bearer), "example.com");
        let named = |did: &str| address_for(&did.parse().unwrap()).map(|a| a.to_string());
        assert_eq!(
            named("did:wba:example.com:agents:ana:e1_UDDReOZl1ipXAfp9wYsm13sDBMK5og--QWdBjzuf6o4")
                .as_deref(),
            Some("agent:ana")
        );
        assert_eq!(
            named("did:wba:example.com:k1_abc").as_deref(),
            Some("agent:example")
        );
        assert_eq!(
            named("did:wba:example.com:agents:Bo").as_deref(),
            Some("agent:bo")
        );
        let refused = Response::error(
            crate::ErrorCode::VerificationFailed,
            IdentityError::NonceReused.rejection().message,
        );
        let answered = unauthorized(refused);
        assert_eq!(answered.status, 401);
        let challenge = answered.header("WWW-Authenticate").unwrap_or_default();
        assert!(challenge.starts_with("DIDWba error=\"invalid_nonce\""));
    }

    #[test]
    fn a_grant_travels_in_authentication_info_and_authorization() {
        let grant = Grant::new(
            "abc".into(),
            Timestamp::from(3_601_500),
            Timestamp::from(1_500),
        );
        assert_eq!(grant.expires_in, 3600);
        let answered = with_bearer(Response::json(serde_json::json!({})), &grant);
        let header = |name: &str| answered.header(name);
        // ANP-02 §3.2.3's form, the one the `anp` SDK's `update_token` reads first.
        assert_eq!(
            header("Authentication-Info"),
            Some(r#"access_token="abc", token_type="Bearer", expires_in=3600"#)
        );
        assert_eq!(header("Authorization"), Some("Bearer abc"));
    }
}
