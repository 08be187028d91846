use super::*;
use serde_json::json;
use std::collections::BTreeMap;

#[test]
fn changes_follow_a_seq_and_say_when_nothing_is_new() {
    let mut feed = Feed::new(10);
    let (first, _) = feed.record(Op::Upsert, "A", json!({"n": 1}), Timestamp::from(5));
    feed.record(Op::Upsert, "A", json!({"n": 2}), Timestamp::from(6));
    feed.record(
        Op::Delete,
        "A",
        json!({"ignored": true}),
        Timestamp::from(7),
    );
    assert_eq!(
        first.to_line(),
        r#"{"seq":"1","ts":5,"op":"upsert","type":"acs","id":"A","version":1,"payload":{"n":1}}"#
    );
    let since = |seq| feed.since(seq, 10).unwrap_or_default();
    let after_one: Vec<u64> = since(1).iter().map(|c| c.seq).collect();
    assert_eq!(after_one, [2, 3]);
    let versions: Vec<u64> = since(0).iter().map(|c| c.version).collect();
    assert_eq!(versions, [1, 2, 3]);
    assert_eq!(feed.since(3, 10).map(|c| c.len()), Ok(0));
    assert_eq!(feed.since(0, 2).map(|c| c.len()), Ok(2));
    assert_eq!(
        feed.since(4, 10).err().map(|e| e.reason()),
        Some("invalid_parameter")
    );
    assert_eq!(
        serde_json::from_str::<Change>(&first.to_line()).ok(),
        Some(first)
    );
}

#[test]
fn a_caller_behind_the_retention_window_is_told_to_resnapshot() {
    let mut feed = Feed::new(3);
    let mut pruned = Vec::new();
    for i in 0..5 {
        pruned.extend(
            feed.record(Op::Upsert, &format!("id{i}"), json!(i), Timestamp::from(0))
                .1,
        );
    }
    assert_eq!(pruned, [1, 2]);
    let err = feed.since(1, 10).err();
    assert_eq!(
        err.as_ref().map(|e| (e.reason(), e.status())),
        Some(("behind_retention", 410))
    );
    assert_eq!(feed.since(2, 10).map(|c| c.len()), Ok(3));
}

#[test]
fn a_snapshot_pages_by_id_at_one_seq() {
    let mut feed = Feed::new(10);
    let objects: BTreeMap<String, Value> = (0..5).map(|i| (format!("id{i}"), json!(i))).collect();
    for id in objects.keys() {
        feed.record(Op::Upsert, id, json!(null), Timestamp::from(0));
    }
    let (first, next) = snapshot_page(objects.iter(), &feed, 5, None, 2);
    assert_eq!(
        first.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["id0", "id1"]
    );
    assert!(
        first
            .iter()
            .all(|c| c.seq == 5 && c.version == 1 && c.op == Op::Upsert)
    );
    let (second, next) = snapshot_page(objects.iter(), &feed, 5, next.as_deref(), 2);
    assert_eq!(second.len(), 2);
    let (last, none) = snapshot_page(objects.iter(), &feed, 5, next.as_deref(), 2);
    assert_eq!((last.len(), none), (1, None));
}

/// The registry's objects after a script of changes (`(id, Some(payload))` puts, `None` deletes).
fn registry_after(
    feed: &mut Feed,
    state: &mut BTreeMap<String, Value>,
    script: &[(u8, Option<u8>)],
) {
    for (id, payload) in script {
        let id = format!("id{id}");
        match payload {
            Some(p) => {
                state.insert(id.clone(), json!(p));
                feed.record(Op::Upsert, &id, json!(p), Timestamp::from(0));
            }
            None => {
                if state.remove(&id).is_some() {
                    feed.record(Op::Delete, &id, Value::Null, Timestamp::from(0));
                }
            }
        }
    }
}

fn sync(replica: &mut Replica, feed: &Feed, state: &BTreeMap<String, Value>, page: usize) {
    let mut rounds = 0;
    loop {
        rounds += 1;
        assert!(rounds < 1000);
        match feed.since(replica.seq, page) {
            Ok(changes) if changes.is_empty() => return,
            Ok(changes) => changes.iter().for_each(|c| replica.apply(c)),
            Err(_) => {
                *replica = Replica::default();
                let seq = feed.last_seq();
                let mut after: Option<String> = None;
                loop {
                    let (lines, next) =
                        snapshot_page(state.iter(), feed, seq, after.as_deref(), page);
                    lines.iter().for_each(|c| replica.apply(c));
                    let Some(n) = next else { break };
                    after = Some(n);
                }
                replica.seq = seq;
            }
        }
    }
}

proptest::proptest! {
    /// A discovery service built only from the feed converges to the
    /// registry's state, however it is interrupted (sync points) and even
    /// when it falls behind the retention window (410 → snapshot).
    #[test]
    fn a_replica_of_the_feed_converges(
        script in proptest::collection::vec((0u8..8, proptest::option::of(0u8..50)), 0..60),
        cuts in proptest::collection::vec(0usize..60, 0..4),
        retention in 1usize..12,
        page in 1usize..5,
    ) {
        let mut feed = Feed::new(retention);
        let mut state = BTreeMap::new();
        let mut replica = Replica::default();
        let mut done = 0;
        let mut cuts = cuts;
        cuts.sort_unstable();
        for cut in cuts.into_iter().chain([script.len()]) {
            let cut = cut.min(script.len()).max(done);
            registry_after(&mut feed, &mut state, &script[done..cut]);
            done = cut;
            sync(&mut replica, &feed, &state, page);
        }
        let copy: BTreeMap<String, Value> = replica.objects.iter().map(|(k, (_, v))| (k.clone(), v.clone())).collect();
        proptest::prop_assert_eq!(copy, state);
    }
}
