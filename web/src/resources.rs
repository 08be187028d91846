//! Shared resources: the list from `network.resource.discover` (with the
//! person's permissions) and, for tools, a form built from the input schema
//! whose submission invokes the tool and shows its result or error.

use leptos::prelude::*;
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

/// What the resources panel needs to open and edit files and contexts.
#[derive(Clone, Copy)]
pub struct DocumentActions {
    /// What is known of the opened structured (JSON) context.
    pub opened: ReadSignal<Option<(String, crate::documents::Opened)>>,
    /// Reads a structured context.
    pub read: Callback<String>,
    /// Saves a structured context (address, kind, text).
    pub save: Callback<(String, String, String)>,
    /// Open live documents.
    pub live_docs: ReadSignal<crate::live::LiveDocs>,
    /// Opens a live document.
    pub open_live: Callback<String>,
    /// A local edit of a live document: address and its whole new text.
    pub edit_live: Callback<(String, String)>,
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

/// The form fields of a JSON Schema object (`properties`, `required`), by property name.
pub fn fields_of(schema: &Value) -> Vec<Field> {
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
pub fn input_from(fields: &[Field], values: &Map<String, Value>) -> Result<Value, String> {
    let mut input = Map::new();
    for field in fields {
        let raw = values
            .get(&field.name)
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim();
        if raw.is_empty() {
            if field.required && field.kind != "boolean" {
                return Err(format!("Please fill in {}.", field.name));
            }
            if field.kind != "boolean" {
                continue;
            }
        }
        let value = match field.kind.as_str() {
            "number" | "integer" => match raw.parse::<f64>() {
                Ok(n) if field.kind == "number" || n.fract() == 0.0 => json!(n),
                _ => return Err(format!("{} must be a number.", field.name)),
            },
            "boolean" => json!(raw == "true" || raw == "on"),
            _ => json!(raw),
        };
        input.insert(field.name.clone(), value);
    }
    Ok(Value::Object(input))
}

/// What became of an invocation.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Waiting for the answer.
    Waiting,
    /// The tool's result, as JSON text.
    Result(String),
    /// An error in words.
    Error(String),
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
        None => Outcome::Result(
            serde_json::to_string(reply_payload.get("output").unwrap_or(&Value::Null))
                .unwrap_or_default(),
        ),
    }
}

/// The resources panel; `invoke(tool, input)` starts an invocation.
#[component]
pub fn Resources(
    /// The resources to list.
    resources: ReadSignal<Vec<Resource>>,
    /// The outcome of the latest invocation, by tool address.
    outcome: ReadSignal<Option<(String, Outcome)>>,
    /// Starts an invocation.
    invoke: Callback<(String, Value)>,
    /// Asks the network for the list again.
    refresh: Callback<()>,
    /// Opening and editing files and contexts.
    documents: DocumentActions,
    /// This person's address.
    me: String,
) -> impl IntoView {
    view! {
        <section class="resources" aria-label="Resources">
            <h2>"Resources" <button type="button" class="refresh" on:click=move |_| refresh.run(())>"Refresh"</button></h2>
            <Show when=move || resources.get().is_empty()>
                <p class="empty">"Nothing shared yet."</p>
            </Show>
            <ul>
                <For each=move || resources.get() key=|r| (r.address.clone(), r.permissions.join(",")) let:resource>
                    <ResourceItem resource outcome invoke documents me=me.clone() />
                </For>
            </ul>
        </section>
    }
}

