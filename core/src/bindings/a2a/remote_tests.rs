//! Outbound A2A natively: reading a card, admitting its agent, the call a
//! delivered task becomes, and the answer fed back as the agent's events.

use super::{absorb, add_request, address_for, admit, call_for};
use crate::bindings::a2a::remote_card::RemoteCard;
use crate::bindings::a2a::version::Version;
use crate::bindings::message::{Method, Request};
use crate::bindings::tests::world::World;
use crate::model::state::Row;
use crate::model::task::TaskState;
use crate::network::Effect;
use crate::{Address, Network};
use serde_json::{Value, json};

fn card_v1() -> Value {
    json!({"name": "Weather Bot", "skills": [{"id": "forecast", "name": "Forecast", "description": "tomorrow's weather"}],
        "supportedInterfaces": [{"url": "http://agents.example:9/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]})
}

/// A world whose network has `agent:boss` as a master, joined.
fn with_master() -> (World, String, String) {
    let mut world = World::new();
    let mut config = world.network.config().clone();
    config.masters = vec!["agent:boss".parse().unwrap()];
    world.network = Network::new(config, [], 0, [7; 32]);
    let boss = world.join("agent:boss");
    let alice = world.join("agent:alice");
    (world, boss, alice)
}

fn add(world: &mut World, token: &str) -> Result<String, u16> {
    add_card(
        world,
        token,
        "http://agents.example:9/.well-known/agent-card.json",
    )
    .map_err(|(status, _)| status)
}

fn add_card(world: &mut World, token: &str, card_url: &str) -> Result<String, (u16, Value)> {
    let req = Request::new(Method::Post, "https://edge.test/networks/demo/a2a/remotes")
        .with_header("Authorization", &format!("Bearer {token}"))
        .with_body(json!({ "card_url": card_url }).to_string());
    match add_request(&mut world.host, &world.network, &req) {
        Ok(answer) => answer.into_result().map_err(|r| {
            let reason = r
                .json_body()
                .map(|b| b["reason"].clone())
                .unwrap_or_default();
            (r.status, reason)
        }),
        Err(never) => match never {},
    }
}

/// Creates a task with `req` (a `task.create`) and answers its id and `call` made for it.
fn new_task(world: &mut World, req: &Request, call: &super::Call) -> (String, super::Call) {
    let id = world
        .call(req)
        .json_body()
        .and_then(|a| a["id"].as_str())
        .unwrap_or_default()
        .to_owned();
    let call = super::Call {
        task: id.parse().unwrap(),
        ..call.clone()
    };
    (id, call)
}

/// A card, and the endpoint a card names, on a host that is not
/// public is refused (in any spelling), and a stored endpoint the policy now
/// refuses is not called.
#[test]
fn cards_and_endpoints_on_hosts_that_are_not_public_are_refused() {
    let (mut world, boss, _) = with_master();
    for card_url in [
        "http://127.0.0.1:9/card.json",
        "http://localhost:9/card.json",
        "http://2130706433:9/card.json",
        "http://[::1]:9/card.json",
        "http://10.0.0.7/card.json",
    ] {
        assert_eq!(
            add_card(&mut world, &boss, card_url),
            Err((400, json!("url_private_address"))),
            "{card_url}"
        );
    }
    let mut card = card_v1();
    card["supportedInterfaces"][0]["url"] = json!("http://127.0.0.1:9/rpc");
    let url = add(&mut world, &boss).unwrap_or_else(|s| panic!("refused {s}"));
    let Ok(answer) = admit(&mut world.host, &mut world.network, &url, &card);
    assert_eq!(answer.status, 400, "{answer:?}");
    assert_eq!(
        answer.json_body().map(|b| b["reason"].clone()),
        Some(json!("url_private_address"))
    );
    // The operator may allow it; the URL kept is the parser's reading.
    world
        .network
        .set_outbound(crate::outbound::OutboundPolicy::allowing(["127.0.0.1"]));
    assert_eq!(
        add_card(&mut world, &boss, "http://0x7f.1:9/card.json"),
        Ok("http://127.0.0.1:9/card.json".into())
    );
}

fn endpoint_of(card: &Value) -> Option<(String, Version)> {
    RemoteCard::of(card).endpoint()
}

#[test]
fn cards_give_an_address_and_an_endpoint() {
    assert_eq!(
        address_for("Weather Bot!").map(|a| a.to_string()),
        Some("agent:weather-bot".into())
    );
    assert_eq!(
        endpoint_of(&card_v1()),
        Some(("http://agents.example:9/rpc".into(), Version::V1))
    );
    let old = json!({"name": "x", "url": "http://h/a2a", "protocolVersion": "0.3.0"});
    assert_eq!(
        endpoint_of(&old),
        Some(("http://h/a2a".into(), Version::V03))
    );
    assert_eq!(endpoint_of(&json!({"name": "x"})), None);
}

#[test]
fn a_card_is_read_leniently_field_by_field() {
    // Interfaces that do not read are passed over; the binding's case does not matter.
    let card = json!({"url": "http://h/old", "supportedInterfaces": [
        7,
        {"protocolBinding": "JSONRPC", "protocolVersion": 1, "url": "http://h/number"},
        {"protocolBinding": "GRPC", "protocolVersion": "1.0", "url": "http://h/grpc"},
        {"protocolBinding": "jsonrpc", "protocolVersion": "1.0", "url": 5},
        {"protocolBinding": "jsonrpc", "protocolVersion": "0.3.1", "url": "http://h/v03"},
        {"protocolBinding": "JsonRpc", "protocolVersion": "1.1", "url": "http://h/v1"}]});
    assert_eq!(
        endpoint_of(&card),
        Some(("http://h/v1".into(), Version::V1))
    );
    let v03 = json!({"supportedInterfaces": [{"protocolBinding": "JSONRPC", "protocolVersion": "0.3", "url": "http://h/v03"}], "url": "http://h/old"});
    assert_eq!(
        endpoint_of(&v03),
        Some(("http://h/v03".into(), Version::V03))
    );
    for card in [
        json!({"supportedInterfaces": "x", "url": "http://h/old"}),
        json!({"supportedInterfaces": [{"protocolBinding": "GRPC"}], "url": "http://h/old"}),
    ] {
        assert_eq!(
            endpoint_of(&card),
            Some(("http://h/old".into(), Version::V03))
        );
    }
    for card in [
        json!({"url": 5}),
        json!(["http://h/a"]),
        json!("http://h/a"),
    ] {
        assert_eq!(endpoint_of(&card), None, "{card}");
    }

    // Skills without a usable id are passed over; a name or description that is not text is empty.
    let (mut world, boss, _) = with_master();
    let url = add(&mut world, &boss).unwrap_or_else(|s| panic!("refused {s}"));
    let mut card = card_v1();
    card["skills"] = json!([7, {"name": "no id"}, {"id": 3}, {"id": "!!"},
        {"id": "Sum Up", "name": 1, "description": "adds"}, {"id": "plain"}]);
    let Ok(answer) = admit(&mut world.host, &mut world.network, &url, &card);
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(
        answer.json_body().unwrap()["tools"],
        json!(["resource/tool/sum-up", "resource/tool/plain"])
    );
    let described = |name: &str| {
        let tool: Address = format!("resource/tool/{name}").parse().unwrap();
        world.network.state().resources[&tool].description.clone()
    };
    assert_eq!(described("sum-up"), ": adds");
    assert_eq!(described("plain"), ": ");

    // A card without a name, or whose name is not text, is refused.
    for nameless in [
        json!({"url": "http://h/a"}),
        json!({"name": 5, "url": "http://h/a"}),
        json!([]),
    ] {
        let Ok(answer) = admit(&mut world.host, &mut world.network, &url, &nameless);
        assert_eq!(answer.status, 400, "{nameless}");
    }
}

#[test]
fn a_master_adds_an_agent_whose_tasks_become_calls_and_answers_events() {
    let (mut world, boss, alice) = with_master();
    assert_eq!(
        add(&mut world, &alice),
        Err(403),
        "members other than masters may not"
    );
    let url = add(&mut world, &boss).unwrap_or_else(|s| panic!("refused {s}"));
    let Ok(answer) = admit(&mut world.host, &mut world.network, &url, &card_v1());
    assert_eq!(answer.status, 201, "{answer:?}");
    let bot: Address = "agent:weather-bot".parse().unwrap();
    assert!(world.network.state().members.contains_key(&bot));
    let tool: Address = "resource/tool/forecast".parse().unwrap();
    assert_eq!(world.network.state().resources[&tool].owner, bot);
    // Nobody joins as it.
    let join = Request::new(Method::Post, "https://edge.test/networks/demo/v1/join")
        .with_body(json!({"agent_id": "agent:weather-bot"}).to_string());
    assert_eq!(world.call(&join).status, 403);

    // A task for it is delivered to it, and the delivery is a SendMessage call.
    let from = world.host.applied.len();
    let req = Request::new(Method::Post, "https://edge.test/networks/demo/v1/events")
        .with_header("Authorization", &format!("Bearer {alice}"))
        .with_body(json!({"type": "task.create", "target": "agent:weather-bot", "payload": {"parts": [{"text": "Oslo?"}]}}).to_string());
    assert_eq!(world.call(&req).status, 200);
    let delivered = world.host.applied[from..].iter().find_map(|e| match e {
        Effect::Deliver { to, event, .. } if to.contains(&bot) => Some(event.clone()),
        _ => None,
    });
    let event = delivered.unwrap_or_else(|| panic!("no delivery to the bot"));
    let call = call_for(&world.network, &bot, &event).unwrap_or_else(|| panic!("no call"));
    assert_eq!(call.url, "http://agents.example:9/rpc");
    assert_eq!(call.body["method"], "SendMessage");
    assert_eq!(
        call.body["params"]["message"]["parts"],
        json!([{"text": "Oslo?"}])
    );
    assert_eq!(call.body["params"]["message"]["role"], "ROLE_USER");
    assert_eq!(
        call_for(&world.network, &"agent:alice".parse().unwrap(), &event),
        None
    );

    let remote = json!({"jsonrpc": "2.0", "id": 1, "result": {"task": {"id": "r-1", "contextId": "c",
        "status": {"state": "TASK_STATE_COMPLETED", "message": {"role": "ROLE_AGENT", "parts": [{"text": "sunny"}]}},
        "artifacts": [{"artifactId": "f1", "name": "forecast", "parts": [{"text": "12C"}]}]}}});
    let Ok(()) = absorb(&mut world.host, &mut world.network, &call, Ok(remote));
    let task = &world.network.state().tasks[&call.task];
    assert_eq!(task.state, TaskState::Completed);
    assert_eq!(task.external.as_deref(), Some("r-1"));
    assert_eq!(task.artifacts[0].parts, vec![json!({"text": "12C"})]);
    assert_eq!(
        task.status.as_ref().map(|s| s.parts.clone()),
        Some(vec![json!({"text": "sunny"})])
    );
    // The bot's own events reached alice.
    let to_alice = world
        .host
        .applied
        .iter()
        .filter(|e| {
            matches!(e, Effect::Deliver { to, event, .. }
        if to.iter().any(|t| t.to_string() == "agent:alice") && event.source == bot)
        })
        .count();
    assert_eq!(to_alice, 3, "working, the artifact, completed");
    assert!(
        world
            .host
            .applied
            .iter()
            .any(|e| matches!(e, Effect::Store(Row::Remote(r)) if r.address == bot))
    );

    // A call that fails ends its task failed.
    let req = Request::new(Method::Post, "https://edge.test/networks/demo/v1/events")
        .with_header("Authorization", &format!("Bearer {alice}"))
        .with_body(json!({"type": "task.create", "target": "agent:weather-bot", "payload": {"parts": [{"text": "Rome?"}]}}).to_string());
    let (id, call) = new_task(&mut world, &req, &call);
    let Ok(()) = absorb(
        &mut world.host,
        &mut world.network,
        &call,
        Err("connection refused".into()),
    );
    assert_eq!(
        world.network.state().tasks[id.as_str()].state,
        TaskState::Failed
    );

    // A remote that answers with a message answers the network's callers with it too.
    let (id, call) = new_task(&mut world, &req, &call);
    let said = json!({"jsonrpc": "2.0", "id": 1, "result": {"message": {"messageId": "x",
        "role": "ROLE_AGENT", "parts": [{"text": "warm"}]}}});
    let Ok(()) = absorb(&mut world.host, &mut world.network, &call, Ok(said));
    let task = &world.network.state().tasks[id.as_str()];
    assert_eq!(task.state, TaskState::Completed);
    assert!(task.answered_by_message);
}
