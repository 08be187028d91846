//! A push target is a fetch on a member's say-so. Its URL must
//! pass the network's outbound policy when it is set (any spelling of a host
//! that is not public is refused) and again when a notification is rendered.

use super::*;
use crate::Timestamp;

fn create(world: &mut World, alice: &str, task: &str, url: &str) -> Value {
    let config = json!({"taskId": task, "id": "hook", "url": url, "token": "s3cret-token-0123",
        "authentication": {"scheme": "Bearer", "credentials": "abc"}});
    ask_bob(world, alice, "CreateTaskPushNotificationConfig", config)
}

#[test]
fn push_targets_on_hosts_that_are_not_public_are_refused_when_set_and_when_sent() {
    let (mut world, alice, bob) = world();
    let task = task_for_bob(&mut world, &alice);
    for url in [
        "http://127.0.0.1:9/hook",
        "http://localhost:9/hook",
        "http://2130706433:9/hook",
        "http://0x7f.0.0.1:9/hook",
        "http://127.0.0.%31:9/hook",
        "http://\u{ff11}\u{ff12}\u{ff17}.\u{ff10}.\u{ff10}.\u{ff11}:9/hook",
        "http://127\u{3002}0\u{3002}0\u{3002}1:9/hook",
        "http://[::ffff:127.0.0.1]:9/hook",
        "http://169.254.169.254/latest",
        "http://10.0.0.2/hook",
    ] {
        let refused = create(&mut world, &alice, &task, url);
        assert_eq!(refused["error"]["code"], -32602, "{url}: {refused}");
        let message = refused["error"]["message"].as_str().unwrap_or_default();
        // Host names are ASCII (core/src/outbound): a full-width spelling is no URL at all.
        let reason = if url.is_ascii() {
            "url_private_address"
        } else {
            "url_invalid"
        };
        assert!(message.contains(reason), "{url}: {message}");
    }
    assert!(world.network.state().tasks[task.as_str()].push.is_empty());

    // Allowed by the operator: kept as the parser reads it.
    world
        .network
        .set_outbound(crate::outbound::OutboundPolicy::allowing(["127.0.0.1"]));
    let made = create(&mut world, &alice, &task, "http://0x7f.1:9/hook");
    assert_eq!(made["result"]["url"], "http://127.0.0.1:9/hook", "{made}");
    bob_updates(&mut world, &bob, json!({"task": task, "state": "working"}));
    let at = world.host.now + 5;
    let (due, _) = world.network.take_due_pushes(Timestamp::from(at));
    assert_eq!(due.len(), 1);
    let rendered = super::push::render(&world.network, &due[0], Timestamp::from(at)).map(|o| o.url);
    assert_eq!(rendered.as_deref(), Some("http://127.0.0.1:9/hook"));
    // The deployment stops allowing it: nothing is sent to it any more.
    world
        .network
        .set_outbound(crate::outbound::OutboundPolicy::strict());
    assert_eq!(
        super::push::render(&world.network, &due[0], Timestamp::from(at)),
        None
    );
}
