//! Signed agent cards (A2A 1.0 §8.4): a JWS over the card's canonical form.
//!
//! The payload is the card as A2A 1.0's schema reads it ([`card_view`]:
//! fields outside the 1.0 schema dropped, as the official SDKs' protobuf
//! round trip drops them, so 0.3 fields merged into a well-known card are
//! not covered), without `signatures`, with every empty value (`""`, `null`,
//! `[]`, `{}`) removed, in RFC 8785 JCS ([`crate::identity::jcs`]). The
//! signature is detached: `{protected, signature}` with the protected header
//! `{alg: EdDSA, typ: JOSE, kid, jku}`, `jku` being the deployment's
//! `/.well-known/jwks.json`.
//!
//! Every card the edge serves is signed with the deployment's registry key
//! (the key its JWKS publishes): the network's object asks the registry's
//! object at [`SIGN_PATH`], which answers with [`sign_answer`]. A remote
//! card with `signatures` is admitted only when one of them verifies
//! against the JWKS its `jku` names ([`key_urls`], [`verify`]); otherwise
//! it is refused with `verification_failed`. Keys are EdDSA (Ed25519),
//! ES256 (P-256, what most JOSE signers use) or ES256K (secp256k1); a card
//! signed with other algorithms alone is refused.

use crate::bindings::message::Response;
use crate::error::{Coded, ErrorCode};
use crate::identity::encoding::{b64url, from_b64url};
use crate::identity::jcs::canonicalize;
use crate::identity::jwt::{Jwks, thumbprint};
use crate::identity::keys::PublicKey;
use ed25519_dalek::{Signer, SigningKey};
use serde_json::{Map, Value, json};

/// The registry object's internal path that signs a card (`{card, jku}` → a signature).
pub const SIGN_PATH: &str = "/internal/a2a/card-signature";
/// The most signatures of one remote card that are looked at.
pub const MAX_SIGNATURES: usize = 4;

/// Why a card's signatures are refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardSignatureError {
    /// A signature is not `{protected, signature}` with a readable header.
    #[error("the card's signature is malformed: {0}")]
    Malformed(String),
    /// A signature names no `jku`, so its key cannot be fetched.
    #[error("the card's signature names no jku (JWKS URL) for its key {0:?}")]
    NoKeyUrl(String),
    /// No signature verifies against the keys its `jku` publishes.
    #[error("no signature of the card verifies: {0}")]
    Invalid(String),
}

impl Coded for CardSignatureError {
    fn code(&self) -> ErrorCode {
        ErrorCode::VerificationFailed
    }
}

/// A message type of the 1.0 schema: its fields, each with the type of its
/// value (`None`: kept as it is).
type Fields = &'static [(&'static str, Option<Kind>)];

/// How a field's value is read.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// One message of these fields.
    One(Fields),
    /// A list of messages.
    List(Fields),
    /// A map of messages.
    Map(Fields),
}

const INTERFACE: Fields = &[
    ("url", None),
    ("protocolBinding", None),
    ("tenant", None),
    ("protocolVersion", None),
];
const PROVIDER: Fields = &[("url", None), ("organization", None)];
const EXTENSION: Fields = &[
    ("uri", None),
    ("description", None),
    ("required", None),
    ("params", None),
];
const CAPABILITIES: Fields = &[
    ("streaming", None),
    ("pushNotifications", None),
    ("extensions", Some(Kind::List(EXTENSION))),
    ("extendedAgentCard", None),
];
const SCHEME: Fields = &[
    ("apiKeySecurityScheme", None),
    ("httpAuthSecurityScheme", None),
    ("oauth2SecurityScheme", None),
    ("openIdConnectSecurityScheme", None),
    ("mtlsSecurityScheme", None),
];
const STRING_LIST: Fields = &[("list", None)];
const REQUIREMENT: Fields = &[("schemes", Some(Kind::Map(STRING_LIST)))];
const SKILL: Fields = &[
    ("id", None),
    ("name", None),
    ("description", None),
    ("tags", None),
    ("examples", None),
    ("inputModes", None),
    ("outputModes", None),
    ("securityRequirements", Some(Kind::List(REQUIREMENT))),
];
const CARD: Fields = &[
    ("name", None),
    ("description", None),
    ("supportedInterfaces", Some(Kind::List(INTERFACE))),
    ("provider", Some(Kind::One(PROVIDER))),
    ("version", None),
    ("documentationUrl", None),
    ("capabilities", Some(Kind::One(CAPABILITIES))),
    ("securitySchemes", Some(Kind::Map(SCHEME))),
    ("securityRequirements", Some(Kind::List(REQUIREMENT))),
    ("defaultInputModes", None),
    ("defaultOutputModes", None),
    ("skills", Some(Kind::List(SKILL))),
    ("iconUrl", None),
];

