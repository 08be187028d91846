//! Unit tests of the delivery tracker: chains, the in-flight bound, catch-up pages.

use super::*;

fn addr(s: &str) -> Address {
    s.parse().unwrap()
}

#[test]
fn tracker_chains_prev_and_moves_cursors() {
    let mut t = Tracker::default();
    let a = addr("agent:a");
    assert_eq!(t.delivered(&a, 5, 200, Timestamp::from(100)), 0);
    assert_eq!(t.delivered(&a, 9, 200, Timestamp::from(101)), 5);
    assert_eq!(
        t.next_wakeup(),
        Some(Timestamp::from(100 + REDELIVERY_TIMEOUT_MS))
    );
    assert_eq!(t.acknowledge(&a, 5, Timestamp::from(102)), Some(5));
    // A partial ack is progress: the rest has its full time from then.
    assert!(
        t.overdue(Timestamp::from(101 + REDELIVERY_TIMEOUT_MS))
            .is_empty()
    );
    assert!(
        t.overdue(Timestamp::from(102 + REDELIVERY_TIMEOUT_MS))
            .contains(&a)
    );
    assert_eq!(
        t.acknowledge(&a, 50, Timestamp::from(103)),
        Some(9),
        "capped at what was delivered"
    );
    assert_eq!(t.next_wakeup(), None);
    assert_eq!(
        t.acknowledge(&a, 3, Timestamp::from(104)),
        None,
        "cursors never go back"
    );
}

#[test]
fn a_catch_up_has_at_most_two_pages_unacknowledged_however_small() {
    let mut t = Tracker::default();
    let a = addr("agent:a");
    t.start_catch_up(&a, 0);
    // Pages of one large event each (a host's byte budget cut them short).
    for page in 1..=PAGES_IN_FLIGHT as u64 {
        t.delivered(&a, page * 10, 200, Timestamp::from(1));
        let answered = t.page_answered(&a, (page - 1) * 10, page * 10, false, Timestamp::from(1));
        assert_eq!(answered, PageAnswered::More);
        assert_eq!(
            t.next_page(&a, Timestamp::from(1)).is_some(),
            page < PAGES_IN_FLIGHT as u64
        );
    }
    // The first page acknowledged: room for one more.
    t.acknowledge(&a, 10, Timestamp::from(2));
    assert_eq!(t.next_page(&a, Timestamp::from(2)), Some(20));
    let stale = t.page_answered(&a, 0, 30, true, Timestamp::from(2));
    assert_eq!(stale, PageAnswered::Stale, "a stale answer is ignored");
    let done = t.page_answered(&a, 20, 30, true, Timestamp::from(2));
    assert_eq!(done, PageAnswered::Done { stored: false });
    assert!(
        !t.catching_up.contains_key(&a),
        "the log is exhausted: live again"
    );
}

#[test]
fn a_member_at_the_bound_waits_and_gets_room_back_by_acknowledging() {
    let mut t = Tracker::default();
    let a = addr("agent:a");
    for seq in 1..=MAX_IN_FLIGHT as u64 {
        assert!(t.deliver_live(&a, seq, 200, Timestamp::from(1)).is_some());
    }
    let over = MAX_IN_FLIGHT as u64 + 1;
    assert_eq!(
        t.deliver_live(&a, over, 200, Timestamp::from(1)),
        None,
        "the bound is reached"
    );
    assert_eq!(t.catching_up[&a].after, MAX_IN_FLIGHT as u64);
    assert_eq!(
        t.next_page(&a, Timestamp::from(1)),
        None,
        "no room: it waits for its ack"
    );
    assert_eq!(
        t.next_wakeup(),
        Some(Timestamp::from(1 + REDELIVERY_TIMEOUT_MS))
    );
    // An ack of a page's worth makes room for a page: the ack reads it,
    // with no alarm (more acks are on their way).
    t.acknowledge(&a, CATCH_UP_PAGE as u64, Timestamp::from(2));
    assert!(t.pages_due(Timestamp::from(2)).is_empty());
    assert_eq!(
        t.next_page(&a, Timestamp::from(2)),
        Some(MAX_IN_FLIGHT as u64)
    );
    assert_eq!(
        t.next_page(&a, Timestamp::from(2)),
        None,
        "one page at a time"
    );
    // A page that delivers nothing (and nothing unacknowledged): the alarm reads on.
    t.acknowledge(&a, MAX_IN_FLIGHT as u64, Timestamp::from(3));
    let answered = t.page_answered(&a, MAX_IN_FLIGHT as u64, 2_000, false, Timestamp::from(3));
    assert_eq!(answered, PageAnswered::More);
    assert_eq!(t.pages_due(Timestamp::from(3)), vec![a.clone()]);
    assert_eq!(t.next_wakeup(), Some(Timestamp::from(3)));
}
