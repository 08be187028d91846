//! Agent Identity Codes (ACPs AIC v01.00): 32 characters `0-9A-Z` — version,
//! provider (4), registering entity (5), year in base 36 (3), ontology
//! serial (9), instance serial (8) and two ISO 7064 MOD 97-10 check digits
//! computed over the 30-character body read as one base-36 number.

use super::error::IdentityError;
use std::fmt;
use std::str::FromStr;

/// Total length of an AIC.
pub const AIC_LEN: usize = 32;
/// The AIC standard version this module writes (`1` = v01.00).
pub const AIC_VERSION: char = '1';

/// A valid AIC (check digits verified).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Aic(String);

/// The issuer's fixed parts of the AIC it issues.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AicIssuer {
    provider: String,
    entity: String,
}

fn base36_value(c: u8) -> Option<u32> {
    match c {
        b'0'..=b'9' => Some(u32::from(c - b'0')),
        b'A'..=b'Z' => Some(u32::from(c - b'A') + 10),
        _ => None,
    }
}

/// `value` in base 36, upper case, left-padded with zeros to `width`; `None` when it does not fit.
fn base36(mut value: u64, width: usize) -> Option<String> {
    const DIGITS: &[u8; 36] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut out = vec![b'0'; width];
    for slot in out.iter_mut().rev() {
        *slot = *DIGITS.get(usize::try_from(value % 36).ok()?)?;
        value /= 36;
    }
    (value == 0).then(|| String::from_utf8(out).ok())?
}

fn code_part(text: &str, width: usize, what: &str) -> Result<String, IdentityError> {
    if text.len() == width && text.bytes().all(|c| base36_value(c).is_some()) {
        Ok(text.to_owned())
    } else {
        Err(IdentityError::malformed(
            "aic",
            format!("{what} must be {width} characters 0-9 or A-Z, got {text:?}"),
        ))
    }
}

/// The two check digits (01-98) of a 30-character body: `98 - (N * 100 mod 97)`.
pub fn check_digits(body: &str) -> Result<u8, IdentityError> {
    let mut remainder = 0u32;
    for c in body.bytes() {
        let digit = base36_value(c)
            .ok_or_else(|| IdentityError::malformed("aic", "characters are 0-9 or A-Z"))?;
        remainder = (remainder * 36 + digit) % 97;
    }
    let remainder = (remainder * 100) % 97;
    u8::try_from(98 - remainder).map_err(|_| IdentityError::AicCheck)
}

impl Aic {
    /// The code as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The identity-management provider (positions 2-5).
    pub fn provider(&self) -> &str {
        self.0.get(1..5).unwrap_or_default()
    }

    /// The registering entity (positions 6-10).
    pub fn entity(&self) -> &str {
        self.0.get(5..10).unwrap_or_default()
    }

    /// The registration year (positions 11-13, base 36).
    pub fn year(&self) -> u32 {
        self.0
            .bytes()
            .skip(10)
            .take(3)
            .filter_map(base36_value)
            .fold(0, |acc, d| acc * 36 + d)
    }

    /// The agent ontology serial (positions 14-22).
    pub fn ontology_serial(&self) -> &str {
        self.0.get(13..22).unwrap_or_default()
    }

    /// The agent instance serial (positions 23-30).
    pub fn instance_serial(&self) -> &str {
        self.0.get(22..30).unwrap_or_default()
    }
}

impl Default for AicIssuer {
    /// Provider `0001`, entity `00001` (the spec's examples).
    fn default() -> Self {
        Self {
            provider: "0001".to_owned(),
            entity: "00001".to_owned(),
        }
    }
}

impl AicIssuer {
    /// An issuer for `provider` (4 characters) and `entity` (5 characters), both `0-9A-Z`.
    pub fn new(provider: &str, entity: &str) -> Result<Self, IdentityError> {
        Ok(Self {
            provider: code_part(provider, 4, "provider")?,
            entity: code_part(entity, 5, "entity")?,
        })
    }

