//! A built-in tool's definition as `tools/list` shows it: its name, its
//! description and its input schema, an object of named properties. The
//! built-ins ([`super::builtins`]) and IOA's tools ([`super::tools_ioa`])
//! are tables of these.

use serde_json::{Value, json};

/// One tool's definition.
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// Its name.
    pub name: &'static str,
    /// What it does, for a model.
    pub description: &'static str,
    /// Its input schema.
    pub schema: Value,
}

impl Definition {
    /// A tool whose input is an object of `properties` (a JSON Schema each,
    /// by name), `required` among them (a schema without `required` when
    /// none is).
    pub fn new(
        name: &'static str,
        description: &'static str,
        properties: Value,
        required: &[&str],
    ) -> Self {
        let mut schema = json!({"type": "object", "properties": properties});
        if !required.is_empty() {
            schema["required"] = json!(required);
        }
        Self {
            name,
            description,
            schema,
        }
    }
}
