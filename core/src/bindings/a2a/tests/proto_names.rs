//! Request fields read by their JSON or their proto field name (ProtoJSON).

use crate::bindings::a2a::wire::field;
use serde_json::json;

#[test]
fn a_field_is_read_by_its_json_or_its_proto_name() {
    let camel = json!({"historyLength": 3});
    let snake = json!({"history_length": 4, "task_id": "t"});
    assert_eq!(field(&camel, "historyLength"), Some(&json!(3)));
    assert_eq!(field(&snake, "historyLength"), Some(&json!(4)));
    assert_eq!(field(&snake, "taskId"), Some(&json!("t")));
    assert_eq!(field(&snake, "id"), None);
    // The JSON name wins when both are sent.
    let both = json!({"taskId": "a", "task_id": "b"});
    assert_eq!(field(&both, "taskId"), Some(&json!("a")));
}
