//! Tools: every `resource/tool/*` the caller may invoke, then the built-ins
//! and IOA's (`super::tools_ioa`).
//!
//! A network tool is listed under its name (`resource/tool/add` → `add`;
//! under its full address when a built-in has that name), with its
//! registration's description and input schema. An input schema of type
//! `object` is used as it is and the call's `arguments` are the tool's
//! input; another JSON Schema is wrapped as the object property `input`;
//! anything else (none, or a description that is no JSON Schema) lists as a
//! free-form object. `tools/call` sends `network.resource.invoke` `{input}`
//! from the member to the tool; the owner's `network.resource.invoke.result`
//! completes the call ([`finish`]). An unknown tool is invalid params
//! (-32602); a refusal, the owner's error, an offline owner or no answer in
//! [`INVOKE_TIMEOUT_MS`] are error results.

use super::builtins;
use super::caller::{Caller, MethodCall};
use super::results::{ToolOutcome, tool_result};
use super::waiting::{Arrival, INVOKE_TIMEOUT_MS, Reply, WaitFor, Waiting, or_reply};
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::{RpcError, string_param};
use crate::ids::event_type::core_types;
use crate::model::membership::Member;
use crate::{Address, Network};
use serde_json::{Map, Value, json};

/// What every tool address starts with.
pub const TOOL_PREFIX: &str = "resource/tool/";

/// How a tool's MCP arguments become its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputShape {
    /// The arguments are the input.
    Whole,
    /// The input is `arguments.input`.
    Wrapped,
}

/// The MCP input schema for a registered schema, and how arguments map to input.
pub fn input_schema(schema: Option<&Value>) -> (Value, InputShape) {
    match schema {
        Some(Value::Object(object)) => match object.get("type") {
            Some(Value::String(kind)) if kind == "object" => {
                (Value::Object(object.clone()), InputShape::Whole)
            }
            Some(Value::String(_)) | Some(Value::Array(_)) => (
                json!({"type": "object", "properties": {"input": schema}, "required": ["input"]}),
                InputShape::Wrapped,
            ),
            _ if object.get("properties").is_some_and(Value::is_object) => {
                let mut typed = object.clone();
                typed.insert("type".into(), json!("object"));
                (Value::Object(typed), InputShape::Whole)
            }
            _ => (json!({"type": "object"}), InputShape::Whole),
        },
        _ => (json!({"type": "object"}), InputShape::Whole),
    }
}

/// The name a tool is listed under.
pub fn name_of(address: &Address) -> String {
    let full = address.to_string();
    match full.strip_prefix(TOOL_PREFIX) {
        Some(name) if !builtins::NAMES.contains(&name) => name.to_owned(),
        _ => full,
    }
}

/// The tool a listed name stands for.
pub fn address_of(name: &str) -> Option<Address> {
    if name.starts_with(TOOL_PREFIX) {
        name.parse().ok()
    } else {
        format!("{TOOL_PREFIX}{name}").parse().ok()
    }
}

fn tool_json(
    caller: &Caller<'_>,
    name: &str,
    description: &str,
    schema: Value,
    owner: Option<&str>,
) -> Value {
    let mut tool = json!({"name": name, "description": description, "inputSchema": schema});
    if let Some(owner) = owner.filter(|_| caller.revision.has_titles_and_structure()) {
        tool["_meta"] = json!({"agentnet/owner": owner});
    }
    tool
}

/// `tools/list`: what the member may invoke (found with `network.resource.discover`), then the built-ins.
pub fn list<H: BindingHost>(call: MethodCall<'_, H>) -> Result<Reply, H::Error> {
    call.list(Some("tool"), "tools", |_, caller, found| {
        let mut tools = Vec::new();
        for resource in found.iter() {
            let invokable = resource["your_permissions"]
                .as_array()
                .is_some_and(|p| p.iter().any(|p| p == "invoke"));
            let Some(address) = resource["address"]
                .as_str()
                .and_then(|a| a.parse::<Address>().ok())
            else {
                continue;
            };
            if !invokable {
                continue;
            }
            let owner = resource["owner"].as_str().unwrap_or("");
            let description = match resource["description"].as_str() {
                Some(d) if !d.is_empty() => d.to_owned(),
                _ => format!("{address}, offered by {owner}"),
            };
            let (schema, _) = input_schema(resource.get("schema"));
            tools.push(tool_json(
                caller,
                &name_of(&address),
                &description,
                schema,
                Some(owner),
            ));
        }
        let built_in = builtins::definitions().into_iter();
        for tool in built_in.chain(super::tools_ioa::definitions()) {
            let (name, description) = (tool.name, tool.description);
            tools.push(tool_json(caller, name, description, tool.schema, None));
        }
        tools
    })
}

/// `tools/call`.
pub fn call<H: BindingHost>(
    call: MethodCall<'_, H>,
    params: &Map<String, Value>,
) -> Result<Reply, H::Error> {
    let name = or_reply!(string_param(params, "name"));
    let args = match params.get("arguments") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(args)) => args.clone(),
        Some(_) => {
            return Ok(Reply::Error(RpcError::invalid_params(
                "Invalid params: arguments must be an object",
            )));
        }
    };
    invoke(call, name, args)
}

