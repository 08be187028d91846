//! Sockets that reach a gateway before they join (`?member=` on the
//! upgrade): the join must be as a member placed on that gateway, within the
//! deadline and after few events; and members a network object holds on its
//! own sockets stay online when a gateway forgets them.

use super::{World, frame, member};
use crate::Timestamp;
use crate::bindings::transport::sockets::SocketId;
use crate::event::batch;
use crate::gateway::*;
use crate::ids::address::Address;
use serde_json::json;

const DEADLINE_MS: u64 = 20_000;

fn unbound(since: u64) -> Opening {
    Opening {
        peer: Some("203.0.113.9".into()),
        join_within_ms: DEADLINE_MS,
        since: Timestamp::from(since),
        ..Opening::default()
    }
}

/// The first of members `0..n` placed on gateway `at`, and the first placed elsewhere.
fn placed_on_and_off(world: &World, at: usize, n: usize) -> (usize, usize) {
    let here = (0..n).find(|i| world.gateway_of(&member(*i)) == at);
    let there = (0..n).find(|i| world.gateway_of(&member(*i)) != at);
    (here.unwrap(), there.unwrap())
}

fn error_codes(world: &World, socket: SocketId) -> Vec<String> {
    world
        .events(socket)
        .iter()
        .filter(|e| e.event_type.as_str() == "network.event.error")
        .map(|e| e.payload["code"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn a_join_as_a_member_placed_on_another_gateway_is_refused_and_binds_nothing() {
    let mut world = World::new(20, 4);
    let at = 0;
    let (here, there) = placed_on_and_off(&world, at, 20);
    let socket: SocketId = 900;
    world.gateways[at].opened(socket, unbound(2_000));
    let wrong = member(there);
    world.on_socket_frame(
        at,
        socket,
        &frame(&wrong, "network.agent.join", "core", json!({})),
    );
    assert_eq!(error_codes(&world, socket), vec!["invalid_request"]);
    assert!(!world.network.member(&wrong).unwrap().is_online());
    assert_eq!(world.gateways[at].opening(socket).unwrap().member, None);
    // The member placed here joins on the same socket and gets its deliveries.
    let right = member(here);
    world.on_socket_frame(
        at,
        socket,
        &frame(&right, "network.agent.join", "core", json!({})),
    );
    assert!(world.network.member(&right).unwrap().is_online());
    let bound = world.gateways[at].opening(socket).unwrap().member.clone();
    assert_eq!(bound.map(|(m, _)| m), Some(right.clone()));
    assert_eq!(
        world.gateways[at].next_deadline(),
        None,
        "bound: no deadline"
    );
    world.join(there, false);
    let sender = member(there);
    let sender_at = world.gateway_of(&sender);
    world.on_socket_frame(
        sender_at,
        there as SocketId,
        &frame(&sender, "chat.msg", &right.to_string(), json!({"n": 1})),
    );
    assert!(
        world
            .events(socket)
            .iter()
            .any(|e| e.event_type.as_str() == "chat.msg")
    );
}

#[test]
fn a_socket_that_does_not_join_in_time_is_closed_with_timeout() {
    let mut gateway = Gateway::default();
    gateway.opened(1, unbound(1_000));
    gateway.opened(2, unbound(5_000));
    assert_eq!(
        gateway.next_deadline(),
        Some(Timestamp::from(1_000 + DEADLINE_MS))
    );
    assert!(
        gateway
            .overdue(Timestamp::from(1_000 + DEADLINE_MS - 1))
            .is_empty()
    );
    let closed = gateway.overdue(Timestamp::from(1_000 + DEADLINE_MS));
    match closed.as_slice() {
        [
            GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 1 }),
            GatewayEffect::Close { socket: 1, close },
        ] => {
            assert_eq!(close.code, 4504);
            assert!(close.reason.starts_with("timeout"), "{}", close.reason);
        }
        other => panic!("expected socket 1 closed, got {other:?}"),
    }
    assert!(!gateway.holds(1));
    // Socket 2 joins in time: bound, it has no deadline; unbound again, a new one.
    let m = member(1);
    gateway.on_network(
        ToGateway::Bind {
            socket: 2,
            member: m.clone(),
            epoch: 1,
        },
        Timestamp::from(6_000),
    );
    assert_eq!(gateway.next_deadline(), None);
    assert!(gateway.overdue(Timestamp::from(100_000)).is_empty());
    gateway.on_network(ToGateway::Unbind { socket: 2 }, Timestamp::from(100_000));
    assert_eq!(
        gateway.next_deadline(),
        Some(Timestamp::from(100_000 + DEADLINE_MS))
    );
    assert_eq!(
        gateway
            .overdue(Timestamp::from(100_000 + DEADLINE_MS))
            .len(),
        2,
        "told and closed"
    );
    assert_eq!(gateway.socket_count(), 0);
}

#[test]
fn an_unbound_socket_that_keeps_sending_is_closed_and_the_network_hears_no_more() {
    let mut gateway = Gateway::default();
    gateway.opened(7, unbound(0));
    let stranger: Address = "agent:stranger".parse().unwrap();
    let chat = frame(&stranger, "chat.msg", "agent:broadcast", json!({}));
    let mut forwarded = 0;
    for _ in 0..MAX_UNBOUND_EVENTS {
        match gateway
            .on_socket_frame(7, &chat, Timestamp::from(0))
            .as_slice()
        {
            [GatewayEffect::ToNetwork(ToNetwork::Frames { peer, member, .. })] => {
                assert_eq!(peer.as_deref(), Some("203.0.113.9"), "the peer travels");
                assert_eq!(member, &None);
                forwarded += 1;
            }
            other => panic!("expected the frame forwarded, got {other:?}"),
        }
    }
    assert_eq!(forwarded, MAX_UNBOUND_EVENTS);
    // One more (here a batch of two) and the socket is closed, not forwarded.
    let two = batch::frames(&[chat.clone(), chat.clone()], true);
    // The network hears only that it is gone (it counted it as an unjoined socket).
    match gateway
        .on_socket_frame(7, &two[0], Timestamp::from(0))
        .as_slice()
    {
        [
            GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 7 }),
            GatewayEffect::Close { socket: 7, close },
        ] => assert_eq!(close.code, 4401),
        other => panic!("expected a close, got {other:?}"),
    }
    assert!(!gateway.holds(7));
    assert!(
        gateway
            .on_socket_frame(7, &chat, Timestamp::from(0))
            .is_empty()
    );
}

