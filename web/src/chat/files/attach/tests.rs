//! What the composer takes, and the types files open as.

use super::*;

#[test]
fn too_big_or_too_many_is_refused_with_the_limit() {
    assert_eq!(limit_text(), "up to 100 MB a file");
    // Bigger than a message carries: it goes to the file store.
    assert!(refusal("a.png", MAX_ATTACHMENT_BYTES + 1, 0).is_none());
    assert!(refusal("a.mp4", MAX_STORED_FILE_BYTES, 0).is_none());
    let why = refusal("big.mp4", MAX_STORED_FILE_BYTES + 1, 0).unwrap();
    assert!(
        why.starts_with("big.mp4 is 100 MB") && why.contains("up to 100 MB"),
        "{why}"
    );
    assert!(
        refusal("a.png", 1, MAX_ATTACHMENTS)
            .unwrap()
            .contains("at most 10")
    );
}

#[test]
fn nothing_that_could_run_script_opens_in_a_tab() {
    assert_eq!(safe_blob_type("image/PNG"), "image/png");
    assert_eq!(
        safe_blob_type("text/plain; charset=latin1"),
        "text/plain;charset=utf-8"
    );
    for dangerous in [
        "text/html",
        "image/svg+xml",
        "application/xhtml+xml",
        "text/xml",
        "",
    ] {
        assert_eq!(
            safe_blob_type(dangerous),
            "application/octet-stream",
            "{dangerous}"
        );
        assert!(!opens_in_tab(dangerous));
    }
    assert!(opens_in_tab("application/pdf"));
}
