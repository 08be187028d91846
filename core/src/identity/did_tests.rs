//! DID parsing, URL mapping, documents and key lookup.

use super::*;

#[test]
fn did_wba_maps_to_urls_as_the_method_spec_says() {
    let cases = [
        (
            "did:wba:example.com",
            "https://example.com/.well-known/did.json",
        ),
        (
            "did:wba:example.com:user:alice",
            "https://example.com/user/alice/did.json",
        ),
        (
            "did:wba:example.com%3A3000:user:alice",
            "https://example.com:3000/user/alice/did.json",
        ),
        (
            "did:wba:localhost%3A8787:agents:bob",
            "http://localhost:8787/agents/bob/did.json",
        ),
    ];
    for (text, url) in cases {
        let did: Did = text.parse().unwrap();
        assert_eq!(did.document_url().as_deref(), Some(url), "{text}");
        assert_eq!(did.to_string(), text);
    }
    assert_eq!(
        Did::wba_for_agent("example.com:8800", "alice").to_string(),
        "did:wba:example.com%3A8800:agents:alice"
    );
}

#[test]
fn bad_dids_are_refused() {
    for bad in [
        "did:web:example.com",
        "did:wba:",
        "did:wba:10.0.0.1:x",
        "did:wba:exa mple.com",
        "did:wba:example.com%3Ahttp",
        "did:wba:example.com::x",
        "did:wba:example.com:a/b",
        "did:openagents:",
        "did:openagents:Bad Name",
    ] {
        let err = bad.parse::<Did>().unwrap_err();
        assert_eq!(err.reason(), "malformed", "{bad}");
    }
    assert_eq!(
        "did:openagents:alice".parse::<Did>(),
        Ok(Did::OpenAgents("alice".into()))
    );
    assert_eq!(
        "did:openagents:alice"
            .parse::<Did>()
            .unwrap()
            .document_url(),
        None
    );
}

fn ed_key(seed: u8) -> PublicKey {
    PublicKey::ed25519(&crate::verification::public_key_of(&[seed; 32])).unwrap()
}

#[test]
fn a_document_lists_its_keys_and_finds_them_by_method() {
    let did: Did = "did:wba:example.com:agents:alice".parse().unwrap();
    let secp = PublicKey::Secp256k1(
        *k256::ecdsa::SigningKey::from_slice(&[5; 32])
            .unwrap()
            .verifying_key(),
    );
    let service =
        json!({"id": "#net", "type": "OpenAgentsNetwork", "serviceEndpoint": "https://x"});
    let doc = document(
        &did,
        &[("key-1".into(), ed_key(1)), ("key-2".into(), secp.clone())],
        vec![service],
    );
    assert_eq!(doc["id"], did.to_string());
    assert_eq!(doc["authentication"][1], format!("{did}#key-2"));
    assert_eq!(doc["service"][0]["type"], "OpenAgentsNetwork");
    assert_eq!(document_key(&doc, &did, "key-1"), Ok(ed_key(1)));
    assert_eq!(document_key(&doc, &did, &format!("{did}#key-2")), Ok(secp));
    assert_eq!(
        document_key(&doc, &did, "key-3").unwrap_err().reason(),
        "unknown_key"
    );
    let other: Did = "did:wba:example.com:agents:mallory".parse().unwrap();
    assert_eq!(
        document_key(&doc, &other, "key-1").unwrap_err().reason(),
        "did_mismatch"
    );
}

#[test]
fn the_spec_example_document_reads_its_embedded_authentication_key() {
    let doc = json!({
        "id": "did:wba:example.com%3A8800:user:alice",
        "verificationMethod": [{"id": "did:wba:example.com%3A8800:user:alice#WjKg",
            "type": "EcdsaSecp256k1VerificationKey2019",
            "publicKeyJwk": {"crv": "secp256k1", "x": "NtngWpJUr-rlNNbs0u-Aa8e16OwSJu6UiFf0Rdo1oJ4",
                "y": "qN1jKupJlFsPFc1UkWinqljv4YE0mq_Ickwnjgasvmo", "kty": "EC"}}],
        "authentication": ["did:wba:example.com%3A8800:user:alice#WjKg",
            {"id": "did:wba:example.com%3A8800:user:alice#key-1", "type": "Ed25519VerificationKey2020",
             "publicKeyMultibase": ed_key(2).to_multibase()}]
    });
    let did: Did = "did:wba:example.com%3A8800:user:alice".parse().unwrap();
    assert!(matches!(
        document_key(&doc, &did, "WjKg"),
        Ok(PublicKey::Secp256k1(_))
    ));
    assert_eq!(document_key(&doc, &did, "key-1"), Ok(ed_key(2)));
}
