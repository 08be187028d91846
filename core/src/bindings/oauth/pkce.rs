//! PKCE (RFC 7636) as OAuth 2.1 requires it: every authorization request
//! carries a `code_challenge` with `code_challenge_method=S256`; `plain` and
//! a missing method (which would mean `plain`) are refused. The token
//! request's `code_verifier` must hash to the challenge.

use crate::crypto::constant_time_eq;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// The one method accepted.
pub const S256: &str = "S256";

/// True when `text` is 43 to 128 unreserved characters (RFC 7636 §4.1, §4.2).
fn well_formed(text: &str) -> bool {
    (43..=128).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~'))
}

/// Why an authorization request's challenge is refused, if it is.
pub fn challenge_refusal(challenge: Option<&str>, method: Option<&str>) -> Option<&'static str> {
    match (challenge, method) {
        (None, _) => Some("code_challenge is required (PKCE with S256)"),
        (Some(_), None) => Some("code_challenge_method is required and must be S256"),
        (Some(_), Some(method)) if method != S256 => {
            Some("code_challenge_method must be S256; plain is not accepted")
        }
        (Some(challenge), Some(_)) if !well_formed(challenge) => {
            Some("code_challenge is 43 to 128 characters of A-Z a-z 0-9 - . _ ~")
        }
        _ => None,
    }
}

/// The S256 challenge of `verifier`.
pub fn challenge_of(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

/// True when `verifier` is well formed and hashes to `challenge`.
pub fn verifies(verifier: &str, challenge: &str) -> bool {
    well_formed(verifier)
        && constant_time_eq(challenge_of(verifier).as_bytes(), challenge.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_known_verifier_verifies() {
        // The challenge computed independently (Node's crypto:
        // createHash("sha256").update(verifier).digest("base64url")).
        let verifier = "dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk";
        let challenge = "ngF5GsXcbwljx6u133FFr3Xht9xooA_DuaX_3QwODtc";
        assert_eq!(challenge_of(verifier), challenge);
        assert!(verifies(verifier, challenge));
        assert!(!verifies(
            "dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXK",
            challenge
        ));
        // A verifier too short to be one is refused even if it hashes right.
        assert!(!verifies("short", &challenge_of("short")));
    }

    #[test]
    fn only_s256_is_accepted() {
        let c = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
        assert_eq!(challenge_refusal(Some(c), Some("S256")), None);
        assert!(challenge_refusal(Some(c), Some("plain")).is_some());
        assert!(challenge_refusal(Some(c), Some("s256")).is_some());
        assert!(challenge_refusal(Some(c), None).is_some());
        assert!(challenge_refusal(None, Some("S256")).is_some());
        assert!(challenge_refusal(Some("tooshort"), Some("S256")).is_some());
        assert!(challenge_refusal(Some(&"a".repeat(129)), Some("S256")).is_some());
    }

    proptest! {
        #[test]
        fn a_verifier_verifies_its_own_challenge_only(
            verifier in "[A-Za-z0-9._~-]{43,128}",
            other in "[A-Za-z0-9._~-]{43,128}",
        ) {
            prop_assert!(verifies(&verifier, &challenge_of(&verifier)));
            prop_assert_eq!(verifies(&other, &challenge_of(&verifier)), other == verifier);
        }
    }
}
