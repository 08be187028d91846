//! The agent loop driven by a scripted provider: whole turns, from the event
//! that asks to the message posted, with recorded provider answers.

use super::*;
use crate::Timestamp;
use crate::agent::chat::ToolDef;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use serde_json::{Value, json};

const OPENAI_TOOL_CALL_SSE: &str = include_str!("../fixtures/openai_tool_call.sse");
const OPENAI_ANSWER_SSE: &str = include_str!("../fixtures/openai_answer.sse");
const OPENAI_ANSWER: &str = include_str!("../fixtures/openai_answer.json");
const OPENAI_429: &str = include_str!("../fixtures/openai_error_429.json");
const ANTHROPIC_ANSWER: &str = include_str!("../fixtures/anthropic_answer.json");

mod assistant;

const NOW: u64 = 1_800_000_000_000;

fn config_with(address: &str, extra: Value) -> AgentConfig {
    let mut json = json!({"address": address, "provider": "openai_chat",
        "base_url": "https://api.openai.com/v1", "model": "gpt-4o-mini",
        "key_var": "OPENAI_API_KEY", "tools": "all", "system_prompt": "You are Helper."});
    if let (Some(json), Some(extra)) = (json.as_object_mut(), extra.as_object()) {
        json.extend(extra.clone());
    }
    AgentConfig::from_json(&json.to_string()).unwrap()
}

fn helper(extra: Value) -> Agent {
    let mut agent = Agent::new(config_with("agent:helper", extra));
    agent.set_tools(vec![ToolDef {
        name: "search".into(),
        description: "Search the docs".into(),
        parameters: json!({"type": "object", "properties": {"query": {"type": "string"}}}),
    }]);
    agent
}

/// An agent speaking Anthropic Messages.
fn claude() -> Agent {
    let provider = json!({"provider": "anthropic_messages",
        "base_url": "https://api.anthropic.com", "key_var": "ANTHROPIC_API_KEY"});
    Agent::new(config_with("agent:claude", provider))
}

fn id(n: u128) -> EventId {
    EventId::from_parts(NOW, n)
}

fn message(n: u128, source: &str, target: &str, content: &str, metadata: Value) -> Event {
    serde_json::from_value(json!({"id": id(n), "type": "workspace.message.posted",
        "source": source, "target": target, "payload": {"content": content},
        "metadata": metadata, "timestamp": NOW}))
    .unwrap()
}

fn addr(s: &str) -> Address {
    s.parse().unwrap()
}

