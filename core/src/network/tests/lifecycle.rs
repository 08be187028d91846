//! Joins, leaves, channels, groups, resources, discovery, history, status.

use super::*;
use crate::ids::time::Timestamp;
use crate::model::config::NetworkStatus;

#[test]
fn join_binds_stores_and_acks_with_member_record() {
    let mut network = bare();
    let mut alice = Peer::new("agent:alice");
    let join = alice.event("network.agent.join", "core", json!({}));
    let effects = network.handle_event(None, join.clone(), Timestamp::from(1));
    assert!(matches!(&effects[0], Effect::Append { seq: 1, event, .. } if event.id == join.id));
    assert!(effects.contains(&Effect::Bind(addr("agent:alice"))));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Store(Row::Member(m)) if m.is_online()))
    );
    let ack = acked(&effects);
    assert_eq!(ack.in_reply_to(), Some(join.id));
    assert_eq!(ack.payload["member"]["role"], "member");
    assert_eq!(ack.payload["network"], "demo");
}

#[test]
fn masters_come_from_the_configuration() {
    let mut network = bare();
    join(&mut network, "agent:boss");
    assert_eq!(
        network.member(&addr("agent:boss")).unwrap().role,
        Role::Master
    );
}

#[test]
fn only_participants_join_and_a_connection_keeps_its_identity() {
    let mut network = bare();
    let mut channel = Peer::new("channel/general");
    let join = channel.event("network.agent.join", "core", json!({}));
    assert_eq!(
        error_code(&network.handle_event(None, join, Timestamp::from(1))),
        ErrorCode::InvalidAddress
    );
    let mut bob = Peer::new("agent:bob");
    let join = bob.event("network.agent.join", "core", json!({}));
    assert_eq!(
        error_code(&network.handle_event(Some(&addr("agent:alice")), join, Timestamp::from(1))),
        ErrorCode::SourceMismatch
    );
}

#[test]
fn leave_and_disconnect_go_offline() {
    let (mut network, mut alice) = bare_with("agent:alice");
    let effects = alice.ask(&mut network, "network.agent.leave", json!({}));
    // The leaving connection is unbound first; then every other connection
    // of the member is closed (its sockets, its streams).
    let unbind = effects.iter().position(|e| e == &Effect::Unbind);
    let close = effects
        .iter()
        .position(|e| e == &Effect::EndCredentials(alice.address.clone()));
    assert!(
        matches!((unbind, close), (Some(u), Some(c)) if u < c),
        "{effects:?}"
    );
    assert!(!network.member(&alice.address).unwrap().is_online());
    let bob = join(&mut network, "agent:bob");
    assert!(
        matches!(&network.disconnect(&bob.address, Timestamp::from(9))[0], Effect::Store(Row::Member(m)) if !m.is_online())
    );
    assert!(
        network
            .disconnect(&bob.address, Timestamp::from(9))
            .is_empty(),
        "already offline"
    );
    assert!(
        !network
            .heartbeat(&bob.address, Timestamp::from(10))
            .is_empty()
    );
    assert!(network.member(&bob.address).unwrap().is_online());
}

