//! The registry's routes driven as HTTP requests.

use super::*;
use crate::crypto::to_hex;
use crate::identity::aic::AicIssuer;
use crate::identity::registry::{Action, RegistryConfig, proof_message};
use ed25519_dalek::{Signer, SigningKey};

const NOW: u64 = 1_764_000_000_000;
const ORIGIN: &str = "http://localhost:8787";

fn registry() -> Registry {
    Registry::new(
        RegistryConfig {
            issuer: ORIGIN.into(),
            host: "localhost:8787".into(),
            aic: AicIssuer::new("0001", "00AGN").unwrap(),
            token_ttl_secs: 300,
        },
        [7; 32],
    )
}

fn call(
    r: &mut Registry,
    method: Method,
    path: &str,
    body: Value,
) -> (u16, Value, Option<AgentRecord>) {
    let req = Request::new(method, format!("{ORIGIN}{path}")).with_body(body.to_string());
    let mut counter = 0;
    let (response, changed) = handle(
        r,
        &req,
        || {
            counter += 1;
            format!("nonce-{path}-{counter}")
        },
        Timestamp::from(NOW),
    );
    (
        response.status,
        response.json_body().cloned().unwrap_or(Value::Null),
        changed,
    )
}

fn proof(
    r: &mut Registry,
    key: &SigningKey,
    action: Action,
    name: &str,
    detail: &str,
) -> (String, String) {
    let (_, answer, _) = call(
        r,
        Method::Post,
        "/registry/v1/challenge",
        json!({"name": name}),
    );
    let nonce = answer["nonce"].as_str().unwrap().to_owned();
    let sig = to_hex(
        &key.sign(&proof_message(action, name, &nonce, detail))
            .to_bytes(),
    );
    (nonce, sig)
}

/// Asks to revoke `alice`, proven with `key`: the status and body.
fn revoke_alice(r: &mut Registry, key: &SigningKey) -> (u16, Value) {
    let (nonce, signature) = proof(r, key, Action::Revoke, "alice", "");
    let body = json!({"nonce": nonce, "signature": signature});
    let (status, answer, _) = call(r, Method::Post, "/registry/v1/agents/alice/revoke", body);
    (status, answer)
}

#[test]
fn register_get_a_token_resolve_rotate_and_revoke_over_http() {
    let mut r = registry();
    let old = SigningKey::from_bytes(&[1; 32]);
    let public = to_hex(old.verifying_key().as_bytes());
    let (nonce, signature) = proof(&mut r, &old, Action::Register, "alice", &public);
    let mut acs = crate::discovery::acs::tests_sample();
    acs["aic"] = json!("");
    acs["name"] = json!("Alice");
    let (status, record, changed) = call(
        &mut r,
        Method::Post,
        "/registry/v1/agents",
        json!({"name": "alice", "public_key": public, "nonce": nonce, "signature": signature, "acs": acs}),
    );
    assert_eq!(status, 201, "{record}");
    assert!(changed.is_some(), "a registration is stored");
    assert!(
        record["aic"]
            .as_str()
            .unwrap()
            .parse::<crate::identity::Aic>()
            .is_ok()
    );
    assert_eq!(record["did_wba"], "did:wba:localhost%3A8787:agents:alice");
    assert_eq!(record["acs"]["name"], "Alice");

    let (nonce, signature) = proof(&mut r, &old, Action::Token, "alice", "net1");
    let (status, token, _) = call(
        &mut r,
        Method::Post,
        "/registry/v1/token",
        json!({"name": "alice", "audience": "net1", "nonce": nonce, "signature": signature}),
    );
    assert_eq!(
        (status, token["token_type"].as_str()),
        (200, Some("Bearer"))
    );
    let (_, jwks, _) = call(&mut r, Method::Get, JWKS_PATH, Value::Null);
    assert_eq!(jwks["keys"][0]["crv"], "Ed25519");

    let (status, doc, _) = call(
        &mut r,
        Method::Get,
        "/registry/v1/did/did%3Aopenagents%3Aalice",
        Value::Null,
    );
    assert_eq!(
        (status, doc["id"].as_str()),
        (200, Some("did:openagents:alice"))
    );
    let (status, doc, _) = call(&mut r, Method::Get, "/agents/alice/did.json", Value::Null);
    assert_eq!(
        (status, doc["id"].as_str()),
        (200, Some("did:wba:localhost%3A8787:agents:alice"))
    );

    let new = SigningKey::from_bytes(&[2; 32]);
    let new_public = to_hex(new.verifying_key().as_bytes());
    let (nonce, signature) = proof(&mut r, &old, Action::Rotate, "alice", &new_public);
    let (status, _, changed) = call(
        &mut r,
        Method::Post,
        "/registry/v1/agents/alice/rotate",
        json!({"public_key": new_public, "nonce": nonce, "signature": signature}),
    );
    assert_eq!((status, changed.is_some()), (200, true));
    // The old key can no longer act for alice.
    let (status, refused) = revoke_alice(&mut r, &old);
    assert_eq!(
        (status, refused["reason"].as_str()),
        (403, Some("bad_signature"))
    );
    assert_eq!(revoke_alice(&mut r, &new).0, 200);
    let (status, gone, _) = call(&mut r, Method::Get, "/agents/alice/did.json", Value::Null);
    assert_eq!((status, gone["reason"].as_str()), (410, Some("revoked")));
}

#[test]
fn bad_requests_get_stable_codes() {
    let mut r = registry();
    for (method, path, request, field, expected) in [
        (
            Method::Post,
            "/registry/v1/agents",
            json!({"name": "x"}),
            "code",
            (400, "invalid_request"),
        ),
        (
            Method::Get,
            "/registry/v1/agents/nobody",
            Value::Null,
            "reason",
            (404, "not_registered"),
        ),
        (
            Method::Get,
            "/registry/v1/did/did:web:x",
            Value::Null,
            "reason",
            (400, "malformed"),
        ),
    ] {
        let (status, body, _) = call(&mut r, method, path, request);
        let (want_status, want) = expected;
        assert_eq!(
            (status, body[field].as_str()),
            (want_status, Some(want)),
            "{path}"
        );
    }
    let (status, _, _) = call(&mut r, Method::Get, "/registry/v1/nothing", Value::Null);
    assert_eq!(status, 404);
    assert!(is_registry_path("/agents/bob/did.json") && is_registry_path(JWKS_PATH));
    assert!(!is_registry_path("/agents/bob/x") && !is_registry_path("/networks/abc"));
}
