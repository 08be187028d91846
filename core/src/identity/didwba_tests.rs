//! DIDWba tests. The vectors' signatures were made with Python's
//! `cryptography` (the library the ANP SDK signs with) over the same digest:
//! Ed25519 with the seed `[1; 32]`, secp256k1 (ECDSA-SHA256, R‖S) with the
//! secret `[5; 32]`.

use super::*;
use crate::Timestamp;
use crate::identity::did::Did;
use crate::identity::did::document;
use crate::identity::didwba_proof::DidProof;
use crate::identity::didwba_verify::DidWbaVerifier;
use crate::identity::keys::PublicKey;

const DID: &str = "did:wba:example.com:agents:alice";
const CANONICAL: &str = r#"{"did":"did:wba:example.com:agents:alice","nonce":"abc123","service":"example.com","timestamp":"2024-12-05T12:34:56Z"}"#;
const DIGEST: &str = "9722da3d041b12d5007cdaf3377faf73a5340192eb6dfe63a84e78df7570427d";
const ED_SIGNATURE: &str =
    "YVqPG17BwmJk4oSAiGE44jX6wHsvbCZiPZhzcHY7xdmjVAkH6nSA8oAxo8KIlCzUxkd2bYqDJ_6LnpgZsf-0BQ";
const SECP_SIGNATURE: &str =
    "Q5yjcjNmFHGGRtWllw2vWoNmQ1rcZax3kzGZiRvQ1ycoJC0TMAqjh5RmBdnzp4WcmRKaDtCdGja9J2Kw-XuKYg";
/// 2024-12-05T12:34:56Z plus ten seconds, in ms.
const NOW_MS: u64 = 1_733_402_106_000;

fn doc() -> Value {
    let ed = PublicKey::ed25519(&crate::verification::public_key_of(&[1; 32])).unwrap();
    let secp = PublicKey::Secp256k1(
        *k256::ecdsa::SigningKey::from_slice(&[5; 32])
            .unwrap()
            .verifying_key(),
    );
    document(
        &DID.parse().unwrap(),
        &[("key-1".into(), ed), ("key-2".into(), secp)],
        vec![],
    )
}

fn header(method: &str, signature: &str, nonce: &str) -> DidWbaHeader {
    DidWbaHeader::parse(&format!(
        r#"DIDWba did="{DID}", nonce="{nonce}", timestamp="2024-12-05T12:34:56Z", verification_method="{method}", signature="{signature}""#
    ))
    .unwrap()
}

#[test]
fn the_canonical_object_and_digest_match_the_vector() {
    let h = header("key-1", ED_SIGNATURE, "abc123");
    assert_eq!(canonicalize(&h.signed_object("example.com")), CANONICAL);
    assert_eq!(crate::crypto::to_hex(&h.digest("example.com")), DIGEST);
}

/// What `verifier` says of `header` against `doc`, signed for `service`, at `at_ms`.
fn verify(
    verifier: &mut DidWbaVerifier,
    header: &DidWbaHeader,
    doc: &Value,
    service: &str,
    at_ms: u64,
) -> Result<Did, IdentityError> {
    let proof = DidProof::Header(header.clone());
    verifier.verify(&proof, doc, service, Timestamp::from(at_ms))
}

#[test]
fn ed25519_and_secp256k1_signatures_from_python_verify() {
    for method in ["key-1", "key-2"] {
        let signature = if method == "key-1" {
            ED_SIGNATURE
        } else {
            SECP_SIGNATURE
        };
        let proof = header(method, signature, "abc123");
        let did = verify(
            &mut DidWbaVerifier::default(),
            &proof,
            &doc(),
            "example.com",
            NOW_MS,
        );
        assert_eq!(did.unwrap().to_string(), DID, "{method}");
    }
}

fn reason(result: Result<Did, IdentityError>) -> &'static str {
    result.unwrap_err().reason()
}

