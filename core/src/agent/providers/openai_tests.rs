use super::super::tests::{
    OPENAI, assert_searches_the_release_date, search_tool, streamed, streamed_answer, whole_replies,
};
use super::*;
use crate::agent::chat::{error_message, http_error};

const ERROR_429: &str = include_str!("../fixtures/openai_error_429.json");
const ERROR_401: &str = include_str!("../fixtures/openai_error_401.json");

fn read_stream(text: &str, cuts: &[usize]) -> (Vec<String>, Result<Reply, ProviderError>) {
    super::super::tests::read_stream::<Stream>(text, cuts)
}

#[test]
fn the_request_has_the_persona_the_tools_and_the_tool_results() {
    let entries = vec![
        Entry::User {
            text: "human:ann: when does it ship?".into(),
        },
        Entry::Assistant {
            text: String::new(),
            tool_calls: vec![ToolCall {
                id: "call_1".into(),
                name: "search".into(),
                arguments: json!({"query": "ship"}),
            }],
        },
        Entry::ToolResult {
            call_id: "call_1".into(),
            name: "search".into(),
            content: "Friday".into(),
            is_error: false,
        },
    ];
    let tools = search_tool();
    let prompt = streamed("gpt-4o-mini", &entries, &tools, 500);
    let body = request_body(&prompt);
    assert_eq!(body["model"], "gpt-4o-mini");
    assert_eq!(body["stream"], true);
    assert_eq!(body["stream_options"]["include_usage"], true);
    assert_eq!(body["max_completion_tokens"], 500);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages[0],
        json!({"role": "system", "content": "You are helpful."})
    );
    assert_eq!(messages[1]["role"], "user");
    assert_eq!(messages[2]["content"], Value::Null);
    assert_eq!(messages[2]["tool_calls"][0]["type"], "function");
    assert_eq!(
        messages[2]["tool_calls"][0]["function"]["arguments"],
        r#"{"query":"ship"}"#
    );
    assert_eq!(
        messages[3],
        json!({"role": "tool", "tool_call_id": "call_1", "content": "Friday"})
    );
    assert_eq!(body["tools"][0]["type"], "function");
    assert_eq!(body["tools"][0]["function"]["parameters"]["type"], "object");
}

#[test]
fn without_tools_or_streaming_the_request_says_neither() {
    let prompt = Prompt {
        model: "m",
        system: "",
        entries: &[],
        tools: &[],
        max_tokens: 1,
        stream: false,
    };
    let body = request_body(&prompt);
    assert!(body.get("tools").is_none() && body.get("stream").is_none());
    assert_eq!(body["messages"], json!([]));
}

#[test]
fn a_whole_answer_is_read() {
    let call = whole_replies(
        parse_reply,
        &OPENAI,
        "Hello! How can I assist you today?",
        29,
    );
    assert_eq!(call.tool_calls[0].id, "call_DdmO9pD3xa9XTPNJ32zg2hcA");
}

#[test]
fn malformed_tool_arguments_are_an_error_naming_the_tool() {
    let broken = OPENAI
        .tool_call
        .replace(r#"{\"query\":\"release date\"}"#, r#"{\"query\":"#);
    let err = parse_reply(&broken).unwrap_err();
    assert_eq!(
        err,
        ProviderError::MalformedToolArguments {
            name: "search".into()
        }
    );
    assert!(parse_reply("<html>").is_err());
    assert!(parse_reply("{}").is_err());
}

#[test]
fn a_streamed_answer_is_read_in_deltas() {
    let reply = streamed_answer::<Stream>(OPENAI.answer_sse);
    assert_eq!(reply.usage.input_tokens, 120);
    assert_eq!(reply.stop, Stop::Done);
}

#[test]
fn a_streamed_tool_call_is_put_together_from_fragments() {
    let (deltas, reply) = read_stream(OPENAI.tool_call_sse, &[]);
    assert!(deltas.is_empty());
    let reply = reply.unwrap();
    assert_searches_the_release_date(&reply);
    assert_eq!(reply.tool_calls.len(), 1);
    assert_eq!(reply.tool_calls[0].id, "call_abc123");
    assert_eq!(reply.usage.total(), 99);
}

#[test]
fn a_streamed_tool_call_with_broken_json_is_an_error() {
    let broken = OPENAI
        .tool_call_sse
        .replace(r#""arguments":" date\"}""#, r#""arguments":" date""#);
    let (_, reply) = read_stream(&broken, &[]);
    assert!(matches!(
        reply,
        Err(ProviderError::MalformedToolArguments { .. })
    ));
}

#[test]
fn errors_read_as_plain_messages() {
    let limited = http_error(429, Some(20), error_message(ERROR_429));
    assert!(limited.to_string().contains("try again in 20 s"));
    let refused = http_error(401, None, error_message(ERROR_401));
    assert!(
        !refused.to_string().contains("sk-"),
        "no key fragment: {refused}"
    );
    let bad = http_error(400, None, error_message(ERROR_401));
    assert!(bad.to_string().contains("Incorrect API key"));
}

#[test]
fn a_streamed_refusal_is_the_answer() {
    let refusing = OPENAI
        .answer_sse
        .replace(r#""content":"It ships""#, r#""refusal":"I can't help""#)
        .replace(r#""content":" on Friday.""#, r#""refusal":" with that.""#);
    let (deltas, reply) = read_stream(&refusing, &[]);
    assert!(deltas.is_empty());
    assert_eq!(reply.unwrap().text, "I can't help with that.");
}

#[test]
fn an_error_event_midway_is_an_error() {
    let mut stream = Stream::default();
    let event = |name: Option<&str>, data: &str| SseEvent {
        event: name.map(str::to_owned),
        data: data.to_owned(),
    };
    let bare =
        r#"{"message":"The server had an error","type":"server_error","param":null,"code":null}"#;
    let refused = stream.event(&event(Some("error"), bare)).unwrap_err();
    assert!(refused.to_string().contains("The server had an error"));
    let wrapped = format!(r#"{{"error":{bare}}}"#);
    assert!(stream.event(&event(None, &wrapped)).is_err());
    assert!(
        stream.event(&event(None, bare)).is_ok(),
        "not an error without its event name"
    );
}