/// The model call among `effects`: its request id and its JSON body.
pub(super) fn model_call(effects: &[AgentEffect]) -> (RequestId, Value) {
    effects
        .iter()
        .find_map(|e| match e {
            AgentEffect::CallModel { request, body, .. } => {
                Some((*request, serde_json::from_str(body).unwrap()))
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no model call in {effects:?}"))
}

/// The `field` of each message a model request `body` sends (its
/// `"role"`s, or its `"content"`s where each is text).
pub(super) fn of_each_message<'a>(body: &'a Value, field: &str) -> Vec<&'a str> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m[field].as_str().unwrap())
        .collect()
}

/// The names of the tools an OpenAI request `body` offers.
fn offered_tools(body: &Value) -> Vec<&str> {
    body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect()
}

fn posts(effects: &[AgentEffect]) -> Vec<(Address, Option<EventId>, String)> {
    effects
        .iter()
        .filter_map(|e| match e {
            AgentEffect::Post {
                target,
                in_reply_to,
                content,
                ..
            } => Some((target.clone(), *in_reply_to, content.clone())),
            _ => None,
        })
        .collect()
}

fn respond(status: u16, body: ResponseBody) -> ModelResponse {
    ModelResponse {
        status,
        retry_after_secs: None,
        body,
    }
}

/// A direct message from ann to the helper.
fn dm(n: u128, text: &str) -> Event {
    message(n, "human:ann", "agent:helper", text, json!({}))
}

/// Sends the helper a direct message; the model call it makes.
fn ask(agent: &mut Agent, n: u128, text: &str) -> RequestId {
    model_call(&agent.handle_event(&dm(n, text), Timestamp::from(NOW))).0
}

/// Answers a model call with a whole 200 body.
fn whole(agent: &mut Agent, request: RequestId, body: &str) -> Vec<AgentEffect> {
    agent.handle_model_response(
        request,
        respond(200, ResponseBody::Whole(body.into())),
        Timestamp::from(NOW),
    )
}

/// Streams `sse` in three pieces, then its end.
fn stream(agent: &mut Agent, request: RequestId, sse: &str) -> Vec<AgentEffect> {
    let mut effects = Vec::new();
    let thirds = [0, sse.len() / 3, 2 * sse.len() / 3, sse.len()];
    for w in thirds.windows(2) {
        let chunk = ResponseBody::Chunk(sse[w[0]..w[1]].to_owned());
        effects.extend(agent.handle_model_response(
            request,
            respond(200, chunk),
            Timestamp::from(NOW),
        ));
    }
    effects.extend(agent.handle_model_response(
        request,
        respond(200, ResponseBody::End),
        Timestamp::from(NOW),
    ));
    effects
}

#[test]
fn a_mention_in_a_thread_runs_a_whole_turn_with_a_tool() {
    let mut agent = helper(json!({}));
    let root = message(
        1,
        "human:ann",
        "channel/general",
        "Planning the launch",
        json!({}),
    );
    assert!(
        agent.handle_event(&root, Timestamp::from(NOW)).is_empty(),
        "not addressed"
    );
    let question = message(
        2,
        "human:ann",
        "channel/general",
        "@helper when does it ship?",
        json!({"in_reply_to": id(1), "mentions": ["agent:helper"]}),
    );
    let effects = agent.handle_event(&question, Timestamp::from(NOW));
    let place = Place::new(addr("channel/general"), Some(id(1)));
    assert_eq!(
        effects[0],
        AgentEffect::Status {
            conversation: place.clone(),
            status: effects::Status::Thinking,
            answers: Some(question.id),
        }
    );
    let AgentEffect::CallModel {
        url, headers, key, ..
    } = &effects[1]
    else {
        panic!("{effects:?}")
    };
    assert_eq!(url, "https://api.openai.com/v1/chat/completions");
    assert!(headers.contains(&("authorization".into(), "Bearer ${OPENAI_API_KEY}".into())));
    let key = key.as_ref().expect("a provider call names its key slot");
    assert_eq!(
        (key.header.as_str(), key.variable.as_str()),
        ("authorization", "OPENAI_API_KEY")
    );
    let (first, body) = model_call(&effects);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["content"], "You are Helper.");
    assert_eq!(
        messages[1]["content"], "human:ann: Planning the launch",
        "the thread's root"
    );
    assert_eq!(
        messages[2]["content"],
        "human:ann: @helper when does it ship?"
    );
    assert_eq!(body["tools"][0]["function"]["name"], "search");

    let effects = stream(&mut agent, first, OPENAI_TOOL_CALL_SSE);
    assert!(
        effects.contains(&AgentEffect::CallTool {
            conversation: place.clone(),
            call_id: "tool-1-0".into(),
            name: "search".into(),
            arguments: json!({"query": "release date"})
        }),
        "{effects:?}"
    );
    assert!(posts(&effects).is_empty());

    let effects = agent.handle_tool_result(
        "tool-1-0",
        Ok(json!({"date": "Friday"})),
        Timestamp::from(NOW),
    );
    let (second, body) = model_call(&effects);
    assert_ne!(first, second);
    let messages = body["messages"].as_array().unwrap();
    let last = messages.last().unwrap();
    assert_eq!(last["role"], "tool");
    assert_eq!(last["tool_call_id"], "call_abc123");
    assert_eq!(last["content"], r#"{"date":"Friday"}"#);

    let effects = stream(&mut agent, second, OPENAI_ANSWER_SSE);
    let streamed: Vec<&str> = effects
        .iter()
        .filter_map(|e| match e {
            AgentEffect::StreamText { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert!(!streamed.is_empty());
    assert!(
        streamed.windows(2).all(|w| w[1].starts_with(w[0])),
        "{streamed:?}"
    );
    assert_eq!(streamed.last().copied(), Some("It ships on Friday."));
    assert_eq!(
        posts(&effects),
        [(
            addr("channel/general"),
            Some(id(1)),
            "It ships on Friday.".into()
        )]
    );
    assert!(!agent.is_busy(&place));

    assert!(
        agent
            .handle_event(&question, Timestamp::from(NOW))
            .is_empty(),
        "never answers twice"
    );
    let body_text = serde_json::to_string(&effects).unwrap();
    assert!(!body_text.contains("sk-"));
}

#[test]
fn a_direct_message_is_answered_to_its_sender() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "hi");
    let effects = whole(&mut agent, request, OPENAI_ANSWER);
    assert_eq!(
        posts(&effects),
        [(
            addr("human:ann"),
            None,
            "Hello! How can I assist you today?".into()
        )]
    );
}

#[test]
fn an_unaddressed_channel_message_is_not_answered_unless_configured() {
    let plain = message(1, "human:ann", "channel/general", "lunch?", json!({}));
    assert!(
        helper(json!({}))
            .handle_event(&plain, Timestamp::from(NOW))
            .is_empty()
    );
    let someone_else = message(
        2,
        "human:ann",
        "channel/general",
        "@bob lunch?",
        json!({"mentions": ["agent:bob"]}),
    );
    assert!(
        helper(json!({}))
            .handle_event(&someone_else, Timestamp::from(NOW))
            .is_empty()
    );
    let mut eager = helper(json!({"answers": "every_message"}));
    assert!(!eager.handle_event(&plain, Timestamp::from(NOW)).is_empty());
    let own = message(
        3,
        "agent:helper",
        "channel/general",
        "@helper note to self",
        json!({}),
    );
    assert!(
        eager.handle_event(&own, Timestamp::from(NOW)).is_empty(),
        "never itself"
    );
}

#[test]
fn a_follow_up_in_a_thread_it_answered_is_answered() {
    let mut agent = helper(json!({}));
    let mine = message(
        1,
        "agent:helper",
        "channel/general",
        "Done.",
        json!({"in_reply_to": id(9)}),
    );
    assert!(agent.handle_event(&mine, Timestamp::from(NOW)).is_empty());
    let follow = message(
        2,
        "human:ann",
        "channel/general",
        "thanks, and the date?",
        json!({"in_reply_to": id(9)}),
    );
    assert!(!agent.handle_event(&follow, Timestamp::from(NOW)).is_empty());
    let elsewhere = message(
        3,
        "human:ann",
        "channel/general",
        "other thread",
        json!({"in_reply_to": id(8)}),
    );
    assert!(
        agent
            .handle_event(&elsewhere, Timestamp::from(NOW))
            .is_empty()
    );
}

/// Two agents that always answer by mentioning each other, over a network
/// that delivers every post to both.
#[test]
fn two_agents_mentioning_each_other_stop_after_the_bound() {
    // Whether or not the network sends an agent its own messages back.
    for echo in [true, false] {
        agents_stop(echo);
    }
}

fn agents_stop(echo: bool) {
    let bound = json!({"budgets": {"agent_turns_without_person": 3}});
    let mut agents = [
        Agent::new(config_with("agent:alpha", bound.clone())),
        Agent::new(config_with("agent:beta", bound)),
    ];
    let names = ["agent:alpha", "agent:beta"];
    let mut queue = vec![message(
        1,
        "human:ann",
        "channel/general",
        "@alpha ask beta",
        json!({}),
    )];
    let mut agent_posts = 0;
    let mut next = 100;
    while let Some(event) = queue.pop() {
        for (i, agent) in agents.iter_mut().enumerate() {
            if !echo && event.source.to_string() == names[i] {
                continue;
            }
            let effects = agent.handle_event(&event, Timestamp::from(NOW));
            let Some((request, _)) = effects.iter().find_map(|e| match e {
                AgentEffect::CallModel { request, .. } => Some((*request, ())),
                _ => None,
            }) else {
                continue;
            };
            let other = names[1 - i];
            let answer = json!({"choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": format!("@{other} over to you")}}]});
            let effects = agent.handle_model_response(
                request,
                respond(200, ResponseBody::Whole(answer.to_string())),
                Timestamp::from(NOW),
            );
            for (target, _, content) in posts(&effects) {
                next += 1;
                agent_posts += 1;
                queue.push(message(
                    next,
                    names[i],
                    &target.to_string(),
                    &content,
                    json!({}),
                ));
            }
        }
        assert!(agent_posts < 10, "the agents did not stop");
    }
    assert_eq!(agent_posts, 3, "echo: {echo}");
    let person = message(
        500,
        "human:ann",
        "channel/general",
        "@alpha one more",
        json!({}),
    );
    assert!(
        !agents[0]
            .handle_event(&person, Timestamp::from(NOW))
            .is_empty(),
        "a person restarts the run"
    );
}

