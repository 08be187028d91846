//! HTTP Message Signatures (RFC 9421) as ANP 1.2's DID authentication uses
//! them: reading `Signature-Input` and `Signature`, checking the request's
//! `Content-Digest` (RFC 9530), and rebuilding the signature base from the
//! request the server received.
//!
//! The profile is the one ANP's SDK (`anp`, `DIDWbaAuthHeader` in its
//! default `http_signatures` mode) sends and its verifier accepts:
//!
//! ```text
//! Signature-Input: sig1=("@method" "@target-uri" "@authority" "content-digest");created=…;expires=…;nonce="…";keyid="did:wba:…#key-1"
//! Signature: sig1=:<base64 signature>:
//! Content-Digest: sha-256=:<base64 SHA-256 of the body>:
//! ```
//!
//! `keyid` is the DID verification method. The base covers `@method`,
//! `@target-uri` and `@authority` (all three are required here, so a
//! signature names this server and this request) and, when the request has
//! a body, `content-digest`. The `@signature-params` line is the
//! `Signature-Input` member as sent (RFC 9421 §2.3). Which key signs, and
//! the time and nonce rules, are [`super::didwba`]'s.

use super::error::IdentityError;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};

/// The components every signature must cover.
pub const REQUIRED_COMPONENTS: [&str; 3] = ["@method", "@target-uri", "@authority"];

/// What the server's challenge asks a client to sign (`Accept-Signature`).
pub const ACCEPT_SIGNATURE: &str = "sig1=(\"@method\" \"@target-uri\" \"@authority\" \"content-digest\");created;expires;nonce;keyid";

/// Longest `Signature-Input` or `Signature` read.
const MAX_FIELD_BYTES: usize = 8_192;

fn malformed(detail: impl Into<String>) -> IdentityError {
    IdentityError::malformed("signature", detail)
}

/// The request as the server received it, for rebuilding a signature base.
#[derive(Clone, Copy)]
pub struct Received<'a, 'h> {
    /// The method, upper case.
    pub method: &'a str,
    /// The full URL (`scheme://authority/path?query`).
    pub url: &'a str,
    /// The header value of a (lower-case) field name, if present.
    pub header: &'a dyn Fn(&str) -> Option<&'h str>,
    /// The body bytes.
    pub body: &'a [u8],
}

/// One signature of a request: its parameters, base and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedRequest {
    /// The full verification method id (`did:wba:…#key-1`).
    pub keyid: String,
    /// `nonce`, if given.
    pub nonce: Option<String>,
    /// `created` (unix seconds).
    pub created: u64,
    /// `expires` (unix seconds), if given.
    pub expires: Option<u64>,
    /// The signature base (RFC 9421 §2.5) rebuilt from the received request.
    pub base: String,
    /// The signature bytes.
    pub signature: Vec<u8>,
}

/// `sha-256=:<base64>:` for `body`.
pub fn content_digest(body: &[u8]) -> String {
    format!("sha-256=:{}:", STANDARD.encode(Sha256::digest(body)))
}

/// Whether `field` (a `Content-Digest` value) holds the SHA-256 of `body`.
fn digest_matches(field: &str, body: &[u8]) -> bool {
    let expected = STANDARD.encode(Sha256::digest(body));
    field.split(',').any(|member| {
        member
            .trim()
            .strip_prefix("sha-256=:")
            .and_then(|v| v.strip_suffix(':'))
            .is_some_and(|v| v == expected)
    })
}

/// Splits `label=value` (the first dictionary member of a field).
fn member(field: &str) -> Result<(&str, &str), IdentityError> {
    let (label, value) = field
        .trim()
        .split_once('=')
        .ok_or_else(|| malformed("a signature field is label=value"))?;
    let label = label.trim();
    if label.is_empty()
        || !label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.' || b == b'*')
    {
        return Err(malformed("the signature label is a token"));
    }
    Ok((label, value.trim()))
}

/// The parsed `Signature-Input` member: covered components, raw parameter text.
struct Input<'a> {
    label: &'a str,
    components: Vec<String>,
    /// `("@method" …);created=…` as sent: the `@signature-params` value.
    raw: &'a str,
    params: Vec<(String, String)>,
}

fn parse_input(field: &str) -> Result<Input<'_>, IdentityError> {
    let (label, raw) = member(field)?;
    // Only the first member: ANP clients send one signature.
    let raw = raw.split_once(", ").map_or(raw, |(first, _)| first).trim();
    let inner = raw
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .ok_or_else(|| malformed("Signature-Input is an inner list"))?;
    let (list, params_text) = inner;
    let mut components = Vec::new();
    for item in list.split_whitespace() {
        let name = item
            .strip_prefix('"')
            .and_then(|i| i.strip_suffix('"'))
            .filter(|n| !n.is_empty() && !n.contains('"'))
            .ok_or_else(|| malformed("covered components are quoted strings"))?;
        if name.contains(';') {
            return Err(malformed("component parameters are not supported"));
        }
        components.push(name.to_owned());
    }
    let mut params = Vec::new();
    for param in params_text
        .split(';')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (name, value) = param.split_once('=').unwrap_or((param, ""));
        let value = value.trim();
        let value = value
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(value);
        params.push((name.trim().to_owned(), value.to_owned()));
    }
    Ok(Input {
        label,
        components,
        raw,
        params,
    })
}

