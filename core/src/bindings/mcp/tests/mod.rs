//! MCP driven natively: the transport in front of a network in memory, as an
//! SDK client would drive it (handshakes, sessions, errors, streams).

mod anp;
mod calls;
mod didwba;
mod elicit;
mod modern;
mod retries;

use super::outcome::Outcome;
use super::streams::Streams;
use super::transport::handle;
use super::waiting::{Arrival, WaitFor, Waiting};
use crate::Timestamp;
use crate::bindings::message::{Body, Method, Request, Response};
use crate::bindings::tests::world::World;
use crate::ids::ulid::EventId;
use crate::network::Effect;
use serde_json::{Value, json};

const URL: &str = "https://edge.test/networks/demo/mcp";

/// A network, its MCP streams, and helpers to speak to it.
pub(super) struct Mcp {
    pub(super) world: World,
    pub(super) streams: Streams,
}

pub(super) fn post(token: Option<&str>, session: Option<&str>, body: &str) -> Request {
    let mut req = Request::new(Method::Post, URL)
        .with_header("Accept", "application/json, text/event-stream")
        .with_header("Content-Type", "application/json")
        .with_body(body);
    if let Some(token) = token {
        req = req.with_header("Authorization", &format!("Bearer {token}"));
    }
    if let Some(session) = session {
        req = req.with_header("Mcp-Session-Id", session);
    }
    req
}

