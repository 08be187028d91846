//! The providers' shared test support: their recorded answers, reading a
//! stream cut anywhere, the one tool their requests offer, and a streamed
//! prompt; and the property both providers' streams have, that any cut
//! reads the same.

use crate::agent::chat::{Entry, Prompt, ProviderError, Reply, Stop, ToolDef};
use crate::agent::sse::{SseEvent, SseReader};
use proptest::prelude::*;
use serde_json::json;

/// A provider's recorded answers (in `agent/fixtures/`): a whole answer and
/// a whole tool call searching for the release date, and each streamed.
pub(super) struct Recorded {
    pub answer: &'static str,
    pub answer_sse: &'static str,
    pub tool_call: &'static str,
    pub tool_call_sse: &'static str,
}

/// Anthropic's recorded answers (its tool call is a `tool_use`).
pub(super) const ANTHROPIC: Recorded = Recorded {
    answer: include_str!("../fixtures/anthropic_answer.json"),
    answer_sse: include_str!("../fixtures/anthropic_answer.sse"),
    tool_call: include_str!("../fixtures/anthropic_tool_use.json"),
    tool_call_sse: include_str!("../fixtures/anthropic_tool_use.sse"),
};

/// OpenAI's recorded answers.
pub(super) const OPENAI: Recorded = Recorded {
    answer: include_str!("../fixtures/openai_answer.json"),
    answer_sse: include_str!("../fixtures/openai_answer.sse"),
    tool_call: include_str!("../fixtures/openai_tool_call.json"),
    tool_call_sse: include_str!("../fixtures/openai_tool_call.sse"),
};

/// A provider's streamed-answer reader.
pub(super) trait Decode: Default {
    fn event(&mut self, event: &SseEvent) -> Result<String, ProviderError>;
    fn is_done(&self) -> bool;
    fn finish(self) -> Result<Reply, ProviderError>;
}

/// Implements [`Decode`] for each provider's `Stream` by its own methods.
macro_rules! decode_by_own_methods {
    ($($stream:ty),*) => {$(
        impl Decode for $stream {
            fn event(&mut self, event: &SseEvent) -> Result<String, ProviderError> {
                self.event(event)
            }
            fn is_done(&self) -> bool {
                self.is_done()
            }
            fn finish(self) -> Result<Reply, ProviderError> {
                self.finish()
            }
        }
    )*};
}

decode_by_own_methods!(super::anthropic::Stream, super::openai::Stream);

/// Reads a stream cut at `cuts`, returning the text deltas and the reply.
pub(super) fn read_stream<S: Decode>(
    text: &str,
    cuts: &[usize],
) -> (Vec<String>, Result<Reply, ProviderError>) {
    let mut reader = SseReader::default();
    let mut stream = S::default();
    let mut events = Vec::new();
    let mut from = 0;
    let mut cuts: Vec<usize> = cuts.iter().map(|c| c % (text.len() + 1)).collect();
    cuts.sort_unstable();
    for cut in cuts.into_iter().chain([text.len()]) {
        if text.is_char_boundary(cut) && cut >= from {
            events.extend(reader.push(&text[from..cut]));
            from = cut;
        }
    }
    events.extend(reader.finish());
    let mut deltas = Vec::new();
    for event in &events {
        match stream.event(event) {
            Ok(delta) if !delta.is_empty() => deltas.push(delta),
            Ok(_) => {}
            Err(e) => return (deltas, Err(e)),
        }
    }
    assert!(stream.is_done());
    (deltas, stream.finish())
}

/// The one tool the requests offer: `search`, with a `query`.
pub(super) fn search_tool() -> Vec<ToolDef> {
    vec![ToolDef {
        name: "search".into(),
        description: "Search the docs".into(),
        parameters: json!({"type": "object", "properties": {"query": {"type": "string"}}}),
    }]
}

/// A streamed prompt of `model` as "You are helpful.".
pub(super) fn streamed<'a>(
    model: &'a str,
    entries: &'a [Entry],
    tools: &'a [ToolDef],
    max_tokens: u32,
) -> Prompt<'a> {
    Prompt {
        model,
        system: "You are helpful.",
        entries,
        tools,
        max_tokens,
        stream: true,
    }
}

/// `reply` calls `search` for the release date, and only that.
pub(super) fn assert_searches_the_release_date(reply: &Reply) {
    assert_eq!(reply.stop, Stop::ToolUse);
    assert_eq!(reply.tool_calls[0].name, "search");
    assert_eq!(
        reply.tool_calls[0].arguments,
        json!({"query": "release date"})
    );
}

/// Reads `recorded`'s whole answer with `parse` (`text`, done, `tokens`
/// spent in all) and its whole tool call, which searches for the release
/// date; the tool call.
pub(super) fn whole_replies(
    parse: fn(&str) -> Result<Reply, ProviderError>,
    recorded: &Recorded,
    text: &str,
    tokens: u64,
) -> Reply {
    let reply = parse(recorded.answer).unwrap();
    assert_eq!(reply.text, text);
    assert_eq!(reply.stop, Stop::Done);
    assert_eq!(reply.usage.total(), tokens);
    let call = parse(recorded.tool_call).unwrap();
    assert_searches_the_release_date(&call);
    call
}

/// Reads the fixture answer "It ships on Friday." streamed whole, checking its deltas.
pub(super) fn streamed_answer<S: Decode>(sse: &str) -> Reply {
    let (deltas, reply) = read_stream::<S>(sse, &[]);
    assert_eq!(deltas, ["It ships", " on Friday."]);
    let reply = reply.unwrap();
    assert_eq!(reply.text, "It ships on Friday.");
    reply
}

/// Cut anywhere, `recorded`'s streamed answer and tool call read as they do whole.
fn any_split_reads_the_same<S: Decode>(
    recorded: &Recorded,
    cuts: &[usize],
) -> Result<(), TestCaseError> {
    let (deltas, reply) = read_stream::<S>(recorded.answer_sse, cuts);
    prop_assert_eq!(deltas.concat(), "It ships on Friday.");
    prop_assert_eq!(reply.unwrap().text, "It ships on Friday.");
    let (_, call) = read_stream::<S>(recorded.tool_call_sse, cuts);
    prop_assert_eq!(
        &call.unwrap().tool_calls[0].arguments,
        &json!({"query": "release date"})
    );
    Ok(())
}

proptest! {
    #[test]
    fn any_split_of_a_stream_reads_the_same(cuts in proptest::collection::vec(any::<usize>(), 0..10)) {
        any_split_reads_the_same::<super::anthropic::Stream>(&ANTHROPIC, &cuts)?;
        any_split_reads_the_same::<super::openai::Stream>(&OPENAI, &cuts)?;
    }
}