#[test]
fn replay_window_document_key_and_signature_failures_have_stable_reasons() {
    let mut verifier = DidWbaVerifier::default();
    let good = header("key-1", ED_SIGNATURE, "abc123");
    verify(&mut verifier, &good, &doc(), "example.com", NOW_MS).unwrap();
    let replayed = verify(&mut verifier, &good, &doc(), "example.com", NOW_MS + 1);
    assert_eq!(reason(replayed), "invalid_nonce");
    let mut other_doc = doc();
    other_doc["id"] = "did:wba:example.com:agents:mallory".into();
    let late = NOW_MS + (MAX_AGE_SECS + 1) * 1000;
    let early = NOW_MS - (MAX_AHEAD_SECS + 20) * 1000;
    let unknown = header("key-9", ED_SIGNATURE, "abc123");
    let wrong_key = header("key-2", ED_SIGNATURE, "abc123");
    // (what is wrong, header, document, service, when, the stable reason), each to a fresh verifier.
    let cases = [
        (
            "too old",
            &good,
            &doc(),
            "example.com",
            late,
            "invalid_timestamp",
        ),
        (
            "too far ahead",
            &good,
            &doc(),
            "example.com",
            early,
            "invalid_timestamp",
        ),
        (
            "another DID's document",
            &good,
            &other_doc,
            "example.com",
            NOW_MS,
            "did_mismatch",
        ),
        (
            "a key the document lacks",
            &unknown,
            &doc(),
            "example.com",
            NOW_MS,
            "unknown_key",
        ),
        (
            "signed for another service",
            &good,
            &doc(),
            "other.com",
            NOW_MS,
            "bad_signature",
        ),
        (
            "signed with another key",
            &wrong_key,
            &doc(),
            "example.com",
            NOW_MS,
            "bad_signature",
        ),
    ];
    for (what, proof, document, service, at_ms, expected) in cases {
        let result = verify(
            &mut DidWbaVerifier::default(),
            proof,
            document,
            service,
            at_ms,
        );
        assert_eq!(reason(result), expected, "{what}");
    }
}

#[test]
fn a_failed_attempt_does_not_spend_the_nonce() {
    let mut verifier = DidWbaVerifier::default();
    let forged = header("key-1", SECP_SIGNATURE, "abc123");
    assert!(verify(&mut verifier, &forged, &doc(), "example.com", NOW_MS).is_err());
    let good = header("key-1", ED_SIGNATURE, "abc123");
    assert!(verify(&mut verifier, &good, &doc(), "example.com", NOW_MS).is_ok());
}

#[test]
fn the_v1_1_aud_form_signs_aud_and_checks_it() {
    use ed25519_dalek::{Signer, SigningKey};
    let key = SigningKey::from_bytes(&[1; 32]);
    let text = client_header(
        DID,
        "key-1",
        "n-11",
        "2024-12-05T12:34:56Z",
        "example.com",
        true,
        |digest| key.sign(digest).to_bytes().to_vec(),
    );
    assert!(
        text.contains(r#"v="1.1""#) && text.contains(r#"aud="example.com""#),
        "{text}"
    );
    let parsed = DidWbaHeader::parse(&text).unwrap();
    assert!(canonicalize(&parsed.signed_object("example.com")).contains(r#""aud":"example.com""#));
    let mut verifier = DidWbaVerifier::default();
    assert!(verify(&mut verifier, &parsed, &doc(), "example.com", NOW_MS).is_ok());
    let mut elsewhere = parsed.clone();
    elsewhere.nonce = "n-12".into();
    let refused = verify(&mut verifier, &elsewhere, &doc(), "other.com", NOW_MS);
    assert_eq!(reason(refused), "wrong_audience");
}

#[test]
fn malformed_headers_are_refused() {
    for bad in [
        "Bearer abc",
        "DIDWba",
        r#"DIDWba did="x""#,
        r#"DIDWba did="x", nonce="n", timestamp="t", verification_method="k", signature="#,
        r#"DIDWbadid="x", nonce="n", timestamp="t", verification_method="k", signature="s""#,
    ] {
        assert_eq!(
            DidWbaHeader::parse(bad).unwrap_err().reason(),
            "malformed",
            "{bad}"
        );
    }
    let spaced = DidWbaHeader::parse(
        r#"DIDWba did="d",nonce="n" ,timestamp="t", VERIFICATION_METHOD="k", signature="s""#,
    )
    .unwrap();
    assert_eq!(spaced.verification_method, "k");
}

proptest::proptest! {
    #[test]
    fn header_parsing_never_panics(text in "\\PC{0,120}") {
        let _ = DidWbaHeader::parse(&format!("DIDWba {text}"));
    }
}