pub(super) fn rpc(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

pub(super) fn json_of(response: &Response) -> Value {
    match &response.body {
        Body::Json(value) => value.clone(),
        Body::Text(text) => panic!("not JSON: {text:?} ({})", response.status),
    }
}

impl Mcp {
    pub(super) fn new() -> Self {
        Self {
            world: World::new(),
            streams: Streams::default(),
        }
    }

    /// A network where `agent:claude` joined; its token.
    pub(super) fn with_claude() -> (Self, String) {
        let mut mcp = Self::new();
        let claude = mcp.world.join("agent:claude");
        (mcp, claude)
    }

    /// A network where `owner` and then `agent:claude` joined; their tokens.
    pub(super) fn owner_and_claude(owner: &str) -> (Self, String, String) {
        let mut mcp = Self::new();
        let owner = mcp.world.join(owner);
        let claude = mcp.world.join("agent:claude");
        (mcp, owner, claude)
    }

    /// `owner` answers `caller`'s invocation `event` with `output`: how many effects the
    /// host had applied before.
    pub(super) fn answer_invocation(
        &mut self,
        owner: &str,
        caller: &str,
        event: &EventId,
        output: Value,
    ) -> usize {
        let from = self.world.host.applied.len();
        let metadata = json!({"in_reply_to": event.to_string()});
        let payload = json!({"output": output});
        let type_ = "network.resource.invoke.result";
        self.send(
            owner,
            json!({"type": type_, "target": caller, "payload": payload, "metadata": metadata}),
        );
        from
    }

    /// The invocation `waiting` waits for: its id, and its source and payload as logged.
    pub(super) fn invocation(&self, waiting: &Waiting) -> (EventId, (String, Value)) {
        let WaitFor::Invoke { event, .. } = &waiting.wait else {
            panic!("an invocation")
        };
        let logged = self
            .world
            .host
            .log
            .log
            .iter()
            .find(|r| r.event.id == *event);
        let logged = logged.unwrap_or_else(|| panic!("{event} is not logged"));
        let source = logged.event.source.to_string();
        (*event, (source, logged.event.payload.clone()))
    }

    pub(super) fn handle(&mut self, req: &Request) -> Outcome {
        self.world.host.now += 1;
        let Ok(outcome) = handle(
            &mut self.world.host,
            &mut self.world.network,
            &mut self.streams,
            req,
        );
        outcome
    }

    pub(super) fn respond(&mut self, req: &Request) -> Response {
        match self.handle(req) {
            Outcome::Respond(response) => response,
            other => panic!("expected a response, got {other:?}"),
        }
    }

    /// `initialize` in `revision`; answers the session id.
    pub(super) fn init(&mut self, token: &str, revision: &str) -> String {
        let body = rpc(
            0,
            "initialize",
            json!({"protocolVersion": revision, "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}),
        );
        let response = self.respond(&post(Some(token), None, &body));
        assert_eq!(response.status, 200, "{response:?}");
        assert_eq!(json_of(&response)["result"]["protocolVersion"], revision);
        response
            .header("Mcp-Session-Id")
            .expect("a session id")
            .to_owned()
    }

    /// A request in a session; answers the JSON response.
    pub(super) fn call(
        &mut self,
        token: &str,
        session: &str,
        method: &str,
        params: Value,
    ) -> Value {
        // Request ids are unique within a session (a reused one is a retry).
        let id = self.world.host.now + 1;
        let response = self.respond(&post(Some(token), Some(session), &rpc(id, method, params)));
        assert_eq!(response.status, 200, "{response:?}");
        json_of(&response)
    }

    /// Sends an event as an HTTP member; answers the response body.
    pub(super) fn send(&mut self, token: &str, event: Value) -> Value {
        let req = Request::new(Method::Post, "https://edge.test/networks/demo/v1/events")
            .with_header("Authorization", &format!("Bearer {token}"))
            .with_body(event.to_string());
        let response = self.world.call(&req);
        assert!(response.status < 300, "{response:?}");
        json_of(&response)
    }

    /// The deliveries applied since `from`, that wake `waiting`.
    pub(super) fn wakes(&self, from: usize, waiting: &Waiting) -> Option<Arrival> {
        self.world
            .host
            .applied
            .get(from..)?
            .iter()
            .find_map(|effect| match effect {
                Effect::Deliver { to, event, .. } if waiting.wakes_on(to, event) => {
                    Some(Arrival::Delivered(Box::new(event.as_ref().clone())))
                }
                _ => None,
            })
    }

    /// Finishes a waiting request (`None`: it waits on).
    pub(super) fn finish_or_wait(&mut self, waiting: &Waiting, arrival: Arrival) -> Option<Value> {
        let (host, network) = (&mut self.world.host, &mut self.world.network);
        let Ok(result) = super::tools::finish(host, network, waiting, arrival);
        result
    }

    /// Finishes a waiting request that has its answer.
    pub(super) fn finish(&mut self, waiting: &Waiting, arrival: Arrival) -> Value {
        self.finish_or_wait(waiting, arrival).expect("an answer")
    }
}

fn error_code(value: &Value) -> i64 {
    value["error"]["code"].as_i64().unwrap_or_default()
}

#[test]
fn each_legacy_revision_initializes_a_session_of_the_member() {
    let (mut mcp, token) = Mcp::with_claude();
    for revision in ["2025-03-26", "2025-06-18", "2025-11-25"] {
        let session = mcp.init(&token, revision);
        let stored = &mcp.world.host.mcp_sessions[&session];
        assert_eq!(
            (stored.member.to_string(), stored.revision.as_str()),
            ("agent:claude".into(), revision)
        );
        let listed = mcp.call(&token, &session, "tools/list", json!({}));
        let names: Vec<&str> = listed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        assert_eq!(
            names,
            [
                "agentnet_post",
                "agentnet_read",
                "agentnet_members",
                "agentnet_channel",
                "ioa_space",
                "ioa_send",
                "ioa_read"
            ]
        );
        assert_eq!(
            mcp.call(&token, &session, "ping", json!({}))["result"],
            json!({})
        );
    }
    // A revision this server does not speak gets the newest legacy one.
    let body = rpc(
        0,
        "initialize",
        json!({"protocolVersion": "2024-11-05", "capabilities": {}}),
    );
    let response = mcp.respond(&post(Some(&token), None, &body));
    assert_eq!(
        json_of(&response)["result"]["protocolVersion"],
        "2025-11-25"
    );
    assert_eq!(
        json_of(&response)["result"]["capabilities"]["tools"]["listChanged"],
        true
    );
}

#[test]
fn strangers_get_401_with_a_pointer_to_the_metadata() {
    let mut mcp = Mcp::new();
    let body = rpc(0, "initialize", json!({"protocolVersion": "2025-11-25"}));
    for (token, invalid) in [(None, false), (Some("not-a-token"), true)] {
        let response = mcp.respond(&post(token, None, &body));
        assert_eq!(response.status, 401);
        let challenge = response.header("WWW-Authenticate").unwrap();
        assert!(challenge.starts_with(
            "Bearer resource_metadata=\"https://edge.test/.well-known/oauth-protected-resource/networks/demo/mcp\""
        ));
        assert_eq!(challenge.contains("invalid_token"), invalid);
    }
}

#[test]
fn a_session_belongs_to_its_member_and_its_revision() {
    let (mut mcp, claude) = Mcp::with_claude();
    let other = mcp.world.join("agent:other");
    let session = mcp.init(&claude, "2025-06-18");
    let list = rpc(1, "tools/list", json!({}));
    assert_eq!(mcp.respond(&post(Some(&claude), None, &list)).status, 400);
    assert_eq!(
        mcp.respond(&post(Some(&claude), Some("nope"), &list))
            .status,
        404
    );
    assert_eq!(
        mcp.respond(&post(Some(&other), Some(&session), &list))
            .status,
        404
    );
    let wrong = post(Some(&claude), Some(&session), &list)
        .with_header("MCP-Protocol-Version", "2025-03-26");
    assert_eq!(mcp.respond(&wrong).status, 400);
    let right = post(Some(&claude), Some(&session), &list)
        .with_header("MCP-Protocol-Version", "2025-06-18");
    assert_eq!(mcp.respond(&right).status, 200);
    // DELETE ends it; it is then unknown.
    let delete = Request {
        method: Method::Other("DELETE".into()),
        ..post(Some(&claude), Some(&session), "")
    };
    assert!(matches!(mcp.handle(&delete), Outcome::Ended { .. }));
    assert_eq!(
        mcp.respond(&post(Some(&claude), Some(&session), &list))
            .status,
        404
    );
}

#[test]
fn malformed_bodies_get_their_codes_and_harm_nothing() {
    let (mut mcp, token) = Mcp::with_claude();
    let session = mcp.init(&token, "2025-11-25");
    for (body, status, code) in [
        ("{not json", 400, -32700),
        (r#"{"jsonrpc":"2.0","id":1}"#, 400, -32600),
        (r#"{"jsonrpc":"1.0","id":1,"method":"ping"}"#, 400, -32600),
        ("[]", 400, -32600),
        (r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#, 400, -32600),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"no/such"}"#,
            200,
            -32601,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}"#,
            200,
            -32602,
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":3}}"#,
            200,
            -32602,
        ),
    ] {
        let response = mcp.respond(&post(Some(&token), Some(&session), body));
        assert_eq!(
            (response.status, error_code(&json_of(&response))),
            (status, code),
            "{body}"
        );
    }
    let limit = mcp.world.network.config().limits.max_frame_bytes;
    let huge = rpc(1, "ping", json!({"pad": "x".repeat(limit)}));
    assert_eq!(
        mcp.respond(&post(Some(&token), Some(&session), &huge))
            .status,
        413
    );
    let with = |name: &str, value: &str| {
        let mut req = post(Some(&token), Some(&session), "{}");
        req.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        req.with_header(name, value)
    };
    assert_eq!(mcp.respond(&with("Content-Type", "text/plain")).status, 415);
    assert_eq!(mcp.respond(&with("Accept", "text/html")).status, 406);
    // The session and the network are unharmed.
    assert_eq!(
        mcp.call(&token, &session, "ping", json!({}))["result"],
        json!({})
    );
}

#[test]
fn batches_only_in_2025_03_26() {
    let (mut mcp, token) = Mcp::with_claude();
    let old = mcp.init(&token, "2025-03-26");
    let batch = format!(
        "[{}, {}, {}, 7]",
        rpc(1, "ping", json!({})),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        rpc(2, "no/such", json!({}))
    );
    let response = mcp.respond(&post(Some(&token), Some(&old), &batch));
    let answers = json_of(&response);
    assert_eq!(answers.as_array().map(Vec::len), Some(3), "{answers}");
    assert_eq!(answers[0]["result"], json!({}));
    assert_eq!(error_code(&answers[1]), -32601);
    assert_eq!(error_code(&answers[2]), -32600);
    let newer = mcp.init(&token, "2025-06-18");
    let refused = mcp.respond(&post(Some(&token), Some(&newer), &batch));
    assert_eq!(
        (refused.status, error_code(&json_of(&refused))),
        (400, -32600)
    );
    let notes = format!(
        "[{}]",
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
    );
    assert_eq!(
        mcp.respond(&post(Some(&token), Some(&old), &notes)).status,
        202
    );
}

#[test]
fn a_foreign_origin_is_forbidden() {
    let (mut mcp, token) = Mcp::with_claude();
    let req = post(
        Some(&token),
        None,
        &rpc(0, "initialize", json!({"protocolVersion": "2025-11-25"})),
    );
    for (origin, status) in [("https://evil.example", 403), ("https://edge.test", 200)] {
        let from = req.clone().with_header("Origin", origin);
        assert_eq!(mcp.respond(&from).status, status, "{origin}");
    }
}

#[test]
fn get_opens_the_notification_stream_and_resumes_a_dropped_one() {
    let (mut mcp, token) = Mcp::with_claude();
    let session = mcp.init(&token, "2025-11-25");
    let get = |last: Option<&str>| {
        let mut req = Request::new(Method::Get, URL)
            .with_header("Accept", "text/event-stream")
            .with_header("Authorization", &format!("Bearer {token}"))
            .with_header("Mcp-Session-Id", &session);
        if let Some(last) = last {
            req = req.with_header("Last-Event-ID", last);
        }
        req
    };
    let Outcome::Stream {
        stream,
        closes: false,
        ..
    } = mcp.handle(&get(None))
    else {
        panic!("a stream")
    };
    let first = mcp.streams.record(&stream, &json!({"n": 1})).unwrap();
    let id = first
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("id: ")
        .to_owned();
    let second = mcp.streams.record(&stream, &json!({"n": 2})).unwrap();
    mcp.streams
        .detach(&stream, Timestamp::from(mcp.world.host.now));
    let Outcome::Stream {
        stream: resumed,
        opening,
        closes: false,
        ..
    } = mcp.handle(&get(Some(&id)))
    else {
        panic!("a resumed stream")
    };
    assert_eq!((resumed, opening), (stream, vec![second]));
}
