//! The JSON-RPC reader: each malformation's code, and a property test that
//! any input is read or refused without panicking.

use super::*;
use crate::event::tests::json_tree;
use serde_json::{Map, Value, json};

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;
use proptest::prelude::*;

fn single(text: &str) -> Result<Message, Refused> {
    match parse(text)? {
        Body::Single(message) => Ok(message),
        Body::Batch(_) => panic!("not a single message"),
    }
}

#[test]
fn reads_requests_notifications_and_responses() {
    assert_eq!(
        single(r#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#),
        Ok(Message::Request {
            id: Id::Number(7),
            method: "tools/list".into(),
            params: Map::new()
        })
    );
    let note = single(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert!(matches!(note, Ok(Message::Notification { .. })));
    let answer = single(r#"{"jsonrpc":"2.0","id":"a","result":{"action":"cancel"}}"#);
    assert_eq!(
        answer,
        Ok(Message::Response {
            id: Id::Text("a".into()),
            result: Some(serde_json::json!({"action": "cancel"}))
        })
    );
    let failed = single(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"no"}}"#);
    assert_eq!(
        failed,
        Ok(Message::Response {
            id: Id::Number(7),
            result: None
        })
    );
}

#[test]
fn each_malformation_has_its_code_and_keeps_a_readable_id() {
    for (text, code, id) in [
        ("{", PARSE_ERROR, None),
        ("[]", INVALID_REQUEST, None),
        ("42", INVALID_REQUEST, None),
        (
            r#"{"id":1,"method":"x"}"#,
            INVALID_REQUEST,
            Some(Id::Number(1)),
        ),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"x"}"#,
            INVALID_REQUEST,
            Some(Id::Number(1)),
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#,
            INVALID_REQUEST,
            None,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
            INVALID_REQUEST,
            None,
        ),
        (
            r#"{"jsonrpc":"2.0","id":2,"method":3}"#,
            INVALID_REQUEST,
            Some(Id::Number(2)),
        ),
        (
            r#"{"jsonrpc":"2.0","id":"q"}"#,
            INVALID_REQUEST,
            Some(Id::Text("q".into())),
        ),
        (
            r#"{"jsonrpc":"2.0","id":3,"method":"x","params":[1]}"#,
            INVALID_PARAMS,
            Some(Id::Number(3)),
        ),
    ] {
        let refused = single(text).expect_err(text);
        assert_eq!((refused.error.code, refused.id), (code, id), "{text}");
    }
}

#[test]
fn a_batch_reads_each_element_on_its_own() {
    let Ok(Body::Batch(items)) =
        parse(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}, 5, {"jsonrpc":"2.0","method":"n"}]"#)
    else {
        panic!("a batch")
    };
    assert!(matches!(items[0], Ok(Message::Request { .. })));
    assert_eq!(
        items[1].as_ref().map_err(|r| r.error.code),
        Err(INVALID_REQUEST)
    );
    assert!(matches!(items[2], Ok(Message::Notification { .. })));
}

#[test]
fn each_code_keeps_its_number() {
    let numbers: Vec<i64> = Code::ALL.into_iter().map(RpcCode::code).collect();
    assert_eq!(numbers, [-32700, -32600, -32601, -32602, -32603, -31000]);
    assert_eq!(Code::of(-32601), Some(Code::MethodNotFound));
    assert_eq!(Code::of(-32001), None);
}

#[test]
fn answers_are_read_as_results_or_errors() {
    let ok: Answer = serde_json::from_value(json!({"jsonrpc": "2.0", "id": "a", "result": 1}))
        .expect("a result");
    assert!(matches!(ok, Answer::Success(Success { result, .. }) if result == json!(1)));
    let failed: Answer = serde_json::from_value(
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32601, "message": "no"}}),
    )
    .expect("an error");
    assert!(
        matches!(failed, Answer::Failure(Failure { id: None, error, .. }) if error.is(Code::MethodNotFound))
    );
    let call = Call::new(
        Id::Text("e1".into()),
        "message/send",
        json!({"message": {}}),
    );
    assert_eq!(
        call.to_value(),
        json!({"jsonrpc": "2.0", "id": "e1", "method": "message/send", "params": {"message": {}}})
    );
}

#[test]
fn responses_are_framed() {
    assert_eq!(
        result(&Id::Number(1), json!({})),
        json!({"jsonrpc": "2.0", "id": 1, "result": {}})
    );
    let err = RpcError::invalid_params("bad").with_data(json!({"x": 1}));
    assert_eq!(
        error(None, &err),
        json!({"jsonrpc": "2.0", "error": {"code": -32602, "message": "bad", "data": {"x": 1}}})
    );
    assert_eq!(
        notification("n", json!({})).to_string(),
        r#"{"jsonrpc":"2.0","method":"n","params":{}}"#
    );
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|n| json!(n)),
        "[a-z/\\.]{0,8}".prop_map(Value::String),
    ];
    let names = &["jsonrpc", "id", "method", "params", "result"];
    json_tree(leaf, names, "[a-z]{1,3}")
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused_without_panicking(text in "\\PC{0,64}") {
        let _ = parse(&text);
    }

    #[test]
    fn any_json_is_read_or_refused_with_a_standard_code(value in json_value()) {
        match parse(&value.to_string()) {
            Ok(Body::Single(_)) => prop_assert!(value.is_object()),
            Ok(Body::Batch(items)) => {
                prop_assert!(!items.is_empty());
                for item in items {
                    if let Err(refused) = item {
                        prop_assert!([INVALID_REQUEST, INVALID_PARAMS].contains(&refused.error.code));
                    }
                }
            }
            Err(refused) => prop_assert!([INVALID_REQUEST, INVALID_PARAMS].contains(&refused.error.code)),
        }
    }

    #[test]
    fn a_request_survives_writing_and_reading(
        id in prop_oneof![any::<i64>().prop_map(Id::Number), "[ -~]{0,12}".prop_map(Id::Text)],
        method in "[a-z/_]{1,16}",
        key in "[a-z]{1,5}",
        n in any::<i64>(),
    ) {
        let text = json!({"jsonrpc": "2.0", "id": id.to_value(), "method": method, "params": {key.clone(): n}}).to_string();
        let mut params = Map::new();
        params.insert(key, json!(n));
        prop_assert_eq!(single(&text), Ok(Message::Request { id, method, params }));
    }
}