#[test]
fn channel_lifecycle() {
    let mut network = bare();
    let [mut alice, mut bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    let created = alice.ask(&mut network, CHANNEL_CREATE, json!({"channel": "general"}));
    assert_eq!(acked(&created).payload["channel"], "channel/general");
    assert_eq!(
        error_code(&alice.send(
            &mut network,
            "network.channel.create",
            "core",
            json!({"channel": "general"})
        )),
        ErrorCode::AlreadyExists
    );
    assert!(
        delivered_to(&alice.send(&mut network, "chat.msg", "channel/general", json!({})))
            .is_empty()
    );
    bob.ask(&mut network, CHANNEL_JOIN, json!({"channel": "general"}));
    assert_eq!(
        delivered_to(&alice.send(&mut network, "chat.msg", "channel/general", json!({}))),
        ["agent:bob"]
    );
    bob.ask(&mut network, CHANNEL_LEAVE, json!({"channel": "general"}));
    assert!(
        delivered_to(&alice.send(&mut network, "chat.msg", "channel/general", json!({})))
            .is_empty()
    );
    let deleted = alice.ask(&mut network, CHANNEL_DELETE, json!({"channel": "general"}));
    assert!(deleted.contains(&Effect::Remove {
        kind: RowKind::Channel,
        key: "general".into()
    }));
    assert_eq!(
        error_code(&alice.send(&mut network, "chat.msg", "channel/general", json!({}))),
        ErrorCode::UnknownTarget
    );
    assert_eq!(
        error_code(&alice.ask(&mut network, CHANNEL_JOIN, json!({}))),
        ErrorCode::InvalidRequest
    );
}

#[test]
fn only_masters_manage_groups() {
    let (mut network, mut alice) = bare_with("agent:alice");
    let effects = alice.ask(
        &mut network,
        GROUP_UPDATE,
        json!({"group": "g", "members": []}),
    );
    assert_eq!(error_code(&effects), ErrorCode::Forbidden);
}

fn with_tool(network: &mut Network) -> (Peer, Peer) {
    let mut owner = join(network, "agent:calc");
    let alice = join(network, "agent:alice");
    let effects = owner.register(
        network,
        json!({
            "address": "resource/tool/add", "description": "adds numbers",
            "schema": {"input": {"a": "number", "b": "number"}}
        }),
    );
    assert_eq!(acked(&effects).payload["address"], "resource/tool/add");
    (owner, alice)
}

#[test]
fn tool_invocation_round_trip() {
    let mut network = bare();
    let (mut owner, mut alice) = with_tool(&mut network);
    let invoke = alice.event(
        "network.resource.invoke",
        "resource/tool/add",
        json!({"a": 1, "b": 2}),
    );
    let effects = network.handle_event(
        Some(&alice.address.clone()),
        invoke.clone(),
        Timestamp::from(10),
    );
    assert_eq!(delivered_to(&effects), ["agent:calc"]);
    let mut result = owner.event(
        "network.resource.invoke.result",
        "agent:alice",
        json!({"sum": 3}),
    );
    result
        .metadata
        .insert("in_reply_to".into(), json!(invoke.id));
    let effects = network.handle_event(Some(&owner.address.clone()), result, Timestamp::from(11));
    assert_eq!(delivered_to(&effects), ["agent:alice"]);
    let missing_link = owner.event("network.resource.invoke.result", "agent:alice", json!({}));
    assert_eq!(
        error_code(&network.handle_event(
            Some(&owner.address.clone()),
            missing_link,
            Timestamp::from(12)
        )),
        ErrorCode::InvalidRequest
    );
}

#[test]
fn invoking_a_tool_whose_owner_is_offline_fails() {
    let mut network = bare();
    let (owner, mut alice) = with_tool(&mut network);
    network.disconnect(&owner.address, Timestamp::from(5));
    let effects = alice.send(
        &mut network,
        RESOURCE_INVOKE,
        "resource/tool/add",
        json!({}),
    );
    assert_eq!(error_code(&effects), ErrorCode::OwnerOffline);
    assert_eq!(
        error_code(&alice.send(
            &mut network,
            "network.resource.invoke",
            "resource/tool/none",
            json!({})
        )),
        ErrorCode::UnknownTarget
    );
}

#[test]
fn resource_discovery_lists_your_permissions() {
    let mut network = bare();
    let (mut owner, mut alice) = with_tool(&mut network);
    owner.register(&mut network, json!({
        "address": "resource/context/brief", "content": "be kind", "permissions": {"read": "owner"}
    }));
    let effects = alice.ask(&mut network, "network.resource.discover", json!({}));
    let list =
        &reply_of_type(&effects, core_types::RESOURCE_DISCOVER_RESPONSE).payload["resources"];
    assert_eq!(
        list.as_array().unwrap().len(),
        1,
        "the owner-only context stays hidden: {list}"
    );
    assert_eq!(list[0]["address"], "resource/tool/add");
    assert_eq!(list[0]["your_permissions"], json!(["read", "invoke"]));
    let effects = owner.ask(
        &mut network,
        "network.resource.discover",
        json!({"type": "context"}),
    );
    let list =
        &reply_of_type(&effects, core_types::RESOURCE_DISCOVER_RESPONSE).payload["resources"];
    assert_eq!(
        list[0]["your_permissions"],
        json!(["read", "write", "invoke", "admin"])
    );
}

/// `peer` registers `address`, giving nothing else.
fn register_only(peer: &mut Peer, network: &mut Network, address: &str) -> Vec<Effect> {
    peer.register(network, json!({ "address": address }))
}

/// The content of the readme as `reader` reads it.
fn readme_as(reader: &mut Peer, network: &mut Network) -> Value {
    let read = reader.send(
        network,
        RESOURCE_READ,
        "resource/file/docs/readme.md",
        json!({}),
    );
    reply_of_type(&read, core_types::RESOURCE_READ_RESPONSE).payload["content"].clone()
}

#[test]
fn files_are_read_and_updated() {
    let mut network = network_with(vec![ModConfig::AccessControl]);
    let [mut owner, mut alice] = join_all(&mut network, ["agent:writer", "agent:alice"]);
    owner.register(&mut network, json!({
        "address": "resource/file/docs/readme.md", "content_type": "text/markdown", "content": "v1"
    }));
    assert_eq!(readme_as(&mut alice, &mut network), "v1");
    assert_eq!(
        error_code(&alice.send(
            &mut network,
            "network.resource.update",
            "resource/file/docs/readme.md",
            json!({"content": "mine"})
        )),
        ErrorCode::Forbidden
    );
    owner.send(
        &mut network,
        RESOURCE_UPDATE,
        "resource/file/docs/readme.md",
        json!({"content": "v2"}),
    );
    assert_eq!(readme_as(&mut alice, &mut network), "v2");
    let stolen = register_only(&mut alice, &mut network, "resource/file/docs/readme.md");
    assert_eq!(
        error_code(&stolen),
        ErrorCode::AlreadyExists,
        "another member's name is taken, not a missing permission"
    );
    let mut bare = bare();
    let (_, mut mallory) = with_tool(&mut bare);
    let stolen = register_only(&mut mallory, &mut bare, "resource/tool/add");
    assert_eq!(
        error_code(&stolen),
        ErrorCode::AlreadyExists,
        "without the mod the core still protects ownership"
    );
    let refusal = stolen.iter().find_map(|e| match e {
        Effect::Reply(reply) => reply.payload["message"].as_str().map(str::to_owned),
        _ => None,
    });
    assert_eq!(
        refusal.as_deref(),
        Some("resource/tool/add is offered by agent:calc: register it under another name"),
        "the refusal names who offers the tool"
    );
    let gone = owner.ask(
        &mut network,
        "network.resource.unregister",
        json!({"address": "resource/file/docs/readme.md"}),
    );
    assert!(gone.iter().any(|e| matches!(
        e,
        Effect::Remove {
            kind: RowKind::Resource,
            ..
        }
    )));
}

#[test]
fn roster_and_profile_have_the_seed_shapes() {
    let mut network = network_with(vec![
        ModConfig::Workspace(Default::default()),
        ModConfig::Persistence,
    ]);
    let mut alice = join(&mut network, "agent:alice");
    join(&mut network, "agent:boss");
    alice.ask(&mut network, CHANNEL_CREATE, json!({"channel": "general"}));
    let effects = alice.ask(&mut network, "network.agent.discover", json!({}));
    let roster = &reply_of_type(&effects, core_types::AGENT_DISCOVER_RESPONSE).payload;
    assert_eq!(
        roster["agents"][1],
        json!({"address": "agent:boss", "role": "master", "status": "online", "verification": 0})
    );
    assert_eq!(roster["channels"], json!(["channel/general"]));
    assert_eq!(roster["mods"], json!(["mod/workspace", "mod/persistence"]));
    let profile = crate::model::payloads::json_of(&network.network_profile(vec![
        crate::model::payloads::Transport {
            endpoint: "ws://x/networks/demo/v1/ws".into(),
            kind: "websocket".into(),
        },
    ]));
    assert_eq!(profile["id"], "demo");
    assert_eq!(
        profile["access"],
        json!({"policy": "open", "min_verification": 0})
    );
    assert_eq!(profile["agents_online"], 2);
    assert_eq!(profile["transports"][0]["type"], "websocket");
    assert!(
        profile["capabilities"]
            .as_array()
            .unwrap()
            .contains(&json!("workspace.message"))
    );
}

#[test]
fn paused_and_archived_networks_are_read_only() {
    let (mut network, mut alice) = bare_with("agent:alice");
    network.config.status = NetworkStatus::Paused;
    assert_eq!(
        error_code(&alice.broadcast(&mut network, "chat.msg", json!({}))),
        ErrorCode::NetworkUnavailable
    );
    reply_of_type(
        &alice.ask(&mut network, "network.agent.discover", json!({})),
        core_types::AGENT_DISCOVER_RESPONSE,
    );
    join(&mut network, "agent:late");
    network.config.status = NetworkStatus::Archived;
    assert_eq!(
        error_code(&try_join(&mut network, "agent:bob", json!({}))),
        ErrorCode::NetworkUnavailable
    );
}

#[test]
fn history_needs_persistence_and_respects_visibility() {
    let mut without = bare();
    let mut alice = join(&mut without, "agent:alice");
    assert_eq!(
        error_code(&alice.ask(&mut without, EVENTS_QUERY, json!({}))),
        ErrorCode::NotSupported
    );

    let mut network = network_with(vec![ModConfig::Persistence]);
    let [mut alice, mut bob, eve] =
        join_all(&mut network, ["agent:alice", "agent:bob", "agent:eve"]);
    let mut log = Vec::new();
    for (kind, target) in [
        ("chat.msg", "agent:broadcast"),
        ("chat.secret", "agent:bob"),
        ("chat.msg", "agent:broadcast"),
    ] {
        for effect in alice.send(&mut network, kind, target, json!({})) {
            if let Effect::Append {
                seq, event, retain, ..
            } = effect
            {
                assert!(retain);
                log.push((seq, (*event).clone()));
            }
        }
    }
    let query = |network: &mut Network, peer: &mut Peer, payload: Value| {
        let effects = peer.send(network, "network.events.query", "core", payload);
        let [Effect::Read(request)] = &effects[..] else {
            panic!("{effects:?}")
        };
        let request = request.clone();
        let answer = network.answer_read(&request, log.clone(), true, Timestamp::from(20));
        let [Effect::Deliver { event, .. }] = &answer[..] else {
            panic!("{answer:?}")
        };
        event.payload.clone()
    };
    let for_bob = query(&mut network, &mut bob, json!({"types": "chat.*"}));
    assert_eq!(for_bob["events"].as_array().unwrap().len(), 3);
    let mut eve = eve;
    let for_eve = query(&mut network, &mut eve, json!({"types": "chat.*"}));
    assert_eq!(
        for_eve["events"].as_array().unwrap().len(),
        2,
        "the direct message stays private"
    );
    let page = query(
        &mut network,
        &mut bob,
        json!({"types": "chat.*", "limit": 1}),
    );
    assert_eq!(page["events"].as_array().unwrap().len(), 1);
    assert_eq!(page["has_more"], true);
    let next = query(
        &mut network,
        &mut bob,
        json!({"types": "chat.*", "after": page["next_after"], "limit": 5}),
    );
    assert_eq!(next["events"].as_array().unwrap().len(), 2);
    assert_eq!(next["has_more"], false);
    assert_eq!(
        error_code(&bob.send(
            &mut network,
            "network.events.query",
            "core",
            json!({"types": "Bad"})
        )),
        ErrorCode::InvalidEventType
    );
}

#[test]
fn restored_network_continues_where_it_stopped() {
    let rows = vec![
        Row::Member(member_row("agent:bob", Role::Member)),
        Row::Channel(Channel {
            name: "general".parse().unwrap(),
            members: [addr("agent:bob")].into(),
            created_by: addr("agent:bob"),
            private: false,
            invited: Default::default(),
            tags: Vec::new(),
            title: None,
        }),
    ];
    let mut network = Network::new(
        NetworkConfig::open("demo".parse().unwrap(), "Demo"),
        rows,
        41,
        [0; 32],
    );
    let mut alice = join(&mut network, "agent:alice");
    let effects = alice.send(&mut network, "chat.msg", "channel/general", json!({}));
    assert!(
        matches!(&effects[0], Effect::Append { seq: 43, .. }),
        "join took 42: {effects:?}"
    );
    assert_eq!(delivered_to(&effects), ["agent:bob"]);
}

#[test]
fn malformed_frames_keep_the_network_working() {
    let (mut network, mut alice) = bare_with("agent:alice");
    let me = alice.address.clone();
    assert_eq!(
        error_code(&network.handle_frame(Some(&me), "{oops", Timestamp::from(5))),
        ErrorCode::MalformedEvent
    );
    assert_eq!(
        error_code(&network.handle_frame(Some(&me), "[]", Timestamp::from(5))),
        ErrorCode::MalformedEvent
    );
    let errors = network.handle_frame(Some(&me), "{oops", Timestamp::from(5));
    let Effect::Reply(error) = &errors[0] else {
        panic!()
    };
    assert!(error.payload.get("event_id").is_some());
    let mut wrong = alice.event("chat.msg", "agent:broadcast", json!({}));
    wrong.network = Some("elsewhere".parse().unwrap());
    assert_eq!(
        error_code(&network.handle_event(Some(&me), wrong, Timestamp::from(5))),
        ErrorCode::WrongNetwork
    );
    acked(&alice.broadcast(&mut network, "chat.msg", json!({})));
}

#[test]
fn silent_members_go_offline_when_the_alarm_fires() {
    let mut network = bare();
    let [alice, mut bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    let timeout = network.config.presence_timeout_ms;
    assert_eq!(network.next_wakeup(), Some(Timestamp::from(1 + timeout)));
    // Bob speaks later, so only alice is silent when the alarm fires.
    bob.ask(&mut network, "network.ping", json!({}));
    let effects = network.on_alarm(Timestamp::from(1 + timeout));
    assert!(effects.iter().any(|e| matches!(e, Effect::Store(Row::Member(m)) if m.address == alice.address && !m.is_online())));
    assert!(!network.member(&alice.address).unwrap().is_online());
    assert!(network.member(&bob.address).unwrap().is_online());
    let roster = network.state().roster(&[], &alice.address);
    assert_eq!(roster["agents"][0]["status"], "offline");
    // A frame from an offline member brings it back.
    let mut alice = alice;
    let effects = alice.ask(&mut network, "network.ping", json!({}));
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Store(Row::Member(m)) if m.is_online()))
    );
}