#[test]
fn the_network_hears_of_every_close_joined_or_not() {
    let mut gateway = Gateway::default();
    gateway.opened(3, unbound(0));
    assert_eq!(
        gateway.closed(3),
        [GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 3 })]
    );
    assert!(gateway.closed(3).is_empty(), "a second close finds nothing");
    // A joined socket's close says so too, before its member's Offline: the
    // member may have left in a frame the network handled before this close
    // (and counted the socket as unjoined again), while the gateway still
    // had it bound.
    gateway.opened(4, unbound(0));
    gateway.on_network(
        ToGateway::Bind {
            socket: 4,
            member: member(4),
            epoch: 1,
        },
        Timestamp::from(10),
    );
    match gateway.closed(4).as_slice() {
        [
            GatewayEffect::ToNetwork(ToNetwork::Closed { socket: 4 }),
            GatewayEffect::ToNetwork(ToNetwork::Offline { socket: 4, .. }),
            GatewayEffect::Placed { present: false, .. },
        ] => {}
        other => panic!("expected Closed, Offline and Placed, got {other:?}"),
    }
}

#[test]
fn members_the_network_object_holds_itself_stay_online_when_a_gateway_forgets_them() {
    let mut world = World::joined(8, 2, |_| false);
    let at = 1;
    let (here, _) = placed_on_and_off(&world, at, 8);
    let kept = member(here);
    let others: Vec<Address> = (0..8)
        .map(member)
        .filter(|m| world.gateway_of(m) == at && m != &kept)
        .collect();
    let held_here = |m: &Address| m == &kept;
    let sequencer = world.sequencer;
    let offline = ToNetwork::Offline {
        member: kept.clone(),
        socket: here as SocketId,
    };
    let inputs = sequencer.on_gateway_beside(
        &mut world.network,
        at as u32,
        offline,
        Timestamp::from(3_000),
        &held_here,
    );
    assert!(inputs.is_empty());
    assert!(world.network.member(&kept).unwrap().is_online());
    let inputs = sequencer.on_gateway_beside(
        &mut world.network,
        at as u32,
        ToNetwork::Restarted,
        Timestamp::from(3_000),
        &held_here,
    );
    for input in inputs {
        world
            .host
            .apply(&mut world.network, input.effects, Timestamp::from(3_000));
    }
    assert!(world.network.member(&kept).unwrap().is_online());
    assert!(!others.is_empty());
    for other in others {
        assert!(
            !world.network.member(&other).unwrap().is_online(),
            "{other}"
        );
    }
}