#[test]
fn a_rate_limit_posts_a_message_with_the_retry_after() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "hi");
    let response = ModelResponse {
        status: 429,
        retry_after_secs: Some(20),
        body: ResponseBody::Whole(OPENAI_429.into()),
    };
    let effects = agent.handle_model_response(request, response, Timestamp::from(NOW));
    let posted = posts(&effects);
    assert_eq!(posted.len(), 1);
    assert!(
        posted[0].2.contains("rate limiting") && posted[0].2.contains("20 s"),
        "{posted:?}"
    );
    let again = agent.handle_event(&dm(2, "hi?"), Timestamp::from(NOW));
    assert!(!again.is_empty(), "the agent keeps running");
}

#[test]
fn malformed_tool_json_posts_a_message() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "search");
    let broken = OPENAI_TOOL_CALL_SSE.replace(r#""arguments":" date\"}""#, r#""arguments":" da""#);
    let effects = stream(&mut agent, request, &broken);
    let posted = posts(&effects);
    assert!(
        posted[0].2.contains("search") && posted[0].2.contains("not valid JSON"),
        "{posted:?}"
    );
}

#[test]
fn a_spent_budget_posts_a_short_message_and_frees_up_after_an_hour() {
    let mut agent = helper(json!({"budgets": {"calls_per_hour": 1}}));
    let request = ask(&mut agent, 1, "one");
    whole(&mut agent, request, OPENAI_ANSWER);
    let effects = agent.handle_event(&dm(2, "two"), Timestamp::from(NOW + 1));
    let posted = posts(&effects);
    assert!(posted[0].2.contains("budget of model calls"), "{posted:?}");
    let later = NOW + budget::HOUR_MS + 1;
    let effects = agent.handle_event(&dm(3, "three"), Timestamp::from(later));
    model_call(&effects);
}

