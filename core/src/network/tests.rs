//! Unit tests of the network state machine: joins, routing, rejections.

use super::*;
use crate::client::Client;
use crate::error::ErrorCode;

fn demo() -> Network {
    Network::new(
        NetworkConfig::open("demo".parse().unwrap(), "Demo"),
        [],
        0,
        [9; 16],
    )
}

fn addr(s: &str) -> Address {
    s.parse().unwrap()
}

fn client(name: &str) -> Client {
    Client::new(addr(name), "demo".parse().unwrap(), [3; 16])
}

fn joined(network: &mut Network, name: &str) -> Client {
    let mut c = client(name);
    let join = c.join(None, 1);
    let effects = network.handle_frame(None, &join.encode(), 1);
    assert!(effects.contains(&Effect::Bind(addr(name))), "{effects:?}");
    c
}

fn error_code(effects: &[Effect]) -> ErrorCode {
    match effects {
        [Effect::Reply(e)] if e.event_type.as_str() == core_types::EVENT_ERROR => {
            serde_json::from_value(e.payload["code"].clone()).unwrap()
        }
        other => panic!("expected one error reply, got {other:?}"),
    }
}

fn posted(c: &mut Client, target: &str) -> Event {
    c.event(
        "workspace.message.posted".parse().unwrap(),
        addr(target),
        json!({"text": "hello"}),
        5,
    )
}

#[test]
fn join_binds_persists_and_acks() {
    let mut network = demo();
    let mut alice = client("agent:alice");
    let join = alice.join(None, 1);
    let effects = network.handle_frame(None, &join.encode(), 1);
    assert_eq!(effects.len(), 3);
    assert_eq!(effects[0], Effect::Bind(addr("agent:alice")));
    assert!(matches!(&effects[1], Effect::PersistMember(m) if m.online && m.role == Role::Member));
    let Effect::Reply(ack) = &effects[2] else {
        panic!()
    };
    assert_eq!(ack.event_type.as_str(), core_types::EVENT_ACK);
    assert_eq!(ack.source, Address::core());
    assert_eq!(ack.in_reply_to(), Some(join.id));
    assert!(network.member(&addr("agent:alice")).unwrap().online);
}

#[test]
fn broadcast_reaches_every_other_member_and_is_logged() {
    let mut network = demo();
    let mut alice = joined(&mut network, "agent:alice");
    joined(&mut network, "human:bob");
    joined(&mut network, "openagents:carol");
    let event = posted(&mut alice, "agent:broadcast");
    let effects = network.handle_frame(Some(&addr("agent:alice")), &event.encode(), 5);
    let mut delivered: Vec<String> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Deliver { to, .. } => Some(to.to_string()),
            _ => None,
        })
        .collect();
    delivered.sort();
    assert_eq!(delivered, ["human:bob", "openagents:carol"]);
    assert!(
        matches!(&effects[0], Effect::Append { seq: 1, event: logged } if logged.id == event.id)
    );
    assert_eq!(network.last_seq(), 1);
}

#[test]
fn direct_event_reaches_only_its_target() {
    let mut network = demo();
    let mut alice = joined(&mut network, "agent:alice");
    joined(&mut network, "agent:bob");
    joined(&mut network, "agent:eve");
    let event = posted(&mut alice, "agent:bob");
    let effects = network.handle_frame(Some(&addr("agent:alice")), &event.encode(), 5);
    let targets: Vec<&Address> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Deliver { to, .. } => Some(to),
            _ => None,
        })
        .collect();
    assert_eq!(targets, [&addr("agent:bob")]);
}

