//! Client ID metadata documents (MCP 2025-11-25; draft-ietf-oauth-client-id-
//! metadata-document): a client without a registration names itself by the
//! `https` URL of a JSON document, and that URL is its `client_id`.
//!
//! The host fetches the document ([`to_fetch`] says which URL, and when:
//! at every authorization request, and whenever no copy is stored) and
//! hands the text to [`fetched`], which checks it — its `client_id` must be
//! the URL exactly; its redirect URIs, grant and response types obey the
//! rules of registration ([`super::register`]); only public clients
//! (`token_endpoint_auth_method` `none`) — and stores it as the client.
//! Its URL must pass the deployment's outbound policy ([`crate::outbound`]:
//! no loopback, private or link-local host however it is spelled), and the
//! host checks it again as it fetches. A document that cannot be fetched or
//! is refused is `invalid_client` — with one text for every fetch that got
//! no answer, so the page tells no one which ports are open:
//! shown on a page at the authorization endpoint, JSON at the token endpoint.

use super::consent;
use super::errors::{Code, OAuthError};
use super::form;
use super::grants::{Client, OAuthHost};
use super::metadata::Endpoint;
use super::register;
use super::routes::Target;
use crate::bindings::message::{Method, Request, Response};
use crate::outbound::OutboundPolicy;
use serde_json::{Map, Value};

/// Longest document read (the draft suggests documents stay small).
pub const MAX_DOCUMENT: usize = 5 * 1024;

/// True when `client_id` names a metadata document (registration issues
/// ids that are no URLs).
pub fn is_document_url(client_id: &str) -> bool {
    client_id.starts_with("https://")
}

/// Why a document URL may not be used as a client id, if it may not.
pub fn url_refusal(url: &str) -> Option<&'static str> {
    let rest = url.strip_prefix("https://")?;
    let authority = rest.split('/').next().unwrap_or("");
    let path = rest.get(authority.len()..).unwrap_or("");
    if url.len() > super::uris::MAX_URI_LEN
        || url.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        Some("a client_id URL is at most 2048 characters, without spaces")
    } else if authority.is_empty() || authority.contains('@') {
        Some("a client_id URL names a host, without credentials")
    } else if url.contains('#') {
        Some("a client_id URL has no fragment")
    } else if path.is_empty()
        || path == "/"
        || path.split(['/', '?']).any(|s| s == "." || s == "..")
    {
        Some("a client_id URL has a path, without dot segments")
    } else {
        None
    }
}

/// What the host does before answering a request for `target`.
#[derive(Debug, Clone, PartialEq)]
pub enum Fetch {
    /// Nothing: answer it.
    Nothing,
    /// Fetch this document (GET, no redirects, at most [`MAX_DOCUMENT`]
    /// bytes) and pass the outcome to [`fetched`].
    Document(String),
    /// Answer this refusal.
    Refuse(Response),
}

fn refusal(target: &Target, error: &OAuthError) -> Response {
    match target {
        Target::Endpoint(_, Endpoint::Authorize) => {
            consent::html(400, consent::refusal_page(&error.description))
        }
        _ => error.response(),
    }
}

/// Whether `req` names a client by a document that must be fetched first;
/// its URL must pass `policy` (the deployment's outbound policy), and the
/// document URL is the policy's reading of it.
pub fn to_fetch<H: OAuthHost>(
    host: &mut H,
    policy: &OutboundPolicy,
    req: &Request,
    target: &Target,
) -> Result<Fetch, H::Error> {
    let (text, always) = match (target, &req.method) {
        (Target::Endpoint(_, Endpoint::Authorize), Method::Get) => (form::query_of(&req.url), true),
        (Target::Endpoint(_, Endpoint::Authorize | Endpoint::Token), Method::Post) => {
            (req.body.as_str(), false)
        }
        _ => return Ok(Fetch::Nothing),
    };
    let Some(url) = form::parse(text)
        .ok()
        .and_then(|params| params.get("client_id").map(str::to_owned))
        .filter(|id| is_document_url(id))
    else {
        return Ok(Fetch::Nothing);
    };
    if let Some(why) = url_refusal(&url) {
        return Ok(Fetch::Refuse(refusal(
            target,
            &OAuthError::new(Code::InvalidClient, why),
        )));
    }
    if let Err(refused) = policy.check(&url) {
        let why = format!("the client_id URL is not fetched: {}", refused.described());
        return Ok(Fetch::Refuse(refusal(
            target,
            &OAuthError::new(Code::InvalidClient, why),
        )));
    }
    Ok(if always || host.oauth_client(&url)?.is_none() {
        Fetch::Document(url)
    } else {
        Fetch::Nothing
    })
}

