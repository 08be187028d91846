//! Tools, resources, prompts and the built-ins, as an MCP session of a
//! member, against tools and documents other members registered.

use super::{Mcp, json_of, post, rpc};
use crate::bindings::mcp::notices::{Notice, of_effect};
use crate::bindings::mcp::outcome::Outcome;
use crate::bindings::mcp::waiting::{Arrival, Waiting};
use serde_json::{Value, json};

fn register(mcp: &mut Mcp, owner: &str, payload: Value) {
    let ack = mcp.send(
        owner,
        json!({"type": "network.resource.register", "target": "core", "payload": payload}),
    );
    assert!(ack.get("seq").is_some(), "{ack}");
}

/// `resource/file/notes.md`: "hello", in Markdown.
fn notes(mcp: &mut Mcp, owner: &str) {
    register(
        mcp,
        owner,
        json!({"address": "resource/file/notes.md", "content": "hello",
        "content_type": "text/markdown", "description": "notes"}),
    );
}

fn calculator(mcp: &mut Mcp, owner: &str, permissions: Value) {
    register(
        mcp,
        owner,
        json!({
            "address": "resource/tool/add", "description": "adds two numbers",
            "schema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
            "permissions": permissions,
        }),
    );
}

/// Calls a tool over a session; answers what the call waits for.
fn call_waiting(mcp: &mut Mcp, token: &str, session: &str, name: &str, args: Value) -> Waiting {
    let body = rpc(
        mcp.world.host.now + 1,
        "tools/call",
        json!({"name": name, "arguments": args}),
    );
    match mcp.handle(&post(Some(token), Some(session), &body)) {
        Outcome::Stream {
            mut waits,
            closes: true,
            opening,
            ..
        } => {
            let primed = mcp.world.host.mcp_sessions[session]
                .revision
                .primes_streams();
            assert_eq!(
                opening.len(),
                usize::from(primed),
                "a priming event: {opening:?}"
            );
            waits.pop().expect("the call waits")
        }
        other => panic!("expected a stream, got {other:?}"),
    }
}

#[test]
fn a_tool_call_goes_to_the_owner_and_its_answer_comes_back() {
    let (mut mcp, owner, claude) = Mcp::owner_and_claude("agent:calculator");
    calculator(&mut mcp, &owner, json!(null));
    let session = mcp.init(&claude, "2025-11-25");
    let listed = mcp.call(&claude, &session, "tools/list", json!({}));
    let add = &listed["result"]["tools"][0];
    assert_eq!(
        (add["name"].clone(), add["description"].clone()),
        (json!("add"), json!("adds two numbers"))
    );
    assert_eq!(add["inputSchema"]["properties"]["a"]["type"], "number");

    let waiting = call_waiting(&mut mcp, &claude, &session, "add", json!({"a": 2, "b": 40}));
    let (event, logged) = mcp.invocation(&waiting);
    // The invocation is an event from the member, in the log, with the arguments as input.
    assert_eq!(
        logged,
        ("agent:claude".into(), json!({"input": {"a": 2, "b": 40}}))
    );
    let from = mcp.answer_invocation(&owner, "agent:claude", &event, json!({"sum": 42}));
    let arrival = mcp
        .wakes(from, &waiting)
        .expect("the result reaches the caller");
    let result = mcp.finish(&waiting, arrival);
    assert_eq!(result["structuredContent"], json!({"sum": 42}));
    assert_eq!(result["content"][0]["text"], "{\"sum\":42}");
    assert_eq!(result["isError"], false);
}

#[test]
fn refusals_offline_owners_and_silence_are_error_results() {
    let (mut mcp, owner, claude) = Mcp::owner_and_claude("agent:calculator");
    calculator(
        &mut mcp,
        &owner,
        json!({"invoke": "agents:[agent:someone]"}),
    );
    let session = mcp.init(&claude, "2025-06-18");
    let listed = mcp.call(&claude, &session, "tools/list", json!({}));
    assert_eq!(
        listed["result"]["tools"].as_array().map(Vec::len),
        Some(7),
        "not invokable, not listed"
    );
    let refused = mcp.call(
        &claude,
        &session,
        "tools/call",
        json!({"name": "add", "arguments": {}}),
    );
    assert_eq!(refused["result"]["isError"], true);
    assert_eq!(
        refused["result"]["structuredContent"]["error"]["code"],
        "forbidden"
    );

    register(
        &mut mcp,
        &owner,
        json!({"address": "resource/tool/echo", "schema": {"type": "string"}}),
    );
    let waiting = call_waiting(&mut mcp, &claude, &session, "echo", json!({"input": "hi"}));
    let timed_out = mcp.finish(&waiting, Arrival::TimedOut);
    assert_eq!(timed_out["structuredContent"]["error"]["code"], "timeout");
    mcp.send(
        &owner,
        json!({"type": "network.agent.leave", "target": "core", "payload": {}}),
    );
    let offline = mcp.call(
        &claude,
        &session,
        "tools/call",
        json!({"name": "echo", "arguments": {"input": "x"}}),
    );
    assert_eq!(
        offline["result"]["structuredContent"]["error"]["code"],
        "owner_offline"
    );
}

