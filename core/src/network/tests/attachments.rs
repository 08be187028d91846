//! Files attached to a message, through the network: `mod/workspace` checks
//! `payload.attachments`, and an attached file registered with its
//! conversation's read rule is readable by a private channel's members only.

use super::*;
use crate::model::access::AccessRule;
use crate::model::attachment::{attachment_address, decode_content, register_payload};

const POSTED: &str = "workspace.message.posted";

fn workspace() -> Network {
    network_with(vec![ModConfig::Workspace(WorkspaceSettings::default())])
}

#[test]
fn a_message_with_attachments_is_checked_then_delivered() {
    let mut network = workspace();
    let mut ann = join(&mut network, "human:ann");
    let _bob = join(&mut network, "human:bob");
    let file = "resource/file/attachments/01HQV2WA00000000000000000A/notes.txt";
    let good = json!({"content": "", "attachments": [
        {"resource": file, "name": "notes.txt", "mime": "text/plain", "size": 12}]});
    let sent = ann.send(&mut network, POSTED, "agent:broadcast", good);
    assert!(
        delivered_to(&sent).contains(&"human:bob".to_owned()),
        "{sent:#?}"
    );
    for (payload, code) in [
        (
            json!({"attachments": {"resource": file}}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"attachments": [{"resource": "resource/file/x.txt", "name": "x", "mime": "text/plain", "size": 1}]}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"attachments": [{"resource": file, "name": "x", "mime": "text/plain", "size": 6_000_000_000_u64}]}),
            ErrorCode::TooLarge,
        ),
    ] {
        let refused = ann.send(&mut network, POSTED, "agent:broadcast", payload);
        assert_eq!(error_code(&refused), code);
    }
}

#[test]
fn a_private_channels_attachment_is_read_by_its_members_only() {
    let mut network = workspace();
    let mut ann = join(&mut network, "human:ann");
    let mut bob = join(&mut network, "human:bob");
    let mut eve = join(&mut network, "human:eve");
    ann.send(
        &mut network,
        "network.channel.create",
        "core",
        json!({"channel": "launch", "private": true, "members": ["human:bob"]}),
    );
    bob.send(
        &mut network,
        "network.channel.join",
        "core",
        json!({"channel": "channel/launch"}),
    );
    let address = attachment_address("01HQV2WA00000000000000000A", "plan.png").unwrap();
    let rule: AccessRule = "channel/launch".parse().unwrap();
    let bytes = [137u8, 80, 78, 71, 0, 255];
    let payload = register_payload(&address, "image/png", "plan.png", &rule, &bytes);
    acked(&ann.send(&mut network, "network.resource.register", "core", payload));
    let target = address.to_string();
    let read = |who: &mut Peer, network: &mut Network| {
        who.send(network, "network.resource.read", &target, json!({}))
    };
    let answer = reply_of_type(
        &read(&mut bob, &mut network),
        core_types::RESOURCE_READ_RESPONSE,
    );
    assert_eq!(answer.payload["content_type"], "image/png");
    assert_eq!(decode_content(&answer.payload["content"]).unwrap(), bytes);
    assert_eq!(
        error_code(&read(&mut eve, &mut network)),
        ErrorCode::Forbidden
    );
    // Leaving the channel ends the reading.
    bob.send(
        &mut network,
        "network.channel.leave",
        "core",
        json!({"channel": "channel/launch"}),
    );
    assert_eq!(
        error_code(&read(&mut bob, &mut network)),
        ErrorCode::Forbidden
    );
    // Nor does the listing show it to those who may not read it.
    let listed = reply_of_type(
        &eve.send(&mut network, "network.resource.discover", "core", json!({})),
        core_types::RESOURCE_DISCOVER_RESPONSE,
    );
    assert!(!listed.payload.to_string().contains("attachments"));
}