#[test]
fn open_and_frames_carry_the_peer_and_deadline_through_json_and_default_without() {
    let open = ToGateway::Open {
        socket: 3,
        member: None,
        batches: true,
        peer: Some("198.51.100.4".into()),
        join_within_ms: 1_500,
        lanes: None,
    };
    let text = serde_json::to_string(&open).unwrap();
    assert_eq!(serde_json::from_str::<ToGateway>(&text).unwrap(), open);
    // An older network object's message: no peer, the default deadline.
    let old = r#"{"kind":"open","socket":3,"member":null,"batches":false}"#;
    match serde_json::from_str::<ToGateway>(old).unwrap() {
        ToGateway::Open {
            peer,
            join_within_ms,
            ..
        } => {
            assert_eq!(peer, None);
            assert_eq!(
                join_within_ms,
                crate::bindings::access::policy::JOIN_DEADLINE_MS
            );
        }
        other => panic!("{other:?}"),
    }
    let old = r#"{"kind":"frames","socket":3,"member":null,"frames":["x"]}"#;
    let frames: ToNetwork = serde_json::from_str(old).unwrap();
    assert!(matches!(frames, ToNetwork::Frames { peer: None, .. }));
}

#[test]
fn empty_batches_are_answered_and_counted_on_joined_and_unbound_sockets() {
    let mut world = World::new(1, 1);
    world.join(0, true);
    world.gateways[0].opened(9, unbound(2_000));
    let burst = crate::bindings::access::policy::BAD_FRAMES.burst as usize;
    for socket in [0, 9] {
        for n in 1..=burst {
            world.on_socket_frame(0, socket, "[]");
            let malformed = error_codes(&world, socket)
                .iter()
                .filter(|code| *code == "malformed_event")
                .count();
            assert_eq!(
                malformed, n,
                "socket {socket}: each empty batch is answered"
            );
        }
        // One more and the socket is closed: the network is not woken again.
        match world.gateways[0]
            .on_socket_frame(socket, " [ ] ", Timestamp::from(2_000))
            .as_slice()
        {
            [.., GatewayEffect::Close { close, .. }] => assert_eq!(close.code, 4400),
            other => panic!("expected a close, got {other:?}"),
        }
        assert!(!world.gateways[0].holds(socket));
    }
}

#[test]
fn a_member_whose_socket_closed_before_its_join_was_answered_goes_offline() {
    let mut world = World::new(4, 1);
    // The join was on its way when its socket closed at the gateway.
    let join_on_closed = |world: &mut World, socket: SocketId, m: &Address, payload| {
        world.gateways[0].opened(socket, unbound(2_000));
        let effects = world.gateways[0].closed(socket);
        world.gateway_effects(0, effects);
        let frames = vec![frame(m, "network.agent.join", "core", payload)];
        world.up(
            0,
            ToNetwork::Frames {
                socket,
                member: None,
                frames,
                peer: None,
            },
        );
    };
    let first = member(1);
    join_on_closed(&mut world, 7, &first, json!({}));
    let left = world.network.member(&first).unwrap();
    assert!(
        !left.is_online(),
        "the gateway answered the bind of a socket it no longer holds"
    );
    // With another socket of the member's open there, it stays online.
    let second = member(2);
    world.join(2, false);
    let secret = world
        .events(2)
        .iter()
        .find_map(|e| e.payload["member_secret"].as_str().map(str::to_owned))
        .unwrap();
    assert!(world.network.member(&second).unwrap().is_online());
    let again = json!({"credentials": {"member_secret": secret}});
    join_on_closed(&mut world, 8, &second, again);
    assert!(world.network.member(&second).unwrap().is_online());
}