#[test]
fn resources_are_read_and_their_changes_noticed() {
    let (mut mcp, owner, claude) = Mcp::owner_and_claude("agent:writer");
    notes(&mut mcp, &owner);
    let session = mcp.init(&claude, "2025-11-25");
    let listed = mcp.call(&claude, &session, "resources/list", json!({}));
    let uri = "openagents://demo/resource/file/notes.md";
    assert_eq!(listed["result"]["resources"][0]["uri"], uri);
    assert_eq!(
        listed["result"]["resources"][0]["mimeType"],
        "text/markdown"
    );
    let read = mcp.call(&claude, &session, "resources/read", json!({"uri": uri}));
    assert_eq!(read["result"]["contents"][0]["text"], "hello");
    let missing = mcp.call(
        &claude,
        &session,
        "resources/read",
        json!({"uri": "openagents://demo/resource/file/none"}),
    );
    assert_eq!(missing["error"]["code"], -32002);
    mcp.call(
        &claude,
        &session,
        "resources/subscribe",
        json!({"uri": uri}),
    );
    assert!(
        mcp.world.host.mcp_sessions[&session]
            .subscriptions
            .contains(uri)
    );
    // The owner replaces the text: the effects say the document was updated.
    let from = mcp.world.host.applied.len();
    mcp.send(&owner, json!({"type": "network.resource.update", "target": "resource/file/notes.md", "payload": {"content": "bye"}}));
    let notices: Vec<Notice> = mcp.world.host.applied[from..]
        .iter()
        .flat_map(of_effect)
        .collect();
    assert!(
        notices.contains(&Notice::ResourceUpdated(
            "resource/file/notes.md".parse().unwrap()
        )),
        "{notices:?}"
    );
    let read = mcp.call(&claude, &session, "resources/read", json!({"uri": uri}));
    assert_eq!(read["result"]["contents"][0]["text"], "bye");
}

#[test]
fn a_resource_is_read_as_text_with_its_type_when_it_has_one() {
    let (mut mcp, owner, claude) = Mcp::owner_and_claude("agent:writer");
    register(
        &mut mcp,
        &owner,
        json!({"address": "resource/file/data.json", "content": {"a": [1, "b"]}}),
    );
    notes(&mut mcp, &owner);
    let session = mcp.init(&claude, "2025-11-25");
    let read = |mcp: &mut Mcp, name: &str| {
        let uri = format!("openagents://demo/resource/file/{name}");
        mcp.call(&claude, &session, "resources/read", json!({"uri": uri}))["result"]["contents"][0]
            .clone()
    };
    assert_eq!(
        read(&mut mcp, "data.json"),
        json!({"uri": "openagents://demo/resource/file/data.json", "text": "{\"a\":[1,\"b\"]}"})
    );
    assert_eq!(
        read(&mut mcp, "notes.md"),
        json!({"uri": "openagents://demo/resource/file/notes.md", "text": "hello",
               "mimeType": "text/markdown"})
    );
}

#[test]
fn skills_are_prompts() {
    let (mut mcp, owner, claude) = Mcp::owner_and_claude("agent:writer");
    register(
        &mut mcp,
        &owner,
        json!({"address": "resource/context/review.SKILL.md",
        "content": "---\nname: review\ndescription: Reviews a change\n---\nRead the diff, then comment."}),
    );
    register(
        &mut mcp,
        &owner,
        json!({"address": "resource/context/brief", "content": "not a skill"}),
    );
    let session = mcp.init(&claude, "2025-06-18");
    let listed = mcp.call(&claude, &session, "prompts/list", json!({}));
    assert_eq!(
        listed["result"]["prompts"],
        json!([{"name": "review", "title": "resource/context/review.SKILL.md"}])
    );
    let got = mcp.call(&claude, &session, "prompts/get", json!({"name": "review"}));
    assert_eq!(got["result"]["description"], "Reviews a change");
    assert_eq!(
        got["result"]["messages"][0]["content"]["text"],
        "Read the diff, then comment."
    );
    assert_eq!(
        mcp.call(&claude, &session, "prompts/get", json!({"name": "nope"}))["error"]["code"],
        -32602
    );
}

