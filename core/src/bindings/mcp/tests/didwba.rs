//! A DIDWba header on the MCP endpoint: the DID joins at level 3, the
//! request is served, and the answer carries a bearer token that works for
//! the requests that follow; a bad header gets 401 with the challenge.

use super::*;
use crate::Verification;
use crate::identity::did::Did;

#[test]
fn a_didwba_header_is_exchanged_for_a_member_session() {
    let mut mcp = Mcp::new();
    mcp.world.host.now = 1_764_000_000_000;
    let did: Did = "did:wba:example.com:agents:Mia".parse().unwrap();
    let key = mcp.world.knows_did(&did.to_string(), 8);
    let header = mcp
        .world
        .didwba_header(&key, &did.to_string(), "m-1", "edge.test", true);
    let body = rpc(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "anp", "version": "1"}}),
    );
    let req = post(None, None, &body).with_header("Authorization", &header);
    let answered = mcp.respond(&req);
    assert_eq!(answered.status, 200, "{answered:?}");
    let bearer = answered.header("Authorization").unwrap().to_owned();
    assert_eq!(
        mcp.world.verified("agent:mia"),
        Some((Verification::DID, Some(did.to_string())))
    );
    // The bearer it answered with is a session of that member.
    let token = bearer.strip_prefix("Bearer ").unwrap();
    let session = answered.header("mcp-session-id").map(str::to_owned);
    let list = post(
        Some(token),
        session.as_deref(),
        &rpc(2, "tools/list", json!({})),
    )
    .with_header("MCP-Protocol-Version", "2025-06-18");
    assert_eq!(mcp.respond(&list).status, 200);
    // The same header again: replayed nonce, 401 with the DIDWba challenge.
    let again = mcp.respond(&req);
    assert_eq!(again.status, 401);
    let challenge = again.header("WWW-Authenticate").unwrap_or_default();
    assert!(challenge.contains("invalid_nonce"), "{again:?}");
}