#[test]
fn tool_rounds_are_bounded() {
    let mut agent = helper(json!({"budgets": {"tool_rounds_per_turn": 1}}));
    let first = ask(&mut agent, 1, "dig");
    stream(&mut agent, first, OPENAI_TOOL_CALL_SSE);
    let effects =
        agent.handle_tool_result("tool-1-0", Err("timed out".into()), Timestamp::from(NOW));
    let (second, body) = model_call(&effects);
    assert_eq!(
        body["messages"].as_array().unwrap().last().unwrap()["content"],
        "timed out"
    );
    let effects = stream(&mut agent, second, OPENAI_TOOL_CALL_SSE);
    let posted = posts(&effects);
    assert!(posted[0].2.contains("stopped after 1 rounds"), "{posted:?}");
}

#[test]
fn a_tool_not_allowed_is_refused_to_the_model() {
    let mut agent = helper(json!({"tools": ["other"]}));
    let (first, body) = model_call(&agent.handle_event(&dm(1, "dig"), Timestamp::from(NOW)));
    assert!(body.get("tools").is_none());
    let effects = stream(&mut agent, first, OPENAI_TOOL_CALL_SSE);
    let (_, body) = model_call(&effects);
    let last = body["messages"]
        .as_array()
        .unwrap()
        .last()
        .cloned()
        .unwrap();
    assert!(last["content"].as_str().unwrap().contains("not available"));
}

#[test]
fn stop_aborts_the_call_and_ignores_what_comes_after() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "hi");
    let place = Place::new(addr("human:ann"), None);
    let effects = agent.cancel(&place);
    assert!(effects.contains(&AgentEffect::AbortModel { request }));
    let late = whole(&mut agent, request, OPENAI_ANSWER);
    assert!(late.is_empty());
    assert!(agent.cancel(&place).is_empty());
}

#[test]
fn a_message_during_a_turn_gets_the_next_turn() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "hi");
    assert!(
        agent
            .handle_event(&dm(2, "also"), Timestamp::from(NOW))
            .is_empty()
    );
    let effects = whole(&mut agent, request, OPENAI_ANSWER);
    assert_eq!(posts(&effects).len(), 1);
    let (_, body) = model_call(&effects);
    assert_eq!(
        of_each_message(&body, "content")[1..],
        [
            "human:ann: hi",
            "Hello! How can I assist you today?",
            "human:ann: also"
        ],
        "the first answer, right after its question"
    );
    let place = Place::new(addr("human:ann"), None);
    agent.cancel(&place);
    let answer = "Hello! How can I assist you today?";
    let echo = message(3, "agent:helper", "human:ann", answer, json!({}));
    assert!(agent.handle_event(&echo, Timestamp::from(NOW)).is_empty());
    let (_, body) = model_call(&agent.handle_event(&dm(4, "again"), Timestamp::from(NOW)));
    let messages = body["messages"].as_array().unwrap();
    let answers = messages.iter().filter(|m| m["content"] == answer).count();
    assert_eq!(
        answers, 1,
        "the delivered answer replaces the provisional one"
    );
}

#[test]
fn an_anthropic_agent_speaks_messages() {
    let mut agent = claude();
    let effects = agent.handle_event(
        &message(1, "human:ann", "agent:claude", "hi", json!({})),
        Timestamp::from(NOW),
    );
    let AgentEffect::CallModel { url, headers, .. } = &effects[1] else {
        panic!("{effects:?}")
    };
    assert_eq!(url, "https://api.anthropic.com/v1/messages");
    assert!(headers.contains(&("x-api-key".into(), "${ANTHROPIC_API_KEY}".into())));
    assert!(headers.contains(&("anthropic-version".into(), "2023-06-01".into())));
    let (request, body) = model_call(&effects);
    assert_eq!(body["system"], "You are Helper.");
    let effects = whole(&mut agent, request, ANTHROPIC_ANSWER);
    assert_eq!(posts(&effects)[0].2, "Hi! My name is Claude.");
}

