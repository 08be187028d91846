//! `workspace.typing` reaches the conversation's online members live and
//! is never logged (no sequence number, no log row).

use super::*;

#[test]
fn typing_is_delivered_live_and_never_logged() {
    let (mut network, mut ann) = bare_with("human:ann");
    join(&mut network, "human:bob");
    let effects = ann.broadcast(
        &mut network,
        crate::vocabulary::event_types::TYPING,
        json!({}),
    );
    assert!(
        delivered_to(&effects).contains(&"human:bob".to_owned()),
        "{effects:?}"
    );
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Append { .. })),
        "not logged: {effects:?}"
    );
    let ack = acked(&effects);
    assert!(
        ack.payload.get("seq").is_none_or(Value::is_null),
        "no place in the log: {ack:?}"
    );
}
