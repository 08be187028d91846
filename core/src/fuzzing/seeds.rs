//! The seed inputs of every target, made by the core's own code so that
//! they stay valid as the formats change: events of every kind the network
//! sends and accepts, conversations that join, send and leave, addresses of
//! each kind, and Automerge sync messages and saved documents.
//!
//! `cargo run -p agentnet-core --features fuzzing,documents --example
//! fuzz_seeds` writes them to `core/fuzz/corpus/<target>/`, where libFuzzer
//! and the stable corpus test read them.

use super::conversations::conversations;
use super::script::Script;
use crate::Timestamp;
use crate::client::Client;
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// One seed input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seed {
    /// Its file name in the corpus.
    pub name: String,
    /// The input.
    pub bytes: Vec<u8>,
    /// What the target returns for it, when the generator knows exactly.
    pub accepted: Option<usize>,
}

impl Seed {
    fn new(name: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        Self {
            name: name.into(),
            bytes: bytes.into(),
            accepted: None,
        }
    }
}

/// Addresses of every kind, in every form: canonical text, scoped, bare,
/// URI and DID.
pub fn address() -> Vec<Seed> {
    let texts = [
        "agent:alice",
        "human:bob",
        "openagents:carol",
        "acme:dave",
        "core",
        "agent:broadcast",
        "channel/general",
        "mod/persistence",
        "group/staff",
        "resource/tool/search",
        "resource/file/docs/plan.md",
        "resource/context/memory",
        "alice",
        "demo::agent:alice",
        "local::channel/general",
        "other-net::resource/file/a/b.txt",
    ];
    let mut seeds = Vec::new();
    for (n, text) in texts.iter().enumerate() {
        seeds.push(Seed::new(format!("{n:02}-text"), *text));
        let Ok(address) = text.parse::<crate::ids::address::Address>() else {
            continue;
        };
        seeds.push(Seed::new(format!("{n:02}-uri"), address.to_uri()));
        if let Some(did) = address.to_did() {
            seeds.push(Seed::new(format!("{n:02}-did"), did));
        }
    }
    seeds
}

/// The `network_frames` conversations, each with the number of events its
/// own run logged.
pub fn network_frames() -> Vec<Seed> {
    conversations()
        .into_iter()
        .map(|(name, script)| Seed {
            accepted: Some(script.appended),
            ..Seed::new(format!("{name}.txt"), script.text)
        })
        .collect()
}

/// Events: every kind the conversations sent or the network sent back
/// (logged, delivered, acks and errors), one file per kind and form, plus
/// events with protocol metadata, a scoped target and unusual text.
pub fn event_json() -> Vec<Seed> {
    let mut seeds = Vec::new();
    let mut kinds = BTreeSet::new();
    let sent = conversations()
        .into_iter()
        .flat_map(|(_, script)| script.sent);
    let frames = conversations()
        .into_iter()
        .flat_map(|(_, script)| frames_of(&script));
    for text in frames.chain(sent) {
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        if crate::event::Event::from_value(value.clone(), &crate::event::Limits::default()).is_err()
        {
            continue;
        }
        let kind = value.get("type").and_then(Value::as_str).unwrap_or("none");
        let form = match value.pointer("/metadata") {
            Some(m) if m.get("delivery").is_some() => "delivered",
            Some(m) if m.get("sender").is_some() => "enriched",
            _ => "plain",
        };
        if kinds.insert((kind.to_owned(), form)) {
            seeds.push(Seed::new(format!("{kind}.{form}.json"), text));
        }
    }
    seeds.extend(crafted_events());
    seeds
}

/// What each conversation's members sent: its input lines without the
/// connection character.
fn frames_of(script: &Script) -> Vec<String> {
    script
        .text
        .lines()
        .filter_map(|line| line.get(1..))
        .map(str::to_owned)
        .collect()
}