    /// The AIC of ontology serial `ontology` and instance serial `instance` registered in `year`.
    pub fn issue(&self, year: u32, ontology: u64, instance: u64) -> Result<Aic, IdentityError> {
        let part = |value: u64, width: usize, what: &str| {
            base36(value, width).ok_or_else(|| {
                IdentityError::malformed("aic", format!("{what} {value} is too large"))
            })
        };
        let body = format!(
            "{AIC_VERSION}{}{}{}{}{}",
            self.provider,
            self.entity,
            part(u64::from(year), 3, "year")?,
            part(ontology, 9, "ontology serial")?,
            part(instance, 8, "instance serial")?,
        );
        let check = check_digits(&body)?;
        Ok(Aic(format!("{body}{check:02}")))
    }
}

impl FromStr for Aic {
    type Err = IdentityError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() != AIC_LEN || !text.is_ascii() {
            return Err(IdentityError::malformed("aic", "an AIC is 32 characters"));
        }
        let (body, check) = text.split_at(AIC_LEN - 2);
        if !check.bytes().all(|c| c.is_ascii_digit()) {
            return Err(IdentityError::malformed("aic", "check digits are decimal"));
        }
        let expected = check_digits(body)?;
        if check.parse::<u8>().ok() != Some(expected) {
            return Err(IdentityError::AicCheck);
        }
        Ok(Self(text.to_owned()))
    }
}

impl fmt::Display for Aic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_spec_vectors_check() {
        assert_eq!(check_digits("10001000011K912345E789ABCDEF23"), Ok(53));
        assert_eq!(check_digits("10001000011K920251018D8888JQKA"), Ok(91));
        for valid in [
            "10001000011K912345E789ABCDEF2353",
            "10001000011K920251018D8888JQKA91",
        ] {
            let aic: Aic = valid.parse().unwrap();
            assert_eq!(aic.provider(), "0001");
            assert_eq!(aic.entity(), "00001");
            assert_eq!(aic.year(), 2025);
        }
        assert_eq!(
            "10001000011K912345E789ABCDEF2354".parse::<Aic>(),
            Err(IdentityError::AicCheck)
        );
    }

    #[test]
    fn issued_codes_have_the_configured_parts() {
        let issuer = AicIssuer::new("00AN", "0OPEN").unwrap();
        let aic = issuer.issue(2026, 36, 1).unwrap();
        assert_eq!(aic.as_str().len(), AIC_LEN);
        assert_eq!(aic.provider(), "00AN");
        assert_eq!(aic.entity(), "0OPEN");
        assert_eq!(aic.year(), 2026);
        assert_eq!(aic.ontology_serial(), "000000010");
        assert_eq!(aic.instance_serial(), "00000001");
        assert_eq!(aic.as_str().parse::<Aic>(), Ok(aic.clone()));
        assert!(AicIssuer::new("abc", "00001").is_err());
        assert!(AicIssuer::new("0001", "0000a").is_err());
        assert!(issuer.issue(2026, 36u64.pow(9), 1).is_err());
    }

    fn any_aic() -> impl Strategy<Value = Aic> {
        (0u32..46_656, 0u64..36u64.pow(9), 0u64..36u64.pow(8)).prop_map(|(y, o, i)| {
            AicIssuer::new("0001", "00001")
                .unwrap()
                .issue(y, o, i)
                .unwrap()
        })
    }

    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

    proptest! {
        #[test]
        fn any_single_character_change_is_caught(aic in any_aic(), at in 0..AIC_LEN, to in 0..36usize) {
            let mut bytes = aic.as_str().as_bytes().to_vec();
            prop_assume!(bytes[at] != ALPHABET[to]);
            bytes[at] = ALPHABET[to];
            let changed = String::from_utf8(bytes).unwrap();
            prop_assert!(changed.parse::<Aic>().is_err(), "{changed} passed");
        }

        #[test]
        fn any_adjacent_swap_is_caught(aic in any_aic(), at in 0..AIC_LEN - 1) {
            let mut bytes = aic.as_str().as_bytes().to_vec();
            prop_assume!(bytes[at] != bytes[at + 1]);
            bytes.swap(at, at + 1);
            let swapped = String::from_utf8(bytes).unwrap();
            prop_assert!(swapped.parse::<Aic>().is_err(), "{swapped} passed");
        }

        #[test]
        fn parsing_never_panics(text in "\\PC{0,40}") {
            let _ = text.parse::<Aic>();
        }
    }
}
