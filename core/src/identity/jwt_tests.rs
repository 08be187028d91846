//! JWT tests: RFC 8037's vectors and every refusal.

use super::*;

/// RFC 8037 A.1: the Ed25519 private and public key.
const D: &str = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A";
const X: &str = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";

fn secret() -> [u8; 32] {
    from_b64url(D, "key").unwrap().try_into().unwrap()
}

#[test]
fn rfc8037_key_thumbprint_and_signature_vectors() {
    let public = crate::verification::public_key_of(&secret());
    assert_eq!(b64url(&public), X);
    // A.3: the JWK thumbprint.
    assert_eq!(
        thumbprint(&public),
        "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"
    );
    // A.4: signing "Example of Ed25519 signing" with header {"alg":"EdDSA"}.
    let jws = sign_jws(&secret(), None, b"Example of Ed25519 signing");
    assert_eq!(
        jws,
        "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg"
    );
    // A.5: it verifies with the public key (the header has no kid: the empty kid).
    let jwks = Jwks::new(vec![(String::new(), PublicKey::ed25519(&public).unwrap())]);
    assert_eq!(
        verify_jws(&jws, &jwks).unwrap(),
        b"Example of Ed25519 signing"
    );
}

fn claims() -> Claims {
    Claims {
        iss: "https://registry.test".into(),
        sub: "openagents:alice".into(),
        aud: Audience::One("agentnet".into()),
        exp: 2_000,
        iat: 1_000,
        nbf: None,
        aic: None,
        did: Some("did:openagents:alice".into()),
    }
}

fn jwks() -> Jwks {
    let public = crate::verification::public_key_of(&secret());
    Jwks::new(vec![("k1".into(), PublicKey::ed25519(&public).unwrap())])
}

fn check(token: &str, now: u64) -> Result<Claims, IdentityError> {
    let issuers = ["https://registry.test".to_owned()];
    verify(
        token,
        &jwks(),
        Expectations {
            issuers: &issuers,
            audience: "agentnet",
            now_secs: now,
        },
    )
}

#[test]
fn an_issued_token_verifies_and_its_jwks_round_trips() {
    let token = issue(&secret(), "k1", &claims());
    assert_eq!(check(&token, 1_500), Ok(claims()));
    assert_eq!(Jwks::from_json(&jwks().to_json()).unwrap(), jwks());
    assert_eq!(jwks().to_json()["keys"][0]["alg"], "EdDSA");
}

#[test]
fn wrong_issuer_audience_expiry_key_and_signature_are_refused() {
    let reason = |token: &str, now| check(token, now).unwrap_err().reason();
    let mut other = claims();
    other.iss = "https://evil.test".into();
    assert_eq!(
        reason(&issue(&secret(), "k1", &other), 1_500),
        "wrong_issuer"
    );
    let mut other = claims();
    other.aud = Audience::Many(vec!["elsewhere".into()]);
    assert_eq!(
        reason(&issue(&secret(), "k1", &other), 1_500),
        "wrong_audience"
    );
    let token = issue(&secret(), "k1", &claims());
    assert_eq!(reason(&token, 2_000 + LEEWAY_SECS), "expired");
    let mut early = claims();
    early.nbf = Some(1_800);
    assert_eq!(reason(&issue(&secret(), "k1", &early), 1_500), "expired");
    assert_eq!(
        reason(&issue(&secret(), "k9", &claims()), 1_500),
        "unknown_key"
    );
    assert_eq!(
        reason(&issue(&[9; 32], "k1", &claims()), 1_500),
        "bad_signature"
    );
    let mut parts: Vec<&str> = token.split('.').collect();
    let forged = b64url(serde_json::to_string(&other).unwrap().as_bytes());
    parts[1] = &forged;
    assert_eq!(reason(&parts.join("."), 1_500), "bad_signature");
    assert_eq!(reason("a.b", 1_500), "malformed");
}

#[test]
fn alg_none_and_other_algorithms_are_refused() {
    let payload = b64url(serde_json::to_string(&claims()).unwrap().as_bytes());
    for alg in ["none", "HS256", "RS256", ""] {
        let header = b64url(format!(r#"{{"alg":"{alg}","kid":"k1"}}"#).as_bytes());
        let err = check(&format!("{header}.{payload}."), 1_500).unwrap_err();
        assert_eq!(err, IdentityError::AlgNotAllowed(alg.into()));
        assert_eq!(err.reason(), "alg_not_allowed");
    }
}
