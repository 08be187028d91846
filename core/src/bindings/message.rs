//! The request and the response every binding speaks, whatever the host.
//!
//! A host turns its platform's request into a [`Request`] (method, URL,
//! headers, body text) and writes a [`Response`] back (status, headers, a
//! JSON or text body). How a URL splits into path, query and origin, and
//! which HTTP status an [`ErrorCode`] has, is decided here once.

use crate::ErrorCode;
use crate::crypto::from_hex;
use serde_json::{Value, json};
use std::fmt;

/// An HTTP method as the bindings tell them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Method {
    /// `GET`
    Get,
    /// `POST`
    Post,
    /// Any other method, as sent (upper case).
    Other(String),
}

impl Method {
    /// Reads a method name (case-insensitive).
    pub fn parse(name: &str) -> Self {
        match name.to_ascii_uppercase().as_str() {
            "GET" => Self::Get,
            "POST" => Self::Post,
            other => Self::Other(other.to_owned()),
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Get => f.write_str("GET"),
            Self::Post => f.write_str("POST"),
            Self::Other(name) => f.write_str(name),
        }
    }
}

/// A request as a host received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The method.
    pub method: Method,
    /// The full URL (`scheme://host[:port]/path?query`).
    pub url: String,
    /// Headers `(name, value)`; names compare case-insensitively.
    pub headers: Vec<(String, String)>,
    /// The body text (empty unless a POST).
    pub body: String,
}

impl Request {
    /// A request without headers or body.
    pub fn new(method: Method, url: impl Into<String>) -> Self {
        Self {
            method,
            url: url.into(),
            headers: Vec::new(),
            body: String::new(),
        }
    }

    /// The request with a header added.
    #[must_use]
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The request with a body.
    #[must_use]
    pub fn with_body(mut self, body: impl Into<String>) -> Self {
        self.body = body.into();
        self
    }

    /// Where the path starts (after `scheme://host`).
    fn authority_end(&self) -> usize {
        let after_scheme = self.url.find("://").map_or(0, |i| i + 3);
        self.url[after_scheme..]
            .find(['/', '?', '#'])
            .map_or(self.url.len(), |i| after_scheme + i)
    }

    /// The origin (`scheme://host[:port]`).
    pub fn origin(&self) -> &str {
        &self.url[..self.authority_end()]
    }

    /// The path (`/` when the URL has none), still percent-encoded.
    pub fn path(&self) -> &str {
        let rest = &self.url[self.authority_end()..];
        let end = rest.find(['?', '#']).unwrap_or(rest.len());
        match &rest[..end] {
            "" => "/",
            path => path,
        }
    }

    /// The first value of query parameter `key`, percent-decoded.
    pub fn query(&self, key: &str) -> Option<String> {
        let query = self.url.split_once('?')?.1;
        let query = query.split('#').next().unwrap_or("");
        query.split('&').find_map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(k) == key).then(|| percent_decode(v))
        })
    }

    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        header_of(&self.headers, name)
    }

    /// The W3C trace context its `traceparent` and `tracestate` headers carry;
    /// none when absent or malformed (the request goes on untraced).
    pub fn trace_context(&self) -> Option<crate::event::trace::TraceContext> {
        crate::event::trace::TraceContext::from_headers(
            self.header("traceparent"),
            self.header("tracestate"),
        )
    }
}

/// The first value of header `name` among `headers` (case-insensitive).
pub fn header_of<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Decodes `%XX` escapes and `+` (form encoding) in a query component.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                // Bytes, not string slices: a multi-byte character after `%` must not panic.
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(from_hex::<1>) {
                    Some([byte]) => {
                        out.push(byte);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            other => out.push(other),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What a response carries.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A JSON document (`Content-Type: application/json`).
    Json(Value),
    /// Plain text.
    Text(String),
}

/// A response for the host to write.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// Headers besides the body's content type.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Body,
}

impl Response {
    /// `200` with a JSON body.
    pub fn json(body: Value) -> Self {
        Self {
            status: 200,
            headers: Vec::new(),
            body: Body::Json(body),
        }
    }

    /// `200` with a text body.
    pub fn text(body: impl Into<String>) -> Self {
        Self {
            status: 200,
            headers: Vec::new(),
            body: Body::Text(body.into()),
        }
    }

    /// The error body `{code, message}` with the status of [`status_of`].
    pub fn error(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::json(json!({"code": code.as_str(), "message": message.into()}))
            .with_status(status_of(code))
    }

    /// The answer to a request whose body could not be read as text.
    pub fn unreadable_body() -> Self {
        Self::error(ErrorCode::MalformedEvent, "the body is not readable text")
    }

    /// The response with one more header.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The response with another status.
    #[must_use]
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = status;
        self
    }

    /// The first value of header `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        header_of(&self.headers, name)
    }

    /// The JSON body, if it is one.
    pub fn json_body(&self) -> Option<&Value> {
        match &self.body {
            Body::Json(value) => Some(value),
            Body::Text(_) => None,
        }
    }

    /// A body over [`MAX_BODY_BYTES`]: 413 `too_large`.
    pub fn body_too_large() -> Self {
        Self::error(
            ErrorCode::TooLarge,
            format!("request bodies are at most {MAX_BODY_BYTES} bytes"),
        )
    }

    /// The status and, for an error, its stable code (`""` when the body has none).
    pub fn status_and_code(&self) -> (u16, &str) {
        let code = self.json_body().and_then(|b| b["code"].as_str());
        (self.status, code.unwrap_or(""))
    }
}

