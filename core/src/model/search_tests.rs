//! Tests of search texts and what they match.

use super::*;
use crate::event::Event;
use crate::event::Limits;
use crate::ids::ulid::EventId;
use proptest::prelude::*;
use serde_json::json;

fn event(kind: &str, payload: Value) -> Event {
    Event::from_value(
        json!({
            "id": EventId::from_parts(1, 7).to_string(), "type": kind,
            "source": "agent:a", "target": "channel/general", "payload": payload, "timestamp": 1,
        }),
        &Limits::default(),
    )
    .expect("a valid event")
}

fn search(text: &str) -> SearchText {
    text.parse().expect("a valid search text")
}

#[test]
fn a_search_text_is_trimmed_split_lower_cased_and_bounded() {
    let text = search("  Deploy  FRIDAY deploy ");
    assert_eq!(text.as_str(), "Deploy  FRIDAY deploy");
    assert_eq!(text.terms(), ["deploy", "friday"]);
    assert_eq!("   ".parse::<SearchText>(), Err(SearchTextError::Empty));
    assert_eq!("".parse::<SearchText>(), Err(SearchTextError::Empty));
    let long = "a".repeat(MAX_SEARCH_CHARS + 1);
    assert_eq!(long.parse::<SearchText>(), Err(SearchTextError::TooLong));
    assert!("é".repeat(MAX_SEARCH_CHARS).parse::<SearchText>().is_ok());
    assert_eq!(
        "a\u{0}b".parse::<SearchText>(),
        Err(SearchTextError::Control)
    );
    let many = (0..=MAX_TERMS)
        .map(|n| format!("w{n}"))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        many.parse::<SearchText>(),
        Err(SearchTextError::TooManyTerms)
    );
    assert_eq!(
        SearchText::try_from(&json!(3)),
        Err(SearchTextError::NotText)
    );
    assert_eq!(SearchTextError::Empty.code().as_str(), "invalid_search");
}

#[test]
fn every_term_must_appear_in_the_message_text_in_any_case() {
    let posted = event(
        "workspace.message.posted",
        json!({"content": "Deploy on Friday, Ann"}),
    );
    assert!(search("deploy").matches(&posted));
    assert!(
        search("FRI dep").matches(&posted),
        "substrings of words, any order"
    );
    assert!(!search("deploy monday").matches(&posted), "every term");
    let status = event(
        "workspace.message.status",
        json!({"status": "Thinking hard"}),
    );
    assert!(search("thinking").matches(&status));
}

#[test]
fn the_text_of_ioa_messages_and_other_chat_events_is_searched_but_not_the_networks() {
    let ioa = event(
        "ioa.message",
        json!({"content": {"title": "Release plan", "options": ["ship", "wait"]}}),
    );
    assert!(search("release wait").matches(&ioa));
    let custom = event("chat.reply", json!({"content": "a custom reply"}));
    assert!(search("custom").matches(&custom));
    let core = event("network.channel.created", json!({"content": "deploy"}));
    assert!(!search("deploy").matches(&core));
    let other_field = event("workspace.message.posted", json!({"title": "deploy"}));
    assert!(
        !search("deploy").matches(&other_field),
        "only the message's text"
    );
    assert_eq!(searchable_text(&other_field), None);
}

#[test]
fn the_searchable_text_is_cut_on_a_character_boundary() {
    let long = "é".repeat(MAX_SEARCHABLE_BYTES);
    let text = searchable_text(&event("workspace.message.posted", json!({"content": long})))
        .unwrap_or_default();
    assert!(text.len() <= MAX_SEARCHABLE_BYTES && !text.is_empty());
}

#[test]
fn highlights_mark_every_place_a_term_appears_merged() {
    let text = search("dep FRI");
    assert_eq!(text.highlights("Deploy on Friday"), [(0, 3), (10, 13)]);
    assert_eq!(search("ab bc").highlights("xabcx"), [(1, 4)]);
    assert_eq!(search("é").highlights("CAFÉ é"), [(3, 5), (6, 8)]);
    assert!(search("zzz").highlights("nothing").is_empty());
}

#[test]
fn a_search_text_round_trips_through_json() {
    let text = search("Deploy friday");
    let json = serde_json::to_value(&text).unwrap_or_default();
    assert_eq!(json, json!("Deploy friday"));
    assert_eq!(serde_json::from_value::<SearchText>(json).ok(), Some(text));
    assert!(serde_json::from_value::<SearchText>(json!(" ")).is_err());
}

proptest! {
    #[test]
    fn searching_never_panics(query in any::<String>(), content in any::<String>()) {
        if let Ok(text) = query.parse::<SearchText>() {
            prop_assert!(!text.terms().is_empty());
            prop_assert!(text.terms().len() <= MAX_TERMS);
            let posted = event("workspace.message.posted", json!({"content": content.clone()}));
            let found = text.matches(&posted);
            let lower = content.to_lowercase();
            prop_assert_eq!(found, text.terms().iter().all(|t| lower.contains(t.as_str())));
            for (start, end) in text.highlights(&content) {
                prop_assert!(start < end && end <= content.len());
                prop_assert!(content.is_char_boundary(start) && content.is_char_boundary(end));
            }
        }
    }
}
