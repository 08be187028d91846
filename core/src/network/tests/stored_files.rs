//! Files kept in object storage, through the network (`crate::files`): an
//! upload begins within the limits and the quota, takes the parts it
//! expects, completes into a resource the conversation reads, and a
//! deleted message releases its stored files.

use super::*;
use crate::Coded;
use crate::files::upload::{self, BeginRequest};
use crate::files::{FileError, FileState, PART_BYTES, StoredContent, may_read, released_by};

fn workspace() -> Network {
    network_with(vec![ModConfig::Workspace(WorkspaceSettings::default())])
}

fn request(size: u64, conversation: &str) -> BeginRequest {
    BeginRequest {
        name: "film.mp4".into(),
        mime: Some("video/mp4".into()),
        size,
        conversation: addr(conversation),
    }
}

fn private_channel(network: &mut Network, ann: &mut Peer, bob: &mut Peer) {
    create_private(network, ann, "launch", &["human:bob"]);
    bob.ask(network, CHANNEL_JOIN, json!({"channel": "channel/launch"}));
}

#[test]
fn an_upload_begins_only_within_the_limits_the_quota_and_the_conversations_of_its_sender() {
    let mut network = workspace();
    let [mut ann, mut bob, _eve] = join_all(&mut network, ["human:ann", "human:bob", "human:eve"]);
    private_channel(&mut network, &mut ann, &mut bob);
    let ann_addr = addr("human:ann");
    let eve = addr("human:eve");
    let begin = |who: &Address, r: BeginRequest, used: u64| {
        upload::begin(&network, who, r, used, &[1; 32], Timestamp::from(5))
    };
    let file = begin(&ann_addr, request(60_000_000, "channel/launch"), 0).unwrap();
    assert_eq!(file.part_count(), 8);
    assert!(matches!(file.state, FileState::Uploading { .. }));
    assert!(
        file.resource
            .to_string()
            .starts_with("resource/file/attachments/")
    );
    // 100 MiB by default.
    let too_big = begin(
        &ann_addr,
        request(100 * 1024 * 1024 + 1, "agent:broadcast"),
        0,
    );
    assert!(
        matches!(too_big, Err(FileError::TooLarge { .. })),
        "{too_big:?}"
    );
    // The quota (1 GiB by default) counts what is stored and uploading.
    let full = begin(
        &ann_addr,
        request(50_000_000, "agent:broadcast"),
        1024 * 1024 * 1024 - 10,
    );
    let Err(full) = full else {
        panic!("over the quota")
    };
    assert_eq!(full.code(), ErrorCode::StorageFull);
    assert!(full.to_string().contains("storage is full"), "{full}");
    // Not into a private channel one is not in.
    assert!(matches!(
        begin(&eve, request(10, "channel/launch"), 0),
        Err(FileError::Denied(_))
    ));
    assert!(begin(&eve, request(10, "human:ann"), 0).is_ok());
    assert!(matches!(
        begin(&eve, request(0, "human:ann"), 0),
        Err(FileError::Malformed(_))
    ));
}

#[test]
fn a_master_changes_the_file_limits() {
    let mut network = workspace();
    let [mut boss, ann] = join_all(&mut network, ["agent:boss", "human:ann"]);
    acked(&boss.ask(
        &mut network,
        SETTINGS_UPDATE,
        json!({"files": {"max_file_bytes": 1000, "quota_bytes": 5000}}),
    ));
    let over = upload::begin(
        &network,
        &ann.address,
        request(1001, "agent:broadcast"),
        0,
        &[1; 32],
        Timestamp::from(5),
    );
    assert!(
        matches!(over, Err(FileError::TooLarge { max: 1000, .. })),
        "{over:?}"
    );
    let bad = boss.ask(
        &mut network,
        SETTINGS_UPDATE,
        json!({"files": {"max_file_bytes": 1000, "quota_bytes": 10}}),
    );
    assert_eq!(error_code(&bad), ErrorCode::InvalidRequest);
}

