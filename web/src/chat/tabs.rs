//! Keeping the tabs of one workspace consistent.
//!
//! Every tab has its own connection and replica. The network delivers an
//! event to every connection of its recipients but never back to its sender,
//! so a message posted in one tab would not appear in the others; tabs
//! therefore tell each other (a `BroadcastChannel` per network) what they
//! posted and what became of it. After a reload, IndexedDB — shared by all
//! tabs — already holds everything. A posted message travels whole (its
//! event), so the other tabs build its line as this one did, thread included.

use agentnet_core::{Event, EventId};
use gloo_events::EventListener;
use serde::{Deserialize, Serialize};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{BroadcastChannel, MessageEvent};

/// What one tab tells the others.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TabNews {
    /// A message was posted here (it is pending).
    Posted {
        /// The event as created.
        event: Box<Event>,
    },
    /// The network accepted it.
    Accepted {
        /// Event id.
        id: EventId,
    },
    /// The network refused it, with its reason.
    Rejected {
        /// Event id.
        id: EventId,
        /// Why.
        reason: String,
    },
}

/// The channel to the other tabs of one network's workspace; dropping the
/// last clone stops listening.
#[derive(Clone)]
pub struct Tabs {
    channel: Option<BroadcastChannel>,
    _listener: Option<Rc<EventListener>>,
}

impl Tabs {
    /// Joins the channel for `network`; `on_news` sees what other tabs report.
    /// Without `BroadcastChannel` the tab works alone.
    pub fn open(network: &str, on_news: impl Fn(TabNews) + 'static) -> Self {
        let Ok(channel) = BroadcastChannel::new(&format!("agentnet:{network}")) else {
            return Self {
                channel: None,
                _listener: None,
            };
        };
        let listener = EventListener::new(&channel, "message", move |message| {
            let news = message
                .dyn_ref::<MessageEvent>()
                .and_then(|m| m.data().as_string())
                .and_then(|text| serde_json::from_str::<TabNews>(&text).ok());
            if let Some(news) = news {
                on_news(news);
            }
        });
        Self {
            channel: Some(channel),
            _listener: Some(Rc::new(listener)),
        }
    }

    /// Tells the other tabs.
    pub fn tell(&self, news: &TabNews) {
        if let (Some(channel), Ok(text)) = (&self.channel, serde_json::to_string(news)) {
            let _ = channel.post_message(&JsValue::from_str(&text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::messages::{LineState, line_from};
    use agentnet_core::Limits;
    use serde_json::json;

    #[test]
    fn another_tab_shows_a_reply_as_a_reply() {
        let parent = EventId::from_parts(1, 3);
        let event = Event::from_value(
            json!({
                "id": EventId::from_parts(1, 7).to_string(), "type": agentnet_core::vocabulary::event_types::MESSAGE_POSTED,
                "source": "human:ann", "target": "channel/plan", "payload": {"content": "agreed"},
                "metadata": {"in_reply_to": parent.to_string(), "mentions": ["agent:bob"]},
                "timestamp": 1,
            }),
            &Limits::default(),
        )
        .unwrap();
        let news = TabNews::Posted {
            event: Box::new(event),
        };
        let text = serde_json::to_string(&news).unwrap();
        let Ok(TabNews::Posted { event }) = serde_json::from_str::<TabNews>(&text) else {
            panic!("{text}");
        };
        let line = line_from(&event, LineState::Pending, "human:ann");
        assert_eq!(
            line.in_reply_to,
            Some(parent),
            "the thread survives the trip"
        );
        assert_eq!(line.conversation, "channel/plan");
        assert_eq!(line.content, "agreed");
        assert_eq!(line.state, LineState::Pending);
    }
}
