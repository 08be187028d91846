use super::super::tests::{
    any_split_reads_the_same, assert_searches_the_release_date, search_tool, streamed,
    streamed_answer,
};
use super::*;
use crate::agent::chat::{error_message, http_error};
use crate::agent::sse::SseReader;
use proptest::prelude::*;

const TOOL_USE: &str = include_str!("../fixtures/anthropic_tool_use.json");
const ANSWER: &str = include_str!("../fixtures/anthropic_answer.json");
const ANSWER_SSE: &str = include_str!("../fixtures/anthropic_answer.sse");
const TOOL_USE_SSE: &str = include_str!("../fixtures/anthropic_tool_use.sse");
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
    let messages = body["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "user"],
        "starts with user, alternates"
    );
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
    let reply = parse_reply(ANSWER).unwrap();
    assert_eq!(reply.text, "Hi! My name is Claude.");
    assert_eq!(reply.stop, Stop::Done);
    assert_eq!(reply.usage.total(), 2598);
    let call = parse_reply(TOOL_USE).unwrap();
    assert_searches_the_release_date(&call);
    assert_eq!(call.usage.input_tokens, 472 + 1024, "cache reads count");
    assert_eq!(call.text, "I'll search for that.");
    assert_eq!(call.tool_calls[0].id, "toolu_01A09q90qw90lq917835lq9");
    assert!(parse_reply("{\"type\":\"message\"}").is_err());
}

#[test]
fn a_streamed_message_is_read_in_deltas() {
    let reply = streamed_answer::<Stream>(ANSWER_SSE);
    assert_eq!(reply.usage.input_tokens, 25);
    assert_eq!(reply.usage.output_tokens, 15);
}

#[test]
fn a_streamed_tool_use_is_put_together_from_partial_json() {
    let (deltas, reply) = read_stream(TOOL_USE_SSE, &[]);
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
    let broken = TOOL_USE_SSE.replace(
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

proptest! {
    #[test]
    fn any_split_of_a_stream_reads_the_same(cuts in proptest::collection::vec(any::<usize>(), 0..10)) {
        any_split_reads_the_same::<Stream>(ANSWER_SSE, TOOL_USE_SSE, &cuts)?;
    }
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
