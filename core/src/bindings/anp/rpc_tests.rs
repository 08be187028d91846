//! The ANP call ↔ MCP `tools/call` translation, alone (the calls through a
//! network are in `crate::bindings::mcp::tests::anp`).

use super::*;

fn call(body: &str) -> Request {
    Request::new(Method::Post, "https://edge.test/networks/demo/anp/rpc")
        .with_header("Content-Type", "application/json")
        .with_header("Authorization", "Bearer t")
        .with_body(body)
}

#[test]
fn a_call_becomes_a_stateless_tools_call_with_its_headers() {
    let network: NetworkId = "demo".parse().unwrap();
    let mcp = to_mcp(
        &call(r#"{"jsonrpc":"2.0","id":"a","method":"plan","params":{"to":"Paris"}}"#),
        &network,
    )
    .unwrap();
    assert_eq!(mcp.url, "https://edge.test/networks/demo/mcp");
    let body: Value = serde_json::from_str(&mcp.body).unwrap();
    assert_eq!(body["id"], "a");
    assert_eq!(body["method"], "tools/call");
    assert_eq!(body["params"]["name"], "plan");
    assert_eq!(body["params"]["arguments"], json!({"to": "Paris"}));
    assert_eq!(body["params"]["_meta"][PROTOCOL_VERSION], REVISION);
    for (name, value) in [
        ("Authorization", "Bearer t"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "plan"),
        (VERSION_HEADER, REVISION),
        ("Accept", "application/json"),
    ] {
        assert_eq!(mcp.header(name), Some(value), "{name}");
    }
    assert_eq!(mcp_name("café"), "=?base64?Y2Fmw6k=?=");
    // Not a single request: refused as JSON-RPC.
    for bad in ["[]", "{", r#"{"jsonrpc":"2.0","method":"plan"}"#] {
        let refused = to_mcp(&call(bad), &network).unwrap_err();
        assert_eq!(refused.status, 400, "{bad}");
        assert!(
            refused.json_body().unwrap()["error"]["code"].is_i64(),
            "{bad}"
        );
    }
    let get = Request::new(Method::Get, "https://edge.test/networks/demo/anp/rpc");
    assert_eq!(to_mcp(&get, &network).unwrap_err().status, 405);
}

#[test]
fn answers_become_results_and_errors_in_anp_terms() {
    let answer = |value: Value, status: u16| {
        let response = from_mcp(
            Response::json(value)
                .with_status(status)
                .with_header("Authorization", "Bearer x"),
        );
        assert!(
            response
                .headers
                .iter()
                .any(|(n, v)| n == "Authorization" && v == "Bearer x")
        );
        (response.status, response.json_body().unwrap().clone())
    };
    let done = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "{\"a\":1}"}], "structuredContent": {"a": 1}, "isError": false}});
    assert_eq!(
        answer(done, 200),
        (200, json!({"jsonrpc": "2.0", "id": 1, "result": {"a": 1}}))
    );
    let failed = json!({"jsonrpc": "2.0", "id": 2, "result": {"content": [{"type": "text", "text": "forbidden: no"}], "structuredContent": {"error": {"code": "forbidden", "message": "no"}}, "isError": true}});
    let (_, failed) = answer(failed, 200);
    assert_eq!(
        failed["error"],
        json!({"code": -32000, "message": "forbidden: no", "data": {"code": "forbidden", "message": "no"}})
    );
    assert_eq!(failed["id"], 2);
    let unknown =
        json!({"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Unknown tool: x"}});
    let (status, unknown) = answer(unknown, 404);
    assert_eq!(
        (status, unknown["error"]["code"].clone()),
        (200, json!(-32601))
    );
    assert_eq!(unknown["error"]["message"], "Method not found: x");
}
