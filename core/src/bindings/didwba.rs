//! DIDWba header authentication (did:wba method spec §3) for any binding:
//! reading `Authorization: DIDWba …` and the domain the request reached, the
//! bearer token ANP servers answer with, and the `WWW-Authenticate`
//! challenge of a refusal. The checks themselves are the network's
//! ([`crate::network::Network::verify_identity`] through
//! [`crate::identity::didwba::DidWbaVerifier`]); the host resolves the DID's
//! document first ([`crate::network::Network::didwba_lookups`]).
//!
//! The HTTP binding's `POST v1/join` takes the header in place of
//! credentials (level 3) and answers `Authorization: Bearer <session token>`;
//! the MCP and A2A endpoints can do the same with these functions.

use super::message::{Request, Response};

/// The `DIDWba …` header of a request, if it has one.
pub fn header_of(req: &Request) -> Option<&str> {
    req.header("authorization")
        .filter(|h| h.trim_start().starts_with("DIDWba "))
}

/// The service domain a DIDWba signature covers: the request's host name, without port.
pub fn domain_of(req: &Request) -> &str {
    let origin = req.origin();
    let host = origin.split_once("://").map_or(origin, |(_, host)| host);
    match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(v6),
        None => host.split(':').next().unwrap_or(host),
    }
}

/// The answer's `Authorization: Bearer <token>` for the requests that follow.
pub fn with_bearer(response: Response, token: &str) -> Response {
    response.with_header("Authorization", &format!("Bearer {token}"))
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
    refused.with_status(401).with_header(
        "WWW-Authenticate",
        &format!("DIDWba error=\"{reason}\", error_description=\"{message}\""),
    )
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
        assert_eq!(header_of(&req), Some("DIDWba did=\"d\""));
        assert_eq!(domain_of(&req), "localhost");
        let bearer = Request::new(Method::Get, "https://example.com/x")
            .with_header("authorization", "Bearer abc");
        assert_eq!(header_of(&bearer), None);
        assert_eq!(domain_of(&bearer), "example.com");
        let refused = Response::error(
            crate::ErrorCode::VerificationFailed,
            IdentityError::NonceReused.rejection().message,
        );
        let answered = unauthorized(refused);
        assert_eq!(answered.status, 401);
        assert!(answered.headers.iter().any(
            |(n, v)| n == "WWW-Authenticate" && v.starts_with("DIDWba error=\"invalid_nonce\"")
        ));
    }
}
