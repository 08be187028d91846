//! The model of the resources panel: resources from a discover answer,
//! tool forms from an input schema, and an invocation's outcome.

use crate::error::WebError;
use agentnet_core::sorting::sort_by_key;
use serde_json::{Map, Value, json};

/// One resource as the panel shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Resource {
    /// Address (`resource/tool/calculator`).
    pub address: String,
    /// `tool`, `file` or `context`.
    pub kind: String,
    /// Owner's address.
    pub owner: String,
    /// Description.
    pub description: String,
    /// The person's permissions on it.
    pub permissions: Vec<String>,
    /// The input schema (tools).
    pub schema: Value,
    /// Files and context: the MIME type (`application/json` for structured context).
    pub content_type: String,
}

/// The resources in a discover answer's payload (`{resources: [...]}`), read
/// as the core's typed listing (none when it does not read).
pub fn resources_from(payload: &Value) -> Vec<Resource> {
    let listed: agentnet_core::model::payloads::ResourceList =
        agentnet_core::answers::read_payload(payload).unwrap_or_default();
    listed
        .resources
        .into_iter()
        .map(|r| Resource {
            address: r.address.to_string(),
            kind: r.kind.as_str().to_owned(),
            owner: r.owner.to_string(),
            description: r.description,
            permissions: r
                .your_permissions
                .iter()
                .map(|p| p.as_str().to_owned())
                .collect(),
            schema: r.schema.unwrap_or(Value::Null),
            content_type: r.content_type.unwrap_or_default(),
        })
        .collect()
}

/// One input of a tool form, from a property of the input schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Property name.
    pub name: String,
    /// `number`, `integer`, `boolean`, `string` or `enum`.
    pub kind: String,
    /// Allowed values of an enum.
    pub choices: Vec<String>,
    /// Listed in `required`.
    pub required: bool,
}