fn message(value: &Value, fields: Fields) -> Value {
    let Value::Object(object) = value else {
        return Value::Null;
    };
    let mut out = Map::new();
    for (name, kind) in fields {
        let Some(field) = object.get(*name) else {
            continue;
        };
        let read = match (kind, field) {
            (None, other) => other.clone(),
            (Some(Kind::One(inner)), other) => message(other, inner),
            (Some(Kind::List(inner)), Value::Array(items)) => {
                Value::Array(items.iter().map(|item| message(item, inner)).collect())
            }
            (Some(Kind::Map(inner)), Value::Object(entries)) => Value::Object(
                entries
                    .iter()
                    .map(|(key, item)| (key.clone(), message(item, inner)))
                    .collect(),
            ),
            _ => Value::Null,
        };
        out.insert((*name).to_owned(), read);
    }
    Value::Object(out)
}

/// The card as the 1.0 schema reads it: unknown fields (and `signatures`) dropped.
pub fn card_view(card: &Value) -> Value {
    message(card, CARD)
}

/// `value` without empty values (`""`, `null`, `[]`, `{}`), recursively; `None` when empty.
fn without_empties(value: &Value) -> Option<Value> {
    match value {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::Array(items) => {
            let kept: Vec<Value> = items.iter().filter_map(without_empties).collect();
            (!kept.is_empty()).then_some(Value::Array(kept))
        }
        Value::Object(fields) => {
            let kept: Map<String, Value> = fields
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), without_empties(v)?)))
                .collect();
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        other => Some(other.clone()),
    }
}

/// The bytes a card's signature covers (§8.4.1).
pub fn payload(card: &Value) -> String {
    without_empties(&card_view(card)).map_or_else(|| "{}".to_owned(), |v| canonicalize(&v))
}

/// The signature of `card` by the Ed25519 seed `secret`, naming the JWKS at `jku`.
pub fn sign(card: &Value, secret: &[u8; 32], jku: &str) -> Value {
    let public = crate::verification::public_key_of(secret);
    let header = json!({"alg": "EdDSA", "typ": "JOSE", "kid": thumbprint(&public), "jku": jku});
    let protected = b64url(header.to_string().as_bytes());
    let input = format!("{protected}.{}", b64url(payload(card).as_bytes()));
    let signature = SigningKey::from_bytes(secret).sign(input.as_bytes());
    json!({"protected": protected, "signature": b64url(&signature.to_bytes())})
}

/// `card` with `signature` as its only signature.
pub fn signed(mut card: Value, signature: Value) -> Value {
    if let Value::Object(fields) = &mut card {
        fields.insert("signatures".into(), json!([signature]));
    }
    card
}

/// The registry's answer at [`SIGN_PATH`] to `{card, jku}`: the signature, or 400.
pub fn sign_answer(secret: &[u8; 32], body: &str) -> Response {
    let asked: Option<Value> = serde_json::from_str(body).ok();
    let card = asked.as_ref().and_then(|a| a.get("card"));
    let jku = asked
        .as_ref()
        .and_then(|a| a.get("jku"))
        .and_then(Value::as_str);
    match (card, jku) {
        (Some(card), Some(jku)) => Response::json(sign(card, secret, jku)),
        _ => Response::error(ErrorCode::InvalidRequest, "post {card, jku}"),
    }
}

/// The body the network's object posts to [`SIGN_PATH`].
pub fn sign_request(card: &Value, origin: &str) -> Value {
    json!({"card": card, "jku": format!("{}/.well-known/jwks.json", origin.trim_end_matches('/'))})
}

