//! Ed25519 identities for verification level 1: key pairs from caller
//! randomness, public keys, and signing the network's join challenge.

use crate::errors::{coded, js_error};
use agentnet_core::crypto::{from_hex, to_hex};
use agentnet_core::verification::{public_key_of, sign_challenge};
use agentnet_core::{Address, NetworkId};
use wasm_bindgen::prelude::*;

/// Reads a 32-byte secret key from 64 hex characters.
pub fn secret_from_hex(secret: &str) -> Result<[u8; 32], JsValue> {
    from_hex::<32>(secret).ok_or_else(|| {
        js_error(
            "invalid_key",
            "a secret key is 64 hex characters (32 bytes)",
        )
    })
}

/// A key pair from 32 random bytes (`crypto.getRandomValues`): JSON text `{publicKey, secretKey}` in hex.
#[wasm_bindgen(js_name = keyPairFromSeed)]
pub fn key_pair_from_seed(seed: &[u8]) -> Result<String, JsValue> {
    let secret: [u8; 32] = seed
        .try_into()
        .map_err(|_| js_error("invalid_seed", "seed must be exactly 32 bytes"))?;
    Ok(serde_json::json!({
        "publicKey": to_hex(&public_key_of(&secret)),
        "secretKey": to_hex(&secret),
    })
    .to_string())
}

/// The public key (hex) of a secret key (hex).
#[wasm_bindgen(js_name = publicKeyOf)]
pub fn public_key_of_secret(secret: &str) -> Result<String, JsValue> {
    Ok(to_hex(&public_key_of(&secret_from_hex(secret)?)))
}

/// Signs a join challenge: the signature (hex) for `credentials.signature`.
#[wasm_bindgen(js_name = signChallenge)]
pub fn sign_join_challenge(
    secret: &str,
    network: &str,
    address: &str,
    nonce: &str,
) -> Result<String, JsValue> {
    let secret = secret_from_hex(secret)?;
    let network: NetworkId = network.parse().map_err(coded)?;
    let address: Address = address.parse().map_err(coded)?;
    Ok(sign_challenge(&secret, &network, &address, nonce))
}

/// The did:wba (or did:openagents) document of an Ed25519 public key (hex)
/// as `key-1`: JSON text, for serving at the DID's document URL.
#[wasm_bindgen(js_name = didDocument)]
pub fn did_document(public_key: &str, did: &str) -> Result<String, JsValue> {
    use agentnet_core::identity::{Did, PublicKey, did::document};
    let key = from_hex::<32>(public_key)
        .ok_or_else(|| js_error("invalid_key", "a public key is 64 hex characters"))
        .and_then(|k| {
            PublicKey::ed25519(&k).map_err(|e| js_error("invalid_key", &e.to_string()))
        })?;
    let did: Did = did
        .parse()
        .map_err(|e: agentnet_core::identity::IdentityError| {
            js_error("invalid_did", &e.to_string())
        })?;
    Ok(document(&did, &[("key-1".to_owned(), key)], Vec::new()).to_string())
}

/// Where a did:wba document lives (`https://host/…/did.json`), `undefined` for other methods.
#[wasm_bindgen(js_name = didDocumentUrl)]
pub fn did_document_url(did: &str) -> Result<Option<String>, JsValue> {
    let did: agentnet_core::identity::Did =
        did.parse()
            .map_err(|e: agentnet_core::identity::IdentityError| {
                js_error("invalid_did", &e.to_string())
            })?;
    Ok(did.document_url())
}

/// The proof detail of an ACS publication: hex SHA-256 of the document's JCS form.
#[wasm_bindgen(js_name = acsDigest)]
pub fn acs_digest(acs_json: &str) -> Result<String, JsValue> {
    let acs: serde_json::Value = serde_json::from_str(acs_json)
        .map_err(|e| js_error("invalid_request", &format!("the ACS is not JSON: {e}")))?;
    Ok(agentnet_core::identity::registry::acs_digest(&acs))
}

/// Signs a registry key proof (`register`, `rotate`, `revoke`, `token`, `acs`): hex signature.
#[wasm_bindgen(js_name = signRegistryProof)]
pub fn sign_registry_proof(
    secret: &str,
    action: &str,
    name: &str,
    nonce: &str,
    detail: &str,
) -> Result<String, JsValue> {
    use agentnet_core::identity::registry::{Action, sign_proof};
    let action = match action {
        "register" => Action::Register,
        "rotate" => Action::Rotate,
        "revoke" => Action::Revoke,
        "token" => Action::Token,
        "acs" => Action::PublishAcs,
        other => {
            return Err(js_error(
                "invalid_request",
                &format!("unknown registry action {other}"),
            ));
        }
    };
    Ok(sign_proof(
        &secret_from_hex(secret)?,
        action,
        name,
        nonce,
        detail,
    ))
}

/// A `DIDWba` Authorization header (did:wba method spec §3) for a request to
/// `domain`, signed with an Ed25519 secret key (hex) as `method` (`key-1`)
/// of `did`; the caller gives a fresh `nonce` and the RFC 3339 UTC
/// `timestamp`; `aud` chooses the newer `v="1.1"`/`aud` form.
#[wasm_bindgen(js_name = didWbaHeader)]
pub fn did_wba_header(
    secret: &str,
    did: &str,
    method: &str,
    nonce: &str,
    timestamp: &str,
    domain: &str,
    aud: bool,
) -> Result<String, JsValue> {
    use agentnet_core::identity::didwba::ed25519_client_header;
    let _: agentnet_core::identity::Did =
        did.parse()
            .map_err(|e: agentnet_core::identity::IdentityError| {
                js_error("invalid_did", &e.to_string())
            })?;
    Ok(ed25519_client_header(
        &secret_from_hex(secret)?,
        did,
        method,
        (nonce, timestamp),
        domain,
        aud,
    ))
}
