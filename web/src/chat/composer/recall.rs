//! Up-arrow in an empty composer edits the person's last message there,
//! as in Slack and Discord: [`last_editable`] finds it among the lines the
//! composer's list shows; the composer asks for its edit box
//! ([`crate::chat::state::Chat`]'s `edit_request`), which that message's line opens.

use crate::chat::messages::{Line, LineState};
use agentnet_core::EventId;

/// The newest of `shown` the person may edit: their own, delivered (the
/// network has it), not deleted, not an IOA card.
pub fn last_editable<'a>(shown: impl DoubleEndedIterator<Item = &'a Line>) -> Option<EventId> {
    shown
        .rev()
        .find(|l| l.state == LineState::Sent && !l.deleted && !l.status && l.ioa.is_none())
        .map(|l| l.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::line_from;
    use agentnet_core::{Event, Limits};
    use serde_json::json;

    fn line(n: u64, source: &str, state: LineState) -> Line {
        let event = Event::from_value(
            json!({"id": EventId::from_parts(n, 1).to_string(), "type": agentnet_core::vocabulary::event_types::MESSAGE_POSTED,
                "source": source, "target": "agent:broadcast", "payload": {"content": format!("m{n}")},
                "timestamp": n}),
            &Limits::default(),
        )
        .unwrap();
        line_from(&event, state, "human:ann")
    }

    #[test]
    fn the_newest_delivered_own_message_is_the_one_edited() {
        let mut deleted = line(4, "human:ann", LineState::Sent);
        deleted.deleted = true;
        let lines = [
            line(1, "human:ann", LineState::Sent),
            line(2, "human:ann", LineState::Sent),
            line(3, "agent:bob", LineState::Received),
            deleted,
            line(5, "human:ann", LineState::Pending),
        ];
        assert_eq!(last_editable(lines.iter()), Some(lines[1].id));
        assert_eq!(last_editable(lines[2..3].iter()), None);
    }
}
