//! Server-Sent Events streams driven natively: catch-up a page at a time as
//! the client reads, slow clients cut off, and the cap on streams per member.

use super::*;
use crate::bindings::http::Outcome;
use crate::bindings::message::Method;
use crate::bindings::tests::world::World;
use crate::bindings::tests::{get, post, with_token};
use crate::bindings::transport::sse::{
    self, MAX_QUEUED_BYTES, MAX_STREAMS_PER_MEMBER, Pushed, Stream,
};
use crate::network::MAX_READ_LIMIT;
use serde_json::{Value, json};
use std::cell::RefCell;

fn send(world: &mut World, token: &str, target: &str, payload: Value) {
    let body = json!({"type": "chat.msg", "target": target, "payload": payload}).to_string();
    let response = world.call(&with_token(post("v1/events", &body), token));
    assert_eq!(response.status, 200, "{response:?}");
}

fn open(world: &mut World, token: &str, query: &str) -> Result<Stream, (u16, String)> {
    match world.outcome(&with_token(get(&format!("v1/sse{query}")), token)) {
        Outcome::Stream(stream) => Ok(stream),
        Outcome::Respond(response) => {
            let (status, code) = response.status_and_code();
            Err((status, code.to_owned()))
        }
        other => panic!("expected a stream or a response, got {other:?}"),
    }
}

/// The `(id, payload.n)` of every event record the client reads now.
fn read_all(stream: &mut Stream) -> Vec<(u64, u64)> {
    let mut read = Vec::new();
    while let Some(bytes) = stream.pop() {
        let text = String::from_utf8(bytes).unwrap();
        let Some(id) = text.strip_prefix("id: ") else {
            continue;
        };
        let (id, rest) = id.split_once('\n').unwrap();
        let data = rest.split_once("data: ").unwrap().1.trim_end();
        let event: Value = serde_json::from_str(data).unwrap();
        read.push((id.parse().unwrap(), event["payload"]["n"].as_u64().unwrap()));
    }
    read
}

#[test]
fn a_stream_catches_up_a_page_at_a_time_as_its_client_reads() {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    let bob = world.join("agent:bob");
    let missed = 3 * MAX_READ_LIMIT as u64 + 17;
    for n in 0..missed {
        send(&mut world, &alice, "agent:bob", json!({"n": n}));
    }
    let mut stream = open(&mut world, &bob, "?after=0").unwrap();
    // The opening holds one page; the rest waits for the client to read it.
    assert!(stream.is_catching_up());
    let mut read = read_all(&mut stream);
    assert_eq!(read.len(), MAX_READ_LIMIT);
    // A live event meanwhile waits in the log for its page.
    send(&mut world, &alice, "agent:bob", json!({"n": missed}));
    assert_eq!(stream.push(Some(u64::MAX), "{}"), Pushed::Waits);

    let stream = RefCell::new(stream);
    while stream.borrow().wants_page().is_some() {
        let page = sse::next_page(&mut world.host, &mut world.network, &stream).unwrap();
        assert_eq!(page, Ok(()));
        let got = read_all(&mut stream.borrow_mut());
        assert!(got.len() <= MAX_READ_LIMIT);
        read.extend(got);
    }
    let mut stream = stream.into_inner();
    assert!(!stream.is_catching_up(), "caught up: live from now on");
    let ns: Vec<u64> = read.iter().map(|r| r.1).collect();
    assert_eq!(
        ns,
        (0..=missed).collect::<Vec<_>>(),
        "everything once, in order"
    );
    assert!(read.windows(2).all(|w| w[0].0 < w[1].0));
    // The stream counted as acknowledged: bob's cursor is its last id.
    let last = read.last().unwrap().0;
    assert_eq!(world.network.cursor(&"agent:bob".parse().unwrap()), last);
    assert_eq!(stream.push(Some(last + 1), "{}"), Pushed::Queued);
}

#[test]
fn a_client_that_does_not_read_is_cut_off_rather_than_held() {
    let mut world = World::new();
    let bob = world.join("agent:bob");
    let mut stream = open(&mut world, &bob, "").unwrap();
    assert!(!stream.is_catching_up(), "nothing missed: live at once");
    let event = json!({"payload": "x".repeat(10_000)}).to_string();
    let mut queued = 0;
    let mut seq = 0;
    while stream.push(Some(seq), &event) == Pushed::Queued {
        seq += 1;
        queued += 1;
        assert!(stream.queued() <= MAX_QUEUED_BYTES);
    }
    assert!(
        queued > MAX_QUEUED_BYTES / 20_000,
        "{queued} records before the cut"
    );
    // Cut: what was unread is dropped (the client resumes from its last id).
    assert!(stream.is_cut());
    assert_eq!(stream.queued(), 0);
    assert_eq!(stream.pop(), None);
    assert_eq!(stream.push(None, "{}"), Pushed::Cut);

    // One event larger than the bound still goes to a client that keeps up.
    let mut stream = open(&mut world, &bob, "").unwrap();
    let huge = "x".repeat(MAX_QUEUED_BYTES + 1);
    assert_eq!(stream.push(Some(1), &huge), Pushed::Queued);
    assert!(stream.pop().is_some());
    // A keepalive only when the client has read everything.
    stream.push(Some(2), "{}");
    stream.keepalive();
    assert_eq!(stream.queued(), sse::record(Some(2), "{}").len());
    stream.pop();
    stream.keepalive();
    assert_eq!(stream.pop(), Some(sse::KEEPALIVE.as_bytes().to_vec()));
}