/// Invokes tool `name` (listed as [`list`] names it) with `args` as `caller`:
/// a built-in or IOA tool answers now; a network tool is a
/// `network.resource.invoke` whose result the call waits for. ANP's calls
/// come here directly ([`crate::bindings::anp::rpc`]).
pub fn invoke<H: BindingHost>(
    mut call: MethodCall<'_, H>,
    name: &str,
    args: Map<String, Value>,
) -> Result<Reply, H::Error> {
    if let Some(reply) = builtins::call(call.reborrow(), name, &args)? {
        return Ok(reply);
    }
    if let Some(reply) = super::tools_ioa::call(call.reborrow(), name, &args)? {
        return Ok(reply);
    }
    let unknown = || Reply::Error(RpcError::invalid_params(format!("Unknown tool: {name}")));
    let Some(tool) = address_of(name) else {
        return Ok(unknown());
    };
    let Some(resource) = call.network.state().resources.get(&tool) else {
        return Ok(unknown());
    };
    let input = match input_schema(resource.schema.as_ref()).1 {
        InputShape::Whole => Value::Object(args),
        InputShape::Wrapped => args.get("input").cloned().unwrap_or(Value::Null),
    };
    let submitted = call.submit_core(
        core_types::RESOURCE_INVOKE,
        Some(tool.clone()),
        json!({"input": input}),
    )?;
    Ok(match submitted.answer {
        Err(rejection) => Reply::Result(tool_result(
            call.caller.revision,
            ToolOutcome::failed(rejection.code.as_str(), rejection.message),
        )),
        Ok(_) => Reply::Wait(call.waiting(
            INVOKE_TIMEOUT_MS,
            WaitFor::Invoke {
                event: submitted.id,
                tool,
            },
        )),
    })
}

/// The result of a waiting request once it woke or timed out; `None` when it
/// should wait on (a read woken with nothing new to read, [`builtins::read_again`]).
pub fn finish<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    waiting: &Waiting,
    arrival: Arrival,
) -> Result<Option<Value>, H::Error> {
    let caller = Caller {
        member: &waiting.member,
        revision: waiting.revision,
        request: &waiting.request,
        session: waiting.session.as_deref(),
    };
    let outcome = match (&waiting.wait, arrival) {
        (WaitFor::Events { after, limit }, arrival) => {
            let timed_out = arrival == Arrival::TimedOut;
            let call = MethodCall {
                host,
                network,
                caller: &caller,
            };
            return builtins::read_again(call, (*after, *limit), timed_out);
        }
        (WaitFor::Invoke { .. }, Arrival::Delivered(result)) => {
            ToolOutcome::of_result_event(&result)
        }
        (WaitFor::Invoke { tool, .. }, Arrival::TimedOut) => {
            let owner = network.state().resources.get(tool).map(|r| r.owner.clone());
            match owner {
                Some(owner) if !network.member(&owner).is_some_and(Member::is_online) => {
                    ToolOutcome::failed(
                        crate::ErrorCode::OwnerOffline.as_str(),
                        format!("the owner of {tool}, {owner}, went offline before answering"),
                    )
                }
                _ => ToolOutcome::failed(
                    crate::ErrorCode::Timeout.as_str(),
                    format!("{tool} did not answer within {INVOKE_TIMEOUT_MS} ms"),
                ),
            }
        }
    };
    Ok(Some(tool_result(waiting.revision, outcome)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_become_object_input_schemas() {
        let object = json!({"type": "object", "properties": {"a": {"type": "number"}}});
        assert_eq!(
            input_schema(Some(&object)),
            (object.clone(), InputShape::Whole)
        );
        let (wrapped, shape) = input_schema(Some(&json!({"type": "string"})));
        assert_eq!(shape, InputShape::Wrapped);
        assert_eq!(wrapped["properties"]["input"], json!({"type": "string"}));
        let (typed, _) = input_schema(Some(&json!({"properties": {"a": {}}})));
        assert_eq!(typed["type"], "object");
        for free in [
            None,
            Some(&json!({"input": {"a": "number"}})),
            Some(&json!(3)),
        ] {
            assert_eq!(
                input_schema(free),
                (json!({"type": "object"}), InputShape::Whole)
            );
        }
    }

    #[test]
    fn names_and_addresses_map_both_ways() {
        let add: Address = "resource/tool/add".parse().unwrap();
        assert_eq!(name_of(&add), "add");
        assert_eq!(address_of("add"), Some(add.clone()));
        assert_eq!(address_of("resource/tool/add"), Some(add));
        let shadowed: Address = "resource/tool/agentnet_post".parse().unwrap();
        assert_eq!(name_of(&shadowed), "resource/tool/agentnet_post");
        assert_eq!(address_of("no/slash"), None);
    }
}