/// The form fields of a JSON Schema object (`properties`, `required`) in
/// the order the schema declares them: its `propertyOrder` (the npm SDK
/// writes it, since the network keeps no order in a JSON object), else the
/// `required` ones in their order, then the others by name.
pub fn fields_of(schema: &Value) -> Vec<Field> {
    let order: Vec<&str> = ["propertyOrder", "required"]
        .iter()
        .find_map(|key| schema.get(*key).and_then(Value::as_array))
        .map(|o| o.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fields = declared_fields(schema);
    sort_by_key(&mut fields, |f| {
        order
            .iter()
            .position(|n| *n == f.name)
            .unwrap_or(usize::MAX)
    });
    fields
}

/// The fields of `schema`'s `properties`, by property name.
fn declared_fields(schema: &Value) -> Vec<Field> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|properties| {
            properties
                .iter()
                .map(|(name, property)| {
                    let choices: Vec<String> = property
                        .get("enum")
                        .and_then(Value::as_array)
                        .map(|e| {
                            e.iter()
                                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                                .collect()
                        })
                        .unwrap_or_default();
                    let kind = if choices.is_empty() {
                        property
                            .get("type")
                            .and_then(Value::as_str)
                            .unwrap_or("string")
                            .to_owned()
                    } else {
                        "enum".to_owned()
                    };
                    Field {
                        name: name.clone(),
                        kind,
                        choices,
                        required: required.contains(&name.as_str()),
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The invocation input from the form's text values; an error names the field in words.
pub fn input_from(fields: &[Field], values: &Map<String, Value>) -> Result<Value, WebError> {
    let mut input = Map::new();
    for field in fields {
        let raw = values
            .get(&field.name)
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim();
        if raw.is_empty() {
            if field.required && field.kind != "boolean" {
                return Err(WebError::MissingField(field.name.clone()));
            }
            if field.kind != "boolean" {
                continue;
            }
        }
        let value = match field.kind.as_str() {
            "number" | "integer" => match number_of(raw) {
                Some(n)
                    if field.kind == "number" || n.as_f64().is_some_and(|n| n.fract() == 0.0) =>
                {
                    Value::Number(n)
                }
                _ => return Err(WebError::NotANumber(field.name.clone())),
            },
            "boolean" => json!(raw == "true" || raw == "on"),
            _ => json!(raw),
        };
        input.insert(field.name.clone(), value);
    }
    Ok(Value::Object(input))
}

/// A number field's text as a JSON number: what HTML calls a valid
/// floating-point number (`-1.5`, `.5`, `2e3`). Read by serde_json's number
/// reader, which the page has anyway, not `str::parse::<f64>` (14 KB of
/// tables and code on the first page for this one field).
fn number_of(raw: &str) -> Option<serde_json::Number> {
    // HTML allows a leading `.`; JSON wants a digit before it.
    let json = match raw.strip_prefix('-').unwrap_or(raw).starts_with('.') {
        true => raw.replacen('.', "0.", 1),
        false => raw.to_owned(),
    };
    serde_json::from_str(&json).ok()
}

/// What became of an invocation.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Waiting for the answer.
    Waiting,
    /// The tool's result (its `output`).
    Result(Value),
    /// An error in words.
    Error(String),
    /// The form is not filled in right (nothing was sent), in words.
    Form(String),
}

/// The outcome an invocation's answer (`{output}` or `{error: {message}}`) stands for.
pub fn outcome_of(reply_payload: &Value) -> Outcome {
    match reply_payload.get("error") {
        Some(error) => Outcome::Error(
            error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("the tool failed")
                .to_owned(),
        ),
        None => Outcome::Result(reply_payload.get("output").cloned().unwrap_or(Value::Null)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn calculator() -> Value {
        json!({"type": "object", "properties": {
            "op": {"enum": ["add", "divide"]}, "a": {"type": "number"}, "b": {"type": "number"},
            "note": {"type": "string"}, "exact": {"type": "boolean"}
        }, "required": ["op", "a", "b"]})
    }

    #[test]
    fn fields_come_in_the_order_the_schema_declares() {
        let names = |schema: &Value| -> Vec<String> {
            fields_of(schema).into_iter().map(|f| f.name).collect()
        };
        // Without an order: the required ones as listed, then the others by name.
        assert_eq!(names(&calculator()), ["op", "a", "b", "exact", "note"]);
        let mut ordered = calculator();
        ordered["propertyOrder"] = json!(["note", "b", "a", "op", "exact"]);
        assert_eq!(names(&ordered), ["note", "b", "a", "op", "exact"]);
    }

    #[test]
    fn forms_follow_the_schema_and_inputs_are_typed() {
        let fields = fields_of(&calculator());
        let kinds: Vec<(&str, &str, bool)> = fields
            .iter()
            .map(|f| (f.name.as_str(), f.kind.as_str(), f.required))
            .collect();
        assert!(kinds.contains(&("op", "enum", true)));
        assert!(kinds.contains(&("a", "number", true)));
        assert!(kinds.contains(&("note", "string", false)));
        let values = |a: &str| {
            let mut m = Map::new();
            for (k, v) in [
                ("op", "add"),
                ("a", a),
                ("b", "2"),
                ("note", ""),
                ("exact", "true"),
            ] {
                m.insert(k.into(), json!(v));
            }
            m
        };
        assert_eq!(
            input_from(&fields, &values("1.5")),
            Ok(json!({"op": "add", "a": 1.5, "b": 2, "exact": true}))
        );
        for (typed, read) in [
            (".5", json!(0.5)),
            ("-.5", json!(-0.5)),
            ("2e3", json!(2000.0)),
        ] {
            assert_eq!(
                input_from(&fields, &values(typed)).unwrap()["a"],
                read,
                "{typed}"
            );
        }
        let count =
            fields_of(&json!({"properties": {"n": {"type": "integer"}}, "required": ["n"]}));
        let typed = |n: &str| input_from(&count, &Map::from_iter([("n".into(), json!(n))]));
        assert_eq!(typed("3"), Ok(json!({"n": 3})));
        assert_eq!(typed("3.0"), Ok(json!({"n": 3.0})));
        assert_eq!(typed("2.5"), Err(WebError::NotANumber("n".into())));
        for not_a_number in ["1.", "+1", "1,5", "NaN", "inf", "1e999", "0x10"] {
            assert_eq!(
                input_from(&fields, &values(not_a_number)),
                Err(WebError::NotANumber("a".into())),
                "{not_a_number}"
            );
        }
        assert_eq!(
            input_from(&fields, &values("x")),
            Err(WebError::NotANumber("a".into()))
        );
        assert_eq!(
            input_from(&fields, &values("")),
            Err(WebError::MissingField("a".into()))
        );
    }

    #[test]
    fn answers_become_results_or_errors_in_words() {
        assert_eq!(
            outcome_of(&json!({"output": {"result": 42}})),
            Outcome::Result(json!({"result": 42}))
        );
        assert_eq!(
            outcome_of(
                &json!({"error": {"code": "invalid_request", "message": "division by zero"}})
            ),
            Outcome::Error("division by zero".into())
        );
        let listed = resources_from(
            &json!({"resources": [{"address": "resource/tool/calc", "type": "tool", "owner": "agent:c",
            "description": "adds", "schema": calculator(), "your_permissions": ["read", "invoke"]}]}),
        );
        assert_eq!(listed[0].permissions, ["read", "invoke"]);
    }
}
