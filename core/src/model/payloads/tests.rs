//! Tests of the answer payloads: each one's JSON is pinned to what the
//! handlers sent as untyped JSON before, its direct serialization writes the
//! keys in the same order as its `Value`, and it reads back as itself.

use super::*;
use crate::model::config::{AccessPolicy, DeliveryMode, NetworkStatus};
use serde_json::json;

fn a(text: &str) -> Address {
    text.parse().unwrap()
}

fn id(text: &str) -> EventId {
    text.parse().unwrap()
}

/// `value` serializes to `expected`, its text is the text of `expected`, and it reads back as itself.
fn pinned<T>(value: &T, expected: Value)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    assert_eq!(json_of(value), expected);
    assert_eq!(
        serde_json::to_string(value).unwrap(),
        expected.to_string(),
        "fields are declared in the order serde_json writes them"
    );
    assert_eq!(&serde_json::from_value::<T>(expected).unwrap(), value);
}

/// Like [`pinned`], for payloads holding a type whose fields are not sorted (a [`Member`]).
fn pinned_value<T>(value: &T, expected: Value)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    assert_eq!(json_of(value), expected);
    assert_eq!(&serde_json::from_value::<T>(expected).unwrap(), value);
}

fn roster() -> Roster {
    Roster {
        agents: vec![
            RosterMember {
                address: a("agent:alice"),
                role: Role::Member,
                status: Presence::Online,
                verification: Verification::ANONYMOUS,
                did: None,
                profile: Default::default(),
            },
            RosterMember {
                address: a("openagents:bob"),
                role: Role::Master,
                status: Presence::Offline,
                verification: Verification::KEY_PROOF,
                did: None,
                profile: Default::default(),
            },
        ],
        channels: vec![a("channel/general")],
        titles: Default::default(),
        groups: BTreeMap::from([("group/ops".to_owned(), vec![a("agent:alice")])]),
        mods: vec![a("mod/workspace")],
        resources: vec![RosterResource {
            address: a("resource/tool/calc"),
            owner: a("agent:alice"),
            kind: ResourceKind::Tool,
        }],
    }
}

#[test]
fn the_roster_is_the_seed_000_shape() {
    pinned(
        &roster(),
        json!({
            "agents": [
                {"address": "agent:alice", "role": "member", "status": "online", "verification": 0},
                {"address": "openagents:bob", "role": "master", "status": "offline", "verification": 1}
            ],
            "channels": ["channel/general"],
            "groups": {"group/ops": ["agent:alice"]},
            "mods": ["mod/workspace"],
            "resources": [{"address": "resource/tool/calc", "owner": "agent:alice", "type": "tool"}]
        }),
    );
    assert_eq!(Roster::EVENT_TYPE, "network.agent.discover.response");
}

#[test]
fn unreadable_entries_are_left_out_and_missing_lists_are_empty() {
    let read: Roster = serde_json::from_value(json!({"agents": [
        {"address": "agent:a", "role": "member", "status": "online", "verification": 0},
        {"role": "member"},
        {"address": "agent:b", "role": "emperor", "status": "online", "verification": 0}
    ], "channels": ["channel/x", "not an address!"]}))
    .unwrap();
    assert_eq!(read.agents.len(), 1);
    assert_eq!(read.channels, [a("channel/x")]);
    assert!(read.groups.is_empty() && read.mods.is_empty() && read.resources.is_empty());
    // A list that is not a list still fails.
    assert!(serde_json::from_value::<Roster>(json!({"agents": 5})).is_err());
}

#[test]
fn a_resource_listing_carries_nulls_and_your_permissions() {
    let list = ResourceList {
        resources: vec![
            ResourceInfo {
                address: a("resource/file/notes.md"),
                content_type: Some("text/markdown".into()),
                description: "notes".into(),
                owner: a("agent:alice"),
                schema: None,
                kind: ResourceKind::File,
                your_permissions: vec![Permission::Read, Permission::Write],
            },
            ResourceInfo {
                address: a("resource/tool/calc"),
                content_type: None,
                description: String::new(),
                owner: a("agent:alice"),
                schema: Some(json!({"type": "object"})),
                kind: ResourceKind::Tool,
                your_permissions: vec![Permission::Read, Permission::Invoke],
            },
        ],
    };
    pinned(
        &list,
        json!({"resources": [
            {"address": "resource/file/notes.md", "type": "file", "owner": "agent:alice",
             "description": "notes", "schema": null, "content_type": "text/markdown",
             "your_permissions": ["read", "write"]},
            {"address": "resource/tool/calc", "type": "tool", "owner": "agent:alice",
             "description": "", "schema": {"type": "object"}, "content_type": null,
             "your_permissions": ["read", "invoke"]}
        ]}),
    );
    assert_eq!(
        ResourceList::EVENT_TYPE,
        "network.resource.discover.response"
    );
}

#[test]
fn a_resource_read_carries_its_content() {
    let read = ResourceContent {
        address: a("resource/context/brief"),
        content: Some(json!("ship it")),
        content_type: Some("text/markdown".into()),
        description: "the brief".into(),
        owner: a("agent:alice"),
        schema: None,
        kind: ResourceKind::Context,
    };
    pinned(
        &read,
        json!({"address": "resource/context/brief", "type": "context", "owner": "agent:alice",
               "description": "the brief", "content_type": "text/markdown", "schema": null,
               "content": "ship it"}),
    );
    assert_eq!(
        ResourceContent::EVENT_TYPE,
        "network.resource.read.response"
    );
}

