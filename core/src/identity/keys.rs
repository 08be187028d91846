//! Public keys an identity can hold — Ed25519, secp256k1 and P-256 — read
//! from and written to the forms DID documents and JWKS use (JWK, multibase,
//! base58), and signature checks over a message.
//!
//! Signatures: Ed25519 signs the message itself; secp256k1 and P-256 are
//! ECDSA over SHA-256 of the message, 64 bytes R‖S (the form ANP clients and
//! JWS `ES256K`/`ES256` send; a shorter half is left-padded, and high-S is
//! accepted as Python's `cryptography` and WebCrypto accept it).

use super::encoding::{b64url, base58, from_b64url, from_base58};
use super::error::IdentityError;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use serde_json::{Value, json};

/// Multicodec prefix of an Ed25519 public key in a multibase string.
const ED25519_MULTICODEC: [u8; 2] = [0xed, 0x01];
/// Multicodec prefix of a compressed secp256k1 public key.
const SECP256K1_MULTICODEC: [u8; 2] = [0xe7, 0x01];
/// Multicodec prefix of a compressed P-256 public key (`p256-pub`, 0x1200).
const P256_MULTICODEC: [u8; 2] = [0x80, 0x24];

/// A public key of a DID document, a JWKS or the registry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PublicKey {
    /// Ed25519 (32 bytes).
    Ed25519([u8; 32]),
    /// secp256k1.
    Secp256k1(k256::ecdsa::VerifyingKey),
    /// P-256 (secp256r1).
    P256(p256::ecdsa::VerifyingKey),
}

fn key_error(detail: impl Into<String>) -> IdentityError {
    IdentityError::malformed("key", detail)
}

/// Checks an ECDSA `$signature` (`r‖s`, either `s`) over `$message` with
/// `$key`, a verifying key of the curve crate `$curve` (`k256`, `p256`).
macro_rules! verify_ecdsa {
    ($curve:ident, $key:expr, $message:expr, $signature:expr) => {{
        let signature = $curve::ecdsa::Signature::from_slice(&rs_bytes($signature)?)
            .map_err(|_| IdentityError::BadSignature)?;
        let signature = signature.normalize_s().unwrap_or(signature);
        $key.verify($message, &signature)
            .map_err(|_| IdentityError::BadSignature)
    }};
}

impl PublicKey {
    /// An Ed25519 key from its 32 bytes (checked to be a curve point).
    pub fn ed25519(bytes: &[u8]) -> Result<Self, IdentityError> {
        let bytes: [u8; 32] = bytes
            .try_into()
            .map_err(|_| key_error("an Ed25519 key is 32 bytes"))?;
        VerifyingKey::from_bytes(&bytes).map_err(|_| key_error("not an Ed25519 point"))?;
        Ok(Self::Ed25519(bytes))
    }

    /// A secp256k1 key from SEC1 bytes (compressed or not).
    pub fn secp256k1(sec1: &[u8]) -> Result<Self, IdentityError> {
        k256::ecdsa::VerifyingKey::from_sec1_bytes(sec1)
            .map(Self::Secp256k1)
            .map_err(|_| key_error("not a secp256k1 point"))
    }

    /// A P-256 key from SEC1 bytes (compressed or not).
    pub fn p256(sec1: &[u8]) -> Result<Self, IdentityError> {
        p256::ecdsa::VerifyingKey::from_sec1_bytes(sec1)
            .map(Self::P256)
            .map_err(|_| key_error("not a P-256 point"))
    }

    /// Reads a JWK: `{kty: OKP, crv: Ed25519, x}` or `{kty: EC, crv:
    /// secp256k1 | P-256, x, y}`.
    pub fn from_jwk(jwk: &Value) -> Result<Self, IdentityError> {
        let field = |name: &str| jwk.get(name).and_then(Value::as_str);
        match (field("kty"), field("crv")) {
            (Some("OKP"), Some("Ed25519")) => {
                Self::ed25519(&from_b64url(field("x").unwrap_or(""), "key")?)
            }
            (Some("EC"), Some("secp256k1")) => Self::secp256k1(&uncompressed_point(jwk)?),
            (Some("EC"), Some("P-256")) => Self::p256(&uncompressed_point(jwk)?),
            (kty, crv) => Err(key_error(format!(
                "unsupported JWK kty {kty:?} crv {crv:?}: Ed25519, secp256k1 or P-256"
            ))),
        }
    }

    /// Reads a multibase (`z` + base58btc) key with its multicodec prefix.
    pub fn from_multibase(text: &str) -> Result<Self, IdentityError> {
        let encoded = text
            .strip_prefix('z')
            .ok_or_else(|| key_error("multibase keys here are base58btc (z…)"))?;
        let bytes = from_base58(encoded)?;
        match bytes.split_at_checked(2) {
            Some((prefix, key)) if prefix == ED25519_MULTICODEC => Self::ed25519(key),
            Some((prefix, key)) if prefix == SECP256K1_MULTICODEC => Self::secp256k1(key),
            Some((prefix, key)) if prefix == P256_MULTICODEC => Self::p256(key),
            _ => Err(key_error("unknown multicodec prefix")),
        }
    }