#[test]
fn rejections_have_stable_codes_and_change_nothing() {
    let mut network = demo();
    let mut alice = joined(&mut network, "agent:alice");
    let alice_addr = addr("agent:alice");

    assert_eq!(
        error_code(&network.handle_frame(Some(&alice_addr), "{oops", 5)),
        ErrorCode::MalformedEvent
    );
    let event = posted(&mut alice, "agent:broadcast");
    assert_eq!(
        error_code(&network.handle_frame(None, &event.encode(), 5)),
        ErrorCode::NotJoined
    );
    assert_eq!(
        error_code(&network.handle_frame(Some(&addr("agent:mallory")), &event.encode(), 5)),
        ErrorCode::SourceMismatch
    );
    let remote = posted(&mut alice, "other::agent:bob");
    assert_eq!(
        error_code(&network.handle_frame(Some(&alice_addr), &remote.encode(), 5)),
        ErrorCode::CrossNetwork
    );
    let unknown = posted(&mut alice, "agent:ghost");
    assert_eq!(
        error_code(&network.handle_frame(Some(&alice_addr), &unknown.encode(), 5)),
        ErrorCode::UnknownTarget
    );
    let pong = alice.event(
        core_types::PONG.parse().unwrap(),
        Address::core(),
        json!({}),
        5,
    );
    assert_eq!(
        error_code(&network.handle_frame(Some(&alice_addr), &pong.encode(), 5)),
        ErrorCode::ReservedType
    );
    let mut wrong = posted(&mut alice, "agent:broadcast");
    wrong.network = Some("elsewhere".parse().unwrap());
    assert_eq!(
        error_code(&network.handle_frame(Some(&alice_addr), &wrong.encode(), 5)),
        ErrorCode::WrongNetwork
    );
    assert_eq!(network.last_seq(), 0);

    // The network still works after all of that.
    let good = posted(&mut alice, "agent:broadcast");
    let effects = network.handle_frame(Some(&alice_addr), &good.encode(), 6);
    assert!(
        matches!(effects.last(), Some(Effect::Reply(ack)) if ack.event_type.as_str() == core_types::EVENT_ACK)
    );
}

#[test]
fn token_policy_checks_credentials() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Private");
    config.access = AccessPolicy::Token {
        token: "s3cret".into(),
    };
    let mut network = Network::new(config, [], 0, [1; 16]);
    let mut alice = client("agent:alice");
    let without = alice.join(None, 1);
    assert_eq!(
        error_code(&network.handle_frame(None, &without.encode(), 1)),
        ErrorCode::AccessDenied
    );
    let wrong = alice.join(Some(json!({"token": "guess"})), 1);
    assert_eq!(
        error_code(&network.handle_frame(None, &wrong.encode(), 1)),
        ErrorCode::AccessDenied
    );
    let right = alice.join(Some(json!({"token": "s3cret"})), 1);
    assert!(
        network
            .handle_frame(None, &right.encode(), 1)
            .contains(&Effect::Bind(addr("agent:alice")))
    );
}

#[test]
fn only_participants_join_and_a_connection_keeps_its_identity() {
    let mut network = demo();
    let mut channel = client("channel/general");
    assert_eq!(
        error_code(&network.handle_frame(None, &channel.join(None, 1).encode(), 1)),
        ErrorCode::InvalidAddress
    );
    let mut bob = client("agent:bob");
    let join = bob.join(None, 1);
    assert_eq!(
        error_code(&network.handle_frame(Some(&addr("agent:alice")), &join.encode(), 1)),
        ErrorCode::SourceMismatch
    );
}

#[test]
fn ping_pongs_and_leave_goes_offline() {
    let mut network = demo();
    let mut alice = joined(&mut network, "agent:alice");
    let ping = alice.event(
        core_types::PING.parse().unwrap(),
        Address::core(),
        json!({}),
        2,
    );
    let effects = network.handle_frame(Some(&addr("agent:alice")), &ping.encode(), 2);
    assert!(
        matches!(&effects[..], [Effect::Reply(p)] if p.event_type.as_str() == core_types::PONG && p.in_reply_to() == Some(ping.id))
    );
    let leave = alice.event(
        core_types::AGENT_LEAVE.parse().unwrap(),
        Address::core(),
        json!({}),
        3,
    );
    let effects = network.handle_frame(Some(&addr("agent:alice")), &leave.encode(), 3);
    assert!(matches!(&effects[0], Effect::PersistMember(m) if !m.online));
    assert!(!network.member(&addr("agent:alice")).unwrap().online);
}

#[test]
fn restored_network_continues_the_sequence() {
    let members = [Member {
        address: addr("agent:bob"),
        role: Role::Member,
        verification: 0,
        online: false,
    }];
    let mut network = Network::new(
        NetworkConfig::open("demo".parse().unwrap(), "Demo"),
        members,
        41,
        [0; 16],
    );
    let mut alice = joined(&mut network, "agent:alice");
    let event = posted(&mut alice, "agent:bob");
    let effects = network.handle_frame(Some(&addr("agent:alice")), &event.encode(), 5);
    assert!(matches!(&effects[0], Effect::Append { seq: 42, .. }));
}
