//! The conversations kept as `network_frames` seeds: members join, send
//! and leave; create, join and leave channels and groups; register, read,
//! update and invoke resources; lose their connection and rejoin with their
//! secret; and send frames the network refuses.

use super::script::Script;
use crate::client::Client;
use serde_json::json;

/// The conversations kept as `network_frames` seeds: `(name, script)`.
pub(super) fn conversations() -> Vec<(&'static str, Script)> {
    let (alice, bob, carol) = (0, 1, 2);
    let post = |text: &str| json!({ "content": text });

    let mut basic = Script::new();
    basic.join(alice);
    basic.join(bob);
    basic.send(
        alice,
        "workspace.message.posted",
        "agent:broadcast",
        post("hello all"),
    );
    basic.send(
        bob,
        "workspace.message.posted",
        "agent:alice",
        post("hi alice ✓"),
    );
    basic.ack(alice);
    basic.send(alice, "network.ping", "core", json!({}));
    basic.send(alice, "network.agent.leave", "core", json!({}));
    basic.send(bob, "network.agent.leave", "core", json!({}));

    let mut channels = Script::new();
    for who in [alice, bob, carol] {
        channels.join(who);
    }
    channels.send(
        alice,
        "network.channel.create",
        "core",
        json!({"channel": "general", "members": ["human:bob"]}),
    );
    channels.send(
        alice,
        "network.channel.create",
        "core",
        json!({"channel": "quiet", "private": true}),
    );
    channels.send(
        bob,
        "network.channel.join",
        "core",
        json!({"channel": "general"}),
    );
    channels.send(
        bob,
        "workspace.message.posted",
        "channel/general",
        post("in the channel"),
    );
    channels.send(
        carol,
        "network.channel.join",
        "core",
        json!({"channel": "quiet"}),
    );
    channels.send(
        carol,
        "workspace.message.posted",
        "channel/quiet",
        post("let me in"),
    );
    channels.send(
        bob,
        "network.group.update",
        "core",
        json!({"group": "pair", "members": ["agent:alice", "human:bob"]}),
    );
    channels.send(
        alice,
        "workspace.message.posted",
        "group/pair",
        post("to the group"),
    );
    channels.send(
        alice,
        "network.events.query",
        "core",
        json!({"limit": 10, "types": "workspace.*"}),
    );
    channels.send(
        bob,
        "network.channel.leave",
        "core",
        json!({"channel": "general"}),
    );
    channels.send(
        alice,
        "network.channel.delete",
        "core",
        json!({"channel": "general"}),
    );

    let mut resources = Script::new();
    resources.join(alice);
    resources.join(bob);
    let file = "resource/file/plan.md";
    resources.send(
        alice,
        "network.resource.register",
        "core",
        json!({"address": file, "content": "v1", "permissions": {"write": "owner"}}),
    );
    resources.send(bob, "network.resource.read", file, json!({}));
    resources.send(
        bob,
        "network.resource.update",
        file,
        json!({"content": "mine now"}),
    );
    resources.send(
        alice,
        "network.resource.update",
        file,
        json!({"content": "v2"}),
    );
    resources.send(
        alice,
        "network.resource.register",
        "core",
        json!({"address": "resource/tool/search", "schema": {"type": "object"}}),
    );
    resources.send(
        bob,
        "network.resource.invoke",
        "resource/tool/search",
        json!({"arguments": {"q": "fuzz"}}),
    );
    resources.send(bob, "network.resource.discover", "core", json!({}));
    resources.send(
        alice,
        "network.resource.unregister",
        "core",
        json!({"address": file}),
    );

    let mut rejoin = Script::new();
    rejoin.join(alice);
    rejoin.join(bob);
    rejoin.send(
        bob,
        "workspace.message.posted",
        "agent:alice",
        post("while you were here"),
    );
    rejoin.ack(alice);
    rejoin.send(alice, "network.agent.leave", "core", json!({}));
    rejoin.send(
        bob,
        "workspace.message.posted",
        "agent:alice",
        post("while you were away"),
    );
    rejoin.join(alice);
    rejoin.send(alice, "network.agent.discover", "core", json!({}));
    // Bob's connection drops; what Alice sends him waits, the alarm passes,
    // and he rejoins with his secret, resuming after what he acknowledged.
    rejoin.disconnect(bob);
    rejoin.send(
        alice,
        "workspace.message.posted",
        "human:bob",
        post("while your link was down"),
    );
    rejoin.alarm();
    rejoin.join(bob);
    rejoin.ack(bob);
    // Someone else's join for alice's address, with no secret: refused.
    if let (Ok(address), Ok(network)) = ("agent:alice".parse(), super::frames::NETWORK.parse()) {
        let takeover = Client::new(address, network, [9; 32]).join(None, rejoin.now());
        rejoin.raw(None, &takeover.encode());
    }

    let mut refused = Script::new();
    refused.join(alice);
    refused.raw(Some(alice), "not json");
    refused.raw(Some(alice), "{}");
    refused.raw(Some(alice), r#"{"type":"workspace.message.posted"}"#);
    if let (Some(mut forged), Ok(bob)) = (
        refused.event(
            alice,
            "workspace.message.posted",
            "agent:broadcast",
            post("as bob"),
        ),
        "human:bob".parse(),
    ) {
        forged.source = bob;
        refused.raw(Some(alice), &forged.encode());
    }
    if let Some(early) = refused.event(
        bob,
        "workspace.message.posted",
        "agent:alice",
        post("before joining"),
    ) {
        refused.raw(None, &early.encode());
    }
    refused.send(alice, "network.made.up", "core", json!({}));
    refused.send(
        alice,
        "workspace.message.posted",
        "agent:alice",
        post("accepted after all"),
    );

    let all = vec![
        ("join-send-leave", basic),
        ("channels-and-groups", channels),
        ("resources", resources),
        ("leave-and-rejoin", rejoin),
        ("refused-frames", refused),
    ];
    #[cfg(feature = "documents")]
    let all = {
        let mut all = all;
        all.push(("document-sync", super::sync_script::editing()));
        all
    };
    all
}
