//! Text encodings identity documents use: base64url without padding (JWT,
//! JWK, DIDWba signatures) and base58btc (multibase `z…` keys).

use super::error::IdentityError;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

const BASE58: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// base64url without padding.
pub fn b64url(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes base64url (padding tolerated); `what` names the field in the error.
pub fn from_b64url(text: &str, what: &'static str) -> Result<Vec<u8>, IdentityError> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .map_err(|_| IdentityError::malformed(what, "not base64url"))
}

/// base58btc (Bitcoin alphabet).
pub fn base58(bytes: &[u8]) -> String {
    let zeros = bytes.iter().take_while(|b| **b == 0).count();
    let mut digits: Vec<u8> = Vec::new(); // little-endian base-58 digits
    for &byte in bytes {
        let mut carry = u32::from(byte);
        for digit in digits.iter_mut() {
            carry += u32::from(*digit) << 8;
            *digit = u8::try_from(carry % 58).unwrap_or(0);
            carry /= 58;
        }
        while carry > 0 {
            digits.push(u8::try_from(carry % 58).unwrap_or(0));
            carry /= 58;
        }
    }
    let mut out = "1".repeat(zeros);
    out.extend(
        digits
            .iter()
            .rev()
            .filter_map(|d| BASE58.get(usize::from(*d)).map(|c| char::from(*c))),
    );
    out
}

/// Decodes base58btc.
pub fn from_base58(text: &str) -> Result<Vec<u8>, IdentityError> {
    let zeros = text.bytes().take_while(|c| *c == b'1').count();
    let mut bytes: Vec<u8> = Vec::new(); // little-endian
    for c in text.bytes() {
        let value = BASE58
            .iter()
            .position(|a| *a == c)
            .ok_or_else(|| IdentityError::malformed("key", "not base58btc"))?;
        let mut carry = u32::try_from(value).unwrap_or(0);
        for byte in bytes.iter_mut() {
            carry += u32::from(*byte) * 58;
            *byte = u8::try_from(carry & 0xff).unwrap_or(0);
            carry >>= 8;
        }
        while carry > 0 {
            bytes.push(u8::try_from(carry & 0xff).unwrap_or(0));
            carry >>= 8;
        }
    }
    let mut out = vec![0u8; zeros];
    out.extend(bytes.iter().rev());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn base58_vectors() {
        assert_eq!(base58(b"Hello World!"), "2NEpo7TZRRrLZSi2U");
        assert_eq!(base58(&[0, 0, 0x28, 0x7f, 0xb4, 0xcd]), "11233QC4");
        assert_eq!(
            from_base58("11233QC4").unwrap(),
            vec![0, 0, 0x28, 0x7f, 0xb4, 0xcd]
        );
        assert!(from_base58("0OIl").is_err());
    }

    proptest! {
        #[test]
        fn base58_and_base64url_round_trip(bytes in prop::collection::vec(any::<u8>(), 0..48)) {
            prop_assert_eq!(from_base58(&base58(&bytes)).unwrap(), bytes.clone());
            prop_assert_eq!(from_b64url(&b64url(&bytes), "x").unwrap(), bytes);
        }
    }
}
