//! The stream registry: ids, priming, resuming and who hears notices.

use super::*;
use serde_json::json;

fn spec(session: &str, revision: Revision, kind: StreamKind) -> StreamSpec {
    let listener = match &kind {
        StreamKind::Notifications => Some(Listener::Session(BTreeSet::new())),
        StreamKind::Subscription(id) => Some(Listener::Subscription {
            id: id.clone(),
            filter: Default::default(),
        }),
        StreamKind::Request => None,
    };
    StreamSpec {
        session: Some(session.into()).filter(|s: &String| !s.is_empty()),
        member: "agent:a".parse().unwrap(),
        revision,
        kind,
        listener,
        elicits: false,
    }
}

/// Session `session`'s GET stream of notices, in 2025-03-26.
fn legacy_notices(session: &str) -> StreamSpec {
    spec(session, Revision::V2025_03_26, StreamKind::Notifications)
}

/// A request's stream in session `x`, in `revision`.
fn request_in(revision: Revision) -> StreamSpec {
    spec("x", revision, StreamKind::Request)
}

#[test]
fn a_2025_11_25_request_stream_is_primed_and_every_record_has_an_id() {
    let mut streams = Streams::default();
    let opening = streams.open("s1", request_in(Revision::V2025_11_25), Timestamp::from(0));
    assert_eq!(opening, ["id: s1_0\nretry: 500\ndata: \n\n"]);
    let answer = streams.record("s1", &json!({"id": 1})).unwrap();
    assert_eq!(answer, "id: s1_1\nevent: message\ndata: {\"id\":1}\n\n");
    assert!(
        streams
            .open(
                "s2",
                spec("x", Revision::V2025_06_18, StreamKind::Request),
                Timestamp::from(0)
            )
            .is_empty()
    );
    let modern = spec(
        "",
        Revision::V2026_07_28,
        StreamKind::Subscription(Id::Number(1)),
    );
    assert!(streams.open("s3", modern, Timestamp::from(0)).is_empty());
    assert_eq!(
        streams.record("s3", &json!(1)).unwrap(),
        "event: message\ndata: 1\n\n"
    );
    assert_eq!(streams.record("nope", &json!(1)), None);
}

#[test]
fn a_dropped_stream_resumes_after_the_last_id_it_delivered() {
    let mut streams = Streams::default();
    streams.open("s1", request_in(Revision::V2025_11_25), Timestamp::from(0));
    streams.detach("s1", Timestamp::from(10));
    // The answer comes while nobody listens: it is kept.
    let kept = streams.record("s1", &json!({"result": 1})).unwrap();
    streams.finish("s1", Timestamp::from(20));
    assert_eq!(
        streams.resume("other-session", "s1_0", Timestamp::from(30)),
        None
    );
    let resumed = streams.resume("x", "s1_0", Timestamp::from(30)).unwrap();
    assert_eq!(
        resumed,
        Resumed {
            stream: "s1".into(),
            records: vec![kept],
            done: true
        }
    );
    assert!(
        streams
            .resume("x", "s1_1", Timestamp::from(30))
            .unwrap()
            .records
            .is_empty()
    );
    assert_eq!(streams.resume("x", "garbage", Timestamp::from(30)), None);
    // Past the window it is gone.
    assert_eq!(
        streams.resume("x", "s1_0", Timestamp::from(20 + RESUME_WINDOW_MS)),
        None
    );
}

#[test]
fn a_modern_stream_is_forgotten_when_it_drops() {
    let mut streams = Streams::default();
    let id = Id::Text("listen:1".into());
    streams.open(
        "l",
        spec("", Revision::V2026_07_28, StreamKind::Subscription(id)),
        Timestamp::from(0),
    );
    assert_eq!(streams.listeners().len(), 1);
    streams.detach("l", Timestamp::from(1));
    assert!(streams.listeners().is_empty());
    assert_eq!(streams.record("l", &json!(1)), None);
}

#[test]
fn a_session_hears_notices_on_its_newest_get_stream_only() {
    let mut streams = Streams::default();
    streams.open("old", legacy_notices("x"), Timestamp::from(0));
    streams.open("new", legacy_notices("x"), Timestamp::from(5));
    streams.open("req", request_in(Revision::V2025_03_26), Timestamp::from(6));
    streams.open("y", legacy_notices("y"), Timestamp::from(7));
    let ids: Vec<String> = streams.listeners().into_iter().map(|(id, _)| id).collect();
    assert_eq!(ids, ["new", "y"]);
    streams.detach("new", Timestamp::from(8));
    let ids: Vec<String> = streams.listeners().into_iter().map(|(id, _)| id).collect();
    assert_eq!(ids, ["old", "y"]);
    streams.subscriptions_changed("x", &BTreeSet::from(["u".to_owned()]));
    let (_, listener) = streams.listeners().into_iter().next().unwrap();
    assert_eq!(
        listener,
        Listener::Session(BTreeSet::from(["u".to_owned()]))
    );
    assert_eq!(streams.end_session("x").len(), 3);
    assert_eq!(streams.connected_members().len(), 1);
}

#[test]
fn a_long_stream_keeps_its_latest_records() {
    let mut streams = Streams::default();
    streams.open("s", legacy_notices("x"), Timestamp::from(0));
    for n in 0..MAX_KEPT + 10 {
        streams.record("s", &json!(n));
    }
    let resumed = streams.resume("x", "s_0", Timestamp::from(1)).unwrap();
    assert_eq!(resumed.records.len(), MAX_KEPT);
    assert!(resumed.records[0].contains(&format!("data: {}", 10)));
    assert_eq!(parse_event_id("ab_12"), Some(("ab", 12)));
    assert_eq!(new_id(&[0xff; 32]), "ffffffffffffffff");
}
