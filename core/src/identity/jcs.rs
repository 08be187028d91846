//! JSON Canonicalization Scheme (RFC 8785): the exact bytes DIDWba signs.
//!
//! Object members sorted by the UTF-16 code units of their names, no
//! whitespace, strings escaped as ECMAScript's `JSON.stringify` does, and
//! numbers in ECMAScript's shortest round-trip form (`1e+30`, `0.002`, `4.5`).

use serde_json::{Map, Number, Value};
use std::fmt::Write;

/// The canonical text of `value`.
pub fn canonicalize(value: &Value) -> String {
    let mut out = String::new();
    write_value(value, &mut out);
    out
}

fn write_value(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(n, out),
        Value::String(s) => write_string(s, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => write_object(map, out),
    }
}

fn write_object(map: &Map<String, Value>, out: &mut String) {
    let mut members: Vec<(Vec<u16>, &String, &Value)> = map
        .iter()
        .map(|(k, v)| (k.encode_utf16().collect(), k, v))
        .collect();
    crate::sorting::sort_by(&mut members, |a, b| a.0.cmp(&b.0));
    out.push('{');
    for (i, (_, key, value)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_string(key, out);
        out.push(':');
        write_value(value, out);
    }
    out.push('}');
}

/// ECMAScript escaping: `"` `\\` and the short forms; other controls as `\u00xx`.
fn write_string(text: &str, out: &mut String) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn write_number(number: &Number, out: &mut String) {
    if let Some(i) = number.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = number.as_u64() {
        let _ = write!(out, "{u}");
    } else {
        out.push_str(&es_number(number.as_f64().unwrap_or(0.0)));
    }
}

/// ECMAScript's `Number.prototype.toString` for a finite double.
fn es_number(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return "0".to_owned();
    }
    let sign = if value < 0.0 { "-" } else { "" };
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde±x".
    let scientific = format!("{:e}", value.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let k = i64::try_from(digits.len()).unwrap_or(1);
    let n = exponent + 1;
    let zeros = |count: i64| "0".repeat(usize::try_from(count).unwrap_or(0));
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", zeros(n - k))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(usize::try_from(n).unwrap_or(0));
        format!("{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", zeros(-n))
    } else {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let e = n - 1;
        let e_sign = if e < 0 { "-" } else { "+" };
        format!("{first}{dot}{rest}e{e_sign}{}", e.abs())
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn rfc8785_number_vectors() {
        let cases = [
            (1e30, "1e+30"),
            (4.50, "4.5"),
            (2e-3, "0.002"),
            (0.000000000000000000000000001, "1e-27"),
            (-0.0, "0"),
            (333333333.3333333, "333333333.3333333"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (-1.5e-7, "-1.5e-7"),
            (5e-324, "5e-324"),
        ];
        for (value, text) in cases {
            assert_eq!(es_number(value), text, "{value}");
        }
    }

    #[test]
    fn members_sort_by_utf16_and_strings_escape_like_ecmascript() {
        // RFC 8785 §3.2.3: "\r" < "1" < "\u0080" < "ö" < "€" < "😀" < "\ufb33".
        let value = json!({"\u{20ac}": "Euro Sign", "\r": "Carriage Return", "\u{fb33}": "Hebrew Letter Dalet With Dagesh",
            "1": "One", "\u{1f600}": "Emoji: Grinning Face", "\u{80}": "Control", "\u{f6}": "Latin Small Letter O With Diaeresis"});
        let order = [
            ("\\r", "Carriage Return"),
            ("1", "One"),
            ("\u{80}", "Control"),
            ("\u{f6}", "Latin Small Letter O With Diaeresis"),
            ("\u{20ac}", "Euro Sign"),
            ("\u{1f600}", "Emoji: Grinning Face"),
            ("\u{fb33}", "Hebrew Letter Dalet With Dagesh"),
        ];
        let expected: Vec<String> = order
            .iter()
            .map(|(k, v)| format!("\"{k}\":\"{v}\""))
            .collect();
        assert_eq!(canonicalize(&value), format!("{{{}}}", expected.join(",")));
        assert_eq!(
            canonicalize(&json!({"b": [1, true, null], "a": "x\u{1}\"\\\n/"})),
            "{\"a\":\"x\\u0001\\\"\\\\\\n/\",\"b\":[1,true,null]}"
        );
    }

    #[test]
    fn the_didwba_signing_object_is_sorted() {
        let data = json!({"nonce": "abc123", "timestamp": "2024-12-05T12:34:56Z",
            "service": "example.com", "did": "did:wba:example.com:user:alice"});
        assert_eq!(
            canonicalize(&data),
            r#"{"did":"did:wba:example.com:user:alice","nonce":"abc123","service":"example.com","timestamp":"2024-12-05T12:34:56Z"}"#
        );
    }

    fn any_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "\\PC{0,8}".prop_map(Value::String),
        ];
        crate::event::tests::json_tree(leaf, &[], "\\PC{0,6}")
    }

    /// Equal as JSON values, numbers compared by their double value (JCS writes `0.0` as `0`).
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
            }
            _ => a == b,
        }
    }

    proptest! {
        #[test]
        fn canonical_text_parses_back_to_the_same_value_and_is_a_fixed_point(value in any_json()) {
            let text = canonicalize(&value);
            let back: Value = serde_json::from_str(&text).unwrap();
            prop_assert!(same(&back, &value), "{} from {:?}", text, value);
            prop_assert_eq!(canonicalize(&back), text);
        }
    }
}
