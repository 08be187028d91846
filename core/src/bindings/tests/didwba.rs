//! DIDWba header authentication on `POST v1/join`: a signed header joins at
//! level 3 and gets a bearer token; a replayed nonce gets 401 with the
//! method spec's `WWW-Authenticate` challenge.

use super::*;
use crate::Verification;
use crate::identity::did::{Did, document};
use crate::identity::didwba::client_header;
use crate::identity::keys::PublicKey;
use crate::identity::time::format_rfc3339;
use ed25519_dalek::{Signer, SigningKey};

const DID: &str = "did:wba:example.com:agents:eve";

fn signed(world: &World, key: &SigningKey, nonce: &str) -> String {
    let timestamp = format_rfc3339(world.host.now / 1000);
    client_header(
        DID,
        "key-1",
        nonce,
        &timestamp,
        "edge.test",
        false,
        |digest| key.sign(digest).to_bytes().to_vec(),
    )
}

#[test]
fn a_didwba_header_joins_at_level_3_and_a_replay_is_refused_with_a_challenge() {
    let mut world = World::new();
    world.host.now = 1_764_000_000_000;
    let key = SigningKey::from_bytes(&[6; 32]);
    let did: Did = DID.parse().unwrap();
    let doc = document(
        &did,
        &[(
            "key-1".into(),
            PublicKey::ed25519(key.verifying_key().as_bytes()).unwrap(),
        )],
        vec![],
    );
    let header = signed(&world, &key, "n-1");
    assert_eq!(
        world.network.didwba_lookups(&header, world.host.now).len(),
        1
    );
    world
        .network
        .provide_document(&did, Ok(doc), world.host.now);
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
    let member = world.network.member(&"agent:eve".parse().unwrap()).unwrap();
    assert_eq!(
        (member.verification, member.did.as_deref()),
        (Verification::DID, Some(DID))
    );

    let replay = world.call(&post("v1/join", &body).with_header("Authorization", &header));
    assert_eq!(replay.status, 401);
    let challenge = replay
        .headers
        .iter()
        .find(|(n, _)| n == "WWW-Authenticate")
        .unwrap();
    assert!(
        challenge.1.starts_with("DIDWba error=\"invalid_nonce\""),
        "{challenge:?}"
    );
    // Signed for another server: refused.
    let elsewhere = client_header(
        DID,
        "key-1",
        "n-2",
        &format_rfc3339(world.host.now / 1000),
        "other.test",
        false,
        |d| key.sign(d).to_bytes().to_vec(),
    );
    let refused = world.call(&post("v1/join", &body).with_header("Authorization", &elsewhere));
    assert_eq!(refused.status, 401);
}