/// Events no conversation sends: every protocol metadata key, a scoped
/// target, escapes and astral characters, deep and wide payloads.
fn crafted_events() -> Vec<Seed> {
    let (Ok(me), Ok(network)) = ("openagents:carol".parse(), "demo".parse()) else {
        return Vec::new();
    };
    let mut client = Client::new(me, network, [7; 32]);
    let mut make = |kind: &str, target: &str, payload: Value, metadata: Value| {
        let (Ok(kind), Ok(target)) = (kind.parse(), target.parse()) else {
            return None;
        };
        let mut event = client.event(kind, target, payload, Timestamp::from(1_700_000_000_000));
        if let Value::Object(metadata) = metadata {
            event.metadata = metadata;
        }
        Some(event.encode())
    };
    let parent = "01HZZZZZZZZZZZZZZZZZZZZZZZ";
    let cases = [
        (
            "metadata",
            make(
                "workspace.message.posted",
                "channel/general",
                json!({"content": "reply"}),
                json!({"in_reply_to": parent, "visibility": "channel",
                       "refs": {"messages": [parent], "nodes": ["agent:alice"]}, "thread": "t1"}),
            ),
        ),
        (
            "scoped-target",
            make(
                "chat.msg",
                "other-net::agent:alice",
                json!({"text": "across"}),
                json!({}),
            ),
        ),
        (
            "escapes",
            make(
                "workspace.message.posted",
                "agent:broadcast",
                json!({"content": "quote \" backslash \\ tab \t nul \u{0} astral 😀 rtl \u{202e}"}),
                json!({}),
            ),
        ),
        (
            "deep-and-wide",
            make(
                "app.data",
                "mod/analytics",
                json!({"list": [1, -1, 1.5, 1e300, null, true, [], {}], "nested": {"a": {"b": {"c": [[["deep"]]]}}}}),
                json!({"visibility": "mod_only"}),
            ),
        ),
    ];
    cases
        .into_iter()
        .filter_map(|(name, text)| Some(Seed::new(format!("crafted-{name}.json"), text?)))
        .collect()
}

/// A peer's sync messages to the target's document (a fresh peer's hello,
/// a peer with a text of its own, a copy forked from it that edits), and
/// saved documents and an incremental chunk.
#[cfg(feature = "documents")]
pub fn document_sync() -> Vec<Seed> {
    use crate::documents::TextDocument;
    let mut seeds = Vec::new();
    let mut fresh = TextDocument::new([5; 16]);
    if let Some(hello) = fresh.generate_sync_message(&mut automerge::sync::State::new()) {
        seeds.push(Seed::new("fresh-peer-hello.bin", hello.encode()));
    }
    let mut other = TextDocument::with_genesis([6; 16]);
    let _ = other.splice(0, 0, "the peer's own text", Timestamp::from(5));
    for (n, message) in exchange(&mut super::documents::shared(), &mut other)
        .into_iter()
        .enumerate()
    {
        seeds.push(Seed::new(format!("own-text-{n}.bin"), message));
    }
    let mut target = super::documents::shared();
    let Ok(mut fork) = TextDocument::load(&target.save(), [7; 16]) else {
        return seeds;
    };
    let _ = fork.splice(0, 6, "forked", Timestamp::from(6));
    let _ = fork.splice(fork.len(), 0, ", edited", Timestamp::from(7));
    for (n, message) in exchange(&mut target, &mut fork).into_iter().enumerate() {
        seeds.push(Seed::new(format!("forked-edit-{n}.bin"), message));
    }
    seeds.push(Seed::new("saved-fork.bin", fork.save()));
    let mut stored = super::documents::shared();
    seeds.push(Seed::new("saved-shared.bin", stored.save()));
    let _ = stored.splice(0, 0, "» ", Timestamp::from(8));
    seeds.push(Seed::new(
        "chunk-after-shared.bin",
        stored.save_incremental(),
    ));
    seeds
}

/// Syncs `ours` and `theirs` until both are quiet; returns the messages
/// `theirs` sent, encoded.
#[cfg(feature = "documents")]
fn exchange(
    ours: &mut crate::documents::TextDocument,
    theirs: &mut crate::documents::TextDocument,
) -> Vec<Vec<u8>> {
    use automerge::sync::State;
    let (mut our_state, mut their_state) = (State::new(), State::new());
    let mut sent = Vec::new();
    for _ in 0..8 {
        let ask = ours.generate_sync_message(&mut our_state);
        if let Some(message) = ask.clone() {
            let _ = theirs.receive_sync_message(&mut their_state, message);
        }
        let answer = theirs.generate_sync_message(&mut their_state);
        if let Some(message) = answer.clone() {
            sent.push(message.clone().encode());
            let _ = ours.receive_sync_message(&mut our_state, message);
        }
        if ask.is_none() && answer.is_none() {
            break;
        }
    }
    sent
}
