//! Where each network's authorization server is, and what it says about
//! itself (RFC 8414).
//!
//! The issuer is the network's URL, `{origin}/networks/{id}`. Its metadata
//! is where RFC 8414 §3.1 puts it for an issuer with a path, and where the
//! official MCP SDK clients look first:
//! `{origin}/.well-known/oauth-authorization-server/networks/{id}`. The
//! endpoints are under the network: `oauth/authorize`, `oauth/token`,
//! `oauth/register`; clients may also name themselves by a metadata
//! document's URL ([`super::cimd`]). The MCP endpoint's protected-resource metadata names
//! the issuer (`super::super::mcp::access::metadata`).

use crate::NetworkId;
use crate::bindings::message::Response;
use serde_json::json;

/// Where authorization server metadata lives, before the issuer's path.
pub const METADATA_PREFIX: &str = "/.well-known/oauth-authorization-server";

/// The authorization server's endpoints, under `/networks/{id}/oauth/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `oauth/authorize`: the consent page (GET) and its form (POST).
    Authorize,
    /// `oauth/token`: codes and refresh tokens for tokens.
    Token,
    /// `oauth/register`: dynamic client registration (RFC 7591).
    Register,
}

impl Endpoint {
    /// The endpoint's last path segment.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Authorize => "authorize",
            Self::Token => "token",
            Self::Register => "register",
        }
    }

    /// Reads the last path segment.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Authorize, Self::Token, Self::Register]
            .into_iter()
            .find(|e| e.name() == name)
    }
}

/// The issuer identifier of network `id`'s authorization server.
pub fn issuer(origin: &str, id: &NetworkId) -> String {
    format!("{origin}/networks/{id}")
}

/// The URL of the one resource it issues tokens for: the network's MCP endpoint.
pub fn resource(origin: &str, id: &NetworkId) -> String {
    format!("{}/mcp", issuer(origin, id))
}

/// The URL of one of its endpoints.
pub fn endpoint(origin: &str, id: &NetworkId, which: Endpoint) -> String {
    format!("{}/oauth/{}", issuer(origin, id), which.name())
}

/// The URL of its metadata.
pub fn metadata_url(origin: &str, id: &NetworkId) -> String {
    format!("{origin}{METADATA_PREFIX}/networks/{id}")
}

/// The metadata document (RFC 8414 §2).
pub fn metadata(origin: &str, id: &NetworkId) -> Response {
    super::errors::no_store(Response::json(json!({
        "issuer": issuer(origin, id),
        "authorization_endpoint": endpoint(origin, id, Endpoint::Authorize),
        "token_endpoint": endpoint(origin, id, Endpoint::Token),
        "registration_endpoint": endpoint(origin, id, Endpoint::Register),
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": ["none"],
        "code_challenge_methods_supported": [super::pkce::S256],
        "authorization_response_iss_parameter_supported": true,
        "client_id_metadata_document_supported": true,
        "service_documentation": format!("{}/v1/profile", issuer(origin, id)),
    })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_names_the_issuer_and_its_endpoints() {
        let id: NetworkId = "demo".parse().unwrap();
        let doc = metadata("http://h:1", &id);
        let doc = doc.json_body().unwrap();
        assert_eq!(doc["issuer"], "http://h:1/networks/demo");
        assert_eq!(
            doc["token_endpoint"],
            "http://h:1/networks/demo/oauth/token"
        );
        assert_eq!(doc["code_challenge_methods_supported"], json!(["S256"]));
        assert_eq!(
            metadata_url("http://h:1", &id),
            "http://h:1/.well-known/oauth-authorization-server/networks/demo"
        );
        assert_eq!(Endpoint::parse("register"), Some(Endpoint::Register));
        assert_eq!(Endpoint::parse("x"), None);
    }
}