#[test]
fn the_admin_credential_admits_a_master_past_the_policy() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Private");
    config.access = crate::model::config::Access::token("member-token");
    config.access.admin_token_sha256 = Some(crate::crypto::sha256_hex(b"admin-secret"));
    config.mods = vec![ModConfig::Auth];
    let mut network = Network::new(config, [], 0, [2; 32]);
    join_with(
        &mut network,
        "human:owner",
        json!({"credentials": {"admin_token": "admin-secret"}}),
    );
    assert_eq!(
        network.member(&addr("human:owner")).unwrap().role,
        Role::Master
    );
    let refused = try_join(
        &mut network,
        "agent:eve",
        json!({"credentials": {"admin_token": "guess"}}),
    );
    assert_eq!(error_code(&refused), ErrorCode::AccessDenied);
}

#[test]
fn an_http_poller_reads_its_page_and_acknowledges_by_polling() {
    let mut network = bare();
    let [mut alice, poller] = join_all(&mut network, ["agent:alice", "agent:poller"]);
    alice.broadcast(&mut network, "chat.msg", json!({"n": 1}));
    alice.send(&mut network, "chat.secret", "agent:alice", json!({}));
    alice.send(&mut network, "chat.msg", "agent:poller", json!({"n": 2}));
    let effects = network
        .read_page(&poller.address, 2, 50, Timestamp::from(20))
        .unwrap();
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Store(Row::Cursor { seq: 2, .. })))
    );
    let Some(Effect::Read(request)) = effects.last() else {
        panic!("a poll reads the log: {effects:?}")
    };
    let request = request.clone();
    assert_eq!(request.after, 2);
    let log: Vec<(u64, Event)> = (1..=5)
        .map(|seq| {
            (
                seq,
                alice.event("chat.msg", "agent:broadcast", json!({"seq": seq})),
            )
        })
        .collect();
    // Rows the host read: the poller sees public events after its cursor, not alice's self-addressed ones.
    let mut rows = log.clone();
    rows.push((6, alice.event("chat.secret", "agent:alice", json!({}))));
    let [Effect::Page(page)] = &network.answer_read(&request, rows, true, Timestamp::from(20))[..]
    else {
        panic!("a poll is answered with one page")
    };
    assert_eq!(
        page.events.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
        vec![3, 4, 5]
    );
    assert_eq!(page.next_after, 6, "the cursor passes rows it may not see");
    assert!(!page.has_more);
    assert_eq!(
        network
            .read_page(&addr("agent:stranger"), 0, 10, Timestamp::from(20))
            .unwrap_err()
            .code,
        ErrorCode::NotJoined
    );
}