#[test]
fn parts_arrive_in_any_order_again_after_a_drop_and_complete_only_when_all_are_in() {
    let network = workspace();
    let mut network = network;
    let ann = join(&mut network, "human:ann");
    let mut file = upload::begin(
        &network,
        &ann.address,
        request(2 * PART_BYTES + 5, "agent:broadcast"),
        0,
        &[1; 32],
        Timestamp::from(5),
    )
    .unwrap();
    assert_eq!(upload::accept_part(&file, 3, 5), Ok(3));
    assert!(matches!(
        upload::accept_part(&file, 3, 6),
        Err(FileError::BadPart(_))
    ));
    assert!(matches!(
        upload::accept_part(&file, 4, 5),
        Err(FileError::BadPart(_))
    ));
    assert!(matches!(
        upload::accept_part(&file, 0, 5),
        Err(FileError::BadPart(_))
    ));
    upload::record_part(&mut file, 3, "c".into(), 5);
    upload::record_part(&mut file, 1, "a".into(), PART_BYTES);
    assert_eq!(upload::missing_parts(&file), vec![2]);
    assert_eq!(
        upload::completion(&file),
        Err(FileError::Incomplete(vec![2]))
    );
    assert_eq!(upload::status(&file)["missing"], json!([2]));
    // The part sent again after a dropped connection replaces the first try.
    upload::record_part(&mut file, 2, "b-lost".into(), PART_BYTES);
    upload::record_part(&mut file, 2, "b".into(), PART_BYTES);
    assert_eq!(
        upload::completion(&file),
        Ok(vec![(1, "a".into()), (2, "b".into()), (3, "c".into())])
    );
    file.state = FileState::Stored;
    assert!(matches!(
        upload::accept_part(&file, 1, PART_BYTES),
        Err(FileError::BadPart(_))
    ));
    assert_eq!(upload::status(&file)["received"], json!([1, 2, 3]));
}

#[test]
fn a_stored_file_is_a_resource_its_conversation_reads_and_its_deletion_releases_it() {
    let mut network = workspace();
    let [mut ann, mut bob, mut eve] =
        join_all(&mut network, ["human:ann", "human:bob", "human:eve"]);
    private_channel(&mut network, &mut ann, &mut bob);
    let mut file = upload::begin(
        &network,
        &ann.address,
        request(PART_BYTES, "channel/launch"),
        0,
        &[1; 32],
        Timestamp::from(5),
    )
    .unwrap();
    file.state = FileState::Stored;
    let register = upload::register_event(&file);
    acked(&ann.register(&mut network, register["payload"].clone()));
    assert!(may_read(&network, &addr("human:ann"), &file.resource));
    assert!(may_read(&network, &addr("human:bob"), &file.resource));
    assert!(!may_read(&network, &addr("human:eve"), &file.resource));
    assert!(!may_read(&network, &addr("human:nobody"), &file.resource));
    // Its content names the stored file, not bytes.
    let read = reply_of_type(
        &bob.send(
            &mut network,
            RESOURCE_READ,
            &file.resource.to_string(),
            json!({}),
        ),
        core_types::RESOURCE_READ_RESPONSE,
    );
    assert_eq!(
        StoredContent::in_content(&read.payload["content"]),
        Some(StoredContent::of(&file))
    );
    // The message that carries it, then its deletion.
    let posted = ann.send(
        &mut network,
        "workspace.message.posted",
        "channel/launch",
        json!({"content": "the cut", "attachments": [upload::attachment(&file)]}),
    );
    let message = first_delivered(&posted);
    let deletion = ann.event(
        "workspace.message.deleted",
        "channel/launch",
        json!({"message": message.id}),
    );
    assert_eq!(
        crate::files::deleted_message(&deletion),
        Some(message.id.to_string())
    );
    let released = released_by(&deletion, Some(message));
    assert_eq!(released.len(), 1);
    assert!(released[0].covers(&file));
    // A message of Eve's naming Ann's file does not release it when deleted.
    let mut eves = message.clone();
    eves.source = addr("human:eve");
    assert!(!released_by(&deletion, Some(&eves))[0].covers(&file));
    let unregister = ann.event(
        "network.resource.unregister",
        "core",
        json!({"address": file.resource}),
    );
    assert!(released_by(&unregister, None)[0].covers(&file));
    assert!(released_by(message, None).is_empty());
    // Leaving the channel ends the reading.
    bob.ask(
        &mut network,
        CHANNEL_LEAVE,
        json!({"channel": "channel/launch"}),
    );
    assert!(!may_read(&network, &addr("human:bob"), &file.resource));
    let _ = &mut eve;
}
