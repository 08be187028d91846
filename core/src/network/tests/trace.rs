//! W3C trace context through the network: an event keeps its context, what it
//! causes (acks, replies, errors) is its child in the same trace, a binding's
//! request context reaches events that bring none, bad context is refused.

use super::*;
use crate::event::trace::{TraceContext, span_of};

const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

fn context_of(event: &Event) -> TraceContext {
    TraceContext::from_metadata(&event.metadata)
        .unwrap()
        .unwrap_or_else(|| panic!("no trace on {event:?}"))
}

#[test]
fn what_a_traced_event_causes_is_its_child_and_recipients_see_its_context() {
    let mut network = bare();
    let [mut alice, _bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    let mut event = alice.event("chat.note", "agent:bob", json!({"text": "hi"}));
    event.metadata.insert("traceparent".into(), json!(PARENT));
    event
        .metadata
        .insert("tracestate".into(), json!("vendor=1"));
    let id = event.id;
    let effects = network.handle_event(Some(&alice.address.clone()), event, Timestamp::from(10));
    let (_, frame) = single_frame(&effects);
    assert_eq!(frame["metadata"]["traceparent"], PARENT);
    let ack = context_of(&acked(&effects));
    assert_eq!(ack.parent.trace_hex(), "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(ack.parent.parent_id, span_of(id));
    assert_eq!(ack.state.as_deref(), Some("vendor=1"));
    // A core reply to a traced request is a child too; an untraced one has no context.
    let mut ask = alice.event("network.agent.discover", "core", json!({}));
    ask.metadata.insert("traceparent".into(), json!(PARENT));
    let ask_id = ask.id;
    let effects = network.handle_event(Some(&alice.address.clone()), ask, Timestamp::from(10));
    let roster = reply_of_type(&effects, "network.agent.discover.response");
    assert_eq!(context_of(&roster).parent.parent_id, span_of(ask_id));
    let effects = alice.ask(&mut network, "network.agent.discover", json!({}));
    let plain = reply_of_type(&effects, "network.agent.discover.response");
    assert!(!plain.metadata.contains_key("traceparent"));
}

#[test]
fn a_refused_event_is_answered_in_its_trace_and_bad_context_is_malformed() {
    let (mut network, mut alice) = bare_with("agent:alice");
    let mut event = alice.event("network.channel.delete", "core", json!({"name": "nope"}));
    event.metadata.insert("traceparent".into(), json!(PARENT));
    let id = event.id;
    let effects = network.handle_event(Some(&alice.address.clone()), event, Timestamp::from(10));
    let [Effect::Reply(error)] = &effects[..] else {
        panic!("one error: {effects:?}")
    };
    assert_eq!(context_of(error).parent.parent_id, span_of(id));
    for bad in [json!("00-zz-00f067aa0ba902b7-01"), json!(7)] {
        let mut event = alice.event("chat.note", "agent:broadcast", json!({}));
        event.metadata.insert("traceparent".into(), bad);
        let effects =
            network.handle_event(Some(&alice.address.clone()), event, Timestamp::from(10));
        assert_eq!(error_code(&effects), ErrorCode::MalformedEvent);
    }
}

#[test]
fn a_requests_context_reaches_events_without_their_own_and_ends_with_the_request() {
    let mut network = bare();
    let [mut alice, _bob] = join_all(&mut network, ["agent:alice", "agent:bob"]);
    let request = TraceContext::from_headers(Some(PARENT), None);
    let event = alice.event("chat.note", "agent:bob", json!({}));
    let id = event.id;
    let sender = alice.address.clone();
    let effects = network.traced(request, |n| {
        n.handle_event(Some(&sender), event, Timestamp::from(10))
    });
    let (_, frame) = single_frame(&effects);
    assert_eq!(
        frame["metadata"]["traceparent"], PARENT,
        "the event carries the request's context"
    );
    assert_eq!(context_of(&acked(&effects)).parent.parent_id, span_of(id));
    // An event's own context wins over the request's.
    let own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    let mut event = alice.event("chat.note", "agent:bob", json!({}));
    event.metadata.insert("traceparent".into(), json!(own));
    let request = TraceContext::from_headers(Some(PARENT), None);
    let effects = network.traced(request, |n| {
        n.handle_event(Some(&sender), event, Timestamp::from(10))
    });
    assert_eq!(single_frame(&effects).1["metadata"]["traceparent"], own);
    // After the request, nothing is stamped.
    let effects = alice.send(&mut network, "chat.note", "agent:bob", json!({}));
    assert!(
        single_frame(&effects).1["metadata"]
            .get("traceparent")
            .is_none()
    );
}
