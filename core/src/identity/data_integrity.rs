//! The Data Integrity proof an `e1_` did:wba document must carry (ANP-03
//! §2.5.2, §2.5.5): a top-level `proof` of type `DataIntegrityProof` with the
//! `eddsa-jcs-2022` cryptosuite (W3C Data Integrity EdDSA Cryptosuites
//! v1.0), `proofPurpose: assertionMethod`, made by an Ed25519 key of the
//! document that `assertionMethod` authorizes and whose RFC 7638 thumbprint
//! is the DID's `e1_` segment. A document without it, or whose proof does not
//! verify, does not resolve: there is no relaxed mode for `e1_` DIDs.
//!
//! What is signed: SHA-256 of the JCS text ([`super::jcs`]) of the proof
//! options (the proof without `proofValue`) followed by SHA-256 of the JCS
//! text of the document without `proof`. Two forms of `proofValue` are read,
//! as the `anp` SDK's verifier reads them: the suite's own multibase
//! base58btc (`z…`, 64 bytes), whose proof options also carry the
//! document's `@context`; and the base64url signature over the options as
//! they stand, which the `anp` SDK (1.0.7) writes.

use super::encoding::{from_b64url, from_base58};
use super::error::IdentityError;
use super::jcs::canonicalize;
use super::keys::PublicKey;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The proof type.
pub const PROOF_TYPE: &str = "DataIntegrityProof";
/// The cryptosuite an `e1_` document's proof uses.
pub const CRYPTOSUITE: &str = "eddsa-jcs-2022";
/// The verification method types that name an Ed25519 key.
const ED25519_METHODS: [&str; 3] = [
    "Multikey",
    "Ed25519VerificationKey2020",
    "Ed25519VerificationKey2018",
];

fn refused(detail: impl Into<String>) -> IdentityError {
    IdentityError::DocumentProof(detail.into())
}

/// The `e1_` fingerprint a DID binds (its last segment without the prefix), if it does.
pub fn e1_fingerprint(did: &str) -> Option<&str> {
    did.rsplit(':').next()?.strip_prefix("e1_")
}

/// Checks `doc`, the resolved document of `did`: for an `e1_` DID, its
/// proof as the module doc says; any other DID passes.
pub fn check_e1_document(doc: &Value, did: &str) -> Result<(), IdentityError> {
    let Some(fingerprint) = e1_fingerprint(did) else {
        return Ok(());
    };
    let proof = match doc.get("proof") {
        Some(Value::Object(proof)) => proof,
        Some(_) => return Err(refused("the proof is not one object")),
        None => return Err(refused("an e1_ DID's document carries a proof")),
    };
    let field = |name: &str| proof.get(name).and_then(Value::as_str).unwrap_or("");
    if field("type") != PROOF_TYPE || field("cryptosuite") != CRYPTOSUITE {
        return Err(refused(format!(
            "the proof is not a {PROOF_TYPE} of {CRYPTOSUITE}"
        )));
    }
    if field("proofPurpose") != "assertionMethod" {
        return Err(refused("the proof's purpose is not assertionMethod"));
    }
    if field("created").is_empty() || field("proofValue").is_empty() {
        return Err(refused("the proof has no created or no proofValue"));
    }
    let method_id = absolute(did, field("verificationMethod"));
    let key = assertion_key(doc, did, &method_id)?;
    if super::didwba_proof::thumbprint(&key) != fingerprint {
        return Err(refused(format!(
            "{method_id} is not the key the DID's e1_ segment binds"
        )));
    }
    let unsecured: Map<String, Value> = doc
        .as_object()
        .map(|fields| {
            fields
                .iter()
                .filter(|(name, _)| *name != "proof")
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect()
        })
        .unwrap_or_default();
    let mut options = proof.clone();
    options.remove("proofValue");
    let value = field("proofValue");
    let signature = match multibase_signature(value) {
        Some(signature) => {
            if let Some(context) = unsecured.get("@context") {
                options.insert("@context".into(), context.clone());
            }
            signature
        }
        None => from_b64url(value, "proof").map_err(|_| refused("proofValue is unreadable"))?,
    };
    let mut signed = Sha256::digest(canonicalize(&Value::Object(options)).as_bytes()).to_vec();
    signed.extend(Sha256::digest(
        canonicalize(&Value::Object(unsecured)).as_bytes(),
    ));
    key.verify(&signed, &signature)
        .map_err(|_| refused("the proof does not verify: the document changed after signing"))
}

/// A 64-byte signature in multibase base58btc (`z…`), if `value` is one.
fn multibase_signature(value: &str) -> Option<Vec<u8>> {
    let bytes = from_base58(value.strip_prefix('z')?).ok()?;
    (bytes.len() == 64).then_some(bytes)
}

/// `reference` as a full DID URL (`#key-1` → `{did}#key-1`).
fn absolute(did: &str, reference: &str) -> String {
    if reference.starts_with('#') {
        format!("{did}{reference}")
    } else {
        reference.to_owned()
    }
}

/// The Ed25519 key of `method_id`, which `assertionMethod` must authorize.
fn assertion_key(doc: &Value, did: &str, method_id: &str) -> Result<PublicKey, IdentityError> {
    let list = |name: &str| {
        doc.get(name)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let id_of = |entry: &Value| match entry {
        Value::String(reference) => Some(absolute(did, reference)),
        Value::Object(method) => method
            .get("id")
            .and_then(Value::as_str)
            .map(|id| absolute(did, id)),
        _ => None,
    };
    let assertions = list("assertionMethod");
    if !assertions
        .iter()
        .any(|entry| id_of(entry).as_deref() == Some(method_id))
    {
        return Err(refused(format!(
            "assertionMethod does not authorize {method_id}"
        )));
    }
    let method = list("verificationMethod")
        .into_iter()
        .chain(assertions)
        .find(|entry| entry.is_object() && id_of(entry).as_deref() == Some(method_id))
        .ok_or_else(|| refused(format!("the document has no method {method_id}")))?;
    let kind = method.get("type").and_then(Value::as_str).unwrap_or("");
    if !ED25519_METHODS.contains(&kind) {
        return Err(refused(format!(
            "{method_id} is a {kind:?}, not an Ed25519 Multikey"
        )));
    }
    match PublicKey::from_verification_method(&method) {
        Ok(key @ PublicKey::Ed25519(_)) => Ok(key),
        _ => Err(refused(format!("{method_id} holds no Ed25519 key"))),
    }
}

#[cfg(test)]
#[path = "data_integrity_tests.rs"]
mod tests;
