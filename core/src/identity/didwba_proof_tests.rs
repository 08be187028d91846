//! Tests of DID proofs by HTTP Message Signature. The vectors were made
//! with the `anp` SDK 1.0.7's own `generate_http_signature_headers` (and
//! checked with its `verify_http_message_signature`): Ed25519 with the seed
//! `[1; 32]`, secp256k1 with the secret `[5; 32]`, `created` 1733402096.

use super::*;
use crate::Timestamp;
use crate::identity::did::{Did, document};
use crate::identity::didwba::MAX_AGE_SECS;
use crate::identity::didwba_verify::DidWbaVerifier;
use crate::identity::http_signature::Received;

const DID: &str = "did:wba:example.com:agents:alice";
const URL: &str = "https://example.com/networks/n1/anp/rpc?x=1";
const BODY: &str = r#"{"jsonrpc":"2.0","id":1,"method":"plan","params":{"to":"Paris"}}"#;
const DIGEST: &str = "sha-256=:Pn9vnE6e+3r1WJehXbER/jiiS4jd9sXDe+VscIt1iPc=:";
const ED_SIGNATURE: &str = "sig1=:xc10fsMTzuScRvCXdpewTIe1D0AX9AlMxPWi94Ckretu9PTmhkpo9kCIZORJYxPaqx94ZpOz77IHqJTGN8YfAQ==:";
const SECP_SIGNATURE: &str = "sig1=:wwUF4nR00GCwC/11nByA9jHHnDl6f1UQYe8SmZc4ARWtBXlKorYqmnSPEforKSMErLQREV/eo+K/lv6Ii7mOCQ==:";
/// `created` plus ten seconds, in ms.
const NOW_MS: u64 = 1_733_402_106_000;
/// The e1 thumbprint of the Ed25519 key of seed `[1; 32]` (the SDK's `compute_multikey_fingerprint`).
const E1: &str = "e1_UDDReOZl1ipXAfp9wYsm13sDBMK5og--QWdBjzuf6o4";

fn ed_key() -> PublicKey {
    PublicKey::ed25519(&crate::verification::public_key_of(&[1; 32])).unwrap()
}

fn doc() -> Value {
    let secp = PublicKey::Secp256k1(
        *k256::ecdsa::SigningKey::from_slice(&[5; 32])
            .unwrap()
            .verifying_key(),
    );
    document(
        &DID.parse().unwrap(),
        &[("key-1".into(), ed_key()), ("key-2".into(), secp)],
        vec![],
    )
}

fn input(fragment: &str, components: &str) -> String {
    format!(
        r#"sig1=({components});created=1733402096;expires=1733402396;nonce="nonce-{fragment}";keyid="{DID}#{fragment}""#
    )
}

const COMPONENTS: &str = r#""@method" "@target-uri" "@authority" "content-digest""#;

/// The proof a request with these parts carries, read as the binding reads it.
fn proof(url: &str, body: &str, input: &str, signature: &str) -> Result<DidProof, IdentityError> {
    let headers = [
        ("signature-input", input),
        ("signature", signature),
        ("content-digest", DIGEST),
        ("content-type", "application/json"),
    ];
    let header = |name: &str| headers.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    let req = Received {
        method: "POST",
        url,
        header: &header,
        body: body.as_bytes(),
    };
    let read = SignedRequest::of(&req).expect("the request is signed");
    // Through the text form, as the network receives it.
    DidProof::parse(&DidProof::signed_text(read))
}

fn reason(result: Result<Did, IdentityError>) -> &'static str {
    result.unwrap_err().reason()
}

#[test]
fn requests_the_anp_sdk_signed_verify_with_either_curve() {
    for (fragment, signature) in [("key-1", ED_SIGNATURE), ("key-2", SECP_SIGNATURE)] {
        let signed = proof(URL, BODY, &input(fragment, COMPONENTS), signature).unwrap();
        assert_eq!(signed.did(), DID);
        assert_eq!(signed.nonce(), format!("nonce-{fragment}"));
        assert_eq!(DidProof::parse(&signed.to_text()).unwrap(), signed);
        let mut verifier = DidWbaVerifier::default();
        let did = verifier.verify(&signed, &doc(), "example.com", Timestamp::from(NOW_MS));
        assert_eq!(did.unwrap().to_string(), DID, "{fragment}");
        // The nonce is single use.
        assert_eq!(
            reason(verifier.verify(&signed, &doc(), "example.com", Timestamp::from(NOW_MS + 1))),
            "invalid_nonce"
        );
    }
}

