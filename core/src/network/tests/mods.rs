//! Each standard mod and the pipeline order.

use super::*;
use crate::model::config::RateLimit;

#[test]
fn rate_limiter_refills_with_the_clock() {
    let mut network = network_with(vec![ModConfig::RateLimiter(RateLimit {
        burst: 2,
        per_second: 1.0,
    })]);
    let alice = join(&mut network, "agent:alice");
    let me = alice.address.clone();
    let mut alice = alice;
    let mut at = |network: &mut Network, now: u64| {
        let event = alice.client.event(
            "chat.msg".parse().unwrap(),
            Address::broadcast(),
            json!({}),
            Timestamp::from(now),
        );
        network.handle_event(Some(&me), event, Timestamp::from(now))
    };
    // The join consumed one token of the burst of two.
    acked(&at(&mut network, 1_000));
    assert_eq!(error_code(&at(&mut network, 1_000)), ErrorCode::RateLimited);
    // Half a second later half a token has come back on top of what was left.
    acked(&at(&mut network, 1_500));
    assert_eq!(error_code(&at(&mut network, 1_500)), ErrorCode::RateLimited);
}

#[test]
fn enrichment_adds_sender_and_receive_time() {
    let mut network = network_with(vec![ModConfig::Enrichment]);
    let mut alice = join(&mut network, "agent:alice");
    join(&mut network, "agent:bob");
    // A sender cannot claim its own role or receive time: the network's win.
    let mut spoofing = alice.forged_chat("agent:bob");
    spoofing.metadata.insert("topic".into(), json!("kept"));
    let effects = network.handle_event(Some(&alice.address), spoofing, Timestamp::from(10));
    let (_, seen) = single_frame(&effects);
    assert_eq!(
        seen["metadata"]["sender"],
        json!({"role": "member", "verification": 0})
    );
    assert_eq!(seen["metadata"]["received_at"], json!(10));
    assert_eq!(seen["metadata"]["topic"], json!("kept"));
    let Effect::Append { event: logged, .. } = &effects[0] else {
        panic!()
    };
    let logged: Value = serde_json::from_str(&logged.encode()).unwrap();
    assert_eq!(
        logged["metadata"]["received_at"],
        json!(10),
        "the log holds the transformed event"
    );
    assert_eq!(logged["metadata"]["sender"]["role"], json!("member"));
}

#[test]
fn workspace_sessions_become_channels_and_presence_is_announced() {
    let mut network = network_with(vec![ModConfig::Workspace(Default::default())]);
    let mut alice = join(&mut network, "agent:alice");
    let effects = try_join_at(&mut network, "agent:bob", json!({}), 2);
    for effect in &effects {
        if let Effect::Read(request) = effect {
            network.answer_read(request, Vec::new(), true, Timestamp::from(2));
        }
    }
    let presence: Vec<&Event> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Deliver { event, to, .. }
                if event.event_type.as_str() == "workspace.presence.changed"
                    && to.contains(&alice.address) =>
            {
                Some(&**event)
            }
            _ => None,
        })
        .collect();
    assert_eq!(presence.len(), 1);
    assert_eq!(
        presence[0].payload,
        json!({"address": "agent:bob", "status": "online"})
    );
    assert_eq!(presence[0].source, addr("mod/workspace"));

    let effects = alice.broadcast(
        &mut network,
        SESSION_CREATED,
        json!({"session": "1", "title": "Plan"}),
    );
    assert!(
        network
            .state
            .channels
            .contains_key(&"session-1".parse().unwrap())
    );
    let Some(Effect::Deliver { event, .. }) =
        effects.iter().find(|e| matches!(e, Effect::Deliver { .. }))
    else {
        panic!()
    };
    assert_eq!(event.payload["channel"], "channel/session-1");
    let posted = alice.send(
        &mut network,
        "workspace.message.posted",
        "channel/session-1",
        json!({"content": "hi"}),
    );
    acked(&posted);

    let offline = network.disconnect(&addr("agent:bob"), Timestamp::from(30));
    assert!(offline.iter().any(
        |e| matches!(e, Effect::Deliver { event, .. } if event.payload["status"] == "offline")
    ));
}

