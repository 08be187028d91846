//! Approvals through MCP elicitation: who is asked (an approver connected
//! with a client that takes elicitation, nobody else), the request and its
//! form per revision, and each answer as the member's decision.

use super::*;
use crate::Timestamp;
use crate::bindings::jsonrpc::Id;
use crate::bindings::mcp::elicit::{Asked, ask, asks, cancelled, closed, supports};
use crate::bindings::mcp::elicit_answer::{Answered, ElicitError, answer, decision_of};
use crate::bindings::mcp::revision::Revision;
use crate::error::{Coded, ErrorCode};
use crate::model::config::{ModConfig, NetworkConfig, WorkspaceSettings};
use crate::vocabulary::approvals::Decision;
use crate::vocabulary::event_types::{
    APPROVAL_DECIDED as DECIDED, APPROVAL_REQUESTED as REQUESTED,
};
use crate::{Address, Event, Network};
use std::rc::Rc;

const HOUR: u64 = 3_600_000;

/// A workspace network whose master is `human:boss`.
fn workspace() -> Mcp {
    let mut mcp = Mcp::new();
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.mods = vec![ModConfig::Workspace(WorkspaceSettings::default())];
    config.masters = vec!["human:boss".parse().unwrap()];
    mcp.world.network = Network::new(config, [], 0, [7; 32]);
    mcp
}

impl Mcp {
    /// `initialize` declaring `capabilities`, then the session's `GET` stream: (session, stream).
    fn connect(&mut self, token: &str, revision: &str, capabilities: Value) -> (String, String) {
        let body = rpc(
            0,
            "initialize",
            json!({"protocolVersion": revision, "capabilities": capabilities,
                   "clientInfo": {"name": "test", "version": "1"}}),
        );
        let response = self.respond(&post(Some(token), None, &body));
        let session = response
            .header("Mcp-Session-Id")
            .expect("a session")
            .to_owned();
        let get = Request::new(Method::Get, URL)
            .with_header("Accept", "text/event-stream")
            .with_header("Authorization", &format!("Bearer {token}"))
            .with_header("Mcp-Session-Id", &session);
        let Outcome::Stream { stream, .. } = self.handle(&get) else {
            panic!("a notification stream");
        };
        (session, stream)
    }

    /// What the network asks of its members' clients for `event` at `now`: [`asks`].
    fn asks(&self, event: &Event, now: u64) -> Vec<(String, Id, Value)> {
        asks(
            &self.world.network,
            &self.streams,
            event,
            Timestamp::from(now),
        )
    }

    /// The last event of `kind` the network delivered since `from`.
    fn delivered(&self, from: usize, kind: &str) -> Option<Rc<Event>> {
        self.world.host.applied[from..]
            .iter()
            .rev()
            .find_map(|effect| match effect {
                Effect::Deliver { event, .. } if event.event_type.as_str() == kind => {
                    Some(event.clone())
                }
                _ => None,
            })
    }

    /// `token`'s member asks approval of a tool call at `target`; the accepted request.
    fn ask_approval(&mut self, token: &str, target: &str, approvers: Value) -> Rc<Event> {
        let from = self.world.host.applied.len();
        let expires_at = self.world.host.now + HOUR;
        self.send(
            token,
            json!({"type": REQUESTED, "target": target, "payload": {
                "approvers": approvers,
                "action": {"kind": "tool_call", "subject": "send_offer",
                           "summary": "Send the offer to Ann", "detail": {"to": "ann@example.com"}},
                "expires_at": expires_at}}),
        );
        self.delivered(from, REQUESTED)
            .expect("the request is accepted")
    }

    /// `who` declines `asked`; the code of the network's refusal, if it refused.
    fn declined_by(&mut self, who: &str, asked: &Asked) -> Option<ErrorCode> {
        let who: Address = who.parse().unwrap();
        let (host, network) = (&mut self.world.host, &mut self.world.network);
        let decline = json!({"action": "decline"});
        match answer(host, network, &who, asked, Some(&decline)) {
            Ok(Answered::Failed(refused)) => Some(refused.code()),
            Ok(_) => None,
            Err(never) => match never {},
        }
    }

