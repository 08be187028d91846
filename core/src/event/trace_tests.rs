//! W3C trace context: parsing as the recommendation reads, causation, property tests.

use super::*;
use proptest::prelude::*;

const PARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

#[test]
fn reads_and_writes_the_w3c_example() {
    let parent = TraceParent::parse(PARENT).unwrap();
    assert_eq!(parent.trace_hex(), "4bf92f3577b34da6a3ce929d0e0e4736");
    assert_eq!(parent.parent_id, 0x00f0_67aa_0ba9_02b7);
    assert_eq!(parent.flags, 1);
    assert_eq!(parent.to_string(), PARENT);
}

#[test]
fn refuses_what_w3c_calls_invalid() {
    for bad in [
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra",
        "00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01",
        "00-+bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    ] {
        assert_eq!(TraceParent::parse(bad), Err(TraceError::Parent), "{bad}");
    }
    // A later version's first four fields are read; what follows is its own.
    let later = "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future";
    assert_eq!(
        TraceParent::parse(later).unwrap().parent_id,
        0x00f0_67aa_0ba9_02b7
    );
}

#[test]
fn metadata_context_is_checked_and_header_context_is_dropped_when_bad() {
    let meta = |v: Value| v.as_object().cloned().unwrap();
    assert_eq!(TraceContext::from_metadata(&meta(json!({}))), Ok(None));
    let ctx =
        TraceContext::from_metadata(&meta(json!({"traceparent": PARENT, "tracestate": "a=1"})))
            .unwrap()
            .unwrap();
    assert_eq!(ctx.state.as_deref(), Some("a=1"));
    assert_eq!(
        TraceContext::from_metadata(&meta(json!({"traceparent": "nope"}))),
        Err(TraceError::Parent)
    );
    assert_eq!(
        TraceContext::from_metadata(&meta(json!({"tracestate": "a=1"}))),
        Err(TraceError::Parent)
    );
    assert_eq!(
        TraceContext::from_metadata(&meta(
            json!({"traceparent": PARENT, "tracestate": "x".repeat(600)})
        )),
        Err(TraceError::State)
    );
    assert_eq!(TraceContext::from_headers(Some("nope"), Some("a=1")), None);
    let header = TraceContext::from_headers(Some(PARENT), Some("bad\u{1}state")).unwrap();
    assert_eq!(header.state, None, "a bad tracestate alone is dropped");
}

#[test]
fn what_an_event_causes_is_its_child_in_the_same_trace() {
    let ctx = TraceContext::from_headers(Some(PARENT), Some("v=1")).unwrap();
    let id = EventId::from_parts(1_700_000_000_000, 0xabcd_0000_0000_0000_1234);
    let child = ctx.caused_by(id);
    assert_eq!(child.parent.trace_id, ctx.parent.trace_id);
    assert_eq!(child.parent.parent_id, span_of(id));
    assert_eq!(child.state.as_deref(), Some("v=1"));
    let mut metadata = Map::new();
    child.write(&mut metadata);
    assert_eq!(TraceContext::from_metadata(&metadata), Ok(Some(child)));
    assert_ne!(span_of(EventId::from_parts(5, 0)), 0);
}

fn traced(n: u128, parent: Option<u64>) -> super::super::Event {
    let mut metadata = Map::new();
    if let Some(parent_id) = parent {
        TraceContext {
            parent: TraceParent {
                trace_id: 7,
                parent_id,
                flags: 1,
            },
            state: None,
        }
        .write(&mut metadata);
    }
    super::super::Event::from_value(
        json!({"id": EventId::from_parts(1, n).to_string(), "type": "a.b", "source": "agent:a",
               "target": "agent:b", "payload": {}, "metadata": metadata, "timestamp": 1}),
        &crate::Limits::default(),
    )
    .unwrap()
}

#[test]
fn a_trace_reads_as_a_tree_under_the_spans_its_events_name() {
    let root = traced(10, Some(99)); // its parent (the HTTP client's span) is not an event here
    let reply = traced(11, Some(span_of(root.id)));
    let other_trace = {
        let mut e = traced(12, Some(span_of(root.id)));
        e.metadata.insert(
            "traceparent".into(),
            json!("00-00000000000000000000000000000008-0000000000000001-01"),
        );
        e
    };
    let untraced = traced(13, None);
    let grandchild = traced(14, Some(span_of(reply.id)));
    let second = traced(15, Some(span_of(root.id)));
    let events = vec![root, reply, other_trace, untraced, grandchild, second];
    let shown: Vec<(usize, u128)> = tree(&events, 7)
        .into_iter()
        .map(|(depth, e)| (depth, e.id.to_u128() & 0xff))
        .collect();
    assert_eq!(shown, vec![(0, 10), (1, 11), (2, 14), (1, 15)]);
    assert!(tree(&events, 9).is_empty());
}

proptest! {
    #[test]
    fn any_text_parses_or_is_refused_without_panic(text in ".{0,80}") {
        if let Ok(parent) = TraceParent::parse(&text) {
            prop_assert_eq!(TraceParent::parse(&parent.to_string()), Ok(parent));
        }
    }

    #[test]
    fn every_valid_parent_round_trips(trace in 1u128.., parent in 1u64.., flags in any::<u8>()) {
        let p = TraceParent { trace_id: trace, parent_id: parent, flags };
        prop_assert_eq!(TraceParent::parse(&p.to_string()), Ok(p));
    }
}