#[test]
fn the_built_ins_post_read_list_and_join() {
    let mut mcp = Mcp::new();
    let ann = mcp.world.join("human:ann");
    let claude = mcp.world.join("agent:claude");
    let session = mcp.init(&claude, "2025-11-25");
    let tool = |mcp: &mut Mcp, name: &str, args: Value| {
        mcp.call(
            &claude,
            &session,
            "tools/call",
            json!({"name": name, "arguments": args}),
        )["result"]
            .clone()
    };
    let created = tool(
        &mut mcp,
        "agentnet_channel",
        json!({"action": "create", "channel": "room"}),
    );
    assert_eq!(created["isError"], false, "{created}");
    let posted = tool(
        &mut mcp,
        "agentnet_post",
        json!({"to": "agent:broadcast", "text": "hi all"}),
    );
    assert!(posted["structuredContent"]["seq"].is_u64(), "{posted}");
    let members = tool(&mut mcp, "agentnet_members", json!({}));
    let agents = members["structuredContent"]["agents"].as_array().unwrap();
    assert!(
        agents
            .iter()
            .any(|a| a["address"] == "human:ann" && a["status"] == "online"),
        "{members}"
    );
    // Nothing new yet: a read with wait_ms waits; ann's message wakes it.
    let read = rpc(
        9,
        "tools/call",
        json!({"name": "agentnet_read", "arguments": {"wait_ms": 5000}}),
    );
    let waiting = match mcp.handle(&post(Some(&claude), Some(&session), &read)) {
        Outcome::Stream { mut waits, .. } => waits.pop().unwrap(),
        other => panic!("expected a waiting read, got {other:?}"),
    };
    let from = mcp.world.host.applied.len();
    mcp.send(&ann, json!({"type": "workspace.message.posted", "target": "agent:claude", "payload": {"content": "hello claude"}}));
    let arrival = mcp
        .wakes(from, &waiting)
        .expect("ann's message wakes the read");
    let result = mcp.finish(&waiting, arrival);
    let events = result["structuredContent"]["events"].as_array().unwrap();
    assert_eq!(events.len(), 1, "{result}");
    assert_eq!(events[0]["event"]["payload"]["content"], "hello claude");
    let next = result["structuredContent"]["next_after"].clone();
    let again = tool(&mut mcp, "agentnet_read", json!({"after": next}));
    assert_eq!(again["structuredContent"]["events"], json!([]));
    let bad = mcp.call(
        &claude,
        &session,
        "tools/call",
        json!({"name": "agentnet_post", "arguments": {"to": "nobody!"}}),
    );
    assert_eq!(bad["error"]["code"], -32602);
    let _ = json_of;
}

#[test]
fn a_client_that_takes_only_json_gets_its_answer_held() {
    let (mut mcp, owner, claude) = Mcp::owner_and_claude("agent:calculator");
    calculator(&mut mcp, &owner, json!(null));
    let session = mcp.init(&claude, "2025-06-18");
    let mut req = post(
        Some(&claude),
        Some(&session),
        &rpc(3, "tools/call", json!({"name": "add", "arguments": {}})),
    );
    req.headers.retain(|(n, _)| n != "Accept");
    let req = req.with_header("Accept", "application/json");
    let Outcome::Hold {
        ready,
        waits,
        batch: false,
    } = mcp.handle(&req)
    else {
        panic!("a held answer")
    };
    assert!(ready.is_empty());
    assert_eq!(waits.len(), 1);
    assert_eq!(
        super::super::outcome::assemble(Vec::new(), false).status,
        202
    );
}