#[test]
fn a_failed_request_posts_a_message() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "hi");
    let effects = agent.handle_model_response(
        request,
        respond(0, ResponseBody::Failed("connection reset".into())),
        Timestamp::from(NOW),
    );
    assert!(posts(&effects)[0].2.contains("could not be reached"));
    let request = ask(&mut agent, 2, "hi");
    let effects = agent.handle_model_response(
        request,
        respond(503, ResponseBody::Chunk("upstream connect error".into())),
        Timestamp::from(NOW),
    );
    assert!(posts(&effects)[0].2.contains("unavailable (HTTP 503)"));
}

#[test]
fn a_stream_broken_midway_is_aborted_and_explained() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "hi");
    let garbage = ResponseBody::Chunk("data: {not json\n\n".into());
    let effects = agent.handle_model_response(request, respond(200, garbage), Timestamp::from(NOW));
    assert!(effects.contains(&AgentEffect::AbortModel { request }));
    assert!(posts(&effects)[0].2.contains("could not be read"));
    let after = agent.handle_model_response(
        request,
        respond(200, ResponseBody::End),
        Timestamp::from(NOW),
    );
    assert!(after.is_empty());
}

#[test]
fn effects_and_responses_have_a_json_form_for_hosts() {
    let mut agent = helper(json!({}));
    let effects = agent.handle_event(&dm(1, "hi"), Timestamp::from(NOW));
    let call = serde_json::to_value(&effects[1]).unwrap();
    assert_eq!(call["effect"], "call_model");
    assert_eq!(call["conversation"]["target"], "human:ann");
    assert_eq!(call["key"]["variable"], "OPENAI_API_KEY");
    let response: ModelResponse =
        serde_json::from_value(json!({"status": 200, "body": {"kind": "chunk", "text": "data: "}}))
            .unwrap();
    assert_eq!(response.body, ResponseBody::Chunk("data: ".into()));
    let end: ModelResponse =
        serde_json::from_value(json!({"status": 200, "body": {"kind": "end"}})).unwrap();
    assert_eq!(end.body, ResponseBody::End);
}

#[test]
fn an_anthropic_turn_runs_a_tool_over_streams() {
    let mut agent = claude();
    agent.set_tools(vec![ToolDef {
        name: "search".into(),
        description: String::new(),
        parameters: json!({"type": "object"}),
    }]);
    let ask = message(
        1,
        "human:ann",
        "channel/general",
        "@claude when?",
        json!({}),
    );
    let (first, _) = model_call(&agent.handle_event(&ask, Timestamp::from(NOW)));
    let effects = stream(
        &mut agent,
        first,
        include_str!("../fixtures/anthropic_tool_use.sse"),
    );
    let streamed = effects.iter().any(
        |e| matches!(e, AgentEffect::StreamText { text, .. } if text == "Let me look that up."),
    );
    assert!(streamed, "{effects:?}");
    let call_id = effects
        .iter()
        .find_map(|e| match e {
            AgentEffect::CallTool {
                call_id, arguments, ..
            } => {
                assert_eq!(arguments, &json!({"query": "release date"}));
                Some(call_id.clone())
            }
            _ => None,
        })
        .unwrap();
    let (second, body) =
        model_call(&agent.handle_tool_result(&call_id, Ok(json!("Friday")), Timestamp::from(NOW)));
    assert_eq!(
        of_each_message(&body, "role"),
        ["user", "assistant", "user"]
    );
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages[1]["content"][1]["id"],
        "toolu_01T1x1fJ34qAmk2tNTrN7Up6"
    );
    assert_eq!(
        messages[2]["content"][0]["tool_use_id"],
        "toolu_01T1x1fJ34qAmk2tNTrN7Up6"
    );
    assert_eq!(messages[2]["content"][0]["content"], "Friday");
    let effects = stream(
        &mut agent,
        second,
        include_str!("../fixtures/anthropic_answer.sse"),
    );
    assert_eq!(
        posts(&effects),
        [(addr("channel/general"), None, "It ships on Friday.".into())]
    );
}

#[test]
fn an_endless_stream_is_stopped() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "hi");
    let piece =
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"la \"}}]}\n\n".repeat(4096);
    let mut effects = Vec::new();
    for _ in 0..(turn::MAX_STREAM_BYTES / piece.len() + 2) {
        effects = agent.handle_model_response(
            request,
            respond(200, ResponseBody::Chunk(piece.clone())),
            Timestamp::from(NOW),
        );
        if !posts(&effects).is_empty() {
            break;
        }
    }
    assert!(posts(&effects)[0].2.contains("longer than"), "{effects:?}");
    assert!(effects.contains(&AgentEffect::AbortModel { request }));
}

