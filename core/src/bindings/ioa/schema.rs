//! `content_schema` must itself be a valid JSON Schema (IOA checks it with a
//! compiler; content is never validated against it). Checked here: the
//! schema is an object or a boolean, and every keyword agentnet knows has a
//! value of the kind the JSON Schema meta-schema (draft 2020-12) requires,
//! recursively through subschemas.

use serde_json::{Map, Value};

const TYPES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

/// Keywords whose value is one subschema.
const ONE: [&str; 12] = [
    "additionalProperties",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "unevaluatedItems",
    "unevaluatedProperties",
    "additionalItems",
    "contentSchema",
];
/// Keywords whose value is a non-empty list of subschemas.
const LISTS: [&str; 4] = ["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value is an object of subschemas.
const MAPS: [&str; 5] = [
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
];
/// Keywords whose value is a non-negative integer.
const COUNTS: [&str; 8] = [
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "minContains",
    "maxContains",
];
/// Keywords whose value is a number.
const NUMBERS: [&str; 5] = [
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];
/// Keywords whose value is a string.
const STRINGS: [&str; 7] = [
    "$schema",
    "$id",
    "$ref",
    "title",
    "description",
    "format",
    "pattern",
];

/// Why `schema` is not a JSON Schema, if it is not one.
pub fn invalid(schema: &Value) -> Option<String> {
    check(schema, "#")
}

fn check(schema: &Value, at: &str) -> Option<String> {
    match schema {
        Value::Bool(_) => None,
        Value::Object(o) => check_object(o, at),
        _ => Some(format!("{at}: a schema is an object or a boolean")),
    }
}

fn check_object(o: &Map<String, Value>, at: &str) -> Option<String> {
    for (key, value) in o {
        let here = format!("{at}/{key}");
        let problem = match key.as_str() {
            "type" => check_type(value, &here),
            "required" => (!value
                .as_array()
                .is_some_and(|a| a.iter().all(Value::is_string)))
            .then(|| format!("{here}: a list of property names")),
            "enum" => (!value.is_array()).then(|| format!("{here}: a list")),
            k if ONE.contains(&k) => check(value, &here),
            k if LISTS.contains(&k) => match value.as_array() {
                Some(items) if !items.is_empty() => items
                    .iter()
                    .enumerate()
                    .find_map(|(i, s)| check(s, &format!("{here}/{i}"))),
                _ => Some(format!("{here}: a non-empty list of schemas")),
            },
            k if MAPS.contains(&k) => match value.as_object() {
                Some(map) => map
                    .iter()
                    .find_map(|(n, s)| check(s, &format!("{here}/{n}"))),
                None => Some(format!("{here}: an object of schemas")),
            },
            k if COUNTS.contains(&k) => {
                (!value.is_u64()).then(|| format!("{here}: a non-negative integer"))
            }
            k if NUMBERS.contains(&k) => match value.as_f64() {
                Some(n) if k != "multipleOf" || n > 0.0 => None,
                _ => Some(format!("{here}: a number (multipleOf above 0)")),
            },
            k if STRINGS.contains(&k) => (!value.is_string()).then(|| format!("{here}: a string")),
            "uniqueItems" | "readOnly" | "writeOnly" | "deprecated" => {
                (!value.is_boolean()).then(|| format!("{here}: true or false"))
            }
            _ => None,
        };
        if problem.is_some() {
            return problem;
        }
    }
    None
}

fn check_type(value: &Value, at: &str) -> Option<String> {
    let known = |v: &Value| v.as_str().is_some_and(|t| TYPES.contains(&t));
    let fine = match value {
        Value::String(_) => known(value),
        Value::Array(types) => !types.is_empty() && types.iter().all(known),
        _ => false,
    };
    (!fine).then(|| format!("{at}: one of {} or a list of them", TYPES.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn schemas_pass_and_broken_ones_say_where() {
        assert_eq!(
            invalid(
                &json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
            ),
            None
        );
        assert_eq!(invalid(&json!(true)), None);
        assert!(invalid(&json!({"type": "strnig"})).is_some_and(|m| m.starts_with("#/type")));
        assert!(
            invalid(&json!({"properties": {"a": {"minLength": -1}}}))
                .is_some_and(|m| m.contains("#/properties/a/minLength"))
        );
        assert!(invalid(&json!({"anyOf": []})).is_some());
        assert!(invalid(&json!("object")).is_some());
    }
}