#[test]
fn a_waiting_read_woken_with_nothing_new_waits_on() {
    let (mut mcp, claude) = Mcp::with_claude();
    let session = mcp.init(&claude, "2025-11-25");
    let read = rpc(
        9,
        "tools/call",
        json!({"name": "agentnet_read", "arguments": {"wait_ms": 1000}}),
    );
    let Outcome::Stream { mut waits, .. } = mcp.handle(&post(Some(&claude), Some(&session), &read))
    else {
        panic!("a waiting read")
    };
    let waiting = waits.pop().unwrap();
    // Something woke it, but there is nothing to read: it waits on; at its deadline it answers empty.
    let stray = crate::Event::decode(
        &json!({"id": "01HQV2WA00000000000000000A", "type": "x.y", "source": "agent:a", "target": "agent:claude",
            "payload": {}, "timestamp": 1}).to_string(),
        &crate::Limits::default(),
    )
    .unwrap();
    assert_eq!(
        mcp.finish_or_wait(&waiting, Arrival::Delivered(Box::new(stray))),
        None
    );
    let empty = mcp.finish(&waiting, Arrival::TimedOut);
    assert_eq!(empty["structuredContent"]["events"], json!([]));
}

#[test]
fn the_guards_see_every_call_a_session_makes() {
    use crate::model::config::{ModConfig, RateLimit};
    let mut mcp = Mcp::new();
    let mut config = crate::NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.mods = vec![ModConfig::RateLimiter(RateLimit {
        burst: 3,
        per_second: 0.0,
    })];
    mcp.world.network = crate::Network::new(config, [], 0, [7; 32]);
    let claude = mcp.world.join("agent:claude");
    let session = mcp.init(&claude, "2025-11-25");
    // A join is counted where it came from, not against the member: three listings take the three tokens.
    for _ in 0..3 {
        assert!(mcp.call(&claude, &session, "tools/list", json!({}))["result"].is_object());
    }
    let listed = mcp.call(&claude, &session, "tools/list", json!({}));
    assert_eq!(
        (
            listed["error"]["code"].clone(),
            listed["error"]["data"]["code"].clone()
        ),
        (json!(-31000), json!("rate_limited"))
    );
    let posted = mcp.call(
        &claude,
        &session,
        "tools/call",
        json!({"name": "agentnet_post", "arguments": {"to": "agent:broadcast", "text": "hi"}}),
    );
    assert_eq!(posted["result"]["isError"], true);
    assert_eq!(
        posted["result"]["structuredContent"]["error"]["code"],
        "rate_limited"
    );
}

#[test]
fn a_trace_context_in_meta_is_carried_by_the_events_a_call_causes() {
    const PARENT: &str = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const HEADER: &str = "00-11111111111111111111111111111111-2222222222222222-01";
    let mut mcp = Mcp::new();
    mcp.world.join("human:ann");
    let claude = mcp.world.join("agent:claude");
    let session = mcp.init(&claude, "2025-11-25");
    let posted_with = |mcp: &mut Mcp, meta: Value, header: Option<&str>| {
        let body = rpc(
            3,
            "tools/call",
            json!({"name": "agentnet_post", "_meta": meta,
                "arguments": {"to": "human:ann", "text": "traced"}}),
        );
        let mut req = post(Some(&claude), Some(&session), &body);
        if let Some(header) = header {
            req = req.with_header("traceparent", header);
        }
        let from = mcp.world.host.applied.len();
        assert_eq!(mcp.respond(&req).status, 200);
        mcp.world.host.applied[from..]
            .iter()
            .find_map(|effect| match effect {
                crate::network::Effect::Deliver { to, event, .. }
                    if to.iter().any(|a| a.to_string() == "human:ann") =>
                {
                    Some(event.metadata.clone())
                }
                _ => None,
            })
            .expect("the post reaches ann")
    };
    let traced = posted_with(
        &mut mcp,
        json!({"traceparent": PARENT, "tracestate": "vendor=1"}),
        None,
    );
    assert_eq!(traced["traceparent"], PARENT);
    assert_eq!(traced["tracestate"], "vendor=1");
    // The request's own context is more specific than its HTTP header's.
    let both = posted_with(&mut mcp, json!({"traceparent": PARENT}), Some(HEADER));
    assert_eq!(both["traceparent"], PARENT);
    // A malformed one is dropped: the header's context (or none) applies.
    let bad = posted_with(&mut mcp, json!({"traceparent": "nope"}), Some(HEADER));
    assert_eq!(bad["traceparent"], HEADER);
    let none = posted_with(&mut mcp, json!({"progressToken": 1}), None);
    assert!(!none.contains_key("traceparent"), "{none:?}");
}
