//! Member agents installed as mods: intercepts, verdicts, deadlines, policies.

use super::*;
use crate::ids::time::Timestamp;
use crate::network::pipeline::agent_mods::{INTERCEPT, VERDICT};

/// A network with `agent:boss` (master), `agent:alice` and the mod agent `agent:bot`
/// installed with `spec`.
fn with_mod(spec: Value) -> (Network, Peer, Peer) {
    let mut network = bare();
    let [mut boss, alice, bot] = join_all(&mut network, ["agent:boss", "agent:alice", "agent:bot"]);
    let mut spec = spec;
    spec["agent"] = json!("agent:bot");
    let installed = boss.ask(&mut network, MOD_LOAD, spec);
    assert!(
        network.config().agent_mods.len() == 1,
        "not installed: {installed:#?}"
    );
    (network, alice, bot)
}

/// The intercept delivered to `agent` among `effects`.
fn intercept_for(effects: &[Effect], agent: &str) -> Event {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Deliver { to, event, .. }
                if event.event_type.as_str() == INTERCEPT && to == &vec![addr(agent)] =>
            {
                Some((**event).clone())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no intercept for {agent} in {effects:#?}"))
}

/// What the sender `to` is delivered of type `kind`.
fn delivered_of(effects: &[Effect], to: &str, kind: &str) -> Option<Event> {
    effects.iter().find_map(|e| match e {
        Effect::Deliver { to: rs, event, .. }
            if event.event_type.as_str() == kind && rs.contains(&addr(to)) =>
        {
            Some((**event).clone())
        }
        _ => None,
    })
}

fn answer(
    network: &mut Network,
    bot: &mut Peer,
    intercept: &Event,
    verdict: Value,
    now: u64,
) -> Vec<Effect> {
    let mut payload = verdict;
    payload["intercept"] = json!(intercept.id);
    let event = bot.client.event(
        VERDICT.parse().unwrap(),
        addr("core"),
        payload,
        Timestamp::from(now),
    );
    network.handle_event(Some(&addr("agent:bot")), event, Timestamp::from(now))
}

/// A bare verdict, as a mod answers an interception.
fn verdict(verdict: &str) -> Value {
    json!({"verdict": verdict})
}

/// A network whose `agent:bot` guards every `chat.*` event.
fn chat_guard() -> (Network, Peer, Peer) {
    with_mod(json!({"patterns": ["chat.*"], "mode": "guard"}))
}

/// The intercept `agent:bot` receives for the `chat.msg` that `alice` broadcasts.
fn chat_intercept(network: &mut Network, alice: &mut Peer, payload: Value) -> Event {
    intercept_for(&alice.broadcast(network, "chat.msg", payload), "agent:bot")
}

#[test]
fn a_guard_holds_the_event_until_it_rejects_it_with_its_reason() {
    let (mut network, mut alice, mut bot) =
        with_mod(json!({"patterns": ["chat.*"], "mode": "guard", "priority": 1}));
    let sent = alice.broadcast(&mut network, "chat.msg", json!({"text": "darn"}));
    // Nothing logged, acked or delivered while the guard decides.
    assert!(
        !sent
            .iter()
            .any(|e| matches!(e, Effect::Append { .. } | Effect::Ack(_)))
    );
    let intercept = intercept_for(&sent, "agent:bot");
    assert_eq!(intercept.payload["mode"], "guard");
    assert_eq!(intercept.payload["event"]["payload"]["text"], "darn");
    assert_eq!(
        network
            .next_wakeup()
            .map(|t| t <= Timestamp::from(10 + 5_000)),
        Some(true)
    );

    let decided = answer(
        &mut network,
        &mut bot,
        &intercept,
        json!({"verdict": "reject", "reason": "rude"}),
        11,
    );
    let error = delivered_of(&decided, "agent:alice", core_types::EVENT_ERROR).unwrap();
    assert_eq!(error.payload["code"], "rejected_by_mod");
    assert!(error.payload["message"].as_str().unwrap().contains("rude"));
    assert!(!decided.iter().any(|e| matches!(e, Effect::Append { .. })));
    // A second verdict finds nothing waiting.
    let again = answer(&mut network, &mut bot, &intercept, verdict("allow"), 12);
    assert_eq!(error_code(&again), ErrorCode::NotFound);
}

#[test]
fn an_allowed_event_goes_on_and_its_sender_gets_the_ack() {
    let (mut network, mut alice, mut bot) = chat_guard();
    let intercept = chat_intercept(&mut network, &mut alice, json!({"text": "hi"}));
    let decided = answer(&mut network, &mut bot, &intercept, verdict("allow"), 11);
    assert!(decided.iter().any(|e| matches!(e, Effect::Append { .. })));
    let ack = delivered_of(&decided, "agent:alice", core_types::EVENT_ACK).unwrap();
    assert_eq!(ack.payload["id"], intercept.payload["event"]["id"]);
    assert!(delivered_of(&decided, "agent:boss", "chat.msg").is_some());
    // Types it does not intercept pass without waiting.
    let other = alice.broadcast(&mut network, "note.msg", json!({}));
    assert!(other.iter().any(|e| matches!(e, Effect::Ack(_))));
}

#[test]
fn a_transform_rewrites_the_event_everyone_receives() {
    let (mut network, mut alice, mut bot) =
        with_mod(json!({"patterns": ["chat.msg"], "mode": "transform"}));
    let intercept = chat_intercept(&mut network, &mut alice, json!({"text": "hola"}));
    let rewrite = json!({"verdict": "rewrite", "event": {"payload": {"text": "hello"}}});
    let decided = answer(&mut network, &mut bot, &intercept, rewrite, 11);
    let got = delivered_of(&decided, "agent:boss", "chat.msg").unwrap();
    assert_eq!(got.payload["text"], "hello");
    assert_eq!(got.source, addr("agent:alice"));
    // A transform may not reject: the event keeps waiting.
    let intercept = chat_intercept(&mut network, &mut alice, json!({}));
    let wrong = answer(&mut network, &mut bot, &intercept, verdict("reject"), 12);
    assert_eq!(error_code(&wrong), ErrorCode::InvalidRequest);
}

#[test]
fn a_late_mod_meets_its_policy_when_the_alarm_passes_its_deadline() {
    let (mut network, mut alice, _bot) = with_mod(
        json!({"patterns": ["chat.*"], "mode": "guard", "deadline_ms": 100, "on_late": "fail-closed"}),
    );
    alice.broadcast(&mut network, "chat.msg", json!({}));
    assert_eq!(network.next_wakeup(), Some(Timestamp::from(110)));
    let early = network.on_alarm(Timestamp::from(109));
    assert!(delivered_of(&early, "agent:alice", core_types::EVENT_ERROR).is_none());
    let late = network.on_alarm(Timestamp::from(110));
    let error = delivered_of(&late, "agent:alice", core_types::EVENT_ERROR).unwrap();
    assert_eq!(error.payload["code"], "mod_unavailable");

    let (mut network, mut alice, _bot) = with_mod(
        json!({"patterns": ["chat.*"], "mode": "guard", "deadline_ms": 100, "on_late": "fail-open"}),
    );
    alice.broadcast(&mut network, "chat.msg", json!({}));
    let late = network.on_alarm(Timestamp::from(110));
    assert!(delivered_of(&late, "agent:alice", core_types::EVENT_ACK).is_some());
    assert!(delivered_of(&late, "agent:boss", "chat.msg").is_some());
}

#[test]
fn an_offline_mod_is_handled_by_its_policy_at_once() {
    let (mut network, mut alice, _bot) = chat_guard();
    network.disconnect(&addr("agent:bot"), Timestamp::from(10));
    let sent = alice.broadcast(&mut network, "chat.msg", json!({}));
    let error = delivered_of(&sent, "agent:alice", core_types::EVENT_ERROR).unwrap();
    assert_eq!(error.payload["code"], "mod_unavailable");
}

#[test]
fn observers_see_accepted_events_without_holding_them() {
    let (mut network, mut alice, _bot) = with_mod(json!({"patterns": ["*"], "mode": "observe"}));
    let sent = alice.broadcast(&mut network, "chat.msg", json!({"n": 1}));
    assert!(sent.iter().any(|e| matches!(e, Effect::Ack(_))));
    let seen = intercept_for(&sent, "agent:bot");
    assert_eq!(seen.payload["mode"], "observe");
    assert_eq!(seen.payload["event"]["payload"]["n"], 1);
    // The network's own events are never handed to agent mods.
    let ping = alice.ask(&mut network, "network.ping", json!({}));
    assert!(delivered_of(&ping, "agent:bot", INTERCEPT).is_none());
}

#[test]
fn members_cannot_forge_intercepts_and_strangers_cannot_answer() {
    let (mut network, mut alice, _bot) = chat_guard();
    let forged = alice.send(&mut network, INTERCEPT, "agent:bot", json!({}));
    assert_eq!(error_code(&forged), ErrorCode::ReservedType);
    let intercept = chat_intercept(&mut network, &mut alice, json!({}));
    let mut payload = json!({"verdict": "allow"});
    payload["intercept"] = json!(intercept.id);
    let sneaky = alice.ask(&mut network, VERDICT, payload);
    assert_eq!(error_code(&sneaky), ErrorCode::NotFound);
}

#[test]
fn a_mod_never_sees_a_push_targets_secrets_and_the_network_still_keeps_them() {
    let (mut network, mut alice, mut bot) =
        with_mod(json!({"patterns": ["task.push"], "mode": "guard"}));
    join(&mut network, "agent:bob");
    let created = alice.send(&mut network, TASK_CREATE, "agent:bob", json!({}));
    let task = acked(&created).payload["task"]
        .as_str()
        .unwrap_or_else(|| panic!("no task in {created:#?}"))
        .to_owned();
    let set =
        json!({"url": "https://hooks.example/a2a", "token": "s3cret", "credentials": "c-abc"});
    let sent = alice.ask(&mut network, "task.push", json!({"task": task, "set": set}));
    let intercept = intercept_for(&sent, "agent:bot");
    let seen = intercept.payload.to_string();
    assert!(seen.contains("https://hooks.example/a2a"), "{seen}");
    assert!(
        !seen.contains("s3cret") && !seen.contains("c-abc"),
        "the mod saw a secret: {seen}"
    );
    answer(&mut network, &mut bot, &intercept, verdict("allow"), 11);
    let target = &network.state().tasks[task.as_str()].push[0];
    assert_eq!(target.token.as_deref(), Some("s3cret"));
    assert_eq!(target.credentials.as_deref(), Some("c-abc"));
}
