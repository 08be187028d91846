//! The OpenRPC interface of a listed member's tools, as its ANP agent
//! description carries it: a `StructuredInterface` with protocol `openrpc`
//! and the OpenRPC document embedded as `content` — the form the `anp`
//! SDK's crawler (`ANPCrawler.fetch_text`) turns into callable tools in one
//! fetch. Each tool the member registered (listed in its record,
//! [`crate::discovery::members::tools_of`]) is a method named as MCP
//! lists it ([`crate::bindings::mcp::tools::name_of`]) whose by-name params
//! are its MCP input schema's properties; the one server is the network's
//! JSON-RPC endpoint ([`super::rpc::url`]), where a call runs as the caller.

use super::rpc;
use crate::Address;
use crate::bindings::mcp::tools::{input_schema, name_of};
use serde_json::{Value, json};

/// The OpenRPC version the documents follow.
pub const OPENRPC_VERSION: &str = "1.3.2";

/// One method for a tool `{address, description, schema}`.
fn method(tool: &Value) -> Option<Value> {
    let address: Address = tool.get("address")?.as_str()?.parse().ok()?;
    let (schema, _) = input_schema(tool.get("schema"));
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let params: Vec<Value> = schema["properties"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(name, schema)| {
            json!({"name": name, "schema": schema, "required": required.contains(&name.as_str())})
        })
        .collect();
    let description = tool
        .get("description")
        .and_then(Value::as_str)
        .filter(|d| !d.is_empty())
        .map_or_else(|| address.to_string(), str::to_owned);
    Some(json!({
        "name": name_of(&address), "summary": description, "description": description,
        "paramStructure": "by-name", "params": params,
        "result": {"name": "output", "schema": {}},
    }))
}

/// The interface for the tools of member `record` of `network` at
/// `origin`; `None` when it lists no tools.
pub fn interface(network: &str, record: &Value, origin: &str) -> Option<Value> {
    let methods: Vec<Value> = record
        .get("tools")?
        .as_array()?
        .iter()
        .filter_map(method)
        .collect();
    if methods.is_empty() {
        return None;
    }
    let name = record.get("name").and_then(Value::as_str).unwrap_or("");
    let url = rpc::url(origin, network);
    let description = format!(
        "{name}'s tools in agentnet network {network}: JSON-RPC 2.0, called as the authenticated caller"
    );
    Some(json!({
        "type": "StructuredInterface", "protocol": "openrpc", "url": url,
        "description": description,
        "content": {
            "openrpc": OPENRPC_VERSION,
            "info": {"title": format!("{name} (agentnet)"), "version": "1.0.0", "description": description},
            "servers": [{"name": network, "url": url}],
            "methods": methods,
        },
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_become_by_name_methods_on_the_networks_endpoint() {
        let record = json!({"name": "planner", "tools": [
            {"address": "resource/tool/plan", "description": "plans a trip",
             "schema": {"type": "object", "properties": {"to": {"type": "string"}, "days": {"type": "integer"}}, "required": ["to"]}},
            {"address": "resource/tool/echo", "description": "", "schema": {"type": "string"}},
            {"address": "not an address"},
        ]});
        let found = interface("n1", &record, "https://edge.test").unwrap();
        assert_eq!(found["protocol"], "openrpc");
        let doc = &found["content"];
        assert_eq!(
            doc["servers"][0]["url"],
            "https://edge.test/networks/n1/anp/rpc"
        );
        let methods = doc["methods"].as_array().unwrap();
        assert_eq!(methods.len(), 2);
        assert_eq!(methods[0]["name"], "plan");
        assert_eq!(methods[0]["description"], "plans a trip");
        assert_eq!(
            methods[0]["params"],
            json!([{"name": "days", "schema": {"type": "integer"}, "required": false},
                   {"name": "to", "schema": {"type": "string"}, "required": true}])
        );
        // A schema that is not an object is the one param `input`.
        assert_eq!(methods[1]["params"][0]["name"], "input");
        assert_eq!(methods[1]["description"], "resource/tool/echo");
        assert_eq!(
            interface(
                "n1",
                &json!({"name": "quiet", "tools": []}),
                "https://edge.test"
            ),
            None
        );
        assert_eq!(
            interface("n1", &json!({"name": "old"}), "https://edge.test"),
            None
        );
    }
}
