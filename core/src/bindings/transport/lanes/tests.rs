//! Tests of the lanes' frames and of what a host keeps of a shared socket.

use super::*;
use crate::bindings::message::Method;
use proptest::prelude::*;

#[test]
fn a_frame_names_its_lane_and_keeps_its_text_whole() {
    assert_eq!(
        parse(r#"3:{"type":"chat.message","x":"a:b!c"}"#),
        Ok(LaneFrame::Frame {
            lane: 3,
            text: r#"{"type":"chat.message","x":"a:b!c"}"#
        })
    );
    assert_eq!(parse("0:"), Ok(LaneFrame::Frame { lane: 0, text: "" }));
    assert_eq!(
        parse("65535:[]"),
        Ok(LaneFrame::Frame {
            lane: 65535,
            text: "[]"
        })
    );
}

#[test]
fn a_close_names_its_lane_code_and_reason() {
    assert_eq!(
        parse("12!1000 bye now"),
        Ok(LaneFrame::Close {
            lane: 12,
            code: 1000,
            reason: "bye now"
        })
    );
    assert_eq!(
        parse("1!4401"),
        Ok(LaneFrame::Close {
            lane: 1,
            code: 4401,
            reason: ""
        })
    );
    let close = Close::new(ErrorCode::NotJoined, "join first");
    assert_eq!(
        parse(&close_frame(7, &close)),
        Ok(LaneFrame::Close {
            lane: 7,
            code: 4401,
            reason: "not_joined: join first"
        })
    );
}

#[test]
fn anything_else_is_refused_with_a_stable_code() {
    for bad in [
        "",
        r#"{"type":"agent.join"}"#,
        ":x",
        "!1000",
        "65536:x",
        "123456:x",
        "-1:x",
        "+1:x",
        " 1:x",
        "1 :x",
        "1!999 too low",
        "1!5000",
        "1!",
        "1!abc",
        "ä:x",
    ] {
        assert_eq!(parse(bad), Err(NotALaneFrame), "{bad:?}");
    }
    assert_eq!(NotALaneFrame.close().code, 4400);
    assert!(NotALaneFrame.to_string().starts_with("malformed_event:"));
}

#[test]
fn only_lanes_1_asks_for_a_shared_socket() {
    let req = |q: &str| Request::new(Method::Get, format!("http://h/networks/n/v1/ws{q}"));
    assert!(wants_lanes(&req("?lanes=1")));
    assert!(wants_lanes(&req("?frames=batch&lanes=1")));
    assert!(!wants_lanes(&req("")));
    assert!(!wants_lanes(&req("?lanes=0")));
    assert!(!wants_lanes(&req("?lanes=yes")));
}

#[test]
fn a_gateways_lanes_come_back_with_the_epoch_that_bound_their_members() {
    let lane = |lane, id, member: Option<&str>, epoch| KeptLane {
        lane,
        id,
        since: Timestamp::from(1_700_000_000_000),
        member: member.map(|m| m.parse().expect("an address")),
        epoch,
    };
    let lanes = vec![
        lane(0, 9_007_199_254_740_991, Some("agent:ann"), Some(77)),
        lane(3, 12, None, None),
        lane(7, 13, Some("net1::agent:ben"), Some(2)),
        lane(8, 14, Some("agent:cy"), None),
    ];
    let text = kept_lanes(8, lanes.iter());
    assert_eq!(restored_lanes(&text), Some((8, lanes)));
    let (_, bad) = restored_lanes("4;1 10 5 3 not an address").expect("a carrier");
    assert_eq!(
        bad[0].member, None,
        "a member that does not read comes back unjoined"
    );
}

#[test]
fn a_kept_lane_comes_back_as_it_was() {
    let record = |member: Option<&str>| SocketRecord {
        id: 42,
        member: member.map(|m| m.parse().unwrap()),
        peer: Some("203.0.113.9".into()),
        since: Timestamp::from_millis(1_796_616_510_000),
    };
    let lanes = [
        (0, record(None)),
        (3, record(Some("agent:zero"))),
        (7, record(Some("openagents:bob@example.org"))),
    ];
    let text = kept(9, lanes.iter().map(|(lane, r)| (*lane, r)));
    assert_eq!(
        text,
        "9;0 42 1796616510000;3 42 1796616510000 agent:zero;7 42 1796616510000 openagents:bob@example.org"
    );
    assert_eq!(
        restored(&text, Some("203.0.113.9")),
        Some((9, lanes.to_vec()))
    );
    assert_eq!(restored("4", None), Some((4, Vec::new())));
    // A lane that does not read is left out; the others come back.
    for bad in ["7", "7 42", "x 42 1", "7 x 1", "7 42 x", "70000 42 1"] {
        let (_, back) = restored(&format!("9;{bad};1 5 6"), None).unwrap();
        assert_eq!(back.len(), 1, "{bad:?}");
        assert_eq!(back[0].0, 1);
    }
    for bad in ["", "x", "-1;1 5 6", "70000"] {
        assert_eq!(restored(bad, None), None, "{bad:?}");
    }
}

proptest! {
    #[test]
    fn every_frame_reads_back_as_it_was_written(lane: u16, text in ".*") {
        let written = frame(lane, &text);
        prop_assert_eq!(parse(&written), Ok(LaneFrame::Frame { lane, text: &text }));
        prop_assert_eq!(format!("{}{text}", prefix(lane)), frame(lane, &text));
    }

    #[test]
    fn every_close_reads_back_as_it_was_written(lane: u16, code in 1000u16..5000, reason in "[^\u{0}]{0,40}") {
        let close = Close { code, reason: reason.clone() };
        let written = close_frame(lane, &close);
        prop_assert_eq!(parse(&written), Ok(LaneFrame::Close { lane, code, reason: &reason }));
    }

    #[test]
    fn no_text_panics_the_reader(text in "\\PC{0,24}") {
        let _ = parse(&text);
    }
}

#[test]
fn sixteen_lanes_of_forty_byte_members_fit_what_a_host_keeps_and_long_ones_do_not() {
    let kept = |len: usize| {
        let lanes: Vec<KeptLane> = (0..MAX_LANES as Lane)
            .map(|i| KeptLane {
                lane: 65_000 + i,
                // The longest ids and epochs a host writes (ids within 53 bits).
                id: (1 << 53) - 1 - SocketId::from(i),
                since: Timestamp::from(1_796_682_268_196),
                member: Some(
                    format!("agent:{}{i:02}", "a".repeat(len - 8))
                        .parse()
                        .unwrap(),
                ),
                epoch: Some(u64::MAX),
            })
            .collect();
        kept_lanes(65_535, lanes.iter())
    };
    assert!(fits_kept(&kept(40)), "{} bytes", kept(40).len());
    assert!(!fits_kept(&kept(128)));
    // What is kept reads back whole.
    let (_, back) = restored_lanes(&kept(40)).unwrap();
    assert_eq!(back.len(), MAX_LANES);
}