    /// `token`'s session answers request `id` with `result`; the HTTP status.
    fn answer(&mut self, token: &str, session: &str, id: &Value, result: Value) -> u16 {
        let body = json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string();
        self.respond(&post(Some(token), Some(session), &body))
            .status
    }
}

#[test]
fn form_mode_is_what_the_client_declared_in_a_revision_that_has_it() {
    let yes = json!({"elicitation": {}});
    assert!(supports(Revision::V2025_06_18, Some(&yes)));
    assert!(supports(Revision::V2025_11_25, Some(&yes)));
    assert!(supports(
        Revision::V2025_11_25,
        Some(&json!({"elicitation": {"form": {}, "url": {}}}))
    ));
    assert!(!supports(
        Revision::V2025_11_25,
        Some(&json!({"elicitation": {"url": {}}}))
    ));
    assert!(!supports(Revision::V2025_11_25, Some(&json!({}))));
    assert!(!supports(Revision::V2025_11_25, None));
    assert!(!supports(Revision::V2025_03_26, Some(&yes)));
    assert!(!supports(Revision::V2026_07_28, Some(&yes)));
}

#[test]
fn an_approval_asked_of_a_connected_master_is_an_elicitation_on_its_stream_only() {
    let mut mcp = workspace();
    let boss = mcp.world.join("human:boss");
    let ann = mcp.world.join("human:ann");
    let helper = mcp.world.join("agent:helper");
    let (_, capable) = mcp.connect(&boss, "2025-11-25", json!({"elicitation": {}}));
    // The master's other clients: one without the capability, one in a revision without elicitation.
    mcp.connect(&boss, "2025-11-25", json!({}));
    mcp.connect(&boss, "2025-03-26", json!({"elicitation": {}}));
    let (_, ann_stream) = mcp.connect(&ann, "2025-06-18", json!({"elicitation": {}}));

    // Naming nobody, to a place that is no person: the masters decide.
    let request = mcp.ask_approval(&helper, "agent:broadcast", json!([]));
    let now = mcp.world.host.now;
    let asked = mcp.asks(&request, now);
    assert_eq!(asked.len(), 1, "{asked:?}");
    let (stream, id, message) = &asked[0];
    assert_eq!(stream, &capable);
    assert_eq!(Asked::from_id(id), Asked::of_request(&request));
    assert_eq!(message["method"], "elicitation/create");
    assert_eq!(message["id"], id.to_value());
    let params = &message["params"];
    assert_eq!(params["mode"], "form");
    let text = params["message"].as_str().unwrap();
    for said in [
        "agent:helper asks for your approval",
        "Send the offer to Ann",
        "Tool call: send_offer",
        r#"Arguments: {"to":"ann@example.com"}"#,
        "expires in 60 minutes",
    ] {
        assert!(text.contains(said), "{said:?} in {text:?}");
    }
    let schema = &params["requestedSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["decision"]));
    assert_eq!(
        schema["properties"]["decision"]["oneOf"],
        json!([{"const": "approve", "title": "Approve"}, {"const": "deny", "title": "Deny"}])
    );
    for field in ["reason", "arguments"] {
        assert_eq!(schema["properties"][field]["type"], "string", "{field}");
    }
    // Flat: every property is a primitive.
    for (_, property) in schema["properties"].as_object().unwrap() {
        assert!(
            ["string", "number", "integer", "boolean"]
                .contains(&property["type"].as_str().unwrap())
        );
    }

    // Naming Ann: she is asked (2025-06-18's form: enum and enumNames), the master is not.
    let named = mcp.ask_approval(&helper, "agent:broadcast", json!(["human:ann"]));
    let asked = mcp.asks(&named, now);
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0].0, ann_stream);
    let decision = &asked[0].2["params"]["requestedSchema"]["properties"]["decision"];
    assert_eq!(decision["enum"], json!(["approve", "deny"]));
    assert_eq!(asked[0].2["params"].get("mode"), None);

    // Sent to someone without such a client, or asked of nobody connected: nothing.
    mcp.world.join("human:cy");
    let direct = mcp.ask_approval(&helper, "human:cy", json!([]));
    assert!(mcp.asks(&direct, now).is_empty());
    // No other event asks anything.
    let posted = mcp.ask_approval(&helper, "agent:broadcast", json!([]));
    let mut other = (*posted).clone();
    other.event_type = "workspace.message.posted".parse().unwrap();
    assert!(mcp.asks(&other, now).is_empty());
    assert_eq!(
        ask(Revision::V2025_11_25, &other, Timestamp::from(now)),
        None
    );
}