mod properties {
    use super::*;
    use crate::Timestamp;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    const SOURCES: [&str; 3] = ["human:ann", "agent:bob", "agent:helper"];
    const TARGETS: [&str; 3] = ["channel/general", "agent:helper", "human:ann"];

    fn spec() -> impl Strategy<Value = (usize, usize, bool, Option<u128>)> {
        (
            0..3usize,
            0..3usize,
            any::<bool>(),
            proptest::option::of(0..4u128),
        )
    }

    proptest! {
        /// Whatever a provider (or a host) sends, the loop neither panics
        /// nor posts more than once for the call.
        #[test]
        fn any_response_is_survived(
            chunks in proptest::collection::vec("(data: |event: |\\{|\\}|\\[|\\]|\"|:|,|\n|[a-z_]{1,12}|[0-9]{1,3})*", 0..8),
            status in proptest::sample::select(vec![200u16, 400, 401, 429, 500, 529]),
            anthropic in any::<bool>(),
        ) {
            let mut agent = if anthropic { claude() } else { helper(json!({})) };
            let to = if anthropic { "agent:claude" } else { "agent:helper" };
            let effects = agent.handle_event(&message(1, "human:ann", to, "hi", json!({})), Timestamp::from(NOW));
            let (request, _) = model_call(&effects);
            let mut posted = 0;
            for chunk in chunks {
                let effects = agent.handle_model_response(request, respond(status, ResponseBody::Chunk(chunk)), Timestamp::from(NOW));
                posted += posts(&effects).len();
            }
            let effects = agent.handle_model_response(request, respond(status, ResponseBody::End), Timestamp::from(NOW));
            posted += posts(&effects).len();
            prop_assert!(posted <= 1);
        }
    }

    proptest! {
        /// Whatever arrives, and however often: each event is answered at
        /// most once, its own messages never, and every call ends in one post.
        #[test]
        fn each_event_is_answered_at_most_once(
            specs in proptest::collection::vec(spec(), 1..12),
            order in proptest::collection::vec(any::<proptest::sample::Index>(), 1..40),
        ) {
            let events: Vec<Event> = specs.iter().enumerate().map(|(n, (s, t, mention, thread))| {
                let content = if *mention { "@helper ?" } else { "?" };
                let metadata = match thread {
                    Some(root) => json!({"in_reply_to": id(1000 + root)}),
                    None => json!({}),
                };
                message(n as u128 + 1, SOURCES[*s], TARGETS[*t], content, metadata)
            }).collect();
            let mut agent = helper(json!({}));
            let mut answered = BTreeSet::new();
            for index in order {
                let event = &events[index.index(events.len())];
                let effects = agent.handle_event(event, Timestamp::from(NOW));
                let calls: Vec<RequestId> = effects.iter().filter_map(|e| match e {
                    AgentEffect::CallModel { request, .. } => Some(*request),
                    _ => None,
                }).collect();
                prop_assert!(calls.len() <= 1);
                if event.source.to_string() == "agent:helper" {
                    prop_assert!(effects.is_empty());
                }
                for request in calls {
                    prop_assert!(answered.insert(event.id), "answered twice");
                    let done = agent.handle_model_response(request,
                        respond(200, ResponseBody::Whole(OPENAI_ANSWER.into())), Timestamp::from(NOW));
                    prop_assert_eq!(posts(&done).len(), 1);
                }
            }
        }
    }
}

/// An OpenAI answer that calls `name` with `arguments` (a JSON text).
fn openai_tool_call(call: &str, name: &str, arguments: &str) -> String {
    json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o-mini",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "logprobs": null,
            "message": {"role": "assistant", "content": null, "refusal": null,
                "tool_calls": [{"id": call, "type": "function",
                    "function": {"name": name, "arguments": arguments}}]}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
    .to_string()
}

fn the_post(effects: &[AgentEffect]) -> &AgentEffect {
    effects
        .iter()
        .find(|e| matches!(e, AgentEffect::Post { .. }))
        .unwrap_or_else(|| panic!("no post in {effects:?}"))
}