#[component]
fn ResourceItem(
    resource: Resource,
    outcome: ReadSignal<Option<(String, Outcome)>>,
    invoke: Callback<(String, Value)>,
    documents: DocumentActions,
    me: String,
) -> impl IntoView {
    let DocumentActions {
        opened,
        read,
        save,
        live_docs,
        open_live,
        edit_live,
    } = documents;
    let may_write = resource.permissions.iter().any(|p| p == "write");
    // Text is a live shared document; structured (JSON) context is edited whole and saved.
    let document = match (resource.kind.as_str(), resource.content_type.as_str()) {
        ("tool", _) => None,
        (_, "application/json") => Some(view! {
            <crate::documents::DocumentEditor address=resource.address.clone() kind=resource.kind.clone()
                may_write opened read save />
        }.into_any()),
        _ => Some(view! {
            <crate::live::LiveDocument address=resource.address.clone() kind=resource.kind.clone()
                may_write me docs=live_docs open=open_live edit=edit_live />
        }.into_any()),
    };
    let fields = fields_of(&resource.schema);
    let may_invoke = resource.kind == "tool" && resource.permissions.iter().any(|p| p == "invoke");
    let address = resource.address.clone();
    let (problem, set_problem) = signal(None::<String>);
    let form_fields = fields.clone();
    let tool = address.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let Some(form) = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlFormElement>(t).ok())
        else {
            return;
        };
        let mut values = Map::new();
        for field in &form_fields {
            let value = form
                .elements()
                .named_item(&field.name)
                .and_then(|e| {
                    if field.kind == "boolean" {
                        wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(e)
                            .ok()
                            .map(|i| i.checked().to_string())
                    } else {
                        js_sys::Reflect::get(&e, &"value".into())
                            .ok()
                            .and_then(|v| v.as_string())
                    }
                })
                .unwrap_or_default();
            values.insert(field.name.clone(), Value::String(value));
        }
        match input_from(&form_fields, &values) {
            Ok(input) => {
                set_problem.set(None);
                invoke.run((tool.clone(), input));
            }
            Err(message) => set_problem.set(Some(message)),
        }
    };
    let mine = address.clone();
    let form_label = format!("Invoke {address}");
    let shown = move || {
        outcome
            .get()
            .filter(|(tool, _)| *tool == mine)
            .map(|(_, o)| o)
    };
    view! {
        <li class="resource" data-address=address.clone()>
            <div class="title">
                <span class="address">{address.clone()}</span>
                <span class="details">{format!("{} · by {} · you may {}", resource.kind, resource.owner,
                    if resource.permissions.is_empty() { "nothing".to_owned() } else { resource.permissions.join(", ") })}</span>
            </div>
            <p class="description">{resource.description.clone()}</p>
            {document}
            <Show when=move || may_invoke>
                <form class="tool-form" aria-label=form_label.clone() on:submit=submit.clone()>
                    {fields.clone().into_iter().map(|field| view! { <FieldInput field /> }).collect_view()}
                    <button type="submit">"Invoke"</button>
                </form>
            </Show>
            <Show when=move || problem.get().is_some()>
                <p class="problem" role="alert">{move || problem.get().unwrap_or_default()}</p>
            </Show>
            {move || shown().map(|o| match o {
                Outcome::Waiting => view! { <p class="outcome" role="status">"Working…"</p> }.into_any(),
                Outcome::Result(json) => view! { <p class="outcome" role="status">"Result: " <code>{json}</code></p> }.into_any(),
                Outcome::Error(message) => view! { <p class="outcome error" role="alert">"The tool could not do it: " {message}</p> }.into_any(),
            })}
        </li>
    }
}

#[component]
fn FieldInput(field: Field) -> impl IntoView {
    let label = if field.required {
        format!("{} (required)", field.name)
    } else {
        field.name.clone()
    };
    match field.kind.as_str() {
        "enum" => view! {
            <label>{label}
                <select name=field.name.clone()>
                    {field.choices.iter().map(|c| view! { <option value=c.clone()>{c.clone()}</option> }).collect_view()}
                </select>
            </label>
        }
        .into_any(),
        "boolean" => view! { <label><input type="checkbox" name=field.name.clone() />{label}</label> }.into_any(),
        "number" | "integer" => view! {
            <label>{label} <input type="number" step="any" name=field.name.clone() /></label>
        }
        .into_any(),
        _ => view! { <label>{label} <input type="text" name=field.name.clone() /></label> }.into_any(),
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
            Ok(json!({"op": "add", "a": 1.5, "b": 2.0, "exact": true}))
        );
        assert_eq!(
            input_from(&fields, &values("x")),
            Err("a must be a number.".into())
        );
        assert_eq!(
            input_from(&fields, &values("")),
            Err("Please fill in a.".into())
        );
    }

    #[test]
    fn answers_become_results_or_errors_in_words() {
        assert_eq!(
            outcome_of(&json!({"output": {"result": 42}})),
            Outcome::Result("{\"result\":42}".into())
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
