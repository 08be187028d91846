use super::*;
use serde_json::json;

#[test]
fn a_payload_reads_as_the_discover_routes_query() {
    let q = query_from_payload(&json!({"q": "Legal  German, law", "tags": "a, b,",
        "mode": "text/plain", "transport": "JSONRPC", "network": "n1",
        "verification": 2, "limit": 500}))
    .unwrap();
    assert_eq!(q.terms, ["legal", "german", "law"]);
    assert_eq!(q.tags, ["a", "b"]);
    assert_eq!(q.mode.as_deref(), Some("text/plain"));
    assert_eq!(q.transport.as_deref(), Some("JSONRPC"));
    assert_eq!(q.network.as_deref(), Some("n1"));
    assert_eq!(q.verification, 2);
    assert_eq!(q.limit, MAX_LIMIT);
    let empty = query_from_payload(&json!({})).unwrap();
    assert_eq!(empty.limit, DEFAULT_LIMIT);
    assert!(empty.terms.is_empty() && empty.tags.is_empty());
}

#[test]
fn wrong_types_are_refused_with_their_parameter() {
    for (payload, name) in [
        (json!([]), "payload"),
        (json!({"q": 1}), "q"),
        (json!({"tags": {"a": 1}}), "tags"),
        (json!({"tags": ["a", 2]}), "tags"),
        (json!({"limit": 0}), "limit"),
        (json!({"limit": "5"}), "limit"),
        (json!({"verification": 4}), "verification"),
        (json!({"mode": true}), "mode"),
    ] {
        match query_from_payload(&payload) {
            Err(DiscoveryError::BadParameter { name: got, .. }) => assert_eq!(got, name),
            other => panic!("{payload}: {other:?}"),
        }
    }
}

#[test]
fn the_registry_path_carries_every_filter_encoded() {
    let q = query_from_payload(&json!({"q": "a&b", "tags": ["x y"], "network": "n/1",
        "mode": "text/plain", "limit": 3}))
    .unwrap();
    assert_eq!(
        registry_path(&q),
        "/registry/v1/discover?q=a%20b&limit=3&tags=x%20y&mode=text%2Fplain&network=n%2F1"
    );
}

#[test]
fn merge_ranks_both_sources_and_cuts_at_the_limit() {
    let local = vec![
        json!({"id": "agent:a", "kind": "member", "network": "n", "name": "a", "score": 5}),
        json!({"id": "agent:b", "kind": "member", "network": "n", "name": "b", "score": 9}),
    ];
    let registry = vec![
        json!({"id": "X", "kind": "registered", "name": "a", "score": 5}),
        json!({"id": "member:n/agent:b", "kind": "member", "network": "n", "name": "b", "score": 9}),
        json!({"id": "member:m/agent:c", "kind": "member", "network": "m", "name": "c", "score": 1}),
        json!("not an agent"),
    ];
    let merged = merge(local.clone(), registry.clone(), "n", 10);
    let ids: Vec<&str> = merged.iter().filter_map(|h| h["id"].as_str()).collect();
    // Equal scores tie on the name, then the id; n's own members come from the network only.
    assert_eq!(ids, ["agent:b", "X", "agent:a", "member:m/agent:c"]);
    assert_eq!(merge(local, registry, "n", 2).len(), 2);
}

#[test]
fn null_reads_as_left_out_and_each_wrong_value_keeps_its_detail() {
    let nulls = json!({"q": null, "tags": null, "mode": null, "transport": null,
        "network": null, "verification": null, "limit": null});
    let read = query_from_payload(&nulls).unwrap();
    assert_eq!(read.limit, DEFAULT_LIMIT);
    assert!(read.terms.is_empty() && read.tags.is_empty() && read.mode.is_none());
    assert_eq!(read.verification, 0);
    let blank = query_from_payload(&json!({"mode": "  ", "tags": [" a ", ""], "limit": 1}));
    let blank = blank.unwrap();
    assert_eq!(
        (blank.mode, blank.tags, blank.limit),
        (None, vec!["a".into()], 1)
    );
    for (payload, name, detail) in [
        (json!("q"), "payload", "is a JSON object"),
        (json!({"network": 1}), "network", "is a string"),
        (json!({"transport": []}), "transport", "is a string"),
        (json!({"tags": 5}), "tags", "is an array of strings"),
        (json!({"tags": [null]}), "tags", "is an array of strings"),
        (json!({"limit": -1}), "limit", "is a whole number from 1"),
        (json!({"limit": 2.5}), "limit", "is a whole number from 1"),
        (
            json!({"verification": 256}),
            "verification",
            "is a level from 0 to 3",
        ),
        (
            json!({"verification": "1"}),
            "verification",
            "is a level from 0 to 3",
        ),
    ] {
        let expected = DiscoveryError::BadParameter {
            name,
            detail: detail.to_owned(),
        };
        assert_eq!(
            query_from_payload(&payload).err(),
            Some(expected),
            "{payload}"
        );
    }
}
