//! Identity and access: each hole a hostile member or stranger
//! could use, tried as they would, with the stable code it now gets — and the
//! network still serving its members afterwards.

use super::*;
use crate::verification::StaticKeys;

/// The code of a single error reply, as its wire string.
fn code(effects: &[Effect]) -> String {
    match effects {
        [Effect::Reply(e)] if e.event_type.as_str() == core_types::EVENT_ERROR => {
            e.payload["code"].as_str().unwrap_or_default().to_owned()
        }
        other => panic!("expected one error reply, got {other:#?}"),
    }
}

/// The join's ack payload (panics when the join failed).
fn join_ack(network: &mut Network, name: &str, payload: Value) -> Value {
    let effects = try_join(network, name, payload);
    // Play the host: the catch-up finds nothing to send.
    for effect in &effects {
        if let Effect::Read(request) = effect {
            network.answer_read(request, Vec::new(), true, Timestamp::from(1));
        }
    }
    acked(&effects).payload
}

#[test]
fn a_taken_address_is_not_taken_over_by_a_bare_rejoin() {
    let mut network = bare();
    // agent:boss is a master by configuration; it joins first.
    let first = join_ack(&mut network, "agent:boss", json!({}));
    let secret = first["member_secret"]
        .as_str()
        .expect("a first join without a secret is given one")
        .to_owned();
    assert_eq!(first["member"]["role"], "master");
    assert!(first["member"].get("secret_sha256").is_none());
    let mut alice = join(&mut network, "agent:alice");

    // The attacker joins as the master: no secret, a wrong one, one for another address.
    for credentials in [
        json!({}),
        json!({"credentials": {"member_secret": "0123456789abcdef-wrong"}}),
        json!({"credentials": {"member_secret": first["member_secret"].as_str().unwrap().to_uppercase()}}),
        json!({"credentials": {"token": "anything", "resume": {"after": 0}}}),
    ] {
        assert_eq!(
            code(&try_join(&mut network, "agent:boss", credentials)),
            "address_in_use"
        );
    }
    // Nothing leaked: the roster shows no secret, and the master is still itself.
    let roster = reply_of_type(
        &alice.ask(&mut network, "network.agent.discover", json!({})),
        core_types::AGENT_DISCOVER_RESPONSE,
    );
    assert!(!roster.payload.to_string().contains("secret"));
    // The owner rejoins with its secret and keeps its role; no new secret is issued.
    let back = join_ack(
        &mut network,
        "agent:boss",
        json!({"credentials": {"member_secret": secret}}),
    );
    assert_eq!(back["member"]["role"], "master");
    assert!(back.get("member_secret").is_none());
    // …and the network still serves its members.
    assert_eq!(
        delivered_to(&alice.send(&mut network, "chat.msg", "agent:boss", json!({}))),
        ["agent:boss"]
    );
}

#[test]
fn join_credentials_never_reach_the_log() {
    let mut network = network_with(vec![ModConfig::Persistence]);
    let effects = try_join(
        &mut network,
        "agent:ann",
        json!({"credentials": {"member_secret": "0123456789abcdef0123", "token": "t"}}),
    );
    let logged = appended(&effects);
    assert_eq!(logged.len(), 1);
    assert!(logged[0].payload.get("credentials").is_none(), "{logged:?}");
}

#[test]
fn a_secret_proposed_at_the_first_join_is_the_one_to_present() {
    let mut network = bare();
    let mine = "a-secret-of-my-own-choosing";
    let first = join_ack(
        &mut network,
        "human:ann",
        json!({"credentials": {"member_secret": mine}}),
    );
    assert!(first.get("member_secret").is_none(), "nothing new to tell");
    assert_eq!(
        code(&try_join(&mut network, "human:ann", json!({}))),
        "address_in_use"
    );
    join_ack(
        &mut network,
        "human:ann",
        json!({"credentials": {"member_secret": mine}}),
    );
    // Too short a secret is refused before the address is taken.
    assert_eq!(
        code(&try_join(
            &mut network,
            "human:bo",
            json!({"credentials": {"member_secret": "short"}})
        )),
        "invalid_request"
    );
    join_ack(&mut network, "human:bo", json!({}));
}

