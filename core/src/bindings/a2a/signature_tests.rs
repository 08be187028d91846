//! Tests of signed agent cards: what is covered, signing and verifying.

use super::*;

const SEED: [u8; 32] = [7; 32];
const JKU: &str = "https://edge.example/.well-known/jwks.json";

fn jwks(seed: &[u8; 32]) -> Value {
    let public = crate::verification::public_key_of(seed);
    let key = PublicKey::ed25519(&public).unwrap();
    Jwks::new(vec![(thumbprint(&public), key)]).to_json()
}

fn card() -> Value {
    json!({
        "name": "agent:echo", "description": "echoes", "version": "1.0.0",
        "supportedInterfaces": [{"url": "https://edge.example/a2a", "protocolBinding": "JSONRPC",
            "protocolVersion": "1.0"}],
        "capabilities": {"streaming": true, "pushNotifications": true},
        "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"],
        "securityRequirements": [{"schemes": {"session": {"list": []}}}],
        "skills": [{"id": "echo", "name": "echo", "description": "", "tags": ["tool"]}],
    })
}

#[test]
fn the_payload_is_the_1_0_view_without_empties_in_jcs() {
    let mut served = card();
    served["url"] = json!("https://edge.example/a2a");
    served["protocolVersion"] = json!("0.3.0");
    served["signatures"] = json!([{"protected": "x", "signature": "y"}]);
    served["skills"][0]["security"] = json!([{"session": []}]);
    assert_eq!(payload(&served), payload(&card()));
    let text = payload(&card());
    assert!(text.starts_with(
        r#"{"capabilities":{"pushNotifications":true,"streaming":true},"defaultInputModes""#
    ));
    assert!(!text.contains("securityRequirements"), "{text}");
    assert!(
        text.contains(r#"{"id":"echo","name":"echo","tags":["tool"]}"#),
        "{text}"
    );
}

#[test]
fn a_signed_card_verifies_with_the_jwks_its_jku_names() {
    let signature = sign(&card(), &SEED, JKU);
    let header: Value = serde_json::from_slice(
        &from_b64url(signature["protected"].as_str().unwrap(), "t").unwrap(),
    )
    .unwrap();
    assert_eq!(header["alg"], "EdDSA");
    assert_eq!(header["typ"], "JOSE");
    assert_eq!(header["jku"], JKU);
    let signed = signed(card(), signature);
    assert_eq!(key_urls(&signed).unwrap(), vec![JKU.to_owned()]);
    let keys = vec![(JKU.to_owned(), Ok(jwks(&SEED)))];
    assert_eq!(verify(&signed, &keys), Ok(()));
    // 0.3 fields merged in later are not covered.
    let mut merged = signed.clone();
    merged["url"] = json!("https://edge.example/a2a");
    assert_eq!(verify(&merged, &keys), Ok(()));
}

#[test]
fn a_changed_card_or_another_key_does_not_verify() {
    let signed = signed(card(), sign(&card(), &SEED, JKU));
    let keys = vec![(JKU.to_owned(), Ok(jwks(&SEED)))];
    let mut changed = signed.clone();
    changed["skills"][0]["name"] = json!("evil");
    let refused = verify(&changed, &keys).unwrap_err();
    assert!(matches!(refused, CardSignatureError::Invalid(_)));
    assert_eq!(refused.code(), ErrorCode::VerificationFailed);
    let other = vec![(JKU.to_owned(), Ok(jwks(&[9; 32])))];
    assert!(matches!(
        verify(&signed, &other),
        Err(CardSignatureError::Invalid(_))
    ));
    let unreachable = vec![(JKU.to_owned(), Err("unreachable".to_owned()))];
    assert!(verify(&signed, &unreachable).is_err());
    assert!(verify(&signed, &[]).is_err());
}

#[test]
fn unsigned_cards_pass_and_malformed_signatures_are_refused() {
    assert_eq!(verify(&card(), &[]), Ok(()));
    assert_eq!(key_urls(&card()).unwrap(), Vec::<String>::new());
    let mut bad = card();
    bad["signatures"] = json!([{"protected": 3}]);
    assert!(matches!(
        key_urls(&bad),
        Err(CardSignatureError::Malformed(_))
    ));
    bad["signatures"] = json!("x");
    assert!(matches!(
        verify(&bad, &[]),
        Err(CardSignatureError::Malformed(_))
    ));
    let header = b64url(br#"{"alg":"EdDSA","typ":"JOSE","kid":"k"}"#);
    bad["signatures"] = json!([{"protected": header, "signature": "AA"}]);
    assert_eq!(
        key_urls(&bad),
        Err(CardSignatureError::NoKeyUrl("k".into()))
    );
}

#[test]
fn the_registry_answers_a_sign_request() {
    let body = sign_request(&card(), "https://edge.example/").to_string();
    let answer = sign_answer(&SEED, &body);
    assert_eq!(answer.status, 200);
    let crate::bindings::message::Body::Json(signature) = answer.body else {
        panic!("json")
    };
    let keys = vec![(JKU.to_owned(), Ok(jwks(&SEED)))];
    assert_eq!(verify(&signed(card(), signature), &keys), Ok(()));
    assert_eq!(sign_answer(&SEED, "{}").status, 400);
}

#[test]
fn the_sign_path_is_not_reachable_from_outside() {
    assert!(!crate::bindings::registry::is_registry_path(SIGN_PATH));
    assert!(SIGN_PATH.starts_with("/internal/"));
}

/// Each JWKS URL and what its fetch gave.
type Keys = Vec<(String, Result<Value, String>)>;

/// A card signed ES256 by the official `@a2a-js/sdk`'s `generateAgentCardSignature`
/// with a P-256 key from node's `crypto` (`fixtures/make_es256_card.mjs`), and
/// the JWKS at its `jku`.
fn es256_fixture() -> (Value, Keys) {
    let fixture: Value = serde_json::from_str(include_str!("fixtures/es256_card.json")).unwrap();
    let keys = vec![(
        fixture["jku"].as_str().unwrap().to_owned(),
        Ok(fixture["jwks"].clone()),
    )];
    (fixture["card"].clone(), keys)
}

#[test]
fn a_card_the_sdk_signed_es256_verifies_and_a_tampered_one_does_not() {
    let (card, keys) = es256_fixture();
    assert_eq!(key_urls(&card).unwrap(), vec![keys[0].0.clone()]);
    assert_eq!(verify(&card, &keys), Ok(()));
    let mut tampered = card.clone();
    tampered["description"] = json!("changed after signing");
    assert!(matches!(
        verify(&tampered, &keys),
        Err(CardSignatureError::Invalid(_))
    ));
    // Another P-256 key under the same kid does not verify it.
    let other = PublicKey::P256(
        *p256::ecdsa::SigningKey::from_slice(&[3; 32])
            .unwrap()
            .verifying_key(),
    );
    let mut jwk = other.to_jwk();
    jwk["kid"] = json!("p256-1");
    let swapped = vec![(keys[0].0.clone(), Ok(json!({"keys": [jwk]})))];
    assert!(verify(&card, &swapped).is_err());
}

#[test]
fn an_alg_that_does_not_name_its_key_is_refused() {
    let (card, keys) = es256_fixture();
    // The same signature under a header that says ES256K: refused before any curve math.
    let header: Value = serde_json::from_slice(
        &from_b64url(card["signatures"][0]["protected"].as_str().unwrap(), "t").unwrap(),
    )
    .unwrap();
    let mut relabelled = header.clone();
    relabelled["alg"] = json!("ES256K");
    let mut card = card;
    card["signatures"][0]["protected"] = json!(b64url(relabelled.to_string().as_bytes()));
    let Err(CardSignatureError::Invalid(why)) = verify(&card, &keys) else {
        panic!("refused")
    };
    assert!(why.contains("not EdDSA, ES256 or ES256K"), "{why}");
}