/// One signature of a card, read.
struct Read {
    header: Value,
    input: String,
    signature: Vec<u8>,
}

fn signatures(card: &Value) -> Result<Vec<Read>, CardSignatureError> {
    let Some(list) = card.get("signatures") else {
        return Ok(Vec::new());
    };
    let list = list
        .as_array()
        .ok_or_else(|| CardSignatureError::Malformed("signatures is not a list".into()))?;
    let payload = b64url(payload(card).as_bytes());
    list.iter()
        .take(MAX_SIGNATURES)
        .map(|entry| {
            let text = |key: &str| entry.get(key).and_then(Value::as_str);
            let (Some(protected), Some(signature)) = (text("protected"), text("signature")) else {
                return Err(CardSignatureError::Malformed(
                    "a signature is {protected, signature}".into(),
                ));
            };
            let bad = |_| CardSignatureError::Malformed("not base64url".into());
            let header: Value =
                serde_json::from_slice(&from_b64url(protected, "jws").map_err(bad)?)
                    .map_err(|_| CardSignatureError::Malformed("the header is not JSON".into()))?;
            Ok(Read {
                header,
                input: format!("{protected}.{payload}"),
                signature: from_b64url(signature, "jws").map_err(bad)?,
            })
        })
        .collect()
}

/// The JWKS URLs a card's signatures name (none for an unsigned card).
pub fn key_urls(card: &Value) -> Result<Vec<String>, CardSignatureError> {
    let mut urls = Vec::new();
    for read in signatures(card)? {
        let field = |key: &str| read.header.get(key).and_then(Value::as_str);
        let Some(jku) = field("jku") else {
            return Err(CardSignatureError::NoKeyUrl(
                field("kid").unwrap_or("").to_owned(),
            ));
        };
        if !urls.iter().any(|u| u == jku) {
            urls.push(jku.to_owned());
        }
    }
    Ok(urls)
}

/// Checks a signed card: at least one signature verifies with the key its
/// `kid` names in the JWKS fetched from its `jku` (`keys`: each URL and what
/// its fetch gave). An unsigned card passes.
pub fn verify(
    card: &Value,
    keys: &[(String, Result<Value, String>)],
) -> Result<(), CardSignatureError> {
    let reads = signatures(card)?;
    if reads.is_empty() {
        return Ok(());
    }
    let mut why = Vec::new();
    for read in &reads {
        let field = |key: &str| read.header.get(key).and_then(Value::as_str).unwrap_or("");
        let (alg, kid, jku) = (field("alg"), field("kid"), field("jku"));
        let fetched = keys.iter().find(|(url, _)| url == jku).map(|(_, got)| got);
        let jwks = match fetched {
            Some(Ok(value)) => Jwks::from_json(value).unwrap_or_default(),
            Some(Err(problem)) => {
                why.push(format!("{jku}: {problem}"));
                continue;
            }
            None => {
                why.push(format!("{jku} was not fetched"));
                continue;
            }
        };
        let Some(key) = jwks.key(kid) else {
            why.push(format!("{jku} has no key {kid:?}"));
            continue;
        };
        if !fits(alg, key) {
            why.push(format!(
                "alg {alg:?} is not EdDSA, ES256 or ES256K for its key"
            ));
            continue;
        }
        match key.verify(read.input.as_bytes(), &read.signature) {
            Ok(()) => return Ok(()),
            Err(_) => why.push(format!("the signature by {kid:?} does not match the card")),
        }
    }
    Err(CardSignatureError::Invalid(why.join("; ")))
}

/// Whether a JWS `alg` names the algorithm of `key`.
fn fits(alg: &str, key: &PublicKey) -> bool {
    alg == key.jws_alg()
}

/// The answer to an add request whose card's signatures were refused (502, `verification_failed`).
pub fn refusal(card_url: &str, error: &CardSignatureError) -> Response {
    Response::error(
        error.code(),
        format!("the agent card at {card_url}: {error}"),
    )
    .with_status(502)
}

#[cfg(test)]
#[path = "signature_tests.rs"]
mod tests;
