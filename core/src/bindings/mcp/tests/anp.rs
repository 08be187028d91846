//! ANP clients calling a member's tool at `/networks/{id}/anp/rpc`
//! (`crate::bindings::anp::rpc`): plain JSON-RPC with the tool's name as the
//! method, authenticated by an HTTP Message Signature (the `anp` SDK's
//! default) or a bearer, the tool run for that caller as MCP's tools run.

use super::*;
use crate::Verification;
use crate::bindings::access::didwba::as_received;
use crate::bindings::anp::rpc::{self, Outcome as AnpOutcome};
use crate::identity::http_signature::{content_digest, signature_base};
use ed25519_dalek::{Signer, SigningKey};

const RPC: &str = "https://edge.test/networks/demo/anp/rpc";

fn call(id: u64, method: &str, params: Value) -> Request {
    Request::new(Method::Post, RPC)
        .with_header("Content-Type", "application/json")
        .with_body(
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        )
}

/// `req` signed as the `anp` SDK signs it (RFC 9421, Ed25519, ANP's components).
fn signed(req: Request, key: &SigningKey, keyid: &str, nonce: &str, created: u64) -> Request {
    let digest = content_digest(req.body.as_bytes());
    let req = req.with_header("Content-Digest", &digest);
    let components: Vec<String> = ["@method", "@target-uri", "@authority", "content-digest"]
        .map(str::to_owned)
        .to_vec();
    let raw = format!(
        "(\"@method\" \"@target-uri\" \"@authority\" \"content-digest\");created={created};expires={};nonce=\"{nonce}\";keyid=\"{keyid}\"",
        created + 300
    );
    let base = as_received(&req, |received| signature_base(&components, &raw, received)).unwrap();
    let signature = base64::Engine::encode(
        &base64::engine::general_purpose::STANDARD,
        key.sign(base.as_bytes()).to_bytes(),
    );
    req.clone()
        .with_header("Signature-Input", &format!("sig1={raw}"))
        .with_header("Signature", &format!("sig1=:{signature}:"))
}

fn register_plan(mcp: &mut Mcp, owner: &str, permissions: Value) {
    let ack = mcp.send(
        owner,
        json!({"type": "network.resource.register", "target": "core", "payload": {
            "address": "resource/tool/plan", "description": "plans a trip",
            "schema": {"type": "object", "properties": {"to": {"type": "string"}}},
            "permissions": permissions}}),
    );
    assert!(ack.get("seq").is_some(), "{ack}");
}

fn anp(mcp: &mut Mcp, req: &Request) -> AnpOutcome {
    mcp.world.host.now += 1;
    let Ok(outcome) = rpc::handle(&mut mcp.world.host, &mut mcp.world.network, req);
    outcome
}

#[test]
fn a_signed_call_joins_the_did_and_runs_the_tool_as_it() {
    let mut mcp = Mcp::new();
    mcp.world.host.now = 1_764_000_000_000;
    let owner = mcp.world.join("agent:planner");
    register_plan(&mut mcp, &owner, json!(null));
    let did = "did:wba:example.com:agents:Ana";
    let key = mcp.world.knows_did(did, 9);
    let created = mcp.world.host.now / 1000;
    let req = signed(
        call(7, "plan", json!({"to": "Paris"})),
        &key,
        &format!("{did}#key-1"),
        "n-1",
        created,
    );
    let AnpOutcome::Wait(waiting) = anp(&mut mcp, &req) else {
        panic!("the call waits for the tool's owner")
    };
    let waiting = &waiting;
    assert_eq!(
        mcp.world.verified("agent:ana"),
        Some((Verification::DID, Some(did.to_owned())))
    );
    let (event, logged) = mcp.invocation(waiting);
    assert_eq!(
        logged,
        ("agent:ana".into(), json!({"input": {"to": "Paris"}}))
    );
    let from = mcp.answer_invocation(
        &owner,
        "agent:ana",
        &event,
        json!({"plan": "Paris in 3 days"}),
    );
    let arrival = mcp
        .wakes(from, waiting)
        .expect("the result reaches the caller");
    let (host, network) = (&mut mcp.world.host, &mut mcp.world.network);
    let answer = match rpc::finish(host, network, waiting, arrival) {
        Ok(answer) => answer.expect("an answer"),
        Err(never) => match never {},
    };
    assert_eq!(answer.status, 200);
    assert_eq!(
        json_of(&answer),
        json!({"jsonrpc": "2.0", "id": 7, "result": {"plan": "Paris in 3 days"}})
    );

    // The same signature again is a replay.
    let replayed = match anp(&mut mcp, &req) {
        AnpOutcome::Respond(response) => response,
        other => panic!("a refusal, not {other:?}"),
    };
    assert_eq!(replayed.status, 401);
    let challenge = replayed.header("WWW-Authenticate").unwrap_or_default();
    assert!(challenge.contains("invalid_nonce"));
    assert!(replayed.header("Accept-Signature").is_some());
    // A body changed after signing is refused, and joins nobody.
    let mut tampered = signed(
        call(8, "plan", json!({"to": "Rome"})),
        &key,
        &format!("{did}#key-1"),
        "n-2",
        created,
    );
    tampered.body =
        json!({"jsonrpc": "2.0", "id": 8, "method": "plan", "params": {"to": "Oslo"}}).to_string();
    let AnpOutcome::Respond(refused) = anp(&mut mcp, &tampered) else {
        panic!("a refusal")
    };
    assert_eq!(refused.status, 401, "{refused:?}");
}

#[test]
fn unknown_methods_refusals_and_bad_requests_are_json_rpc_errors() {
    let (mut mcp, owner, claude) = Mcp::owner_and_claude("agent:planner");
    register_plan(&mut mcp, &owner, json!({"invoke": "owner"}));
    let bearer = |req: Request| req.with_header("Authorization", &format!("Bearer {claude}"));
    let answer = |mcp: &mut Mcp, req: Request| match anp(mcp, &req) {
        AnpOutcome::Respond(response) => (response.status, json_of(&response)),
        other => panic!("an answer now, not {other:?}"),
    };
    let (status, unknown) = answer(&mut mcp, bearer(call(1, "nothing", json!({}))));
    assert_eq!(
        (status, unknown["error"]["code"].clone()),
        (200, json!(-32601))
    );
    // The tool's permissions are the network's: only its owner may invoke it.
    let (_, refused) = answer(&mut mcp, bearer(call(2, "plan", json!({"to": "Paris"}))));
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    assert_eq!(refused["id"], 2);
    assert!(refused["error"]["data"]["code"].is_string(), "{refused}");
    // No proof and no bearer: the MCP endpoint's 401.
    let (status, _) = answer(&mut mcp, call(3, "plan", json!({})));
    assert_eq!(status, 401);
    let (status, batch) = answer(
        &mut mcp,
        bearer(Request::new(Method::Post, RPC).with_body("[]")),
    );
    assert_eq!(status, 400, "{batch}");
}
