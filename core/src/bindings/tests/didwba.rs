//! DIDWba header authentication on the HTTP binding: on `POST v1/join` a
//! signed header joins at level 3 and gets a bearer token; on a member's
//! routes (`v1/events`, …) it stands in for the bearer; on a WebSocket
//! upgrade it binds the socket; a replayed nonce gets 401 with the method
//! spec's `WWW-Authenticate` challenge.

use super::*;
use crate::Timestamp;
use crate::Verification;
use crate::identity::didwba::ed25519_client_header;
use crate::identity::time::format_rfc3339;
use crate::network::Effect;
use ed25519_dalek::SigningKey;

const DID: &str = "did:wba:example.com:agents:eve";

fn signed(world: &World, key: &SigningKey, nonce: &str) -> String {
    world.didwba_header(key, DID, nonce, "edge.test", false)
}

/// The `WWW-Authenticate` challenge of a refused (401) answer.
fn challenge_of(refused: &Response) -> &str {
    assert_eq!(refused.status, 401, "{refused:?}");
    refused.header("WWW-Authenticate").unwrap()
}

#[test]
fn a_didwba_header_joins_at_level_3_and_a_replay_is_refused_with_a_challenge() {
    let mut world = World::new();
    world.host.now = 1_764_000_000_000;
    let key = SigningKey::from_bytes(&[6; 32]);
    let header = signed(&world, &key, "n-1");
    // The host is told what to resolve first: eve's document.
    assert_eq!(
        world
            .network
            .didwba_lookups(&header, "edge.test", Timestamp::from(world.host.now))
            .len(),
        1
    );
    world.knows_did(DID, 6);
    let body = json!({"agent_id": "agent:eve"}).to_string();
    let joined = world.call(&post("v1/join", &body).with_header("Authorization", &header));
    assert_eq!(joined.status, 200, "{joined:?}");
    let token = joined.json_body().unwrap()["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        joined
            .headers
            .contains(&("Authorization".to_owned(), format!("Bearer {token}")))
    );
    // ANP-02 §3.2.3: the token in `Authentication-Info`, with how long it lasts unused.
    let idle_secs = world.host.policy.session_idle_ms / 1000;
    assert!(
        joined.headers.contains(&(
            "Authentication-Info".to_owned(),
            format!("access_token=\"{token}\", token_type=\"Bearer\", expires_in={idle_secs}")
        )),
        "{:?}",
        joined.headers
    );
    assert_eq!(
        world.verified("agent:eve"),
        Some((Verification::DID, Some(DID.to_owned())))
    );

    let replay = world.call(&post("v1/join", &body).with_header("Authorization", &header));
    let challenge = challenge_of(&replay);
    assert!(
        challenge.starts_with("DIDWba error=\"invalid_nonce\""),
        "{challenge:?}"
    );
    // A replay costs no fetch either (once the document's copy is stale).
    world.host.now += crate::network::members::identity::IDENTITY_TTL_MS + 1;
    assert!(
        world
            .network
            .didwba_lookups(&header, "edge.test", Timestamp::from(world.host.now))
            .is_empty()
    );
    // Signed for another server: refused.
    let elsewhere = world.didwba_header(&key, DID, "n-2", "other.test", false);
    let refused = world.call(&post("v1/join", &body).with_header("Authorization", &elsewhere));
    assert_eq!(refused.status, 401);
}

/// A world whose network has resolved eve's DID document (key `[seed; 32]`).
fn world_knowing_eve(seed: u8) -> (World, SigningKey) {
    let mut world = World::new();
    world.host.now = 1_764_000_000_000;
    let key = world.knows_did(DID, seed);
    (world, key)
}

