//! Reactions to a message, as events in the log:
//!
//! * `workspace.reaction.added` `{message, emoji}`: the sender reacts to the
//!   message with `emoji`.
//! * `workspace.reaction.removed` `{message, emoji}`: the sender takes that
//!   reaction back.
//!
//! A reaction goes where the conversation is: to the message's channel (or
//! everyone) for a channel's or a broadcast message; for a direct message, to
//! the other one of its two people, and only those two may react. The message
//! must be one the network still keeps and not deleted (the network checks
//! that whatever mods are loaded: [`crate::network::messages::changes`]). An emoji is a short piece of text (one emoji, a sequence of them
//! joined by ZWJ, or a `:shortcode:`): at most [`MAX_EMOJI_BYTES`] bytes, no
//! whitespace or control characters. Counting is the readers' business: the
//! log keeps every reaction and every take-back.

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::address::Address;
use serde_json::Value;

/// The longest emoji accepted, in bytes (a family emoji with skin tones fits).
pub const MAX_EMOJI_BYTES: usize = 48;

fn invalid(message: &str) -> Rejection {
    Rejection::new(ErrorCode::InvalidRequest, message)
}

/// The emoji of a reaction, checked.
fn emoji_of(payload: &Value) -> Result<&str, Rejection> {
    let emoji = payload
        .get("emoji")
        .and_then(Value::as_str)
        .ok_or_else(|| invalid("emoji is the reaction, e.g. \"👍\""))?;
    if emoji.is_empty() || emoji.len() > MAX_EMOJI_BYTES {
        return Err(invalid(&format!(
            "emoji is 1 to {MAX_EMOJI_BYTES} bytes long"
        )));
    }
    if emoji.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(invalid("emoji has no spaces or control characters"));
    }
    Ok(emoji)
}

/// Checks a reaction or its take-back to a message by `author` that went
/// to `place` (the network looked the message up: it is known and not
/// deleted): a valid emoji, from one who may see it, sent where the
/// conversation is.
pub fn check(author: &Address, place: &Address, event: &Event) -> Result<(), Rejection> {
    emoji_of(&event.payload)?;
    let who = &event.source;
    let expected = if place.entity().is_participant() {
        // A direct message: between its author and the one it went to.
        if who == author {
            place
        } else if who == place {
            author
        } else {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                "only the two people of a direct conversation may react to its messages",
            ));
        }
    } else {
        place
    };
    if event.target != *expected {
        return Err(invalid(&format!(
            "a reaction goes where the conversation is: {expected}"
        )));
    }
    // Channel membership is the network's to check when the event is routed.
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_emoji_is_short_and_has_no_spaces() {
        let thumbs = json!({"emoji": "👍"});
        assert_eq!(emoji_of(&thumbs).ok(), Some("👍"));
        assert!(emoji_of(&json!({"emoji": ":shipit:"})).is_ok());
        let family = "👨\u{200d}👩\u{200d}👧\u{200d}👦";
        assert!(emoji_of(&json!({ "emoji": family })).is_ok());
        let long = "x".repeat(MAX_EMOJI_BYTES + 1);
        for bad in ["", "a b", "x\n", "\u{7}", long.as_str()] {
            let payload = json!({ "emoji": bad });
            assert_eq!(
                emoji_of(&payload).err().map(|r| r.code),
                Some(ErrorCode::InvalidRequest),
                "{bad:?}"
            );
        }
        assert!(emoji_of(&json!({})).is_err());
        assert!(emoji_of(&json!({"emoji": 1})).is_err());
    }
}