#[test]
fn another_request_or_time_or_key_is_refused() {
    let ed = input("key-1", COMPONENTS);
    let verify =
        |p: &DidProof, now| DidWbaVerifier::default().verify(p, &doc(), "example.com", now);
    // Another server (authority and target URI are covered).
    let elsewhere = proof(
        "https://other.com/networks/n1/anp/rpc?x=1",
        BODY,
        &ed,
        ED_SIGNATURE,
    )
    .unwrap();
    assert_eq!(
        reason(verify(&elsewhere, Timestamp::from(NOW_MS))),
        "bad_signature"
    );
    // Another body than the digest covers.
    let tampered = proof(URL, r#"{"jsonrpc":"2.0"}"#, &ed, ED_SIGNATURE).unwrap_err();
    assert_eq!(tampered.reason(), "malformed");
    // Past `expires`, or older than the window.
    let signed = proof(URL, BODY, &ed, ED_SIGNATURE).unwrap();
    assert_eq!(
        reason(verify(&signed, Timestamp::from(1_733_402_397_000))),
        "invalid_timestamp"
    );
    let old = NOW_MS + (MAX_AGE_SECS + 1) * 1000;
    assert_eq!(
        reason(verify(&signed, Timestamp::from(old))),
        "invalid_timestamp"
    );
    // The secp256k1 signature under the Ed25519 key's name.
    let swapped = proof(URL, BODY, &ed, SECP_SIGNATURE).unwrap();
    assert_eq!(
        reason(verify(&swapped, Timestamp::from(NOW_MS))),
        "bad_signature"
    );
    // A request that does not name its server, or has no nonce, is not ANP's profile.
    let partial = input("key-1", r#""@method" "@target-uri" "content-digest""#);
    assert_eq!(
        proof(URL, BODY, &partial, ED_SIGNATURE)
            .unwrap_err()
            .reason(),
        "malformed"
    );
    let no_nonce = ed.replace(r#";nonce="nonce-key-1""#, "");
    let unsigned = proof(URL, BODY, &no_nonce, ED_SIGNATURE).unwrap();
    assert_eq!(
        reason(verify(&unsigned, Timestamp::from(NOW_MS))),
        "malformed"
    );
    // A body whose digest is not covered.
    let uncovered = input("key-1", r#""@method" "@target-uri" "@authority""#);
    assert_eq!(
        proof(URL, BODY, &uncovered, ED_SIGNATURE)
            .unwrap_err()
            .reason(),
        "malformed"
    );
}

#[test]
fn an_unreadable_signature_is_refused_not_ignored() {
    for (input, signature) in [
        ("sig1", ED_SIGNATURE),
        ("sig1=\"@method\"", ED_SIGNATURE),
        (&*input("key-1", COMPONENTS), "sig1=not-bytes"),
        (&*input("key-1", COMPONENTS), "sig2=:AAAA:"),
    ] {
        assert_eq!(
            proof(URL, BODY, input, signature).unwrap_err().reason(),
            "malformed",
            "{input} {signature}"
        );
    }
}

#[test]
fn an_e1_or_k1_did_authenticates_only_with_the_key_it_binds() {
    let did = format!("did:wba:example.com:agents:{E1}");
    assert_eq!(thumbprint(&ed_key()), &E1[3..]);
    assert!(check_binding(&did, &ed_key()).is_ok());
    let other = PublicKey::ed25519(&crate::verification::public_key_of(&[2; 32])).unwrap();
    assert_eq!(
        check_binding(&did, &other).unwrap_err().reason(),
        "unknown_key"
    );
    let secp = PublicKey::Secp256k1(
        *k256::ecdsa::SigningKey::from_slice(&[5; 32])
            .unwrap()
            .verifying_key(),
    );
    assert_eq!(
        check_binding(&did, &secp).unwrap_err().reason(),
        "unknown_key"
    );
    let k1 = format!("did:wba:example.com:agents:k1_{}", thumbprint(&secp));
    assert!(check_binding(&k1, &secp).is_ok());
    assert!(check_binding(&k1, &ed_key()).is_err());
    // A DID that binds nothing takes any key its document lists.
    assert!(check_binding(DID, &other).is_ok());
}

/// A request the `anp` SDK signed with a P-256 key of a did:wba document
/// (`EcdsaSecp256r1VerificationKey2019`; `fixtures/make_p256_sdk_request.py`).
#[test]
fn a_p256_key_of_a_did_document_verifies_what_the_sdk_signed() {
    let fixture: Value =
        serde_json::from_str(include_str!("fixtures/p256_sdk_request.json")).unwrap();
    assert_eq!(fixture["body"], BODY);
    let text = |v: &Value| v.as_str().unwrap().to_owned();
    let signed = &fixture["requests"]["key-1"];
    let read = proof(
        &text(&fixture["url"]),
        BODY,
        &text(&signed["Signature-Input"]),
        &text(&signed["Signature"]),
    )
    .unwrap();
    let doc = fixture["document"].clone();
    let verify = |doc: &Value| {
        DidWbaVerifier::default().verify(&read, doc, "example.com", Timestamp::from(NOW_MS))
    };
    assert_eq!(
        verify(&doc).unwrap().to_string(),
        "did:wba:example.com:agents:pat"
    );
    // The same key as a JsonWebKey2020.
    let mut jwk2020 = doc.clone();
    jwk2020["verificationMethod"][0]["type"] = json!("JsonWebKey2020");
    assert!(verify(&jwk2020).is_ok());
    // Another P-256 key does not verify it.
    let another = PublicKey::P256(
        *p256::ecdsa::SigningKey::from_slice(&[8; 32])
            .unwrap()
            .verifying_key(),
    );
    let mut other = doc.clone();
    other["verificationMethod"][0]["publicKeyJwk"] = another.to_jwk();
    assert_eq!(reason(verify(&other)), "bad_signature");
}