#[test]
fn a_didwba_header_stands_in_for_the_bearer_on_a_members_routes() {
    let (mut world, key) = world_knowing_eve(7);
    world.join("agent:bob");
    let event = json!({"type": "chat.msg", "target": "agent:bob", "payload": {"text": "hi"}});
    let sent = world.call(
        &post("v1/events", &event.to_string())
            .with_header("Authorization", &signed(&world, &key, "e-1")),
    );
    assert!(sent.status < 300, "{sent:?}");
    let bearer = sent
        .header("Authorization")
        .expect("the answer carries a bearer session")
        .to_owned();
    let eve: Address = "agent:eve".parse().unwrap();
    assert_eq!(
        world.network.member(&eve).map(|m| m.verification),
        Some(Verification::DID)
    );
    // The bearer is that member's session: discover answers with eve in the roster.
    let token = bearer.strip_prefix("Bearer ").unwrap();
    let roster = world.call(&with_token(get("v1/discover"), token));
    assert_eq!(roster.status, 200, "{roster:?}");
    // A replayed header is refused.
    let replayed = world.call(
        &post("v1/events", &event.to_string())
            .with_header("Authorization", &signed(&world, &key, "e-1")),
    );
    assert_eq!(replayed.status, 401);
    // A header signed by another key is refused.
    let stranger = SigningKey::from_bytes(&[9; 32]);
    let forged = world.call(
        &post("v1/events", &event.to_string())
            .with_header("Authorization", &signed(&world, &stranger, "e-2")),
    );
    assert_eq!(forged.status, 401);
}

