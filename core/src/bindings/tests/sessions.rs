//! Sessions expire, are pruned, travel in URLs only where
//! a browser cannot send a header, and tickets are good once.

use super::*;
use serde_json::Value;

fn body_of(response: &Response) -> Value {
    response.json_body().cloned().unwrap_or(Value::Null)
}

fn ticket(world: &mut World, token: &str) -> String {
    let issued = world.call(&with_token(post("v1/ticket", ""), token));
    assert_eq!(issued.status, 200, "{issued:?}");
    body_of(&issued)["ticket"].as_str().unwrap().to_owned()
}

fn stream_or_response(world: &mut World, req: &Request) -> Result<sse::Stream, (u16, String)> {
    match world.outcome(req) {
        Outcome::Stream(stream) => Ok(stream),
        Outcome::Respond(r) => {
            let (status, code) = r.status_and_code();
            Err((status, code.to_owned()))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_idle_session_expires_with_its_code_and_a_rejoin_gets_a_new_one() {
    let mut world = World::new();
    let body = json!({"agent_id": "agent:alice"}).to_string();
    let joined = body_of(&world.call(&post("v1/join", &body)));
    let token = joined["token"].as_str().unwrap().to_owned();
    let secret = joined["member_secret"].as_str().unwrap().to_owned();
    let idle = world.host.policy.session_idle_ms;

    world.host.now += idle - 10;
    let beat = with_token(post("v1/heartbeat", ""), &token);
    assert_eq!(world.call(&beat).status, 200, "used just in time");
    // Use refreshed it: another almost-idle period later it still works.
    world.host.now += idle - 10;
    assert_eq!(world.call(&beat).status, 200, "refreshed by use");
    world.host.now += idle;
    assert_eq!(
        world.call(&beat).status_and_code(),
        (401, "session_expired")
    );
    // It is forgotten: asked again, it is unknown.
    assert!(world.host.sessions.is_empty());
    assert_eq!(world.call(&beat).status_and_code(), (401, "not_joined"));

    // The member rejoins with its secret and carries on.
    let again = json!({"agent_id": "agent:alice", "credentials": {"member_secret": secret}});
    let rejoined = body_of(&world.call(&post("v1/join", &again.to_string())));
    let fresh = rejoined["token"].as_str().unwrap();
    assert_eq!(
        world
            .call(&with_token(post("v1/heartbeat", ""), fresh))
            .status,
        200
    );
}

#[test]
fn a_session_used_all_along_still_ends_at_its_maximum_age() {
    let mut world = World::new();
    let token = world.join("agent:alice");
    let policy = world.host.policy;
    let beat = with_token(post("v1/heartbeat", ""), &token);
    let step = policy.session_idle_ms / 2;
    let mut used = 0;
    while used + step < policy.session_max_age_ms {
        world.host.now += step;
        used += step;
        assert_eq!(world.call(&beat).status, 200, "after {used} ms");
    }
    world.host.now += step;
    assert_eq!(
        world.call(&beat).status_and_code(),
        (401, "session_expired")
    );
}

#[test]
fn a_new_session_prunes_the_expired_ones_and_a_refresh_is_written_sparingly() {
    let mut world = World::new();
    let old = world.join("agent:old");
    let hash = crate::crypto::sha256_hex(old.as_bytes());
    let beat = with_token(post("v1/heartbeat", ""), &old);
    // Used a minute later: within the refresh interval, nothing is written.
    world.host.now += 60_000;
    world.call(&beat);
    let created = world.host.sessions[&hash].created;
    assert_eq!(world.host.sessions[&hash].last_used, created);
    world.host.now += world.host.policy.session_touch_ms();
    world.call(&beat);
    assert_eq!(
        world.host.sessions[&hash].last_used,
        Timestamp::from(world.host.now)
    );

    world.host.now += world.host.policy.session_idle_ms;
    world.join("agent:new");
    assert_eq!(
        world.host.sessions.len(),
        1,
        "the expired session was pruned"
    );
    assert!(!world.host.sessions.contains_key(&hash));
}

#[test]
fn a_session_in_the_url_is_refused_except_where_a_browser_cannot_send_a_header() {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    for rest in [
        format!("v1/discover?session={alice}"),
        format!("v1/events?session={alice}"),
    ] {
        let answer = world.call(&get(&rest));
        assert_eq!(answer.status_and_code(), (400, "invalid_request"), "{rest}");
        assert!(
            body_of(&answer)["message"]
                .as_str()
                .unwrap()
                .contains("Authorization")
        );
    }
    // Even beside a good header: the URL has gone into a log already.
    let both = with_token(get(&format!("v1/discover?session={alice}")), &alice);
    assert_eq!(
        world.call(&both).status_and_code(),
        (400, "invalid_request")
    );
    let posted = with_token(post(&format!("v1/heartbeat?ticket={alice}"), ""), &alice);
    assert_eq!(
        world.call(&posted).status_and_code(),
        (400, "invalid_request")
    );
    // The header works; so does ?session= on the stream.
    assert_eq!(
        world.call(&with_token(get("v1/discover"), &alice)).status,
        200
    );
    assert!(stream_or_response(&mut world, &get(&format!("v1/sse?session={alice}"))).is_ok());
}

#[test]
fn a_ticket_opens_one_stream_or_socket_once_and_not_after_its_minute() {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    // A ticket is asked for with the header only.
    assert_eq!(
        world.call(&post("v1/ticket", "")).status_and_code(),
        (401, "not_joined")
    );
    let first = ticket(&mut world, &alice);
    let url = format!("v1/sse?ticket={first}");
    let stream = stream_or_response(&mut world, &get(&url)).expect("the ticket opens a stream");
    assert_eq!(stream.member().to_string(), "agent:alice");
    assert_eq!(
        stream_or_response(&mut world, &get(&url)).unwrap_err(),
        (401, "not_joined".to_owned()),
        "a ticket is good once"
    );

    // On a WebSocket upgrade it binds the socket to the member, once.
    let second = ticket(&mut world, &alice);
    let upgrade = get(&format!("v1/ws?ticket={second}")).with_header("Upgrade", "websocket");
    match world.outcome(&upgrade) {
        Outcome::Upgrade(up) => {
            assert_eq!(
                up.address.map(|a| a.to_string()).as_deref(),
                Some("agent:alice")
            );
        }
        other => panic!("{other:?}"),
    }
    match world.outcome(&upgrade) {
        Outcome::Respond(r) => assert_eq!(r.status_and_code(), (401, "not_joined")),
        other => panic!("{other:?}"),
    }

    // A minute later a ticket is worth nothing.
    let late = ticket(&mut world, &alice);
    world.host.now += world.host.policy.ticket_ttl_ms;
    let refused = stream_or_response(&mut world, &get(&format!("v1/sse?ticket={late}")));
    assert_eq!(refused.unwrap_err(), (401, "not_joined".to_owned()));
    // Issuing prunes expired tickets.
    ticket(&mut world, &alice);
    assert_eq!(world.host.tickets.len(), 1);
}

#[test]
fn leaving_ends_the_members_sessions_and_tickets() {
    let mut world = World::new();
    let alice = world.join("agent:alice");
    let unused = ticket(&mut world, &alice);
    world.call(&with_token(post("v1/leave", ""), &alice));
    assert!(world.host.sessions.is_empty() && world.host.tickets.is_empty());
    let refused = stream_or_response(&mut world, &get(&format!("v1/sse?ticket={unused}")));
    assert_eq!(refused.unwrap_err(), (401, "not_joined".to_owned()));
}
