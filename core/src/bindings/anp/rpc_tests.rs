//! Reading an ANP call, alone (the calls through a network are in
//! `crate::bindings::mcp::tests::anp`).

use super::*;

fn call(body: &str) -> Request {
    Request::new(Method::Post, "https://edge.test/networks/demo/anp/rpc")
        .with_header("Content-Type", "application/json")
        .with_header("Authorization", "Bearer t")
        .with_body(body)
}

#[test]
fn a_call_is_one_request_whose_params_are_the_arguments() {
    let read = read_call(&call(
        r#"{"jsonrpc":"2.0","id":"a","method":"plan","params":{"to":"Paris","_meta":{}}}"#,
    ))
    .unwrap();
    assert_eq!(read.id, Id::Text("a".into()));
    assert_eq!(read.tool, "plan");
    assert_eq!(
        Value::Object(read.arguments),
        serde_json::json!({"to": "Paris"})
    );
    // Not a single request: refused as JSON-RPC.
    for bad in ["[]", "{", r#"{"jsonrpc":"2.0","method":"plan"}"#] {
        let Err(refused) = read_call(&call(bad)) else {
            panic!("{bad} is refused")
        };
        assert_eq!(refused.status, 400, "{bad}");
        assert!(
            refused.json_body().unwrap()["error"]["code"].is_i64(),
            "{bad}"
        );
    }
    let get = Request::new(Method::Get, "https://edge.test/networks/demo/anp/rpc");
    let Err(refused) = read_call(&get) else {
        panic!("a GET is refused")
    };
    assert_eq!(refused.status, 405);
    assert_eq!(refused.header("Allow"), Some("POST"));
}