#[test]
fn each_answer_maps_to_a_decision_or_none() {
    let asked = Asked {
        approval: "01ARZ3NDEKTSV4RRFFQ69G5FAV".parse().unwrap(),
        requester: "agent:helper".parse().unwrap(),
        place: "human:boss".parse().unwrap(),
    };
    let decide = |result: Value| decision_of(&asked, Some(&result));
    let approved = decide(
        json!({"action": "accept", "content": {"decision": "approve",
        "arguments": " {\"to\": \"ann@work.example\"} ", "reason": "work address"}}),
    )
    .unwrap()
    .unwrap();
    assert_eq!(approved.decision, Decision::Approved);
    assert_eq!(approved.edited, Some(json!({"to": "ann@work.example"})));
    assert_eq!(approved.reason.as_deref(), Some("work address"));
    let plain =
        decide(json!({"action": "accept", "content": {"decision": "approve", "arguments": ""}}));
    assert_eq!(plain.unwrap().unwrap().edited, None);
    let text = decide(
        json!({"action": "accept", "content": {"decision": "approve", "text": "v2.0 is out"}}),
    );
    assert_eq!(text.unwrap().unwrap().edited, Some(json!("v2.0 is out")));
    let denied =
        decide(json!({"action": "accept", "content": {"decision": "deny", "reason": "not now"}}))
            .unwrap()
            .unwrap();
    assert_eq!(
        (denied.decision, denied.reason.as_deref()),
        (Decision::Denied, Some("not now"))
    );
    let declined = decide(json!({"action": "decline"})).unwrap().unwrap();
    assert_eq!(
        (declined.decision, declined.edited),
        (Decision::Denied, None)
    );
    assert_eq!(decide(json!({"action": "cancel"})), Ok(None));
    assert_eq!(decision_of(&asked, None), Ok(None));
    // An edit that is no object decides nothing; a result of another shape is refused.
    let bad_edit =
        decide(json!({"action": "accept", "content": {"decision": "approve", "arguments": "[1]"}}));
    assert_eq!(bad_edit, Err(ElicitError::InvalidEdit));
    for result in [
        json!({"action": "accept"}),
        json!({"action": "accept", "content": {"decision": "maybe"}}),
        json!({"action": "later"}),
        json!("accept"),
    ] {
        let refused = decide(result.clone()).unwrap_err();
        assert_eq!(refused.code(), ErrorCode::InvalidRequest, "{result}");
    }
    // The id carries the approval, and nothing else reads as one.
    assert_eq!(Asked::from_id(&asked.id()), Some(asked.clone()));
    assert_eq!(
        Asked::from_id(&crate::bindings::jsonrpc::Id::Number(3)),
        None
    );
    let extra = crate::bindings::jsonrpc::Id::Text(format!(
        "{} x",
        match asked.id() {
            crate::bindings::jsonrpc::Id::Text(t) => t,
            other => other.to_string(),
        }
    ));
    assert_eq!(Asked::from_id(&extra), None);
}

