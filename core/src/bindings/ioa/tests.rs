//! The IOA binding's decisions: paths, bodies, errors, and spaces in a network in memory.

use super::*;
use serde_json::json;

#[test]
fn a_send_body_is_checked_like_ioas() {
    let ok = send::body(
        &json!({"content": {"text": "hi"}, "refs": {"messages": [], "nodes": ["agent:b"]}})
            .to_string(),
    )
    .unwrap();
    assert_eq!(ok.refs, json!({"messages": [], "nodes": ["agent:b"]}));
    let refused = |body: serde_json::Value| send::body(&body.to_string()).unwrap_err();
    assert_eq!(refused(json!({})).status, 422);
    assert_eq!(refused(json!({"content": null})).status, 422);
    assert!(
        refused(json!({"content": {}, "extra": 1}))
            .detail
            .contains("unknown field")
    );
    assert!(
        refused(json!({"content": {}, "content_schema": {"type": "nope"}}))
            .detail
            .starts_with("content_schema is not valid JSON Schema")
    );
    assert!(
        refused(json!({"content_type": "team", "content": {"team": "red"}}))
            .detail
            .starts_with("team:")
    );
    assert_eq!(send::body("[]").unwrap_err().status, 422);
}

#[test]
fn registration_names_a_participant() {
    let r = nodes::register_body(
        &json!({"name": "alice", "access_key": "k", "meta": {}}).to_string(),
        None,
    )
    .unwrap();
    assert_eq!(r.address.to_string(), "agent:alice");
    assert_eq!(r.access_key.as_deref(), Some("k"));
    let human = nodes::register_body(&json!({"name": "human:bo"}).to_string(), Some("h")).unwrap();
    assert_eq!(human.access_key.as_deref(), Some("h"));
    assert_eq!(
        nodes::register_body("{}", None).unwrap_err().detail,
        "name is required"
    );
    assert_eq!(
        nodes::register_body(&json!({"name": "channel/x"}).to_string(), None)
            .unwrap_err()
            .status,
        422
    );
}

#[test]
fn rejections_become_ioa_details_and_statuses() {
    let r = Refusal::from(&crate::Rejection::new(
        crate::ErrorCode::UnknownParent,
        "refs.messages: 'x' not found",
    ));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.response().json_body(),
        Some(&json!({"detail": "unknown_parent: refs.messages: 'x' not found"}))
    );
    assert_eq!(
        Refusal::from(&crate::Rejection::new(crate::ErrorCode::AccessDenied, "no")).status,
        403
    );
    assert_eq!(
        Refusal::from(&crate::Rejection::new(
            crate::ErrorCode::InvalidRequest,
            "no"
        ))
        .status,
        422
    );
}

#[test]
fn a_space_needs_a_name_and_a_description_its_own_or_the_callers() {
    let space =
        spaces::body(&json!({"name": "ops", "description": "watching", "tags": ["a"]}).to_string())
            .unwrap();
    assert_eq!(space.tags, ["a"]);
    let bare = spaces::body(&json!({"name": "ops"}).to_string()).unwrap();
    assert_eq!(bare.description, "");
    let mut world = crate::bindings::tests::world::World::new();
    let mut node = |name: &str, description: Option<&str>| {
        let mut body = json!({"name": name});
        if let Some(d) = description {
            body["description"] = json!(d);
        }
        let register = nodes::register_body(&body.to_string(), None).unwrap();
        match nodes::join(&mut world.host, &mut world.network, register, None) {
            Ok(joined) => joined.unwrap().0,
            Err(never) => match never {},
        }
    };
    let (planner, mute) = (node("planner", Some("plans trips")), node("mute", None));
    let mut create =
        |caller: &crate::Address, space: &spaces::SpaceCreate| match spaces::create_or_join(
            &mut world.host,
            &mut world.network,
            caller,
            space,
        ) {
            Ok(done) => done.map_err(|r| (r.status, r.detail)),
            Err(never) => match never {},
        };
    // The caller's own description stands in for a missing one (IOA's CreateSpace).
    assert_eq!(create(&planner, &bare), Ok(()));
    assert_eq!(
        create(&mute, &bare),
        Err((422, "Space description is required".to_owned()))
    );
    assert_eq!(create(&mute, &space), Ok(()));
    assert_eq!(
        spaces::description(&world.network, &planner, &bare).as_deref(),
        Some("plans trips")
    );
    assert_eq!(
        spaces::body(&json!({"description": "d"}).to_string())
            .unwrap_err()
            .detail,
        "Space name is required"
    );
}

#[test]
fn an_agentnet_error_response_keeps_its_code_in_the_detail() {
    let refused = crate::bindings::Response::error(crate::ErrorCode::AccessDenied, "wrong token");
    let r = Refusal::from_response(&refused);
    assert_eq!(
        (r.status, r.detail.as_str()),
        (403, "access_denied: wrong token")
    );
}

#[test]
fn registration_keeps_description_and_meta_as_the_profile() {
    let r = nodes::register_body(
        &json!({"name": "alice", "description": " planner ", "meta": {"team": "red"}}).to_string(),
        None,
    )
    .unwrap();
    assert_eq!(
        r.profile,
        Some(json!({"description": "planner", "meta": {"team": "red"}}))
    );
    let bare = nodes::register_body(&json!({"name": "bob", "meta": {}}).to_string(), None).unwrap();
    assert_eq!(bare.profile, Some(json!({"meta": {}})));
    let none = nodes::register_body(&json!({"name": "carol"}).to_string(), None).unwrap();
    assert_eq!(none.profile, None);
}