#[test]
fn the_answer_names_its_question_and_the_tools_it_used() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "when does it ship?");
    let call = openai_tool_call("call_1", "search", r#"{"query":"ship date"}"#);
    let effects = whole(&mut agent, request, &call);
    assert!(posts(&effects).is_empty());
    let (next, _) = model_call(&agent.handle_tool_result(
        "tool-1-0",
        Ok(json!({"date": "Friday", "notes": "x".repeat(900)})),
        Timestamp::from(NOW),
    ));
    let effects = whole(&mut agent, next, OPENAI_ANSWER);
    let AgentEffect::Post {
        answers,
        steps,
        failed,
        task,
        ..
    } = the_post(&effects)
    else {
        unreachable!()
    };
    assert_eq!(*answers, Some(id(1)));
    assert!(!failed && task.is_none());
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].tool, "search");
    assert_eq!(steps[0].arguments, json!({"query": "ship date"}));
    assert!(steps[0].ok);
    assert!(steps[0].result.starts_with(r#"{"date":"Friday""#));
    assert!(steps[0].result.chars().count() <= effects::MAX_STEP_RESULT + 1);
    let shown = serde_json::to_value(the_post(&effects)).unwrap();
    assert_eq!(
        shown["steps"][0]["tool"], "search",
        "steps have a JSON form"
    );
}

#[test]
fn a_failure_is_posted_as_failed_and_a_failed_tool_is_a_failed_step() {
    let mut agent = helper(json!({}));
    let request = ask(&mut agent, 1, "hi");
    let limited = agent.handle_model_response(
        request,
        respond(429, ResponseBody::Whole(OPENAI_429.into())),
        Timestamp::from(NOW),
    );
    assert!(matches!(
        the_post(&limited),
        AgentEffect::Post { failed: true, .. }
    ));

    let request = ask(&mut agent, 2, "search it");
    let call = openai_tool_call("call_2", "search", "{}");
    whole(&mut agent, request, &call);
    let tool_id = format!("tool-{}-0", request.0);
    let (next, _) = model_call(&agent.handle_tool_result(
        &tool_id,
        Err("timed out".into()),
        Timestamp::from(NOW),
    ));
    let effects = whole(&mut agent, next, OPENAI_ANSWER);
    let AgentEffect::Post { steps, failed, .. } = the_post(&effects) else {
        unreachable!()
    };
    assert!(!failed, "the model answered after the tool failed");
    assert_eq!(
        (steps[0].ok, steps[0].result.as_str()),
        (false, "timed out")
    );
}

#[test]
fn a_task_is_answered_and_its_questions_go_to_the_requester() {
    let mut agent = helper(json!({}));
    let ann = addr("human:ann");
    let effects = agent.handle_task("task-7", &ann, "Book me a table", Timestamp::from(NOW));
    let (request, body) = model_call(&effects);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[1]["content"], "human:ann: Book me a table");
    let offered = offered_tools(&body);
    assert_eq!(offered, ["search", "ask_user"]);
    assert!(
        agent
            .handle_task("task-7", &ann, "again", Timestamp::from(NOW))
            .is_empty(),
        "one turn per task"
    );

    let call = openai_tool_call("call_q", "ask_user", r#"{"question":"For how many?"}"#);
    let effects = whole(&mut agent, request, &call);
    let Some(AgentEffect::AskInput {
        conversation,
        call_id,
        question,
    }) = effects
        .iter()
        .find(|e| matches!(e, AgentEffect::AskInput { .. }))
    else {
        panic!("no question in {effects:?}")
    };
    assert_eq!(question, "For how many?");
    assert_eq!(conversation.task.as_deref(), Some("task-7"));
    let (next, body) =
        model_call(&agent.handle_tool_result(call_id, Ok(json!("four")), Timestamp::from(NOW)));
    let last = body["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (last["role"].as_str(), last["content"].as_str()),
        (Some("tool"), Some("four"))
    );

    let effects = whole(&mut agent, next, OPENAI_ANSWER);
    let AgentEffect::Post {
        task,
        steps,
        failed,
        answers,
        target,
        ..
    } = the_post(&effects)
    else {
        unreachable!()
    };
    assert_eq!(task.as_deref(), Some("task-7"));
    assert!(steps.is_empty(), "a question is not a tool step");
    assert!(!failed && answers.is_none());
    assert_eq!(target, &ann);
}

#[test]
fn a_command_agent_gets_a_transcript_and_answers_with_its_output() {
    let config = AgentConfig::from_json(
        r#"{"address": "agent:coder", "provider": "command", "command": "claude -p {prompt}",
            "system_prompt": "You are Coder."}"#,
    )
    .unwrap();
    let mut agent = Agent::new(config);
    let question = message(1, "human:ann", "agent:coder", "fix the test", json!({}));
    let effects = agent.handle_event(&question, Timestamp::from(NOW));
    let Some(AgentEffect::CallModel {
        request,
        url,
        headers,
        key,
        body,
        ..
    }) = effects
        .iter()
        .find(|e| matches!(e, AgentEffect::CallModel { .. }))
    else {
        panic!("{effects:?}")
    };
    assert_eq!(url, "command:claude -p {prompt}");
    assert!(
        headers.is_empty() && key.is_none(),
        "a command takes no key"
    );
    let prompt: Value = serde_json::from_str(body).unwrap();
    let prompt = prompt["prompt"].as_str().unwrap();
    assert!(prompt.starts_with("You are Coder."));
    assert!(prompt.contains("human:ann: fix the test"));

    let done = agent.handle_model_response(
        *request,
        respond(
            200,
            ResponseBody::Whole("Fixed: the assertion was off by one.\n".into()),
        ),
        Timestamp::from(NOW),
    );
    assert_eq!(
        posts(&done),
        [(
            addr("human:ann"),
            None,
            "Fixed: the assertion was off by one.".into()
        )]
    );

    let again = message(2, "human:ann", "agent:coder", "and the other?", json!({}));
    let (request, _) = model_call(&agent.handle_event(&again, Timestamp::from(NOW)));
    let failed = agent.handle_model_response(
        request,
        respond(500, ResponseBody::Whole("Error: not logged in".into())),
        Timestamp::from(NOW),
    );
    let AgentEffect::Post {
        content, failed, ..
    } = the_post(&failed)
    else {
        unreachable!()
    };
    assert!(failed);
    assert_eq!(
        content,
        "I could not answer: the command failed: Error: not logged in."
    );
}