/// Most bytes of a request body any route reads. A host holds no more than
/// this of a body (a longer one is dropped as it arrives) and answers
/// [`Response::body_too_large`]; each route then applies its own, smaller
/// bound (a network's frame limit).
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// Whether a declared `Content-Length` already exceeds [`MAX_BODY_BYTES`], so
/// the host keeps none of the body.
pub fn declared_too_large(content_length: Option<&str>) -> bool {
    declared_over(content_length, MAX_BODY_BYTES)
}

/// Whether a declared `Content-Length` already exceeds `limit` bytes (a
/// file part's bound is larger than [`MAX_BODY_BYTES`]).
pub fn declared_over(content_length: Option<&str>, limit: usize) -> bool {
    content_length
        .and_then(|length| length.trim().parse::<u64>().ok())
        .is_some_and(|length| length > limit as u64)
}

/// The HTTP status for an error code.
pub fn status_of(code: ErrorCode) -> u16 {
    match code {
        ErrorCode::NotJoined | ErrorCode::SessionExpired => 401,
        ErrorCode::AccessDenied
        | ErrorCode::VerificationFailed
        | ErrorCode::Forbidden
        | ErrorCode::SourceMismatch
        | ErrorCode::ReservedType => 403,
        ErrorCode::UnknownTarget | ErrorCode::NotFound => 404,
        ErrorCode::AlreadyExists
        | ErrorCode::AddressInUse
        | ErrorCode::OwnerOffline
        | ErrorCode::TakesNoTasks
        | ErrorCode::InvalidTransition => 409,
        ErrorCode::TooLarge => 413,
        ErrorCode::StorageFull => 507,
        ErrorCode::RateLimited | ErrorCode::LimitReached => 429,
        ErrorCode::MethodNotAllowed => 405,
        ErrorCode::UpgradeRequired => 426,
        ErrorCode::NotSupported => 501,
        ErrorCode::Internal => 500,
        ErrorCode::NetworkUnavailable | ErrorCode::ModUnavailable => 503,
        ErrorCode::Banned => 403,
        ErrorCode::RejectedByMod => 422,
        ErrorCode::Timeout => 504,
        ErrorCode::MalformedEvent
        | ErrorCode::InvalidAddress
        | ErrorCode::InvalidEventType
        | ErrorCode::InvalidEventId
        | ErrorCode::InvalidNetworkId
        | ErrorCode::WrongNetwork
        | ErrorCode::CrossNetwork
        | ErrorCode::InvalidOrigin
        | ErrorCode::InvalidRequest
        | ErrorCode::InvalidSearch => 400,
        ErrorCode::UnknownParent | ErrorCode::UnknownRecipient => 422,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_length_over_the_bound_is_refused_unread() {
        assert!(!declared_too_large(None));
        assert!(!declared_too_large(Some("12")));
        assert!(!declared_too_large(Some(&MAX_BODY_BYTES.to_string())));
        assert!(declared_too_large(Some(&(MAX_BODY_BYTES + 1).to_string())));
        assert!(declared_too_large(Some(" 99999999999999 ")));
        // An unreadable length is left to the bounded read.
        assert!(!declared_too_large(Some("lots")));
        assert_eq!(
            Response::body_too_large().status_and_code(),
            (413, "too_large")
        );
    }

    #[test]
    fn decodes_query_components() {
        assert_eq!(percent_decode("agent%3Aalice"), "agent:alice");
        assert_eq!(percent_decode("a+b"), "a b");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%41%42"), "AB");
        assert_eq!(percent_decode("%aé"), "%aé");
        assert_eq!(percent_decode("%é"), "%é");
    }

    #[test]
    fn a_url_splits_into_origin_path_and_query() {
        let req = Request::new(
            Method::Get,
            "https://edge.example:8787/networks/demo/v1/events?after=3&agent_id=agent%3Aa#x",
        )
        .with_header("Last-Event-ID", "7");
        assert_eq!(req.origin(), "https://edge.example:8787");
        assert_eq!(req.path(), "/networks/demo/v1/events");
        assert_eq!(req.query("after").as_deref(), Some("3"));
        assert_eq!(req.query("agent_id").as_deref(), Some("agent:a"));
        assert_eq!(req.query("limit"), None);
        assert_eq!(req.header("last-event-id"), Some("7"));
        assert_eq!(Request::new(Method::Get, "http://h").path(), "/");
        assert_eq!(Request::new(Method::Get, "http://h?x=1").path(), "/");
    }

    #[test]
    fn every_error_code_has_its_status() {
        for (code, status) in [
            (ErrorCode::NotJoined, 401),
            (ErrorCode::SessionExpired, 401),
            (ErrorCode::AccessDenied, 403),
            (ErrorCode::SourceMismatch, 403),
            (ErrorCode::NotFound, 404),
            (ErrorCode::AlreadyExists, 409),
            (ErrorCode::AddressInUse, 409),
            (ErrorCode::TooLarge, 413),
            (ErrorCode::RateLimited, 429),
            (ErrorCode::LimitReached, 429),
            (ErrorCode::MethodNotAllowed, 405),
            (ErrorCode::UpgradeRequired, 426),
            (ErrorCode::Internal, 500),
            (ErrorCode::NotSupported, 501),
            (ErrorCode::NetworkUnavailable, 503),
            (ErrorCode::Timeout, 504),
            (ErrorCode::InvalidNetworkId, 400),
            (ErrorCode::MalformedEvent, 400),
        ] {
            let response = Response::error(code, "why");
            assert_eq!(response.status, status, "{code}");
            assert_eq!(
                response.json_body(),
                Some(&json!({"code": code.as_str(), "message": "why"}))
            );
        }
        assert_eq!(Method::parse("delete").to_string(), "DELETE");
    }
}
