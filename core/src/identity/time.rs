//! RFC 3339 / ISO 8601 UTC timestamps (`2024-12-05T12:34:56Z`, fractions and
//! `+hh:mm` offsets accepted) to and from unix seconds.

use super::error::IdentityError;

fn time_error() -> IdentityError {
    IdentityError::malformed("timestamp", "expected YYYY-MM-DDTHH:MM:SS[.fff](Z|±hh:mm)")
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn number(text: &str, range: std::ops::Range<usize>) -> Result<i64, IdentityError> {
    text.get(range)
        .filter(|s| s.bytes().all(|c| c.is_ascii_digit()))
        .and_then(|s| s.parse().ok())
        .ok_or_else(time_error)
}

/// Unix seconds of an RFC 3339 timestamp.
pub fn parse_rfc3339(text: &str) -> Result<u64, IdentityError> {
    let b = text.as_bytes();
    if b.len() < 20
        || b.get(4) != Some(&b'-')
        || b.get(7) != Some(&b'-')
        || b.get(13) != Some(&b':')
        || b.get(16) != Some(&b':')
        || !matches!(b.get(10), Some(b'T' | b't' | b' '))
    {
        return Err(time_error());
    }
    let (year, month, day) = (
        number(text, 0..4)?,
        number(text, 5..7)?,
        number(text, 8..10)?,
    );
    let (hour, minute, second) = (
        number(text, 11..13)?,
        number(text, 14..16)?,
        number(text, 17..19)?,
    );
    if !(1..=12).contains(&month)
        || !(1..=31).contains(&day)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return Err(time_error());
    }
    let mut rest = text.get(19..).ok_or_else(time_error)?;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(time_error());
        }
        rest = fraction.get(digits..).ok_or_else(time_error)?;
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ if rest.len() == 6 && rest.get(3..4) == Some(":") => {
            let sign = match rest.get(..1) {
                Some("+") => 1,
                Some("-") => -1,
                _ => return Err(time_error()),
            };
            sign * (number(rest, 1..3)? * 3600 + number(rest, 4..6)? * 60)
        }
        _ => return Err(time_error()),
    };
    let seconds =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    u64::try_from(seconds).map_err(|_| time_error())
}

/// The civil date `(year, month, day)` of a day count since 1970-01-01
/// (H. Hinnant's algorithm, the inverse of `days_from_civil`).
pub fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

/// `YYYY-MM-DDTHH:MM:SSZ` of unix seconds.
pub fn format_rfc3339(secs: u64) -> String {
    let (year, month, day) = civil_from_days(i64::try_from(secs / 86_400).unwrap_or(0));
    let rem = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The calendar year of unix seconds.
pub fn year_of(secs: u64) -> u32 {
    format_rfc3339(secs)
        .get(..4)
        .and_then(|y| y.parse().ok())
        .unwrap_or(1970)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn known_timestamps() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Ok(0));
        assert_eq!(parse_rfc3339("2024-12-05T12:34:56Z"), Ok(1_733_402_096));
        assert_eq!(parse_rfc3339("2024-12-05T12:34:56.789Z"), Ok(1_733_402_096));
        assert_eq!(
            parse_rfc3339("2024-12-05T14:34:56+02:00"),
            Ok(1_733_402_096)
        );
        assert_eq!(format_rfc3339(1_733_402_096), "2024-12-05T12:34:56Z");
        assert_eq!(year_of(1_733_402_096), 2024);
        for bad in [
            "",
            "2024-12-05",
            "2024-13-05T00:00:00Z",
            "2024-12-05T12:34:56",
            "2024-12-05T12:34:56.Z",
        ] {
            assert!(parse_rfc3339(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn format_and_parse_round_trip(secs in 0u64..253_402_300_799) {
            prop_assert_eq!(parse_rfc3339(&format_rfc3339(secs)), Ok(secs));
        }

        #[test]
        fn parsing_never_panics(text in "\\PC{0,30}") {
            let _ = parse_rfc3339(&text);
        }
    }
}