/// The approval the loop asks for in `effects`: its call id and effect.
fn asked_approval(effects: &[AgentEffect]) -> (String, &AgentEffect) {
    effects
        .iter()
        .find_map(|e| match e {
            AgentEffect::AskApproval { call_id, .. } => Some((call_id.clone(), e)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no approval asked in {effects:?}"))
}

#[test]
fn a_tool_that_needs_approval_waits_for_it_and_runs_as_edited() {
    let mut agent = helper(json!({"approve_tools": ["search"], "approval_wait_secs": 60}));
    let request = ask(&mut agent, 1, "when does it ship?");
    let call = openai_tool_call("call_1", "search", r#"{"query":"ship date"}"#);
    let effects = whole(&mut agent, request, &call);
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, AgentEffect::CallTool { .. })),
        "{effects:?}"
    );
    let (call_id, asked) = asked_approval(&effects);
    let AgentEffect::AskApproval {
        to,
        approvers,
        action,
        expires_at,
        ..
    } = asked
    else {
        unreachable!()
    };
    assert_eq!(
        (to, approvers.is_empty()),
        (&addr("human:ann"), true),
        "the person asking decides"
    );
    assert_eq!(action.subject, "search");
    assert_eq!(action.detail, json!({"query": "ship date"}));
    assert_eq!(expires_at.as_millis(), NOW + 60_000);
    assert!(effects.iter().any(|e| matches!(
        e,
        AgentEffect::Status {
            status: effects::Status::AwaitingApproval { .. },
            ..
        }
    )));

    let approved = approve::ApprovalOutcome {
        decision: crate::vocabulary::approvals::Decision::Approved,
        edited: Some(json!({"query": "release date"})),
        by: Some(addr("human:ann")),
        reason: None,
    };
    let effects = agent.handle_approval(&call_id, approved.clone(), Timestamp::from(NOW));
    let called = effects.iter().find_map(|e| match e {
        AgentEffect::CallTool {
            call_id: c,
            arguments,
            ..
        } => Some((c.clone(), arguments.clone())),
        _ => None,
    });
    assert_eq!(
        called,
        Some((call_id.clone(), json!({"query": "release date"})))
    );
    let (next, _) =
        model_call(&agent.handle_tool_result(&call_id, Ok(json!("Friday")), Timestamp::from(NOW)));
    let effects = whole(&mut agent, next, OPENAI_ANSWER);
    let AgentEffect::Post { steps, .. } = the_post(&effects) else {
        unreachable!()
    };
    assert_eq!(
        steps[0].arguments,
        json!({"query": "release date"}),
        "the step shows what ran"
    );
}

#[test]
fn a_denied_or_expired_call_is_told_to_the_model_and_not_made() {
    use crate::vocabulary::approvals::Decision;
    for (decision, says) in [
        (Decision::Denied, "denied this call by human:ann: not now"),
        (Decision::Expired, "Nobody approved"),
    ] {
        let mut agent = helper(json!({"approve_tools": "all"}));
        let request = ask(&mut agent, 1, "search it");
        let call = openai_tool_call("call_1", "search", r#"{"query":"x"}"#);
        let (call_id, _) = asked_approval(&whole(&mut agent, request, &call));
        let outcome = approve::ApprovalOutcome {
            decision,
            edited: None,
            by: Some(addr("human:ann")),
            reason: Some("not now".into()),
        };
        let effects = agent.handle_approval(&call_id, outcome, Timestamp::from(NOW));
        assert!(
            !effects
                .iter()
                .any(|e| matches!(e, AgentEffect::CallTool { .. }))
        );
        let (_, body) = model_call(&effects);
        let told = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["role"] == "tool" && m["content"].as_str().unwrap_or("").contains(says));
        assert!(told, "{decision:?}: {body}");
    }
}