    /// Reads the key of a DID verification method (`publicKeyJwk`,
    /// `publicKeyMultibase` or, for Ed25519, `publicKeyBase58`).
    pub fn from_verification_method(method: &Value) -> Result<Self, IdentityError> {
        if let Some(jwk) = method.get("publicKeyJwk") {
            return Self::from_jwk(jwk);
        }
        if let Some(text) = method.get("publicKeyMultibase").and_then(Value::as_str) {
            return Self::from_multibase(text);
        }
        if let Some(text) = method.get("publicKeyBase58").and_then(Value::as_str) {
            let bytes = from_base58(text)?;
            return match method.get("type").and_then(Value::as_str) {
                Some(t) if t.starts_with("EcdsaSecp256k1") => Self::secp256k1(&bytes),
                Some(t) if t.starts_with("EcdsaSecp256r1") => Self::p256(&bytes),
                _ => Self::ed25519(&bytes),
            };
        }
        Err(key_error("the verification method has no public key"))
    }

    /// The key as a JWK (no `kid`).
    pub fn to_jwk(&self) -> Value {
        match self {
            Self::Ed25519(bytes) => json!({"kty": "OKP", "crv": "Ed25519", "x": b64url(bytes)}),
            Self::Secp256k1(key) => {
                let point = key.to_encoded_point(false);
                let coordinate =
                    |c: Option<&k256::FieldBytes>| c.map(|b| b64url(b)).unwrap_or_default();
                json!({"kty": "EC", "crv": "secp256k1", "x": coordinate(point.x()), "y": coordinate(point.y())})
            }
            Self::P256(key) => {
                let point = key.to_encoded_point(false);
                let coordinate =
                    |c: Option<&p256::FieldBytes>| c.map(|b| b64url(b)).unwrap_or_default();
                json!({"kty": "EC", "crv": "P-256", "x": coordinate(point.x()), "y": coordinate(point.y())})
            }
        }
    }

    /// The key as multibase (`z…`) with its multicodec prefix.
    pub fn to_multibase(&self) -> String {
        let mut bytes = Vec::with_capacity(35);
        match self {
            Self::Ed25519(key) => {
                bytes.extend(ED25519_MULTICODEC);
                bytes.extend(key);
            }
            Self::Secp256k1(key) => {
                bytes.extend(SECP256K1_MULTICODEC);
                bytes.extend(key.to_encoded_point(true).as_bytes());
            }
            Self::P256(key) => {
                bytes.extend(P256_MULTICODEC);
                bytes.extend(key.to_encoded_point(true).as_bytes());
            }
        }
        format!("z{}", base58(&bytes))
    }

    /// The DID verification-method `type` of this key.
    pub fn method_type(&self) -> &'static str {
        match self {
            Self::Ed25519(_) => "Ed25519VerificationKey2020",
            Self::Secp256k1(_) => "EcdsaSecp256k1VerificationKey2019",
            Self::P256(_) => "EcdsaSecp256r1VerificationKey2019",
        }
    }

    /// The JWS `alg` of signatures by this key (RFC 8037, RFC 7518, RFC 8812).
    pub fn jws_alg(&self) -> &'static str {
        match self {
            Self::Ed25519(_) => "EdDSA",
            Self::Secp256k1(_) => "ES256K",
            Self::P256(_) => "ES256",
        }
    }

    /// Checks `signature` over `message` (see the module doc for each curve).
    pub fn verify(&self, message: &[u8], signature: &[u8]) -> Result<(), IdentityError> {
        match self {
            Self::Ed25519(bytes) => {
                let key =
                    VerifyingKey::from_bytes(bytes).map_err(|_| IdentityError::BadSignature)?;
                let signature =
                    Signature::from_slice(signature).map_err(|_| IdentityError::BadSignature)?;
                key.verify(message, &signature)
                    .map_err(|_| IdentityError::BadSignature)
            }
            Self::Secp256k1(key) => verify_ecdsa!(k256, key, message, signature),
            Self::P256(key) => verify_ecdsa!(p256, key, message, signature),
        }
    }
}

/// The SEC1 uncompressed point (`04‖x‖y`) of an EC JWK's 32-byte coordinates.
fn uncompressed_point(jwk: &Value) -> Result<Vec<u8>, IdentityError> {
    let field = |name: &str| jwk.get(name).and_then(Value::as_str).unwrap_or("");
    let x = from_b64url(field("x"), "key")?;
    let y = from_b64url(field("y"), "key")?;
    if x.len() > 32 || y.len() > 32 {
        return Err(key_error("EC coordinates here are 32 bytes"));
    }
    let mut sec1 = vec![0x04];
    for part in [x, y] {
        sec1.extend(std::iter::repeat_n(0, 32 - part.len()));
        sec1.extend(part);
    }
    Ok(sec1)
}

