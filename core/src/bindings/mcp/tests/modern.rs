//! Revision 2026-07-28: stateless requests with their envelope and headers,
//! discovery, listening, and what is gone (GET, DELETE, sessions).

use super::{Mcp, URL, json_of, post, rpc};
use crate::bindings::mcp::outcome::Outcome;
use crate::bindings::message::{Method, Request};
use serde_json::{Value, json};

const META: &str = "io.modelcontextprotocol/protocolVersion";

fn modern(token: &str, id: u64, method: &str, mut params: Value, name: Option<&str>) -> Request {
    params["_meta"] = json!({META: "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}});
    let mut req = post(Some(token), None, &rpc(id, method, params))
        .with_header("MCP-Protocol-Version", "2026-07-28")
        .with_header("Mcp-Method", method);
    if let Some(name) = name {
        req = req.with_header("Mcp-Name", name);
    }
    req
}

#[test]
fn discover_and_list_without_a_session() {
    let (mut mcp, token) = Mcp::with_claude();
    let discovered = json_of(&mcp.respond(&modern(&token, 1, "server/discover", json!({}), None)));
    assert_eq!(discovered["result"]["supportedVersions"][0], "2026-07-28");
    assert_eq!(discovered["result"]["resultType"], "complete");
    let listed = mcp.respond(&modern(&token, 2, "tools/list", json!({}), None));
    assert!(listed.headers.iter().all(|(n, _)| n != "Mcp-Session-Id"));
    let listed = json_of(&listed);
    assert_eq!(
        (
            listed["result"]["ttlMs"].clone(),
            listed["result"]["cacheScope"].clone()
        ),
        (json!(0), json!("private"))
    );
    assert_eq!(
        listed["result"]["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "agentnet"
    );
    let posted = mcp.respond(&modern(
        &token,
        3,
        "tools/call",
        json!({"name": "agentnet_post", "arguments": {"to": "agent:broadcast", "text": "hi"}}),
        Some("agentnet_post"),
    ));
    assert_eq!(json_of(&posted)["result"]["isError"], false);
}

#[test]
fn envelope_and_header_failures_are_400_and_unknown_methods_404() {
    let (mut mcp, token) = Mcp::with_claude();
    let mut bare = modern(&token, 1, "tools/list", json!({}), None);
    bare.body = rpc(1, "tools/list", json!({}));
    let unknown = |m: &mut Mcp| {
        m.respond(&modern(
            &token,
            1,
            "resources/subscribe",
            json!({"uri": "x"}),
            None,
        ))
    };
    let mut unsupported = modern(&token, 1, "tools/list", json!({}), None);
    unsupported.body = unsupported.body.replace("2026-07-28", "2099-01-01");
    let no_name = modern(
        &token,
        1,
        "tools/call",
        json!({"name": "agentnet_members"}),
        None,
    );
    for (req, status, code) in [
        (bare, 400, -32602),
        (unsupported, 400, -32022),
        (no_name, 400, -32020),
    ] {
        let response = mcp.respond(&req);
        assert_eq!(
            (
                response.status,
                json_of(&response)["error"]["code"].as_i64()
            ),
            (status, Some(code))
        );
    }
    let response = unknown(&mut mcp);
    assert_eq!(
        (response.status, json_of(&response)["error"]["code"].clone()),
        (404, json!(-32601))
    );
    let get = Request::new(Method::Get, URL)
        .with_header("Authorization", &format!("Bearer {token}"))
        .with_header("MCP-Protocol-Version", "2026-07-28");
    assert_eq!(mcp.respond(&get).status, 405);
    let batch = format!("[{}]", rpc(1, "tools/list", json!({})));
    let mut batched = modern(&token, 1, "tools/list", json!({}), None);
    batched.body = batch;
    assert_eq!(mcp.respond(&batched).status, 400);
}

#[test]
fn listen_opens_a_stream_with_its_acknowledgement() {
    let (mut mcp, token) = Mcp::with_claude();
    let req = modern(
        &token,
        7,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
        None,
    );
    let Outcome::Stream {
        stream,
        opening,
        closes: false,
        ..
    } = mcp.handle(&req)
    else {
        panic!("a stream")
    };
    assert_eq!(opening.len(), 1);
    let ack: Value = serde_json::from_str(
        opening[0]
            .trim_start_matches("event: message\ndata: ")
            .trim(),
    )
    .unwrap();
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
    assert_eq!(
        mcp.streams
            .listeners()
            .into_iter()
            .map(|(id, _)| id)
            .collect::<Vec<_>>(),
        [stream]
    );
}
