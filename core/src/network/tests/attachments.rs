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
    let [mut ann, _bob] = join_all(&mut network, ["human:ann", "human:bob"]);
    let file = "resource/file/attachments/01HQV2WA00000000000000000A/notes.txt";
    let good = json!({"content": "", "attachments": [
        {"resource": file, "name": "notes.txt", "mime": "text/plain", "size": 12}]});
    let sent = ann.broadcast(&mut network, POSTED, good);
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
        let refused = ann.broadcast(&mut network, POSTED, payload);
        assert_eq!(error_code(&refused), code);
    }
}

#[test]
fn a_private_channels_attachment_is_read_by_its_members_only() {
    let mut network = workspace();
    let [mut ann, mut bob, mut eve] =
        join_all(&mut network, ["human:ann", "human:bob", "human:eve"]);
    create_private(&mut network, &mut ann, "launch", &["human:bob"]);
    bob.ask(
        &mut network,
        CHANNEL_JOIN,
        json!({"channel": "channel/launch"}),
    );
    let address = attachment_address("01HQV2WA00000000000000000A", "plan.png").unwrap();
    let rule: AccessRule = "channel/launch".parse().unwrap();
    let bytes = [137u8, 80, 78, 71, 0, 255];
    let payload = register_payload(&address, "image/png", "plan.png", &rule, &bytes);
    acked(&ann.register(&mut network, payload));
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
    bob.ask(
        &mut network,
        CHANNEL_LEAVE,
        json!({"channel": "channel/launch"}),
    );
    assert_eq!(
        error_code(&read(&mut bob, &mut network)),
        ErrorCode::Forbidden
    );
    // Nor does the listing show it to those who may not read it.
    let listed = reply_of_type(
        &eve.ask(&mut network, "network.resource.discover", json!({})),
        core_types::RESOURCE_DISCOVER_RESPONSE,
    );
    assert!(!listed.payload.to_string().contains("attachments"));
}
