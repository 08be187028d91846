//! `mod/workspace`: the Workspace features of seed 000 §12 (transform, priority 50).
//!
//! * `workspace.session.created` with `payload.session` (or the event id)
//!   creates `channel/session-{id}` with the creator as a member and writes
//!   the channel address into `payload.channel`;
//! * joins, leaves and disconnects emit `workspace.presence.changed`
//!   (`{address, status}`) to `agent:broadcast`, so every workspace shows
//!   who is online.

use super::api::{Command, Context, Mod, ModMode, ModSpec, Outbox};
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use serde_json::{Value, json};

pub(super) struct Workspace {
    spec: ModSpec,
}

impl Workspace {
    pub(super) fn new() -> Self {
        Self {
            spec: ModSpec::standard(
                "workspace",
                &[
                    "workspace.*",
                    core_types::AGENT_JOIN,
                    core_types::AGENT_LEAVE,
                ],
                50,
                ModMode::Transform,
            ),
        }
    }
}

/// The session-id characters a channel name allows.
fn session_id(event: &Event) -> String {
    let given = event
        .payload
        .get("session")
        .and_then(Value::as_str)
        .unwrap_or("");
    let cleaned: String = given
        .strip_prefix("session-")
        .unwrap_or(given)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(64)
        .collect();
    if cleaned.is_empty() {
        event.id.to_string().to_ascii_lowercase()
    } else {
        cleaned
    }
}

impl Mod for Workspace {
    fn spec(&self) -> &ModSpec {
        &self.spec
    }

    fn transform(&mut self, _cx: &Context<'_>, event: &mut Event, out: &mut Outbox<'_>) {
        let presence = |status: &str| json!({"address": event.source, "status": status});
        match event.event_type.as_str() {
            "workspace.session.created" => {
                let name = format!("session-{}", session_id(event));
                if let Value::Object(payload) = &mut event.payload {
                    payload.insert("channel".into(), json!(format!("channel/{name}")));
                }
                out.command(Command::EnsureChannel {
                    name,
                    members: vec![event.source.clone()],
                });
            }
            core_types::AGENT_JOIN | core_types::AGENT_LEAVE => {
                let status = if event.event_type.as_str() == core_types::AGENT_JOIN {
                    "online"
                } else {
                    "offline"
                };
                if let Ok(kind) = "workspace.presence.changed".parse::<EventType>() {
                    out.emit(
                        &self.spec.address.clone(),
                        kind,
                        Address::broadcast(),
                        presence(status),
                        None,
                    );
                }
            }
            _ => {}
        }
    }
}