#[test]
fn at_most_once_keeps_nothing_for_offline_members() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Fast");
    config.delivery = crate::model::config::DeliveryMode::AtMostOnce;
    let mut network = Network::new(config, [], 0, [6; 32]);
    let [mut alice, bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    let live = alice.send(&mut network, "chat.msg", "agent:bob", json!({}));
    assert_eq!(delivered_to(&live), ["agent:bob"]);
    assert!(
        !live.iter().any(|e| matches!(e, Effect::Append { .. })),
        "nothing is logged without persistence"
    );
    assert!(
        live.iter()
            .all(|e| !matches!(e, Effect::Deliver { order: Some(_), .. })),
        "no delivery chain to acknowledge"
    );
    assert!(!network.awaiting_acks());
    network.disconnect(&bob.address, Timestamp::from(5));
    let missed = alice.send(&mut network, "chat.msg", "agent:bob", json!({}));
    assert!(delivered_to(&missed).is_empty());
    acked(&missed);
    // Rejoining brings no catch-up.
    let effects = try_join_at(&mut network, "agent:bob", json!({}), 6);
    assert!(!effects.iter().any(|e| matches!(e, Effect::Read(_))));
}

/// An index that counts its lookups and knows one logged id.
struct CountingIndex {
    lookups: std::rc::Rc<std::cell::Cell<usize>>,
    logged: crate::ids::ulid::EventId,
}

