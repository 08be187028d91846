//! Every kind of stored row reads back as it was written; rows out of order
//! or of an unknown kind are refused with the reason.

use super::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// One stored row of every kind, as `#[derive(Serialize)]` on [`Row`] writes it.
fn stored_rows() -> Vec<Value> {
    vec![
        json!({"kind": "member", "value": {"address": "agent:bob", "role": "member",
            "verification": 0, "status": "online", "last_seen": 5}}),
        json!({"kind": "channel", "value": {"name": "general", "members": ["agent:bob"],
            "created_by": "agent:bob", "private": true, "title": "General"}}),
        json!({"kind": "group", "value": {"name": "reviewers", "members": ["agent:bob"]}}),
        json!({"kind": "resource", "value": {"address": "resource/tool/search", "type": "tool",
            "owner": "agent:bob", "description": "finds things",
            "schema": {"type": "object"},
            "permissions": {"read": "network", "write": "owner", "invoke": "network", "admin": "owner"}}}),
        json!({"kind": "invitation", "value": {"code": "c0de", "created_by": "human:ann",
            "expires_at": 9, "max_uses": 2, "uses": 1}}),
        json!({"kind": "mod_state", "value": {"name": "workspace", "state": {"n": [1, 2]}}}),
        json!({"kind": "bridge", "value": {"network": "other-net", "bridge": null}}),
        json!({"kind": "bridge", "value": {"network": "other-net", "bridge": "agent:bob"}}),
        json!({"kind": "document", "value": {"address": "resource/file/notes.md",
            "writer": "w1", "part": {"chunk": 3}, "data": "AAEC"}}),
        json!({"kind": "task", "value": {"id": "01J0000000000000000000TASK", "context": "ctx",
            "requester": "agent:alice", "partners": ["agent:bob"], "mode": "direct",
            "state": "working", "confirm": false, "history": [], "artifacts": [],
            "created_at": 1, "updated_at": 2}}),
        json!({"kind": "remote", "value": {"address": "agent:far", "card_url": "https://a.example/card",
            "endpoint": "https://a.example/a2a", "version": "0.3.0", "name": "Far"}}),
        json!({"kind": "push", "value": {"key": "t/agent:bob", "task": "t", "target": "agent:bob",
            "generation": 1, "attempts": 0, "next_at": 3}}),
        json!({"kind": "cursor", "value": {"address": "agent:bob", "seq": 7}}),
        json!({"kind": "catch_up", "value": {"address": "agent:bob", "after": 4, "delivered": 6}}),
        json!({"kind": "log_marks", "value": {"marks": [[10, 4]], "transient_through": 2,
            "history_through": 1, "last_run": 10}}),
    ]
}

fn read(text: &str) -> Result<Row, String> {
    serde_json::from_str::<Row>(text).map_err(|error| error.to_string())
}

#[test]
fn every_kind_of_row_reads_back_as_it_was_written() {
    let mut kinds = BTreeSet::new();
    for stored in stored_rows() {
        let row = match read(&stored.to_string()) {
            Ok(row) => row,
            Err(error) => panic!("{stored} did not read: {error}"),
        };
        kinds.insert(row.kind());
        let written = serde_json::to_value(&row).unwrap_or(Value::Null);
        // What was written reads back to the same row (defaults filled in).
        assert_eq!(read(&written.to_string()), Ok(row.clone()), "{stored}");
        assert_eq!(written["kind"], stored["kind"]);
        for (field, value) in stored["value"].as_object().into_iter().flatten() {
            assert_eq!(&written["value"][field], value, "{field} of {stored}");
        }
    }
    assert_eq!(kinds.len(), 14, "a row of every kind: {kinds:?}");
}

#[test]
fn a_row_whose_value_comes_before_its_kind_is_refused_by_name() {
    let error = read(r#"{"value": {"address": "agent:bob", "seq": 7}, "kind": "cursor"}"#);
    assert!(
        matches!(&error, Err(e) if e.contains("`kind` comes first")),
        "{error:?}"
    );
}

#[test]
fn a_row_without_a_value_or_of_an_unknown_kind_is_refused() {
    let missing = read(r#"{"kind": "cursor"}"#);
    assert!(
        matches!(&missing, Err(e) if e.contains("missing field `value`")),
        "{missing:?}"
    );
    let unknown = read(r#"{"kind": "planet", "value": {}}"#);
    assert!(
        matches!(&unknown, Err(e) if e.contains("unknown variant `planet`")),
        "{unknown:?}"
    );
    let not_a_map = read("[1, 2]");
    assert!(
        matches!(&not_a_map, Err(e) if e.contains("a stored row")),
        "{not_a_map:?}"
    );
}

#[test]
fn a_field_after_the_value_is_skipped() {
    let row =
        read(r#"{"kind": "cursor", "value": {"address": "agent:bob", "seq": 7}, "note": [1]}"#);
    assert!(matches!(row, Ok(Row::Cursor { seq: 7, .. })), "{row:?}");
}