#[test]
fn a_websocket_upgrade_with_a_didwba_header_binds_the_did() {
    let (mut world, key) = world_knowing_eve(12);
    let upgrade = |header: &str| {
        get("v1/ws?after=0")
            .with_header("Upgrade", "websocket")
            .with_header("Authorization", header)
    };
    let header = signed(&world, &key, "w-1");
    assert!(crate::bindings::transport::ws::binds_at_upgrade(&upgrade(
        &header
    )));
    match world.outcome(&upgrade(&header)) {
        Outcome::Upgrade(up) => {
            assert_eq!(
                up.address.map(|a| a.to_string()).as_deref(),
                Some("agent:eve")
            );
            assert!(up.after_accept.iter().all(|e| matches!(e, Effect::Read(_))));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        world.verified("agent:eve"),
        Some((Verification::DID, Some(DID.to_owned())))
    );
    match world.outcome(&upgrade(&header)) {
        Outcome::Respond(refused) => {
            assert_eq!(refused.status, 401);
            let challenge = refused.header("WWW-Authenticate").unwrap_or_default();
            assert!(challenge.starts_with("DIDWba error=\"invalid_nonce\""));
        }
        other => panic!("a replayed header bound a socket: {other:?}"),
    }
}

#[test]
fn a_header_one_network_accepted_is_refused_by_another_once_the_deployment_refuses_its_nonce() {
    use crate::bindings::access::nonce_claims::{Claimed, answer, granted};
    let now = 1_764_000_000_000;
    let key = SigningKey::from_bytes(&[6; 32]);
    let (mut a, mut b) = (World::new(), World::new());
    for world in [&mut a, &mut b] {
        world.host.now = now;
        world.knows_did(DID, 6);
    }
    let header = signed(&a, &key, "n-roam");
    let body = json!({"agent_id": "agent:eve"}).to_string();
    // The registry holds nothing yet: A's claim is granted and A takes the header.
    let claim = a
        .network
        .didwba_claim(&header, "edge.test", Timestamp::from(now))
        .unwrap();
    assert_eq!(claim.did, DID);
    let mut held = None;
    assert_eq!(claim.decide(held, Timestamp::from(now)), Claimed::Granted);
    held = Some(claim.until_ms);
    let joined = a.call(&post("v1/join", &body).with_header("Authorization", &header));
    assert_eq!(joined.status, 200, "{joined:?}");
    // B's claim of the same nonce is refused by the registry; B refuses the header.
    let claim = b
        .network
        .didwba_claim(&header, "edge.test", Timestamp::from(now))
        .unwrap();
    let decided = claim.decide(held, Timestamp::from(now));
    assert!(!granted(answer(decided).status));
    b.network.didwba_claim_refused(&claim, Timestamp::from(now));
    let refused = b.call(&post("v1/join", &body).with_header("Authorization", &header));
    let challenge = challenge_of(&refused);
    assert!(challenge.starts_with("DIDWba error=\"invalid_nonce\""));
    // Nothing more is claimed for it there, and a header that could not pass is never claimed.
    assert_eq!(
        b.network
            .didwba_claim(&header, "edge.test", Timestamp::from(now)),
        None
    );
    assert_eq!(
        b.network
            .didwba_claim(&header, "other.test", Timestamp::from(now)),
        None
    );
    let fresh = signed(&b, &key, "n-fresh");
    assert!(
        b.network
            .didwba_claim(&fresh, "edge.test", Timestamp::from(now))
            .is_some()
    );
    let stale = signed(&b, &key, "n-stale");
    let later = now + 10 * 60 * 1000;
    assert_eq!(
        b.network
            .didwba_claim(&stale, "edge.test", Timestamp::from(later)),
        None
    );
}

/// The checks that need no document come first; a header that
/// fails one of them makes the host fetch nothing.
#[test]
fn a_header_that_could_never_pass_costs_no_fetch() {
    let mut world = World::new();
    world.host.now = 1_764_000_000_000;
    let key = SigningKey::from_bytes(&[6; 32]);
    let at = |secs: u64| format_rfc3339(secs);
    let header = |timestamp: &str, domain: &str, v1_1: bool| {
        ed25519_client_header(
            &key.to_bytes(),
            DID,
            "key-1",
            ("n-9", timestamp),
            domain,
            v1_1,
        )
    };
    let now_s = world.host.now / 1000;
    let lookups = |world: &World, h: &str| {
        world
            .network
            .didwba_lookups(h, "edge.test", Timestamp::from(world.host.now))
    };
    // A 2020 timestamp: nothing to fetch, and refused as stale (not as unresolved).
    let stale = header("2020-01-01T00:00:00Z", "edge.test", false);
    assert!(lookups(&world, &stale).is_empty());
    let body = json!({"agent_id": "agent:eve"}).to_string();
    let refused = world.call(&post("v1/join", &body).with_header("Authorization", &stale));
    let challenge = challenge_of(&refused);
    assert!(challenge.contains("invalid_timestamp"), "{challenge:?}");
    // Too far ahead, or for another audience (v1.1 names it): nothing to fetch.
    assert!(lookups(&world, &header(&at(now_s + 3600), "edge.test", false)).is_empty());
    assert!(lookups(&world, &header(&at(now_s), "other.test", true)).is_empty());
    assert!(lookups(&world, "DIDWba did=\"x\"").is_empty());
    // A header that could be valid: its document is asked for.
    assert_eq!(
        lookups(&world, &header(&at(now_s), "edge.test", true)).len(),
        1
    );
}

/// A did:wba on a host that is not public is not resolved unless the operator allows it.
#[test]
fn a_did_on_a_loopback_host_is_not_resolved() {
    let mut world = World::new();
    world.host.now = 1_764_000_000_000;
    let key = SigningKey::from_bytes(&[6; 32]);
    for did in [
        "did:wba:localhost%3A9:agents:eve",
        "did:wba:api.localhost:agents:eve",
    ] {
        let header = world.didwba_header(&key, did, "n-1", "edge.test", false);
        assert!(
            world
                .network
                .didwba_lookups(&header, "edge.test", Timestamp::from(world.host.now))
                .is_empty(),
            "{did}"
        );
        world
            .network
            .set_outbound(crate::outbound::OutboundPolicy::allowing([
                "localhost,api.localhost",
            ]));
        assert_eq!(
            world
                .network
                .didwba_lookups(&header, "edge.test", Timestamp::from(world.host.now))
                .len(),
            1,
            "{did}"
        );
        world
            .network
            .set_outbound(crate::outbound::OutboundPolicy::strict());
    }
}