fn signature_bytes(field: &str, label: &str) -> Result<Vec<u8>, IdentityError> {
    let value = field
        .split(',')
        .filter_map(|m| member(m).ok())
        .find(|(l, _)| *l == label)
        .map(|(_, v)| v)
        .ok_or_else(|| malformed(format!("Signature has no member {label}")))?;
    let encoded = value
        .strip_prefix(':')
        .and_then(|v| v.strip_suffix(':'))
        .ok_or_else(|| malformed("a signature is a byte sequence :…:"))?;
    STANDARD
        .decode(encoded)
        .map_err(|_| malformed("the signature is not base64"))
}

/// The value of a derived component (RFC 9421 §2.2) of `url`.
fn derived(name: &str, method: &str, url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let split = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(split);
    let tail = tail.split('#').next().unwrap_or("");
    let (path, query) = tail.split_once('?').unwrap_or((tail, ""));
    let path = if path.is_empty() { "/" } else { path };
    Some(match name {
        "@method" => method.to_ascii_uppercase(),
        "@target-uri" => url.split('#').next().unwrap_or(url).to_owned(),
        "@authority" => authority.to_ascii_lowercase(),
        "@scheme" => scheme.to_ascii_lowercase(),
        "@path" => path.to_owned(),
        "@query" => format!("?{query}"),
        "@request-target" => format!(
            "{path}{}",
            if query.is_empty() {
                String::new()
            } else {
                format!("?{query}")
            }
        ),
        _ => return None,
    })
}

/// The signature base of `components` over `req`, ending with `raw` as the
/// `@signature-params` line.
pub fn signature_base(
    components: &[String],
    raw: &str,
    req: &Received<'_, '_>,
) -> Result<String, IdentityError> {
    let mut base = String::new();
    for name in components {
        let value = if name.starts_with('@') {
            derived(name, req.method, req.url)
                .ok_or_else(|| malformed(format!("unsupported component {name}")))?
        } else {
            let field = (req.header)(&name.to_ascii_lowercase())
                .ok_or_else(|| malformed(format!("covered header {name} is missing")))?;
            field.trim().to_owned()
        };
        base.push_str(&format!("\"{}\": {value}\n", name.to_ascii_lowercase()));
    }
    base.push_str(&format!("\"@signature-params\": {raw}"));
    Ok(base)
}

impl SignedRequest {
    /// Reads a request's signature: `None` when it carries neither
    /// `Signature-Input` nor `Signature`; an error when it is not one ANP's
    /// profile accepts (components missing, body without a matching
    /// `Content-Digest`, parameters unreadable).
    pub fn of(req: &Received<'_, '_>) -> Option<Result<Self, IdentityError>> {
        let input = (req.header)("signature-input");
        let signature = (req.header)("signature");
        if input.is_none() && signature.is_none() {
            return None;
        }
        Some(Self::read(input, signature, req))
    }

    fn read(
        input: Option<&str>,
        signature: Option<&str>,
        req: &Received<'_, '_>,
    ) -> Result<Self, IdentityError> {
        let (Some(input), Some(signature)) = (input, signature) else {
            return Err(malformed("Signature-Input and Signature come together"));
        };
        if input.len() > MAX_FIELD_BYTES || signature.len() > MAX_FIELD_BYTES {
            return Err(malformed("signature fields are too long"));
        }
        let input = parse_input(input)?;
        let covered = |name: &str| {
            input
                .components
                .iter()
                .any(|c| c.eq_ignore_ascii_case(name))
        };
        if let Some(missing) = REQUIRED_COMPONENTS.iter().find(|c| !covered(c)) {
            return Err(malformed(format!("the signature must cover {missing}")));
        }
        if !req.body.is_empty() && !covered("content-digest") {
            return Err(malformed("a request with a body must sign content-digest"));
        }
        if covered("content-digest") {
            let field = (req.header)("content-digest")
                .ok_or_else(|| malformed("Content-Digest is missing"))?;
            if !digest_matches(field, req.body) {
                return Err(malformed("Content-Digest does not match the body"));
            }
        }
        let param = |name: &str| {
            input
                .params
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        let number = |name: &'static str| -> Result<Option<u64>, IdentityError> {
            param(name)
                .map(|v| {
                    v.parse()
                        .map_err(|_| malformed(format!("{name} is an integer")))
                })
                .transpose()
        };
        let keyid = param("keyid")
            .filter(|k| k.contains('#'))
            .ok_or_else(|| malformed("keyid names a DID verification method (did#fragment)"))?;
        Ok(Self {
            nonce: param("nonce").filter(|n| !n.is_empty()),
            created: number("created")?.ok_or_else(|| malformed("created is required"))?,
            expires: number("expires")?,
            base: signature_base(&input.components, input.raw, req)?,
            signature: signature_bytes(signature, input.label)?,
            keyid,
        })
    }

    /// The DID `keyid` names.
    pub fn did(&self) -> &str {
        self.keyid.split('#').next().unwrap_or("")
    }
}

#[cfg(test)]
#[path = "http_signature_tests.rs"]
mod tests;
