//! Tests of `e1_` document proofs, with documents the official `anp` SDK
//! (1.0.7) made: `fixtures/e1_sdk_request.json` is `create_did_wba_document`'s
//! default `e1` document (base64url `proofValue`) and a request its key
//! signed with `generate_http_signature_headers`
//! (`fixtures/make_e1_sdk_request.py`); `fixtures/e1_standard_document.json`
//! carries the suite's multibase form, accepted by the SDK's own
//! `validate_did_document_binding` (`fixtures/make_e1_standard_document.py`).

use super::*;
use crate::Timestamp;
use crate::error::Coded;
use crate::identity::didwba_proof::DidProof;
use crate::identity::didwba_verify::DidWbaVerifier;
use crate::identity::http_signature::{Received, SignedRequest};
use serde_json::json;

fn sdk_fixture() -> Value {
    serde_json::from_str(include_str!("fixtures/e1_sdk_request.json")).unwrap()
}

fn sdk_document() -> Value {
    sdk_fixture()["document"].clone()
}

fn standard_document() -> Value {
    serde_json::from_str(include_str!("fixtures/e1_standard_document.json")).unwrap()
}

fn did_of(doc: &Value) -> String {
    doc["id"].as_str().unwrap().to_owned()
}

fn reason(result: Result<(), IdentityError>) -> &'static str {
    result.unwrap_err().reason()
}

#[test]
fn documents_the_sdk_made_verify_in_either_proof_form() {
    for doc in [sdk_document(), standard_document()] {
        assert!(e1_fingerprint(&did_of(&doc)).is_some());
        assert_eq!(check_e1_document(&doc, &did_of(&doc)), Ok(()));
    }
    assert!(
        standard_document()["proof"]["proofValue"]
            .as_str()
            .unwrap()
            .starts_with('z')
    );
}

#[test]
fn a_changed_document_or_proof_is_refused() {
    for doc in [sdk_document(), standard_document()] {
        let did = did_of(&doc);
        // Whoever serves the document adds a key of theirs.
        let mut swapped = doc.clone();
        swapped["authentication"]
            .as_array_mut()
            .unwrap()
            .push(json!(format!("{did}#key-9")));
        assert_eq!(
            reason(check_e1_document(&swapped, &did)),
            "invalid_document_proof"
        );
        let mut redated = doc.clone();
        redated["proof"]["created"] = json!("2030-01-01T00:00:00Z");
        assert_eq!(
            reason(check_e1_document(&redated, &did)),
            "invalid_document_proof"
        );
        for (field, value) in [
            ("cryptosuite", json!("ecdsa-jcs-2019")),
            ("type", json!("Ed25519Signature2020")),
            ("proofPurpose", json!("authentication")),
            ("proofValue", json!("!!")),
            ("verificationMethod", json!(format!("{did}#key-3"))),
        ] {
            let mut changed = doc.clone();
            changed["proof"][field] = value;
            assert_eq!(
                reason(check_e1_document(&changed, &did)),
                "invalid_document_proof",
                "{field}"
            );
        }
    }
}

#[test]
fn a_missing_proof_is_refused_for_e1_dids_only() {
    let mut bare = sdk_document();
    bare.as_object_mut().unwrap().remove("proof");
    let did = did_of(&bare);
    let refused = check_e1_document(&bare, &did).unwrap_err();
    assert_eq!(refused.reason(), "invalid_document_proof");
    assert_eq!(refused.code(), crate::ErrorCode::VerificationFailed);
    bare["proof"] = json!([sdk_document()["proof"]]);
    assert_eq!(
        reason(check_e1_document(&bare, &did)),
        "invalid_document_proof"
    );
    // A DID that binds no e1_ key needs no proof.
    assert_eq!(
        check_e1_document(&json!({}), "did:wba:example.com:agents:ana"),
        Ok(())
    );
}

#[test]
fn the_proof_key_must_be_the_one_the_did_binds() {
    // The standard document's valid proof, presented for the other SDK DID.
    let doc = standard_document();
    let other = did_of(&sdk_document());
    assert_eq!(
        reason(check_e1_document(&doc, &other)),
        "invalid_document_proof"
    );
}

/// The fixture's request, read as the binding reads it.
fn sdk_request() -> DidProof {
    let fixture = sdk_fixture();
    let headers = &fixture["headers"];
    let header = |name: &str| {
        let wanted = match name {
            "signature-input" => "Signature-Input",
            "signature" => "Signature",
            "content-digest" => "Content-Digest",
            "content-type" => return Some("application/json"),
            _ => return None,
        };
        headers[wanted].as_str()
    };
    let req = Received {
        method: "POST",
        url: fixture["url"].as_str().unwrap(),
        header: &header,
        body: fixture["body"].as_str().unwrap().as_bytes(),
    };
    let read = SignedRequest::of(&req).expect("signed");
    DidProof::parse(&DidProof::signed_text(read)).unwrap()
}

/// `created` of the fixture's signature plus ten seconds, in ms.
const NOW_MS: u64 = 1_733_402_106_000;

#[test]
fn the_verifier_takes_a_request_with_the_sdk_document_and_refuses_a_tampered_one() {
    let proof = sdk_request();
    let mut verifier = DidWbaVerifier::default();
    let did = verifier
        .verify(
            &proof,
            &sdk_document(),
            "example.com",
            Timestamp::from(NOW_MS),
        )
        .unwrap();
    assert_eq!(did.to_string(), did_of(&sdk_document()));
    // The same request against a document changed after signing (nonce unspent by a refusal).
    let mut tampered = sdk_document();
    tampered["service"] = json!([{"id": "#ad", "type": "AgentDescription",
        "serviceEndpoint": "https://evil.example/ad.json"}]);
    let mut fresh = DidWbaVerifier::default();
    let refused = fresh
        .verify(&proof, &tampered, "example.com", Timestamp::from(NOW_MS))
        .unwrap_err();
    assert_eq!(refused.reason(), "invalid_document_proof");
    let mut bare = sdk_document();
    bare.as_object_mut().unwrap().remove("proof");
    assert_eq!(
        fresh
            .verify(&proof, &bare, "example.com", Timestamp::from(NOW_MS))
            .unwrap_err()
            .reason(),
        "invalid_document_proof"
    );
    assert!(
        fresh
            .verify(
                &proof,
                &sdk_document(),
                "example.com",
                Timestamp::from(NOW_MS)
            )
            .is_ok()
    );
}