#[test]
fn a_member_has_a_bounded_number_of_streams() {
    let mut world = World::new();
    let bob = world.join("agent:bob");
    let alice = world.join("agent:alice");
    let bob_address = "agent:bob".parse().unwrap();
    world
        .host
        .streams
        .insert(bob_address, MAX_STREAMS_PER_MEMBER - 1);
    assert!(open(&mut world, &bob, "").is_ok(), "the last one allowed");
    world
        .host
        .streams
        .insert("agent:bob".parse().unwrap(), MAX_STREAMS_PER_MEMBER);
    assert_eq!(
        open(&mut world, &bob, "").unwrap_err(),
        (429, "limit_reached".to_owned())
    );
    // Only bob's own: alice still opens hers.
    assert!(open(&mut world, &alice, "").is_ok());
}

#[test]
fn a_client_that_reads_nothing_for_two_keepalives_is_gone() {
    let mut world = World::new();
    let bob = world.join("agent:bob");
    // A client that reads its keepalives stays, however long it is idle.
    let mut reading = open(&mut world, &bob, "").unwrap();
    for _ in 0..10 {
        reading.keepalive();
        assert_eq!(reading.pop(), Some(sse::KEEPALIVE.as_bytes().to_vec()));
    }
    assert!(!reading.is_cut());
    // One whose connection died reads nothing: cut at the second tick after the first unread keepalive.
    let mut dead = open(&mut world, &bob, "").unwrap();
    dead.keepalive();
    dead.keepalive();
    assert!(!dead.is_cut());
    dead.keepalive();
    assert!(dead.is_cut());
    // A slow reader that keeps reading is not gone.
    let mut slow = open(&mut world, &bob, "").unwrap();
    for seq in 0..10 {
        slow.push(Some(seq), "{}");
        slow.push(Some(seq), "{}");
        slow.keepalive();
        slow.pop();
    }
    assert!(!slow.is_cut());
}

#[test]
fn records_are_framed_with_their_seq() {
    assert_eq!(
        record(Some(7), "{\"a\":1}"),
        "id: 7\nevent: message\ndata: {\"a\":1}\n\n"
    );
    assert_eq!(record(None, "{}"), "event: message\ndata: {}\n\n");
    assert!(KEEPALIVE.starts_with(':') && KEEPALIVE.ends_with("\n\n"));
}

#[test]
fn a_stream_ends_with_the_reason_it_was_closed() {
    let member = "agent:a".parse().unwrap();
    let record = closed_record(&crate::bindings::transport::sockets::left(&member));
    assert_eq!(
        record,
        "event: closed\ndata: {\"code\":\"not_joined\",\"message\":\"agent:a left the network\"}\n\n"
    );
}

#[test]
fn a_closed_stream_gives_what_it_held_then_its_last_record_then_ends() {
    let member: Address = "agent:a".parse().unwrap();
    let mut stream = Stream::new(member.clone(), 0);
    stream.phase = Phase::Live;
    assert_eq!(stream.push(Some(1), "{}"), Pushed::Queued);
    let last = closed_record(&crate::bindings::transport::sockets::left(&member));
    stream.close(last.clone());
    assert!(stream.is_cut());
    assert_eq!(stream.push(Some(2), "{}"), Pushed::Cut);
    assert_eq!(stream.pop(), Some(record(Some(1), "{}").into_bytes()));
    assert_eq!(stream.pop(), Some(last.into_bytes()));
    assert_eq!(stream.pop(), None);
}

#[test]
fn the_resume_point_is_last_event_id_then_after() {
    let url = "http://h/networks/demo/v1/sse?after=4";
    let plain = Request::new(Method::Get, url);
    assert_eq!(resume_point(&plain), Some(4));
    let header = plain.clone().with_header("Last-Event-ID", " 9 ");
    assert_eq!(resume_point(&header), Some(9));
    // A header that is no seq wins over the query and means the cursor.
    let bad = plain.with_header("last-event-id", "x");
    assert_eq!(resume_point(&bad), None);
    let none = Request::new(Method::Get, "http://h/networks/demo/v1/sse");
    assert_eq!(resume_point(&none), None);
}

#[test]
fn a_frame_writes_its_fields_in_order_and_one_data_line_per_line() {
    assert_eq!(
        frame(Some("s_0"), None, Some(3000), ""),
        "id: s_0\nretry: 3000\ndata: \n\n"
    );
    assert_eq!(
        frame(Some("s_1"), Some("message"), None, "{}"),
        "id: s_1\nevent: message\ndata: {}\n\n"
    );
    assert_eq!(
        frame(None, Some("fork"), None, "a\r\nb\nc"),
        "event: fork\ndata: a\ndata: b\ndata: c\n\n"
    );
}

#[test]
fn every_stream_is_an_uncached_unbuffered_event_stream() {
    let header = |name: &str| HEADERS.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    assert_eq!(header("Content-Type"), Some("text/event-stream"));
    assert_eq!(header("Cache-Control"), Some("no-cache"));
    assert_eq!(header("X-Accel-Buffering"), Some("no"));
}
