use super::super::tests::{
    ANTHROPIC, assert_searches_the_release_date, search_tool, streamed, streamed_answer,
    whole_replies,
};
use super::*;
use crate::agent::chat::{error_message, http_error};
use crate::agent::sse::SseReader;
use crate::agent::tests::of_each_message;

const OVERLOADED_SSE: &str = include_str!("../fixtures/anthropic_overloaded.sse");
const ERROR_429: &str = include_str!("../fixtures/anthropic_error_429.json");

fn read_stream(text: &str, cuts: &[usize]) -> (Vec<String>, Result<Reply, ProviderError>) {
    super::super::tests::read_stream::<Stream>(text, cuts)
}

fn entries() -> Vec<Entry> {
    vec![
        Entry::Assistant {
            text: "an earlier answer, before anyone asked".into(),
            tool_calls: vec![],
        },
        Entry::User {
            text: "human:ann: when does it ship?".into(),
        },
        Entry::User {
            text: "human:bob: and where?".into(),
        },
        Entry::Assistant {
            text: "Let me look.".into(),
            tool_calls: vec![ToolCall {
                id: "toolu_1".into(),
                name: "search".into(),
                arguments: json!({"query": "ship"}),
            }],
        },
        Entry::ToolResult {
            call_id: "toolu_1".into(),
            name: "search".into(),
            content: "Friday, in Lyon".into(),
            is_error: false,
        },
    ]
}

#[test]
fn the_request_alternates_roles_and_feeds_tool_results_back() {
    let entries = entries();
    let tools = search_tool();
    let prompt = streamed("claude-sonnet-4-5", &entries, &tools, 1024);
    let body = request_body(&prompt);
    assert_eq!(body["system"], "You are helpful.");
    assert_eq!(body["max_tokens"], 1024);
    assert_eq!(body["stream"], true);
    assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
    assert_eq!(
        of_each_message(&body, "role"),
        ["user", "assistant", "user"],
        "starts with user, alternates"
    );
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["content"].as_array().unwrap().len(), 2);
    assert_eq!(messages[1]["content"][1]["type"], "tool_use");
    assert_eq!(messages[1]["content"][1]["input"], json!({"query": "ship"}));
    assert_eq!(
        messages[2]["content"][0],
        json!({"type": "tool_result", "tool_use_id": "toolu_1",
            "content": "Friday, in Lyon", "is_error": false})
    );
}

#[test]
fn a_whole_message_is_read() {
    let call = whole_replies(parse_reply, &ANTHROPIC, "Hi! My name is Claude.", 2598);
    assert_eq!(call.usage.input_tokens, 472 + 1024, "cache reads count");
    assert_eq!(call.text, "I'll search for that.");
    assert_eq!(call.tool_calls[0].id, "toolu_01A09q90qw90lq917835lq9");
    assert!(parse_reply("{\"type\":\"message\"}").is_err());
}

#[test]
fn a_streamed_message_is_read_in_deltas() {
    let reply = streamed_answer::<Stream>(ANTHROPIC.answer_sse);
    assert_eq!(reply.usage.input_tokens, 25);
    assert_eq!(reply.usage.output_tokens, 15);
}

#[test]
fn a_streamed_tool_use_is_put_together_from_partial_json() {
    let (deltas, reply) = read_stream(ANTHROPIC.tool_call_sse, &[]);
    assert_eq!(deltas, ["Let me look that up."]);
    let reply = reply.unwrap();
    assert_searches_the_release_date(&reply);
    assert_eq!(
        reply.usage.input_tokens,
        472 + 200,
        "message_delta's cumulative usage, cache writes included"
    );
    assert_eq!(reply.usage.output_tokens, 89);
}

#[test]
fn broken_partial_json_is_an_error_naming_the_tool() {
    let broken = ANTHROPIC.tool_call_sse.replace(
        r#""partial_json":"ease date\"}""#,
        r##""partial_json":"ease""##,
    );
    let (_, reply) = read_stream(&broken, &[]);
    assert_eq!(
        reply,
        Err(ProviderError::MalformedToolArguments {
            name: "search".into()
        })
    );
}

#[test]
fn an_error_event_and_error_bodies_read_as_plain_messages() {
    let mut reader = SseReader::default();
    let mut stream = Stream::default();
    let mut events = reader.push(OVERLOADED_SSE);
    events.extend(reader.finish());
    let error = events.iter().find_map(|e| stream.event(e).err()).unwrap();
    assert_eq!(error, ProviderError::Unavailable { status: 529 });
    let limited = http_error(429, Some(30), error_message(ERROR_429));
    assert!(limited.to_string().contains("try again in 30 s"));
    let refused = http_error(400, None, error_message(ERROR_429));
    assert!(refused.to_string().contains("50 requests per minute"));
}

#[test]
fn cached_input_counts_in_the_tokens_spent() {
    let start = |usage: &str| SseEvent {
        event: Some("message_start".into()),
        data: format!(r#"{{"type":"message_start","message":{{"usage":{usage}}}}}"#),
    };
    let mut stream = Stream::default();
    stream
        .event(&start(
            r#"{"input_tokens":3,"cache_creation_input_tokens":40,"cache_read_input_tokens":500,"output_tokens":1}"#,
        ))
        .unwrap();
    assert_eq!(stream.usage.input_tokens, 543);
    let mut older = Stream::default();
    older
        .event(&start(r#"{"input_tokens":3,"output_tokens":1}"#))
        .unwrap();
    assert_eq!(older.usage.input_tokens, 3, "the fields may be absent");
}