#[test]
fn a_page_of_events_is_seq_and_event() {
    let event: Event = serde_json::from_value(json!({
        "id": "01HQV2WA00000000000000000A", "type": "chat.message", "source": "agent:alice",
        "target": "agent:broadcast", "payload": {"text": "hi"}, "metadata": {},
        "timestamp": 5, "network": "demo"
    }))
    .unwrap();
    let page = EventsPage {
        events: vec![LoggedEvent {
            event: event.clone(),
            seq: 3,
        }],
        has_more: false,
        next_after: 4,
    };
    assert_eq!(
        json_of(&page),
        json!({"events": [{"seq": 3, "event": event}], "next_after": 4, "has_more": false})
    );
    assert_eq!(
        serde_json::from_value::<EventsPage>(json_of(&page)).unwrap(),
        page
    );
    assert_eq!(EventsPage::EVENT_TYPE, "network.events.response");
}

#[test]
fn an_error_is_code_message_and_event_id() {
    let error = ErrorPayload {
        code: ErrorCode::Forbidden,
        event_id: Some(id("01HQV2WA00000000000000000B")),
        message: "no".into(),
    };
    pinned(
        &error,
        json!({"code": "forbidden", "message": "no", "event_id": "01HQV2WA00000000000000000B"}),
    );
    let anonymous = ErrorPayload {
        code: ErrorCode::MalformedEvent,
        event_id: None,
        message: "not JSON".into(),
    };
    pinned(
        &anonymous,
        json!({"code": "malformed_event", "message": "not JSON", "event_id": null}),
    );
    // A code from a newer network reads as malformed_event; a code that is no string does not read.
    let newer: ErrorPayload =
        serde_json::from_value(json!({"code": "quantum_flux", "message": "m"})).unwrap();
    assert_eq!(newer.code, ErrorCode::MalformedEvent);
    assert!(serde_json::from_value::<ErrorPayload>(json!({"code": 7})).is_err());
}

#[test]
fn an_ack_omits_what_it_does_not_say() {
    let plain = AckPayload {
        address: None,
        channel: None,
        code: None,
        duplicate: false,
        expires_at: None,
        id: id("01HQV2WA00000000000000000B"),
        member: None,
        network: None,
        resume_after: None,
        seq: Some(7),
    };
    pinned(
        &plain,
        json!({"id": "01HQV2WA00000000000000000B", "seq": 7}),
    );
    let join = AckPayload {
        duplicate: true,
        member: Some(Member {
            address: a("agent:alice"),
            role: Role::Member,
            verification: Verification::ANONYMOUS,
            status: Presence::Online,
            last_seen: Timestamp::from_millis(9),
            secret_sha256: None,
            did: None,
            profile: Default::default(),
        }),
        network: Some("demo".parse().unwrap()),
        resume_after: Some(0),
        ..plain.clone()
    };
    pinned_value(
        &join,
        json!({"duplicate": true, "id": "01HQV2WA00000000000000000B", "seq": 7,
               "member": {"address": "agent:alice", "role": "member", "verification": 0,
                          "status": "online", "last_seen": 9},
               "network": "demo", "resume_after": 0}),
    );
}

#[test]
fn a_challenge_and_a_pong() {
    pinned(
        &Challenge {
            address: a("openagents:bob"),
            expires_at: Timestamp::from_millis(60_000),
            network: "demo".parse().unwrap(),
            nonce: "ab12".into(),
        },
        json!({"nonce": "ab12", "expires_at": 60_000, "network": "demo", "address": "openagents:bob"}),
    );
    pinned(
        &Pong {
            time: Timestamp::from_millis(42),
        },
        json!({"time": 42}),
    );
    assert_eq!(Challenge::EVENT_TYPE, "network.agent.challenge.response");
    assert_eq!(Pong::EVENT_TYPE, "network.pong");
}

#[test]
fn the_profile_is_the_seed_000_shape() {
    let profile = NetworkProfile {
        access: ProfileAccess {
            min_verification: Verification::ANONYMOUS,
            policy: AccessPolicy::Open,
        },
        agents_online: 2,
        members: 5,
        capabilities: vec!["network.agent".into()],
        delivery: DeliveryMode::AtLeastOnce,
        description: "a demo".into(),
        id: "demo".parse().unwrap(),
        mods: vec![a("mod/workspace")],
        name: "Demo".into(),
        status: NetworkStatus::Active,
        transports: vec![Transport {
            endpoint: "ws://x/networks/demo/v1/ws".into(),
            kind: "websocket".into(),
        }],
    };
    pinned(
        &profile,
        json!({
            "id": "demo", "name": "Demo", "description": "a demo",
            "access": {"policy": "open", "min_verification": 0},
            "delivery": "at-least-once", "status": "active",
            "transports": [{"type": "websocket", "endpoint": "ws://x/networks/demo/v1/ws"}],
            "capabilities": ["network.agent"], "mods": ["mod/workspace"], "agents_online": 2,
            "members": 5
        }),
    );
}
