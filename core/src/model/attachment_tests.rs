//! Tests of attachments: the message field, addresses, rules, content, limit.

use super::*;
use crate::event::Event;
use crate::event::envelope::Limits;
use proptest::prelude::*;

fn addr(s: &str) -> Address {
    s.parse().unwrap()
}

fn one(resource: &str, name: &str, mime: &str, size: u64) -> Value {
    json!({"attachments": [{"resource": resource, "name": name, "mime": mime, "size": size}]})
}

#[test]
fn a_message_names_its_files_and_each_is_checked() {
    let good = "resource/file/attachments/01HQV2WA00000000000000000A/plan.pdf";
    let found = attachments_of(&one(good, "Plan.pdf", "application/pdf", 1200)).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].name, "Plan.pdf");
    assert!(
        attachments_of(&json!({"content": "hi"}))
            .unwrap()
            .is_empty()
    );
    assert!(
        attachments_of(&json!({"attachments": null}))
            .unwrap()
            .is_empty()
    );
    let refused = |payload: Value| attachments_of(&payload).unwrap_err();
    assert!(matches!(
        refused(json!({"attachments": "x"})),
        AttachmentError::Malformed(_)
    ));
    assert!(matches!(
        refused(json!({"attachments": [{"resource": good}]})),
        AttachmentError::Malformed(_)
    ));
    let extra = json!({"attachments": [{"resource": good, "name": "a", "mime": "text/plain", "size": 1, "html": "<b>"}]});
    assert!(matches!(refused(extra), AttachmentError::Malformed(_)));
    for elsewhere in [
        "resource/file/plan.pdf",
        "resource/file/attachments/plan.pdf",
        "resource/tool/attachments",
        "channel/general",
        "other::resource/file/attachments/x/plan.pdf",
    ] {
        assert!(
            matches!(
                refused(one(elsewhere, "a", "text/plain", 1)),
                AttachmentError::NotAnAttachment(_)
            ),
            "{elsewhere}"
        );
    }
    assert_eq!(
        refused(one(good, "", "text/plain", 1)),
        AttachmentError::Name
    );
    assert_eq!(
        refused(one(good, "a\u{7}b", "text/plain", 1)),
        AttachmentError::Name
    );
    assert!(matches!(
        refused(one(good, "a", "text", 1)),
        AttachmentError::Mime(_)
    ));
    let big = refused(one(
        good,
        "a",
        "text/plain",
        crate::files::MAX_FILE_BYTES_CEILING + 1,
    ));
    assert_eq!(big.code(), ErrorCode::TooLarge);
    let many: Vec<Value> = (0..=MAX_ATTACHMENTS)
        .map(|_| json!({"resource": good, "name": "a", "mime": "text/plain", "size": 1}))
        .collect();
    assert_eq!(
        refused(json!({ "attachments": many })),
        AttachmentError::TooMany
    );
}

#[test]
fn mime_types_and_inline_pictures() {
    for ok in [
        "image/png",
        "text/plain; charset=utf-8",
        "application/vnd.ms-excel",
    ] {
        assert!(is_mime(ok), "{ok}");
    }
    for bad in ["", "image", "image/", "/png", "te xt/plain", "a/b\n"] {
        assert!(!is_mime(bad), "{bad:?}");
    }
    for inline in ["image/png", "image/JPEG", "image/gif", "image/webp"] {
        assert!(is_inline_image(inline), "{inline}");
    }
    for not in ["image/svg+xml", "text/html", "image/bmp", "application/pdf"] {
        assert!(!is_inline_image(not), "{not}");
    }
}

#[test]
fn names_become_one_safe_segment() {
    assert_eq!(sanitised_name("Q3 plan (final).pdf"), "Q3-plan-final-.pdf");
    assert_eq!(sanitised_name("../../etc/passwd"), "etc-passwd");
    assert_eq!(sanitised_name("日本.txt"), "txt");
    assert_eq!(sanitised_name(""), "file");
    assert_eq!(sanitised_name(".."), "file");
    let long = format!("{}.png", "a".repeat(300));
    let kept = sanitised_name(&long);
    assert!(kept.len() <= 80 && kept.ends_with(".png"), "{kept}");
    let address = attachment_address("01HQV2WA00000000000000000A", "My photo.png").unwrap();
    assert_eq!(
        address.to_string(),
        "resource/file/attachments/01HQV2WA00000000000000000A/My-photo.png"
    );
    assert!(attachment_address("a/b", "x").is_none());
    assert!(attachment_address("", "x").is_none());
}

#[test]
fn the_conversation_decides_who_reads() {
    let me = addr("human:ann");
    assert_eq!(
        read_rule_for(&addr("channel/launch"), &me).to_string(),
        "channel/launch"
    );
    assert_eq!(
        read_rule_for(&Address::broadcast(), &me),
        AccessRule::Network
    );
    assert_eq!(
        read_rule_for(&addr("human:bob"), &me),
        AccessRule::Agents(vec![me.clone(), addr("human:bob")])
    );
}

#[test]
fn content_goes_and_comes_back_as_base64() {
    let bytes = [0u8, 159, 146, 150, 255];
    let content = encode_content(&bytes);
    assert_eq!(content["encoding"], "base64");
    assert_eq!(decode_content(&content).unwrap(), bytes);
    assert_eq!(decode_content(&json!("text")).unwrap(), b"text");
    assert!(decode_content(&json!({"encoding": "base64", "data": "!!"})).is_none());
    assert!(decode_content(&json!(3)).is_none());
}

#[test]
fn the_largest_file_fits_one_register_event() {
    let address = attachment_address(
        "01HQV2WA00000000000000000A",
        &format!("{}.png", "n".repeat(MAX_FILE_NAME_BYTES - 4)),
    )
    .unwrap();
    let read = AccessRule::Agents(vec![addr("human:ann"), addr("human:bob")]);
    let name = "n".repeat(MAX_FILE_NAME_BYTES);
    // The register event of `size` bytes, as the network decodes it.
    let decodes = |size: usize| {
        let payload = register_payload(&address, "image/png", &name, &read, &vec![7u8; size]);
        let frame = json!({
            "id": "01HQV2WA00000000000000000A", "type": "network.resource.register",
            "source": "human:ann", "target": "core", "payload": payload, "metadata": {}, "timestamp": 1,
        })
        .to_string();
        Event::decode(&frame, &Limits::default()).is_ok()
    };
    assert!(decodes(MAX_ATTACHMENT_BYTES as usize));
    assert!(!decodes(MAX_ATTACHMENT_BYTES as usize + 16 * 1024));
}

#[test]
fn sizes_read_for_people() {
    assert_eq!(size_label(512), "512 B");
    assert_eq!(size_label(2048), "2 KB");
    assert_eq!(size_label(1536), "1.5 KB");
    assert_eq!(size_label(MAX_ATTACHMENT_BYTES), "375 KB");
    assert_eq!(size_label(3 * 1_048_576 / 2), "1.5 MB");
}

proptest! {
    #[test]
    fn any_name_makes_a_valid_address(name in ".{0,300}") {
        let address = attachment_address("01HQV2WA00000000000000000A", &name);
        prop_assert!(address.is_some());
        let attachment = Attachment {
            resource: address.unwrap(),
            name: "x".into(),
            mime: "text/plain".into(),
            size: 1,
        };
        prop_assert!(attachment.check().is_ok());
    }
}