/// R‖S of up to 32 bytes each (halves of an even-length signature), as 64 bytes.
fn rs_bytes(bytes: &[u8]) -> Result<[u8; 64], IdentityError> {
    if !bytes.len().is_multiple_of(2) || bytes.len() > 64 || bytes.is_empty() {
        return Err(IdentityError::BadSignature);
    }
    let (r, s) = bytes.split_at(bytes.len() / 2);
    let mut padded = [0u8; 64];
    let (pr, ps) = padded.split_at_mut(32);
    pr.get_mut(32 - r.len()..)
        .ok_or(IdentityError::BadSignature)?
        .copy_from_slice(r);
    ps.get_mut(32 - s.len()..)
        .ok_or(IdentityError::BadSignature)?
        .copy_from_slice(s);
    Ok(padded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    #[test]
    fn ed25519_keys_round_trip_through_jwk_and_multibase_and_verify() {
        let secret = SigningKey::from_bytes(&[3; 32]);
        let key = PublicKey::ed25519(secret.verifying_key().as_bytes()).unwrap();
        assert_eq!(PublicKey::from_jwk(&key.to_jwk()).unwrap(), key);
        let multibase = key.to_multibase();
        assert!(multibase.starts_with("z6Mk"), "{multibase}");
        assert_eq!(PublicKey::from_multibase(&multibase).unwrap(), key);
        let sig = secret.sign(b"hello").to_bytes();
        assert_eq!(key.verify(b"hello", &sig), Ok(()));
        assert_eq!(key.verify(b"hellO", &sig), Err(IdentityError::BadSignature));
        assert_eq!(
            key.verify(b"hello", &sig[..10]),
            Err(IdentityError::BadSignature)
        );
    }

    #[test]
    fn secp256k1_keys_round_trip_and_verify_rs_signatures() {
        let secret = k256::ecdsa::SigningKey::from_slice(&[5; 32]).unwrap();
        let key = PublicKey::Secp256k1(*secret.verifying_key());
        assert_eq!(PublicKey::from_jwk(&key.to_jwk()).unwrap(), key);
        assert_eq!(PublicKey::from_multibase(&key.to_multibase()).unwrap(), key);
        let sig: k256::ecdsa::Signature = secret.sign(b"hash");
        assert_eq!(key.verify(b"hash", &sig.to_bytes()), Ok(()));
        assert!(key.verify(b"other", &sig.to_bytes()).is_err());
        assert!(key.verify(b"hash", &[0; 63]).is_err());
    }

    #[test]
    fn p256_keys_round_trip_and_verify_either_s() {
        let secret = p256::ecdsa::SigningKey::from_slice(&[6; 32]).unwrap();
        let key = PublicKey::P256(*secret.verifying_key());
        let jwk = key.to_jwk();
        assert_eq!(jwk["crv"], "P-256");
        assert_eq!(PublicKey::from_jwk(&jwk).unwrap(), key);
        assert_eq!(PublicKey::from_multibase(&key.to_multibase()).unwrap(), key);
        assert_eq!(key.method_type(), "EcdsaSecp256r1VerificationKey2019");
        let method = json!({"type": "EcdsaSecp256r1VerificationKey2019",
            "publicKeyBase58": base58(key_sec1(&key).as_slice())});
        assert_eq!(PublicKey::from_verification_method(&method).unwrap(), key);
        let sig: p256::ecdsa::Signature = secret.sign(b"base");
        assert_eq!(key.verify(b"base", &sig.to_bytes()), Ok(()));
        // The same signature with S negated (WebCrypto does not normalise S).
        let (r, s) = sig.split_scalars();
        let high = p256::ecdsa::Signature::from_scalars(r, -s).unwrap();
        assert_eq!(key.verify(b"base", &high.to_bytes()), Ok(()));
        assert!(key.verify(b"other", &sig.to_bytes()).is_err());
        // A secp256k1 key does not take a P-256 signature, nor the other way.
        let k1 = PublicKey::Secp256k1(
            *k256::ecdsa::SigningKey::from_slice(&[6; 32])
                .unwrap()
                .verifying_key(),
        );
        assert!(k1.verify(b"base", &sig.to_bytes()).is_err());
    }

    fn key_sec1(key: &PublicKey) -> Vec<u8> {
        match key {
            PublicKey::P256(key) => key.to_encoded_point(true).as_bytes().to_vec(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn the_did_wba_spec_example_jwk_reads() {
        let jwk = json!({"crv": "secp256k1", "x": "NtngWpJUr-rlNNbs0u-Aa8e16OwSJu6UiFf0Rdo1oJ4",
            "y": "qN1jKupJlFsPFc1UkWinqljv4YE0mq_Ickwnjgasvmo", "kty": "EC"});
        assert!(matches!(
            PublicKey::from_jwk(&jwk),
            Ok(PublicKey::Secp256k1(_))
        ));
        assert!(PublicKey::from_jwk(&json!({"kty": "RSA"})).is_err());
        assert!(PublicKey::from_multibase("abc").is_err());
    }
}