impl delivery::EventIndex for CountingIndex {
    fn seq_of(&self, id: &crate::ids::ulid::EventId) -> Option<u64> {
        self.lookups.set(self.lookups.get() + 1);
        (*id == self.logged).then_some(7)
    }

    fn newest_timestamp(&self) -> Option<u64> {
        Some(self.logged.timestamp_ms())
    }
}

#[test]
fn the_log_index_is_asked_only_about_ids_that_may_have_left_the_window() {
    let (mut network, mut alice) = bare_with("agent:alice");
    join(&mut network, "agent:bob");
    // The log (before a restart, say) holds one event from time 5.
    let mut old = alice.event("chat.message", "agent:bob", json!({}));
    old.id = crate::ids::ulid::EventId::from_parts(5, 1);
    let lookups = std::rc::Rc::new(std::cell::Cell::new(0));
    network.set_event_index(Box::new(CountingIndex {
        lookups: lookups.clone(),
        logged: old.id,
    }));

    // New events (timestamp 10, after everything logged) never cost a lookup.
    for _ in 0..3 {
        let effects = alice.send(&mut network, "chat.message", "agent:bob", json!({}));
        assert_eq!(delivered_to(&effects), vec!["agent:bob"]);
    }
    assert_eq!(lookups.get(), 0);

    // A resubmission of the logged event is recognised through the index.
    let effects = network.handle_event(Some(&alice.address.clone()), old, Timestamp::from(10));
    assert_eq!(acked(&effects).payload["duplicate"], json!(true));
    assert_eq!(acked(&effects).payload["seq"], json!(7));
    assert_eq!(lookups.get(), 1);
}

