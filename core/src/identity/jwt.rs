//! JSON Web Tokens signed with EdDSA (Ed25519, RFC 8037) and the JWKS that
//! publishes their keys: level-2 credentials and DIDWba's bearer tokens.
//!
//! Only `alg: EdDSA` is accepted (`none` and every other algorithm are
//! refused before any key is looked at). Times are unix seconds.

use super::encoding::{b64url, from_b64url};
use super::error::IdentityError;
use super::keys::PublicKey;
use ed25519_dalek::{Signer, SigningKey};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// Seconds of clock skew tolerated on `exp` and `nbf`.
pub const LEEWAY_SECS: u64 = 30;

/// The claims agentnet issues and checks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// Issuer (the registry's URL).
    pub iss: String,
    /// Subject: the agent (`openagents:{name}` or a DID).
    pub sub: String,
    /// Audience: one string or several.
    pub aud: Audience,
    /// Expiry, unix seconds.
    pub exp: u64,
    /// Issued at, unix seconds.
    #[serde(default)]
    pub iat: u64,
    /// Not before, unix seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nbf: Option<u64>,
    /// The agent's AIC, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aic: Option<String>,
    /// The agent's DID, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did: Option<String>,
}

/// `aud`: a string or a list of strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Audience {
    /// One audience.
    One(String),
    /// Several.
    Many(Vec<String>),
}

impl Audience {
    /// True when `audience` is among them (`*` in a token means any).
    pub fn includes(&self, audience: &str) -> bool {
        match self {
            Self::One(a) => a == audience || a == "*",
            Self::Many(list) => list.iter().any(|a| a == audience || a == "*"),
        }
    }
}

/// A set of verification keys by `kid` (a JWKS).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Jwks(Vec<(String, PublicKey)>);

impl Jwks {
    /// A JWKS with these keys.
    pub fn new(keys: Vec<(String, PublicKey)>) -> Self {
        Self(keys)
    }

    /// Reads `{keys: [jwk…]}`; keys it cannot read (other types) are skipped.
    pub fn from_json(value: &Value) -> Result<Self, IdentityError> {
        let keys = value
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(|| IdentityError::malformed("jwks", "no keys array"))?;
        Ok(Self(
            keys.iter()
                .filter_map(|jwk| {
                    let kid = jwk.get("kid").and_then(Value::as_str)?;
                    Some((kid.to_owned(), PublicKey::from_jwk(jwk).ok()?))
                })
                .collect(),
        ))
    }

    /// `{keys: [{kty, crv, x, kid, use: sig, alg}]}`.
    pub fn to_json(&self) -> Value {
        let keys: Vec<Value> = self
            .0
            .iter()
            .map(|(kid, key)| {
                let mut jwk = key.to_jwk();
                if let Value::Object(map) = &mut jwk {
                    map.insert("kid".into(), json!(kid));
                    map.insert("use".into(), json!("sig"));
                    map.insert("alg".into(), json!(key.jws_alg()));
                }
                jwk
            })
            .collect();
        json!({ "keys": keys })
    }

    /// The key with this id.
    pub fn key(&self, kid: &str) -> Option<&PublicKey> {
        self.0.iter().find(|(k, _)| k == kid).map(|(_, key)| key)
    }
}

/// The RFC 7638 thumbprint of an Ed25519 key (base64url SHA-256 of `{crv,kty,x}`): its `kid`.
pub fn thumbprint(key: &[u8; 32]) -> String {
    let canonical = format!(r#"{{"crv":"Ed25519","kty":"OKP","x":"{}"}}"#, b64url(key));
    b64url(&Sha256::digest(canonical.as_bytes()))
}

/// A compact JWS of `payload` with header `{alg: EdDSA, typ: JWT, kid}`.
pub fn sign_jws(secret: &[u8; 32], kid: Option<&str>, payload: &[u8]) -> String {
    let header = match kid {
        Some(kid) => json!({"alg": "EdDSA", "typ": "JWT", "kid": kid}),
        None => json!({"alg": "EdDSA"}),
    };
    let signing_input = format!(
        "{}.{}",
        b64url(header.to_string().as_bytes()),
        b64url(payload)
    );
    let signature = SigningKey::from_bytes(secret).sign(signing_input.as_bytes());
    format!("{signing_input}.{}", b64url(&signature.to_bytes()))
}

/// Issues a JWT of `claims`, signed by `secret` under `kid`.
pub fn issue(secret: &[u8; 32], kid: &str, claims: &Claims) -> String {
    let payload = serde_json::to_vec(claims).unwrap_or_default();
    sign_jws(secret, Some(kid), &payload)
}

/// What a verifier accepts.
#[derive(Debug, Clone, Copy)]
pub struct Expectations<'a> {
    /// Issuers it trusts.
    pub issuers: &'a [String],
    /// Its own audience.
    pub audience: &'a str,
    /// Now, unix seconds.
    pub now_secs: u64,
}

/// Reads a compact JWS and checks its signature against `jwks`; returns the raw payload.
pub fn verify_jws(token: &str, jwks: &Jwks) -> Result<Vec<u8>, IdentityError> {
    let mut parts = token.split('.');
    let (Some(header), Some(payload), Some(signature), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(IdentityError::malformed("jwt", "a JWT has three parts"));
    };
    let header: Value = serde_json::from_slice(&from_b64url(header, "jwt")?)
        .map_err(|_| IdentityError::malformed("jwt", "the header is not JSON"))?;
    let alg = header.get("alg").and_then(Value::as_str).unwrap_or("");
    if alg != "EdDSA" {
        return Err(IdentityError::AlgNotAllowed(alg.to_owned()));
    }
    let kid = header.get("kid").and_then(Value::as_str).unwrap_or("");
    let key = jwks
        .key(kid)
        .ok_or_else(|| IdentityError::UnknownKey(format!("kid {kid:?}")))?;
    if !matches!(key, PublicKey::Ed25519(_)) {
        return Err(IdentityError::UnknownKey(format!(
            "kid {kid:?} is not an Ed25519 key"
        )));
    }
    let signing_input = token.get(..token.rfind('.').unwrap_or(0)).unwrap_or("");
    key.verify(signing_input.as_bytes(), &from_b64url(signature, "jwt")?)?;
    from_b64url(payload, "jwt")
}

/// Verifies a JWT: algorithm, key and signature, then issuer, audience and time.
pub fn verify(token: &str, jwks: &Jwks, expect: Expectations<'_>) -> Result<Claims, IdentityError> {
    let payload = verify_jws(token, jwks)?;
    let claims: Claims = serde_json::from_slice(&payload)
        .map_err(|e| IdentityError::malformed("jwt", format!("claims: {e}")))?;
    if !expect.issuers.iter().any(|i| i == &claims.iss) {
        return Err(IdentityError::WrongIssuer(claims.iss));
    }
    if !claims.aud.includes(expect.audience) {
        return Err(IdentityError::WrongAudience(expect.audience.to_owned()));
    }
    let late = claims.exp.saturating_add(LEEWAY_SECS) <= expect.now_secs;
    let early = claims
        .nbf
        .is_some_and(|nbf| nbf > expect.now_secs.saturating_add(LEEWAY_SECS));
    if late || early {
        return Err(IdentityError::Expired);
    }
    Ok(claims)
}

#[cfg(test)]
#[path = "jwt_tests.rs"]
mod tests;