#[test]
fn the_answer_is_the_members_decision_checked_by_the_network() {
    let mut mcp = workspace();
    let boss = mcp.world.join("human:boss");
    let helper = mcp.world.join("agent:helper");
    let (session, _) = mcp.connect(&boss, "2025-11-25", json!({"elicitation": {"form": {}}}));
    let request = mcp.ask_approval(&helper, "human:boss", json!([]));
    let id = Asked::of_request(&request).unwrap().id().to_value();

    // Cancelled: no decision, the request stays open.
    let from = mcp.world.host.applied.len();
    assert_eq!(
        mcp.answer(&boss, &session, &id, json!({"action": "cancel"})),
        202
    );
    assert!(mcp.delivered(from, DECIDED).is_none());

    // Approved with an edit: the decision goes back to the agent, as the master.
    let edit = json!({"action": "accept", "content": {"decision": "approve", "arguments": "{\"to\": \"ann@work.example\"}"}});
    assert_eq!(mcp.answer(&boss, &session, &id, edit), 202);
    let decided = mcp.delivered(from, DECIDED).expect("a decision");
    assert_eq!(decided.source.to_string(), "human:boss");
    assert_eq!(decided.target.to_string(), "agent:helper");
    assert_eq!(decided.payload["decision"], "approved");
    assert_eq!(decided.payload["approval"], request.id.to_string());
    assert_eq!(decided.payload["edited"], json!({"to": "ann@work.example"}));
    // The host cancels the elicitations still out once it sees the decision.
    assert_eq!(closed(&decided), Some((request.id, "approved".into())));
    assert_eq!(closed(&request), None);
    let request_id = Asked::of_request(&request).unwrap().id();
    assert_eq!(
        cancelled(&request_id, "approved"),
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
               "params": {"requestId": id, "reason": "the approval was approved"}})
    );

    // A second answer is refused by the network with its code, and the client still gets 202.
    let from = mcp.world.host.applied.len();
    assert_eq!(
        mcp.answer(&boss, &session, &id, json!({"action": "decline"})),
        202
    );
    assert!(mcp.delivered(from, DECIDED).is_none());
    let asked = Asked::of_request(&request).unwrap();
    assert_eq!(
        mcp.declined_by("human:boss", &asked),
        Some(ErrorCode::AlreadyExists)
    );

    // Someone who is no approver answering a forged id: refused, nothing decided.
    let other = mcp.ask_approval(&helper, "human:boss", json!([]));
    let forged = Asked::of_request(&other).unwrap();
    mcp.world.join("human:ann");
    assert_eq!(
        mcp.declined_by("human:ann", &forged),
        Some(ErrorCode::Forbidden)
    );
}

#[test]
fn a_master_whose_client_was_away_is_asked_on_the_stream_it_opens_while_the_approval_is_open() {
    let mut mcp = workspace();
    let boss = mcp.world.join("human:boss");
    let helper = mcp.world.join("agent:helper");
    let request = mcp.ask_approval(&helper, "agent:broadcast", json!([]));
    let now = mcp.world.host.now;
    assert_eq!(
        crate::bindings::mcp::elicit::still_open(&mcp.world.network, Timestamp::from(now)),
        vec![request.id]
    );

    // The master's client connects afterwards: its new stream is asked, and only it.
    let (_, late) = mcp.connect(&boss, "2025-11-25", json!({"elicitation": {}}));
    let on = |mcp: &Mcp, stream: &str| {
        crate::bindings::mcp::elicit::asks_on(
            &mcp.world.network,
            &mcp.streams,
            stream,
            &request,
            Timestamp::from(now),
        )
    };
    let (id, message) = on(&mcp, &late).expect("the late client is asked");
    assert_eq!(Asked::from_id(&id), Asked::of_request(&request));
    assert_eq!(message["method"], "elicitation/create");
    assert!(on(&mcp, "another-stream").is_none());
    // A member who is not asked gets nothing on the stream they open.
    let ann = mcp.world.join("human:ann");
    let (_, anns) = mcp.connect(&ann, "2025-11-25", json!({"elicitation": {}}));
    assert!(
        on(&mcp, &anns).is_none(),
        "only the approvers' clients are asked"
    );

    // Expired or decided, nothing is open to ask about.
    assert!(
        crate::bindings::mcp::elicit::still_open(
            &mcp.world.network,
            Timestamp::from(now + 2 * HOUR)
        )
        .is_empty()
    );
    let asked = Asked::of_request(&request).unwrap();
    assert_eq!(mcp.declined_by("human:boss", &asked), None);
    assert!(
        crate::bindings::mcp::elicit::still_open(&mcp.world.network, Timestamp::from(now))
            .is_empty()
    );
}