#[test]
fn the_admin_token_and_the_bound_connection_still_rejoin() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.access.admin_token_sha256 = Some(crate::crypto::sha256_hex(b"admin-token"));
    let mut network = Network::new(config, [], 0, [9; 32]);
    join_ack(&mut network, "human:owner", json!({}));
    let again = join_ack(
        &mut network,
        "human:owner",
        json!({"credentials": {"admin_token": "admin-token"}}),
    );
    assert_eq!(again["member"]["role"], "master");
    // A join on the connection already bound to the address is its own.
    let mut peer = Peer::new("human:owner");
    let rejoin = peer.event("network.agent.join", "core", json!({}));
    acked(&network.handle_event(Some(&addr("human:owner")), rejoin, Timestamp::from(2)));
}

#[test]
fn a_registered_key_must_be_proven() {
    let mut network = bare();
    let mut keys = StaticKeys::default();
    keys.insert(addr("openagents:bob"), [7; 32]);
    network.set_key_registry(Box::new(keys));
    assert_eq!(
        code(&try_join(&mut network, "openagents:bob", json!({}))),
        "verification_failed"
    );
    // Addresses without a registered key join as before.
    join(&mut network, "openagents:carol");
}

fn register_secret_file(network: &mut Network, owner: &mut Peer) {
    let effects = owner.register(
        network,
        json!({
            "address": "resource/file/plans.md", "content": "the secret plan",
            "permissions": {"read": "owner", "write": "owner", "admin": "owner"}
        }),
    );
    acked(&effects);
    let effects = owner.register(
        network,
        json!({"address": "resource/tool/launch", "permissions": {"invoke": "owner"}}),
    );
    acked(&effects);
}

#[test]
fn declared_permissions_hold_without_access_control() {
    let mut network = bare();
    let [mut owner, mut guest] = join_all(&mut network, ["agent:owner", "human:guest"]);
    register_secret_file(&mut network, &mut owner);
    for (kind, target, payload) in [
        ("network.resource.read", "resource/file/plans.md", json!({})),
        (
            "network.resource.update",
            "resource/file/plans.md",
            json!({"content": "defaced"}),
        ),
        ("network.resource.invoke", "resource/tool/launch", json!({})),
        (
            "network.resource.unregister",
            "core",
            json!({"address": "resource/file/plans.md"}),
        ),
    ] {
        assert_eq!(
            code(&guest.send(&mut network, kind, target, payload)),
            "forbidden",
            "{kind}"
        );
    }
    // The owner still reads its file, unchanged.
    let read = reply_of_type(
        &owner.send(
            &mut network,
            RESOURCE_READ,
            "resource/file/plans.md",
            json!({}),
        ),
        core_types::RESOURCE_READ_RESPONSE,
    );
    assert!(read.payload.to_string().contains("the secret plan"));
}

#[test]
fn history_answers_only_what_the_requester_could_have_received() {
    let mut network = network_with(vec![ModConfig::Persistence]);
    let [mut owner, mut boss, mut eve] =
        join_all(&mut network, ["agent:owner", "agent:boss", "agent:eve"]);
    let mut log = Vec::new();
    let mut keep = |effects: Vec<Effect>| {
        for effect in effects {
            if let Effect::Append { seq, event, .. } = effect {
                log.push((seq, (*event).clone()));
            }
        }
    };
    keep(owner.register(
        &mut network,
        json!({"address": "resource/file/plans.md", "content": "the secret plan",
               "permissions": {"read": "owner", "write": "owner"}}),
    ));
    keep(boss.ask(
        &mut network,
        GROUP_UPDATE,
        json!({"group": "staff", "members": ["agent:boss", "agent:owner"]}),
    ));
    keep(owner.send(
        &mut network,
        "staff.note",
        "group/staff",
        json!({"text": "secret note"}),
    ));
    keep(owner.send(
        &mut network,
        "mod.note",
        "mod/persistence",
        json!({"text": "secret to a mod"}),
    ));
    keep(owner.broadcast(&mut network, "chat.msg", json!({"text": "hello all"})));
    assert!(log.len() >= 4, "{log:?}");
    let effects = eve.ask(&mut network, EVENTS_QUERY, json!({}));
    let [Effect::Read(request)] = &effects[..] else {
        panic!("{effects:?}")
    };
    let answer = network.answer_read(&request.clone(), log.clone(), true, Timestamp::from(20));
    let [Effect::Deliver { event, .. }] = &answer[..] else {
        panic!("{answer:?}")
    };
    let seen = event.payload.to_string();
    assert!(!seen.contains("secret"), "eve read {seen}");
    assert!(seen.contains("hello all"));
}