#[test]
fn analytics_counts_and_only_masters_read_them() {
    let mut network = network_with(vec![ModConfig::Analytics]);
    let [mut alice, mut boss] = join_all(&mut network, ["agent:alice", "agent:boss"]);
    alice.send(&mut network, "chat.msg", "agent:boss", json!({}));
    alice.send(&mut network, "chat.msg", "agent:boss", json!({}));
    assert_eq!(
        error_code(&alice.send(
            &mut network,
            "analytics.report.request",
            "mod/analytics",
            json!({})
        )),
        ErrorCode::Forbidden
    );
    let effects = boss.send(
        &mut network,
        "analytics.report.request",
        "mod/analytics",
        json!({}),
    );
    let Some(Effect::Deliver { event, to, .. }) =
        effects.iter().find(|e| matches!(e, Effect::Deliver { .. }))
    else {
        panic!("{effects:?}")
    };
    assert_eq!(to, &[addr("agent:boss")]);
    assert_eq!(event.payload["by_type"]["chat.msg"], 2);
    assert_eq!(
        event.payload["by_source"]["agent:alice"], 3,
        "join and two messages"
    );

    // Counts survive a restart through the stored mod state.
    let saved = effects
        .iter()
        .chain(std::iter::empty())
        .find_map(|_| network.state.mod_state.get("analytics").cloned())
        .unwrap();
    let mut restored = Network::new(
        network.config.clone(),
        [
            Row::ModState {
                name: "analytics".into(),
                state: saved,
            },
            Row::Member(network.member(&addr("agent:boss")).unwrap().clone()),
        ],
        0,
        [1; 32],
    );
    let effects = Peer::new("agent:boss").send(
        &mut restored,
        "analytics.report.request",
        "mod/analytics",
        json!({}),
    );
    let Some(Effect::Deliver { event, .. }) =
        effects.iter().find(|e| matches!(e, Effect::Deliver { .. }))
    else {
        panic!("{effects:?}")
    };
    assert!(event.payload["total"].as_u64().unwrap() >= 4);
}

#[test]
fn guards_run_before_transforms_and_a_rejection_stops_everything() {
    let mut network = network_with(vec![
        ModConfig::Enrichment,
        ModConfig::Analytics,
        ModConfig::RateLimiter(RateLimit {
            burst: 1,
            per_second: 0.0,
        }),
    ]);
    assert_eq!(
        network.mods(),
        [
            addr("mod/rate-limiter"),
            addr("mod/enrichment"),
            addr("mod/analytics")
        ]
    );
    let mut alice = join(&mut network, "agent:alice");
    let before = network.state.mod_state.get("analytics").cloned();
    assert_eq!(
        error_code(&alice.broadcast(&mut network, "chat.msg", json!({}))),
        ErrorCode::RateLimited
    );
    assert_eq!(
        network.state.mod_state.get("analytics").cloned(),
        before,
        "observers never saw the rejected event"
    );
}

#[test]
fn mod_names_map_to_configs() {
    for name in [
        "auth",
        "mod/access-control",
        "rate-limiter",
        "enrichment",
        "workspace",
        "persistence",
        "analytics",
    ] {
        assert!(ModConfig::from_name(name).is_some(), "{name}");
    }
    assert!(ModConfig::from_name("mod/unknown").is_none());
}

#[test]
fn joins_claiming_a_members_address_do_not_spend_its_rate_limit() {
    let mut network = network_with(vec![ModConfig::RateLimiter(RateLimit {
        burst: 3,
        per_second: 0.0,
    })]);
    let mut alice = join(&mut network, "agent:alice");
    // A stranger joins as alice again and again, from its own IP.
    let inbound = Inbound {
        peer: Some("198.51.100.7"),
        ..Inbound::default()
    };
    for _ in 0..10 {
        let mut impostor = Peer::new("agent:alice");
        let join = impostor.event("network.agent.join", "core", json!({}));
        let code = error_code(&network.handle_event_on(&inbound, join, Timestamp::from(5)));
        assert!(
            [ErrorCode::AddressInUse, ErrorCode::RateLimited].contains(&code),
            "{code}"
        );
    }
    // Alice still has the two events her join left her.
    for _ in 0..2 {
        acked(&alice.broadcast(&mut network, "chat.msg", json!({})));
    }
}
