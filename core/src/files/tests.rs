//! Files' pure parts: ids, part sizes, signed links, served headers.

use super::link::{self, LINK_TTL_MS, Link};
use super::serve::{disposition, headers, safe_type};
use super::*;
use crate::model::attachment::attachment_address;

fn file(size: u64) -> StoredFile {
    let id = FileId::from_seed(&[7; 32]);
    StoredFile {
        resource: attachment_address(id.as_str(), "film.mp4").unwrap(),
        id,
        owner: "human:ann".parse().unwrap(),
        name: "Fête \"final\".mp4".into(),
        mime: "video/mp4".into(),
        size,
        conversation: "channel/general".parse().unwrap(),
        created_at: Timestamp::EPOCH,
        state: FileState::Stored,
    }
}

#[test]
fn a_file_id_is_32_hex_digits_and_nothing_else_parses() {
    let id = FileId::from_seed(&[0xab; 32]);
    assert_eq!(id.as_str(), "ab".repeat(16));
    assert_eq!(id.as_str().parse::<FileId>(), Ok(id.clone()));
    for bad in [
        "",
        "AB".repeat(16).as_str(),
        "../x",
        &"a".repeat(33),
        "g".repeat(32).as_str(),
    ] {
        assert_eq!(bad.parse::<FileId>(), Err(FileError::NotFound), "{bad}");
    }
}

#[test]
fn parts_are_8_mib_but_the_last() {
    let sixty_mb = file(60 * 1000 * 1000);
    assert_eq!(sixty_mb.part_count(), 8);
    assert_eq!(sixty_mb.part_size(1), PART_BYTES);
    assert_eq!(sixty_mb.part_size(8), 60 * 1000 * 1000 - 7 * PART_BYTES);
    let exact = file(2 * PART_BYTES);
    assert_eq!((exact.part_count(), exact.part_size(2)), (2, PART_BYTES));
    assert_eq!(file(1).part_count(), 1);
}

#[test]
fn a_link_works_for_its_member_until_it_expires_and_not_when_changed() {
    let key = [5; 32];
    let network: crate::NetworkId = "demo".parse().unwrap();
    let f = file(10);
    let ann: crate::Address = "human:ann".parse().unwrap();
    let made = link::sign(&key, &network, &f.id, &ann, Timestamp::from(1_000));
    assert_eq!(made.expires_at, Timestamp::from(1_000 + LINK_TTL_MS));
    assert_eq!(
        link::verify(&key, &network, &f.id, &made, Timestamp::from(2_000)),
        Ok(ann.clone())
    );
    let expired = link::verify(&key, &network, &f.id, &made, made.expires_at);
    assert_eq!(expired, Err(FileError::BadLink));
    let mut for_eve = made.clone();
    for_eve.member = "human:eve".parse().unwrap();
    let mut later = made.clone();
    later.expires_at = later.expires_at.plus_millis(1);
    let other_file = FileId::from_seed(&[8; 32]);
    for (link, file, key) in [
        (&for_eve, &f.id, key),
        (&later, &f.id, key),
        (&made, &other_file, key),
        (&made, &f.id, [6; 32]),
    ] {
        assert_eq!(
            link::verify(&key, &network, file, link, Timestamp::from(2_000)),
            Err(FileError::BadLink)
        );
    }
}

#[test]
fn a_links_query_reads_back() {
    let made = link::sign(
        &[1; 32],
        &"demo".parse().unwrap(),
        &FileId::from_seed(&[2; 32]),
        &"human:ann".parse().unwrap(),
        Timestamp::from(0),
    );
    let pairs: std::collections::BTreeMap<String, String> =
        url::form_urlencoded::parse(made.query().as_bytes())
            .into_owned()
            .collect();
    let read = Link::from_query(
        pairs.get("member").cloned(),
        pairs.get("expires").cloned(),
        pairs.get("sig").cloned(),
    );
    assert_eq!(read, Some(made));
    assert_eq!(
        Link::from_query(None, Some("1".into()), Some("x".into())),
        None
    );
}

#[test]
fn nothing_that_could_run_script_is_served_as_itself() {
    for (mime, served) in [
        ("image/png", "image/png"),
        ("IMAGE/JPEG", "image/jpeg"),
        ("text/html", "application/octet-stream"),
        ("image/svg+xml", "application/octet-stream"),
        (
            "application/json; charset=utf-8",
            "text/plain;charset=utf-8",
        ),
        ("application/pdf", "application/pdf"),
    ] {
        assert_eq!(safe_type(mime), served, "{mime}");
    }
}

#[test]
fn a_download_names_the_file_in_ascii_and_utf8() {
    assert_eq!(
        disposition("Fête \"final\".mp4", false),
        "attachment; filename=\"F_te _final_.mp4\"; filename*=UTF-8''F%C3%AAte%20%22final%22.mp4"
    );
    let video = headers(&file(10), false);
    let get = |name: &str| {
        video
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    // Video is not a type the browser opens from here: it downloads.
    assert_eq!(
        get("Content-Type").as_deref(),
        Some("application/octet-stream")
    );
    assert!(
        get("Content-Disposition")
            .unwrap()
            .starts_with("attachment;")
    );
    assert_eq!(get("Content-Length").as_deref(), Some("10"));
    assert_eq!(get("X-Content-Type-Options").as_deref(), Some("nosniff"));
    let mut picture = file(10);
    picture.mime = "image/png".into();
    let shown = headers(&picture, false);
    assert!(
        shown
            .iter()
            .any(|(n, v)| n == "Content-Disposition" && v.starts_with("inline;"))
    );
    let saved = headers(&picture, true);
    assert!(
        saved
            .iter()
            .any(|(n, v)| n == "Content-Disposition" && v.starts_with("attachment;"))
    );
}

#[test]
fn limits_a_master_sets_are_checked() {
    assert!(FileLimits::default().check().is_ok());
    let small_quota = FileLimits {
        max_file_bytes: 10,
        quota_bytes: 5,
    };
    assert!(small_quota.check().is_err());
    let huge = FileLimits {
        max_file_bytes: MAX_FILE_BYTES_CEILING + 1,
        quota_bytes: u64::MAX,
    };
    assert!(huge.check().is_err());
    let config: crate::model::config::NetworkConfig = serde_json::from_value(
        serde_json::json!({"id": "demo", "name": "Demo", "access": {"policy": "open"}}),
    )
    .unwrap();
    assert_eq!(
        config.files,
        FileLimits::default(),
        "old configurations get the defaults"
    );
}

#[test]
fn an_upload_never_completed_is_abandoned_after_a_day() {
    let mut uploading = file(10);
    uploading.state = FileState::Uploading {
        upload_id: "u".into(),
        parts: Default::default(),
    };
    assert!(!uploading.is_abandoned(Timestamp::from(ABANDONED_AFTER_MS)));
    assert!(uploading.is_abandoned(Timestamp::from(ABANDONED_AFTER_MS + 1)));
    assert!(
        !file(10).is_abandoned(Timestamp::from(u64::MAX)),
        "a stored file stays"
    );
}

#[test]
fn a_record_with_parts_reads_back_as_hosts_store_it() {
    let mut uploading = file(2 * PART_BYTES);
    uploading.state = FileState::Uploading {
        upload_id: "u".into(),
        parts: Default::default(),
    };
    super::upload::record_part(&mut uploading, 1, "etag-1".into(), PART_BYTES);
    let stored = serde_json::to_string(&uploading).unwrap();
    assert_eq!(
        serde_json::from_str::<StoredFile>(&stored).unwrap(),
        uploading
    );
}
