//! Creating and leaving channels. A channel is named for people ("Team
//! Room") and addressed by its slug (`channel/team-room`,
//! [`crate::chat::conversations::channel_slug`]); the name people gave it is kept
//! as its display name (in the create event's `title`, which the network
//! keeps and hands everyone in the roster's `titles`, and in this browser
//! across reloads) and shown wherever the channel is.

use crate::chat::state::Chat;
use crate::routes::Place;
use crate::storage;
use agentnet_core::Address;
use agentnet_core::ids::event_type::core_types;
use serde_json::json;
use std::collections::BTreeMap;

use crate::chat::conversations::channel_slug;
use leptos::prelude::*;

/// The storage key of a network's channel display names.
fn names_key(network: &str) -> String {
    format!("channel-names:{network}")
}

impl Chat {
    /// The display names this browser keeps for the network's channels.
    pub(crate) fn recall_names(network: &str) -> BTreeMap<String, String> {
        storage::recall_json(&names_key(network)).unwrap_or_default()
    }

    /// How the sidebar names a conversation: a session by its title and status.
    pub fn title_of(&self, conversation: &str) -> String {
        self.sessions
            .with(|s| s.title_of(conversation))
            .or_else(|| {
                self.display_name(conversation)
                    .map(|n| format!("# {}", crate::bidi::isolate(&n)))
            })
            .unwrap_or_else(|| {
                if crate::chat::conversations::is_direct(conversation) {
                    crate::people::person::Members::name_of(conversation)
                } else {
                    crate::chat::conversations::title_of(conversation)
                }
            })
    }

    /// The channels' display names the network keeps (the names their
    /// creators typed): the same for everyone, over this browser's own.
    pub fn set_channel_titles(&self, titles: std::collections::BTreeMap<String, String>) {
        let changed = self
            .names
            .with_untracked(|n| titles.iter().any(|(c, t)| n.get(c) != Some(t)));
        if changed {
            self.names.update(|n| n.extend(titles));
        }
    }

    /// The display name of `channel`, when it was given one.
    pub(crate) fn display_name(&self, channel: &str) -> Option<String> {
        self.names.with(|n| n.get(channel).cloned())
    }

    /// Creates the channel people call `wanted` (addressed by its slug) with
    /// the person in it, and opens it; a name with nothing to address is refused.
    pub fn create(&self, wanted: String) {
        let Some(slug) = channel_slug(&wanted) else {
            self.session.report(format!(
                "“{wanted}” cannot name a channel: use at least one letter or digit."
            ));
            return;
        };
        let channel = format!("channel/{slug}");
        if channel.parse::<Address>().is_err() {
            self.session
                .report(format!("“{wanted}” is too long for a channel name."));
            return;
        }
        let mut payload = json!({ "channel": slug, "members": [self.session.me_text()] });
        if wanted != slug {
            payload["title"] = json!(wanted);
            self.names.update(|n| {
                n.insert(channel.clone(), wanted.clone());
            });
            let kept = self.names.with_untracked(serde_json::to_string);
            if let Ok(kept) = kept {
                storage::keep(&names_key(&self.session.network_name()), &kept);
            }
        }
        self.session
            .post(core_types::CHANNEL_CREATE, Address::core(), payload);
        // This worked: an earlier problem no longer holds.
        self.session.problem.set(None);
        self.channels.update(|c| {
            if !c.contains(&channel) {
                c.push(channel.clone());
            }
        });
        self.session.go(&Place::Conversation(channel));
    }

    /// Leaves a channel and goes back to everyone.
    pub fn leave(&self, channel: String) {
        if let Some(name) = channel.strip_prefix("channel/") {
            self.session.post(
                core_types::CHANNEL_LEAVE,
                Address::core(),
                json!({ "channel": name }),
            );
        }
        self.session.go(&Place::default());
    }
}
