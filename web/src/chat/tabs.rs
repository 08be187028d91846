//! Keeping the tabs of one workspace consistent.
//!
//! Every tab has its own connection and replica. The network delivers an
//! event to every connection of its recipients but never back to its sender,
//! so a message posted in one tab would not appear in the others; tabs
//! therefore tell each other (a `BroadcastChannel` per network) what they
//! posted and what became of it. After a reload, IndexedDB — shared by all
//! tabs — already holds everything.

use agentnet_core::EventId;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{BroadcastChannel, MessageEvent};

/// What one tab tells the others.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TabNews {
    /// A message was posted here (it is pending).
    Posted {
        /// Event id.
        id: EventId,
        /// The sender (this person).
        source: String,
        /// Where it went (the conversation).
        target: String,
        /// The text.
        content: String,
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

/// The channel to the other tabs of one network's workspace.
#[derive(Clone)]
pub struct Tabs {
    channel: Option<BroadcastChannel>,
}

impl Tabs {
    /// Joins the channel for `network`; `on_news` sees what other tabs report.
    /// Without `BroadcastChannel` the tab works alone.
    pub fn open(network: &str, on_news: impl Fn(TabNews) + 'static) -> Self {
        let Ok(channel) = BroadcastChannel::new(&format!("agentnet:{network}")) else {
            return Self { channel: None };
        };
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |message: MessageEvent| {
            let news = message
                .data()
                .as_string()
                .and_then(|text| serde_json::from_str::<TabNews>(&text).ok());
            if let Some(news) = news {
                on_news(news);
            }
        });
        channel.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        Self {
            channel: Some(channel),
        }
    }

    /// Tells the other tabs.
    pub fn tell(&self, news: &TabNews) {
        if let (Some(channel), Ok(text)) = (&self.channel, serde_json::to_string(news)) {
            let _ = channel.post_message(&JsValue::from_str(&text));
        }
    }
}