#[test]
fn channels_are_deleted_by_their_creator_and_joined_when_open_or_invited() {
    // With access-control loaded, a bare name was checked as another address.
    let mut network = network_with(vec![ModConfig::AccessControl]);
    let [mut ann, mut bob, mut eve] =
        join_all(&mut network, ["agent:ann", "agent:bob", "agent:eve"]);
    acked(&ann.ask(&mut network, CHANNEL_CREATE, json!({"channel": "general"})));
    for name in ["general", "channel/general"] {
        assert_eq!(
            code(&eve.send(
                &mut network,
                "network.channel.delete",
                "core",
                json!({"channel": name})
            )),
            "forbidden"
        );
    }
    // A private channel: the invited join, others may not; listed members are not added.
    acked(&create_private(
        &mut network,
        &mut ann,
        "board",
        &["agent:bob"],
    ));
    assert!(
        delivered_to(&ann.send(&mut network, "chat.msg", "channel/board", json!({}))).is_empty(),
        "bob was invited, not added"
    );
    assert_eq!(
        code(&eve.send(
            &mut network,
            "network.channel.join",
            "core",
            json!({"channel": "board"})
        )),
        "forbidden"
    );
    acked(&bob.ask(&mut network, CHANNEL_JOIN, json!({"channel": "board"})));
    assert_eq!(
        delivered_to(&ann.send(&mut network, "chat.msg", "channel/board", json!({}))),
        ["agent:bob"]
    );
    // Open channels stay open to everyone; the creator deletes.
    acked(&eve.ask(&mut network, CHANNEL_JOIN, json!({"channel": "general"})));
    acked(&ann.ask(&mut network, CHANNEL_DELETE, json!({"channel": "general"})));
}

#[test]
fn private_channels_take_posts_from_members_only() {
    let mut network = bare();
    let [mut ann, mut eve] = join_all(&mut network, ["agent:ann", "agent:eve"]);
    acked(&ann.ask(
        &mut network,
        CHANNEL_CREATE,
        json!({"channel": "board", "private": true}),
    ));
    assert_eq!(
        code(&eve.send(&mut network, "chat.msg", "channel/board", json!({}))),
        "forbidden"
    );
}

#[test]
fn network_owned_metadata_cannot_be_forged() {
    let mut network = network_with(vec![ModConfig::Workspace(Default::default())]);
    let mut eve = join(&mut network, "agent:eve");
    join(&mut network, "agent:bob");
    let forged = eve.forged_chat("agent:bob");
    let effects = network.handle_event(Some(&addr("agent:eve")), forged, Timestamp::from(10));
    let (_, frame) = single_frame(&effects);
    assert!(frame["metadata"].get("sender").is_none(), "{frame}");
    assert!(frame["metadata"].get("received_at").is_none(), "{frame}");
    // Presence: only about oneself.
    assert_eq!(
        code(&eve.broadcast(
            &mut network,
            "workspace.presence.changed",
            json!({"address": "agent:bob", "status": "offline"})
        )),
        "forbidden"
    );
    acked(&eve.broadcast(
        &mut network,
        "workspace.presence.changed",
        json!({"address": "agent:eve", "status": "away"}),
    ));
}

#[test]
fn a_rejoin_with_the_secret_catches_up_on_what_it_missed() {
    use crate::host::memory::MemoryHost;
    let mut network = bare();
    let mut host = MemoryHost::default();
    let secret = json!({"credentials": {"member_secret": "0123456789abcdef0123"}});
    let mut receiver = Peer::new("agent:receiver");
    let first = receiver.event("network.agent.join", "core", secret.clone());
    let effects = network.handle_event(None, first, Timestamp::from(1));
    host.apply(&mut network, effects, Timestamp::from(1));
    let mut sender = Peer::new("agent:sender");
    let effects = network.handle_event(
        None,
        sender.event("network.agent.join", "core", json!({})),
        Timestamp::from(1),
    );
    host.apply(&mut network, effects, Timestamp::from(1));
    let leave = receiver.event("network.agent.leave", "core", json!({}));
    let effects = network.handle_event(Some(&addr("agent:receiver")), leave, Timestamp::from(2));
    host.apply(&mut network, effects, Timestamp::from(2));
    let effects = sender.send(
        &mut network,
        "note.missed",
        "agent:receiver",
        json!({"n": 1}),
    );
    host.apply(&mut network, effects, Timestamp::from(10));
    let back = receiver.event("network.agent.join", "core", secret);
    let effects = network.handle_event(None, back, Timestamp::from(11));
    let applied = host.apply(&mut network, effects, Timestamp::from(11));
    assert_eq!(delivered_to(&applied), ["agent:receiver"], "{applied:#?}");
}