/// Reads the document fetched from `url` into its client.
pub fn read(url: &str, text: &str, now_s: u64) -> Result<Client, OAuthError> {
    let invalid = |description: String| OAuthError::new(Code::InvalidClient, description);
    if text.len() > MAX_DOCUMENT {
        return Err(invalid("the client metadata document is over 5 KiB".into()));
    }
    let document: Map<String, Value> = serde_json::from_str(text)
        .map_err(|_| invalid("the client metadata document is not a JSON object".into()))?;
    if document.get("client_id").and_then(Value::as_str) != Some(url) {
        return Err(invalid("the document's client_id is not its URL".into()));
    }
    match document
        .get("token_endpoint_auth_method")
        .and_then(Value::as_str)
    {
        None | Some("none") => {}
        Some(_) => {
            return Err(invalid(
                "only public clients (token_endpoint_auth_method none)".into(),
            ));
        }
    }
    register::read(text, url.to_owned(), now_s)
        .map_err(|error| invalid(format!("client metadata document: {}", error.description)))
}

/// Stores the client the fetch of `url` found; the refusal to answer when
/// the fetch failed (`Err` with why) or the document is refused.
pub fn fetched<H: OAuthHost>(
    host: &mut H,
    target: &Target,
    url: &str,
    outcome: Result<String, String>,
) -> Result<Option<Response>, H::Error> {
    let client = outcome
        .map_err(|why| {
            OAuthError::new(
                Code::InvalidClient,
                format!("could not fetch the client metadata document: {why}"),
            )
        })
        .and_then(|text| read(url, &text, host.now().as_secs()));
    match client {
        Ok(client) => {
            host.add_oauth_client(&client)?;
            Ok(None)
        }
        Err(error) => Ok(Some(refusal(target, &error))),
    }
}

/// The URL the host fetches for `url`: itself, except that with test hooks
/// on a loopback `https` URL is fetched over `http` (a local test cannot
/// serve TLS the runtime trusts).
pub fn fetch_url(url: &str, test_hooks: bool) -> String {
    let loopback = super::uris::is_loopback(url);
    match url.strip_prefix("https://") {
        Some(rest) if test_hooks && loopback => format!("http://{rest}"),
        _ => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const URL: &str = "https://client.example/oauth/metadata.json";

    #[test]
    fn document_urls_are_https_with_a_path() {
        assert!(is_document_url(URL) && url_refusal(URL).is_none());
        assert!(!is_document_url("mcp-0123"));
        for bad in [
            "https://client.example",
            "https://client.example/",
            "https://u:p@client.example/doc.json",
            "https://client.example/doc.json#x",
            "https://client.example/a/../doc.json",
            "https:///doc.json",
        ] {
            assert!(url_refusal(bad).is_some(), "{bad}");
        }
        assert_eq!(
            fetch_url("https://127.0.0.1:9/c.json", true),
            "http://127.0.0.1:9/c.json"
        );
        assert_eq!(
            fetch_url("https://127.0.0.1:9/c.json", false),
            "https://127.0.0.1:9/c.json"
        );
        assert_eq!(fetch_url(URL, true), URL);
    }

    #[test]
    fn a_document_is_its_own_url_and_a_public_client() {
        let good = format!(
            r#"{{"client_id": "{URL}", "client_name": "App", "redirect_uris": ["http://127.0.0.1:3000/cb"]}}"#
        );
        let client = read(URL, &good, 5).unwrap();
        assert_eq!(client.client_id, URL);
        assert_eq!(client.client_name.as_deref(), Some("App"));
        let code = |text: &str| read(URL, text, 5).unwrap_err().code;
        assert_eq!(
            code(&good.replace("metadata.json\",", "other.json\",")),
            Code::InvalidClient
        );
        assert_eq!(
            code(&good.replace(
                "\"client_name\"",
                "\"token_endpoint_auth_method\": \"private_key_jwt\", \"client_name\""
            )),
            Code::InvalidClient
        );
        assert_eq!(
            code(&good.replace("http://127.0.0.1:3000/cb", "http://evil.example/cb")),
            Code::InvalidClient
        );
        assert_eq!(code("[]"), Code::InvalidClient);
        assert_eq!(code(&" ".repeat(MAX_DOCUMENT + 1)), Code::InvalidClient);
    }

    proptest! {
        #[test]
        fn no_url_or_document_makes_them_panic(url in "\\PC{0,60}", text in "\\PC{0,60}") {
            let _ = url_refusal(&url);
            let _ = read(&url, &text, 0);
            let _ = fetch_url(&url, true);
        }
    }
}
