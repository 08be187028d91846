//! Messages as the conversation shows them: the line model, the lines a
//! restored replica already holds, and the component for one line.

use crate::MESSAGE_POSTED;
use crate::conversations::conversation_of;
use agentnet_core::replica::{OutboxState, Replica};
use agentnet_core::{Address, Event, EventId};
use leptos::prelude::*;

/// One message as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Event id.
    pub id: EventId,
    /// Sender address.
    pub source: String,
    /// The conversation it belongs to (see [`conversation_of`]).
    pub conversation: String,
    /// Message text.
    pub content: String,
    /// Delivery state of the person's own messages.
    pub state: LineState,
}

/// Whether a message is confirmed by the network.
#[derive(Clone, Debug, PartialEq)]
pub enum LineState {
    /// Received from someone else.
    Received,
    /// Sent, waiting for the network's ack.
    Pending,
    /// Acked by the network.
    Sent,
    /// Rejected, with the network's reason.
    Rejected(String),
}

/// The line for `event` in `state`, as seen by `me`.
pub fn line_from(event: &Event, state: LineState, me: &str) -> Line {
    let source = event.source.to_string();
    Line {
        id: event.id,
        conversation: conversation_of(&event.target.to_string(), &source, me),
        source,
        content: event
            .payload
            .get("content")
            .and_then(|c| c.as_str())
            .unwrap_or("")
            .to_owned(),
        state,
    }
}

/// The lines a restored replica already holds: its log's messages, then its outbox.
pub fn restored_lines(replica: &Replica, me: &Address) -> Vec<Line> {
    let mut lines: Vec<Line> = replica
        .log()
        .values()
        .filter(|e| e.event_type.as_str() == MESSAGE_POSTED)
        .map(|e| {
            let state = if &e.source == me {
                LineState::Sent
            } else {
                LineState::Received
            };
            line_from(e, state, &me.to_string())
        })
        .collect();
    lines.extend(
        replica
            .outbox()
            .filter(|entry| entry.event.event_type.as_str() == MESSAGE_POSTED)
            .map(|entry| {
                let state = match &entry.state {
                    OutboxState::Rejected { rejection } => {
                        LineState::Rejected(rejection.message.clone())
                    }
                    _ => LineState::Pending,
                };
                line_from(&entry.event, state, &me.to_string())
            }),
    );
    lines
}

/// One message in the list.
#[component]
pub fn MessageLine(
    /// The message.
    line: Line,
) -> impl IntoView {
    let state = match &line.state {
        LineState::Received => "received".to_owned(),
        LineState::Pending => "pending".to_owned(),
        LineState::Sent => "sent".to_owned(),
        LineState::Rejected(reason) => format!("not delivered: {reason}"),
    };
    view! {
        <li class="message" data-id=line.id.to_string()>
            <span class="source">{line.source}</span>
            <span class="content">{line.content}</span>
            <span class="state">{state}</span>
        </li>
    }
}