#[test]
fn an_undecodable_event_is_refused_by_id_when_its_id_can_be_read() {
    let (mut network, alice) = bare_with("agent:alice");
    let mut big = Peer::new("agent:alice").event(
        "chat.message",
        "agent:broadcast",
        json!({"text": "x".repeat(600 * 1024)}),
    );
    big.id = crate::ids::ulid::EventId::from_parts(10, 42);
    let effects = network.handle_frame(Some(&alice.address), &big.encode(), Timestamp::from(10));
    let [Effect::Reply(error)] = &effects[..] else {
        panic!("expected one error reply, got {effects:?}");
    };
    assert_eq!(error.payload["code"], json!("too_large"));
    assert_eq!(error.in_reply_to(), Some(big.id));
    // Garbage has no id to name: the error still comes, without in_reply_to.
    let effects = network.handle_frame(Some(&alice.address), "{not json", Timestamp::from(10));
    let [Effect::Reply(error)] = &effects[..] else {
        panic!("expected one error reply, got {effects:?}");
    };
    assert_eq!(error.in_reply_to(), None);
}

#[test]
fn a_cursor_past_the_end_of_the_log_is_read_as_the_end() {
    let mut network = bare();
    let [mut alice, poller] = join_all(&mut network, ["agent:alice", "agent:poller"]);
    alice.broadcast(&mut network, "chat.msg", json!({}));
    // A poll after u64::MAX would store a cursor no host can keep (SQLite integers are i64).
    let effects = network
        .read_page(&poller.address, u64::MAX, 10, Timestamp::from(20))
        .unwrap();
    let stored: Vec<u64> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Store(Row::Cursor { seq, .. }) => Some(*seq),
            _ => None,
        })
        .collect();
    assert!(
        stored.iter().all(|seq| *seq <= network.last_seq()),
        "{stored:?}"
    );
    assert_eq!(network.cursor(&poller.address), network.last_seq());
    let Some(Effect::Read(read)) = effects.last() else {
        panic!("{effects:?}")
    };
    assert_eq!(read.after, network.last_seq());
    // The same for a rejoin that resumes after u64::MAX.
    let mut again = Peer::new("agent:alice");
    let mut join = again.event("network.agent.join", "core", json!({}));
    join.payload["resume"] = json!({"after": u64::MAX});
    let end = network.last_seq();
    // On alice's own connection (a rejoin elsewhere needs its member secret).
    let effects = network.handle_event(Some(&alice.address), join, Timestamp::from(30));
    let reads: Vec<u64> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Read(r) => Some(r.after),
            _ => None,
        })
        .collect();
    assert_eq!(reads, [end]);
}
