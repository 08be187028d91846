//! Routing of every target kind and visibility.

use super::*;

#[test]
fn broadcast_reaches_every_other_online_member_and_is_logged() {
    let (mut network, mut alice) = bare_with("agent:alice");
    join(&mut network, "human:bob");
    join(&mut network, "openagents:carol");
    let gone = join(&mut network, "agent:gone");
    network.disconnect(&gone.address, Timestamp::from(5));
    let effects = alice.broadcast(
        &mut network,
        "workspace.message.posted",
        json!({"content": "hi"}),
    );
    assert_eq!(delivered_to(&effects), ["human:bob", "openagents:carol"]);
    assert!(matches!(&effects[0], Effect::Append { seq, .. } if *seq == network.last_seq()));
    assert_eq!(acked(&effects).payload["seq"], json!(network.last_seq()));
}

#[test]
fn each_recipient_of_a_fan_out_gets_its_own_delivery_chain_in_its_frame() {
    let mut network = bare();
    let [mut alice, mut bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    join(&mut network, "agent:carol");
    // Bob gets one more event first, so his `prev` differs from Carol's.
    bob.send(&mut network, "chat.msg", "agent:alice", json!({}));
    alice.send(&mut network, "chat.msg", "agent:bob", json!({}));
    let effects = alice.broadcast(&mut network, "chat.msg", json!({"n": 1}));
    let (frames, order) = frames_checked_against_framing_alone(&effects);
    assert_eq!(frames.len(), 2);
    assert_ne!(order.prev[0], order.prev[1]);
    for ((_, frame), prev) in frames.iter().zip(&order.prev) {
        let decoded: Value = serde_json::from_str(frame).unwrap();
        assert_eq!(
            decoded["metadata"]["delivery"],
            json!({"seq": order.seq, "prev": prev})
        );
    }
}

#[test]
fn a_senders_own_delivery_metadata_never_reaches_recipients() {
    for mode in [
        crate::model::config::DeliveryMode::AtLeastOnce,
        crate::model::config::DeliveryMode::AtMostOnce,
    ] {
        let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
        config.delivery = mode;
        let mut network = Network::new(config, [], 0, [6; 32]);
        let mut alice = join(&mut network, "agent:alice");
        join(&mut network, "agent:bob");
        let mut forged = alice.event("chat.msg", "agent:bob", json!({}));
        forged
            .metadata
            .insert("delivery".into(), json!({"seq": 999, "prev": 998}));
        let effects = network.handle_event(Some(&alice.address), forged, Timestamp::from(10));
        let (deliver, seen) = single_frame(&effects);
        let expected = match deliver {
            Effect::Deliver {
                order: Some(order), ..
            } => json!({"seq": order.seq, "prev": order.prev[0]}),
            _ => Value::Null,
        };
        assert_eq!(seen["metadata"]["delivery"], expected, "{mode:?}");
    }
}

/// The frames of the ordered delivery among `effects`, each checked to be
/// exactly what framing the event for that one recipient gives.
fn frames_checked_against_framing_alone(effects: &[Effect]) -> (Vec<(&Address, String)>, &Order) {
    let Some(
        deliver @ Effect::Deliver {
            event,
            order: Some(order),
            ..
        },
    ) = effects.iter().find(|e| matches!(e, Effect::Deliver { .. }))
    else {
        panic!("no ordered delivery")
    };
    let frames = deliver.frames();
    for ((to, frame), prev) in frames.iter().zip(&order.prev) {
        assert_eq!(
            *frame,
            delivery_frame(event, order.seq, *prev).encode(),
            "{to}"
        );
    }
    (frames, order)
}

#[test]
fn a_wide_fan_out_frames_each_recipient_exactly_as_framing_it_alone() {
    let (mut network, mut alice) = bare_with("agent:alice");
    let names = ["agent:bob", "agent:carol", "agent:dave", "agent:erin"];
    for name in names {
        join(&mut network, name);
    }
    // `prev`s of one, two and three digits: some members get more events first.
    for (n, count) in [(1, 9), (2, 120)] {
        for _ in 0..count {
            alice.send(&mut network, "chat.msg", names[n], json!({}));
        }
    }
    // Text in the payload and other metadata that looks like the delivery object.
    let mut event = alice.event(
        "chat.msg",
        "agent:broadcast",
        json!({"delivery": {"prev": 0, "seq": 1}, "text": "\"prev\":0,"}),
    );
    event
        .metadata
        .insert("aa".into(), json!({"delivery": {"prev": 0}}));
    event
        .metadata
        .insert("zz".into(), json!("\"delivery\":{\"prev\":0"));
    let effects = network.handle_event(Some(&alice.address.clone()), event, Timestamp::from(10));
    let (frames, order) = frames_checked_against_framing_alone(&effects);
    assert_eq!(frames.len(), names.len());
    let lengths: std::collections::BTreeSet<usize> =
        order.prev.iter().map(|p| p.to_string().len()).collect();
    assert_eq!(
        lengths.len(),
        3,
        "prevs of several lengths: {:?}",
        order.prev
    );
}

#[test]
fn direct_channel_and_group_targets() {
    let mut network = bare();
    let [mut alice, mut bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    join(&mut network, "agent:eve");
    let mut boss = join(&mut network, "agent:boss");

    assert_eq!(
        delivered_to(&alice.send(&mut network, "chat.msg", "agent:bob", json!({}))),
        ["agent:bob"]
    );

    alice.ask(
        &mut network,
        CHANNEL_CREATE,
        json!({"channel": "general", "members": ["agent:bob"]}),
    );
    // Listed members are invited: each joins when it wants.
    bob.ask(&mut network, CHANNEL_JOIN, json!({"channel": "general"}));
    assert_eq!(
        delivered_to(&alice.send(&mut network, "chat.msg", "channel/general", json!({}))),
        ["agent:bob"]
    );

    boss.ask(
        &mut network,
        GROUP_UPDATE,
        json!({"group": "team", "members": ["agent:alice", "agent:eve"]}),
    );
    assert_eq!(
        delivered_to(&boss.send(&mut network, "chat.msg", "group/team", json!({}))),
        ["agent:alice", "agent:eve"]
    );
}

/// `peer` sends an empty `chat.message` to `target`.
fn message_to(peer: &mut Peer, network: &mut Network, target: &str) -> Vec<Effect> {
    peer.send(network, "chat.message", target, json!({}))
}

#[test]
fn unknown_and_cross_network_targets_are_errors() {
    let (mut network, mut alice) = bare_with("agent:alice");
    for (target, code) in [
        ("agent:ghost", ErrorCode::UnknownTarget),
        ("channel/none", ErrorCode::UnknownTarget),
        ("group/none", ErrorCode::UnknownTarget),
        ("mod/none", ErrorCode::UnknownTarget),
        ("other::agent:bob", ErrorCode::CrossNetwork),
        ("core", ErrorCode::InvalidRequest),
    ] {
        let effects = alice.send(&mut network, "chat.msg", target, json!({}));
        assert_eq!(error_code(&effects), code, "{target}");
    }
    assert_eq!(network.last_seq(), 1, "only the join was logged");
}

#[test]
fn visibility_filters_deliveries() {
    let (mut network, mut alice) = bare_with("agent:alice");
    join(&mut network, "agent:bob");
    let mut mod_only = alice.event("chat.msg", "agent:broadcast", json!({}));
    mod_only
        .metadata
        .insert("visibility".into(), json!("mod_only"));
    let effects = network.handle_event(Some(&alice.address.clone()), mod_only, Timestamp::from(10));
    assert!(delivered_to(&effects).is_empty());
    assert!(matches!(effects[0], Effect::Append { .. }));

    let mut wrong = alice.event("chat.msg", "agent:broadcast", json!({}));
    wrong.metadata.insert("visibility".into(), json!("channel"));
    assert_eq!(
        error_code(&network.handle_event(Some(&alice.address.clone()), wrong, Timestamp::from(10))),
        ErrorCode::MalformedEvent
    );

    let mut bad = alice.event("chat.msg", "agent:bob", json!({}));
    bad.metadata
        .insert("refs".into(), json!({"messages": ["nope"]}));
    assert_eq!(
        error_code(&network.handle_event(Some(&alice.address.clone()), bad, Timestamp::from(10))),
        ErrorCode::MalformedEvent
    );
}

#[test]
fn ioa_refs_travel_with_the_event() {
    let (mut network, mut alice) = bare_with("agent:alice");
    join(&mut network, "agent:bob");
    let first = alice.event("chat.msg", "agent:bob", json!({}));
    // The parent must be logged: refs name messages that exist.
    network.handle_event(
        Some(&alice.address.clone()),
        first.clone(),
        Timestamp::from(10),
    );
    let mut reply = alice.event("chat.msg", "agent:bob", json!({}));
    reply.metadata.insert(
        "refs".into(),
        json!({"messages": [first.id], "nodes": ["agent:bob"]}),
    );
    let effects = network.handle_event(Some(&alice.address.clone()), reply, Timestamp::from(10));
    let Some(Effect::Deliver { event, .. }) =
        effects.iter().find(|e| matches!(e, Effect::Deliver { .. }))
    else {
        panic!("{effects:?}")
    };
    let refs = crate::event::metadata::ProtocolMetadata::read(&event.metadata)
        .unwrap()
        .refs;
    assert_eq!(refs.messages, vec![first.id]);
}

fn bridged_network() -> Network {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config
        .bridges
        .insert("partner".parse().unwrap(), addr("agent:bridge"));
    config.validate().unwrap();
    Network::new(config, [], 0, [9; 32])
}

#[test]
fn cross_network_events_go_to_the_configured_bridge_and_are_logged_for_it() {
    let mut network = bridged_network();
    let mut alice = join(&mut network, "agent:alice");
    // Before the bridge joins, there is nobody to carry the event.
    let early = message_to(&mut alice, &mut network, "partner::agent:dave");
    assert_eq!(error_code(&early), ErrorCode::CrossNetwork);

    let mut bridge = join(&mut network, "agent:bridge");
    join(&mut network, "agent:bob");
    let effects = alice.send(
        &mut network,
        "chat.message",
        "partner::agent:dave",
        json!({"text": "hi"}),
    );
    assert_eq!(delivered_to(&effects), vec!["agent:bridge"]);
    let delivered = first_delivered(&effects);
    assert_eq!(delivered.target.to_string(), "partner::agent:dave");
    assert_eq!(delivered.source, addr("agent:alice"));
    let audiences = effects
        .iter()
        .find_map(|e| match e {
            Effect::Append { audiences, .. } => Some(audiences.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(audiences, vec!["member:agent:bridge".to_owned()]);
    assert!(crate::network::delivery::routing::logged_visible_to(
        &network.state,
        delivered,
        &addr("agent:bridge")
    ));
    assert!(!crate::network::delivery::routing::logged_visible_to(
        &network.state,
        delivered,
        &addr("agent:bob")
    ));

    // A bridge's own cross-network sends would loop: refused.
    let looped = message_to(&mut bridge, &mut network, "partner::agent:dave");
    assert_eq!(error_code(&looped), ErrorCode::CrossNetwork);
    // Networks without a bridge for the target still refuse.
    let elsewhere = message_to(&mut alice, &mut network, "nowhere::agent:dave");
    assert_eq!(error_code(&elsewhere), ErrorCode::CrossNetwork);
}

#[test]
fn a_bridge_must_be_a_local_participant_for_another_network() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config
        .bridges
        .insert("demo".parse().unwrap(), addr("agent:bridge"));
    assert!(config.validate().is_err());
    config.bridges.clear();
    config
        .bridges
        .insert("partner".parse().unwrap(), addr("channel/general"));
    assert!(config.validate().is_err());
}

/// `peer` asks to set the bridge to `network` (`null` clears it).
fn set_bridge(peer: &mut Peer, network: &mut Network, to: &str, bridge: Value) -> Vec<Effect> {
    peer.ask(
        network,
        BRIDGE_UPDATE,
        json!({"network": to, "bridge": bridge}),
    )
}

#[test]
fn masters_set_and_clear_bridges_at_run_time() {
    let mut network = bare();
    let [mut boss, mut alice] = join_all(&mut network, ["agent:boss", "agent:alice"]);
    join(&mut network, "agent:bridge");
    let refused = set_bridge(&mut alice, &mut network, "partner", json!("agent:alice"));
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);

    let set = set_bridge(&mut boss, &mut network, "partner", json!("agent:bridge"));
    assert!(set.contains(&Effect::Store(Row::Bridge {
        network: "partner".parse().unwrap(),
        bridge: Some(addr("agent:bridge")),
    })));
    let routed = message_to(&mut alice, &mut network, "partner::agent:dave");
    assert_eq!(delivered_to(&routed), vec!["agent:bridge"]);

    let own = set_bridge(&mut boss, &mut network, "demo", json!("agent:bridge"));
    assert_eq!(error_code(&own), ErrorCode::InvalidRequest);
    set_bridge(&mut boss, &mut network, "partner", json!(null));
    let unrouted = message_to(&mut alice, &mut network, "partner::agent:dave");
    assert_eq!(error_code(&unrouted), ErrorCode::CrossNetwork);
}
