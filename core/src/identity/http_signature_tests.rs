//! HTTP Message Signature tests: RFC 9421's own Ed25519 example (Appendix
//! B.2.6), and requests signed as the `anp` SDK signs them.

use super::*;
use crate::identity::keys::PublicKey;

fn lookup<'a>(headers: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<&'a str> + 'a {
    move |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }
}

#[test]
fn rfc_9421_b_2_6_ed25519_example_verifies() {
    // RFC 9421 Appendix B.2.6: test-key-ed25519 over the example request.
    let headers = [
        ("date", "Tue, 20 Apr 2021 02:07:55 GMT"),
        ("content-type", "application/json"),
        ("content-length", "18"),
    ];
    let header = lookup(&headers);
    let req = Received {
        method: "POST",
        url: "https://example.com/foo?param=Value&Pet=dog",
        header: &header,
        body: b"{\"hello\": \"world\"}",
    };
    let components: Vec<String> = [
        "date",
        "@method",
        "@path",
        "@authority",
        "content-type",
        "content-length",
    ]
    .map(str::to_owned)
    .to_vec();
    let raw = r#"("date" "@method" "@path" "@authority" "content-type" "content-length");created=1618884473;keyid="test-key-ed25519""#;
    let base = signature_base(&components, raw, &req).unwrap();
    assert_eq!(
        base,
        "\"date\": Tue, 20 Apr 2021 02:07:55 GMT\n\"@method\": POST\n\"@path\": /foo\n\"@authority\": example.com\n\"content-type\": application/json\n\"content-length\": 18\n\"@signature-params\": (\"date\" \"@method\" \"@path\" \"@authority\" \"content-type\" \"content-length\");created=1618884473;keyid=\"test-key-ed25519\""
    );
    // The key's SubjectPublicKeyInfo ends with its 32 bytes.
    let spki = STANDARD
        .decode("MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=")
        .unwrap();
    let key = PublicKey::ed25519(&spki[12..]).unwrap();
    let signature = STANDARD
        .decode("wqcAqbmYJ2ji2glfAMaRy4gruYYnx2nEFN2HN6jrnDnQCK1u02Gb04v9EDgwUPiu4A0w6vuQv5lIp5WPpBKRCw==")
        .unwrap();
    key.verify(base.as_bytes(), &signature).unwrap();
    let mut tampered = base.clone();
    tampered = tampered.replace("/foo", "/bar");
    assert!(key.verify(tampered.as_bytes(), &signature).is_err());
}

#[test]
fn content_digest_is_rfc_9530_sha_256() {
    // RFC 9530 §2's example body `{"hello": "world"}`.
    assert_eq!(
        content_digest(b"{\"hello\": \"world\"}"),
        "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:"
    );
    assert!(digest_matches(
        "sha-512=:abc:, sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:",
        b"{\"hello\": \"world\"}"
    ));
    assert!(!digest_matches(
        "sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:",
        b"{}"
    ));
}
