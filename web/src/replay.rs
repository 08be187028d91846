//! Inspector replay: step through the events this tab has (what it received
//! and the history it loaded) and see the network as it was at each one —
//! who was in it and online, which channels and resources existed — as far
//! as those events tell it: presence changes, joins and leaves, channel and
//! resource registrations and removals, and every address an event names.

use agentnet_core::Event;
use agentnet_core::ids::address::Entity;
use agentnet_core::ids::event_type::core_types;
use agentnet_core::sorting::sort_by;
use agentnet_core::vocabulary::event_types::PRESENCE_CHANGED;
use leptos::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// The network at one step of the replay.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NetworkAt {
    /// Members by address, with `online`/`offline` (unknown: `seen`).
    pub members: BTreeMap<String, &'static str>,
    /// Channels that exist (`channel/…`).
    pub channels: Vec<String>,
    /// Resources that exist (`resource/…`).
    pub resources: Vec<String>,
}

fn add(list: &mut Vec<String>, item: String) {
    if !list.contains(&item) {
        list.push(item);
        sort_by(list, Ord::cmp);
    }
}

impl NetworkAt {
    /// The state after `event`.
    pub fn apply(&mut self, event: &Event) {
        let source = event.source.to_string();
        let text = |key: &str| {
            event
                .payload
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        match event.source.entity() {
            Entity::Agent(_) | Entity::Human(_) | Entity::Registered { .. } => {
                self.members.entry(source.clone()).or_insert("seen");
            }
            _ => {}
        }
        match event.event_type.as_str() {
            core_types::AGENT_JOIN => {
                self.members.insert(source, "online");
            }
            core_types::AGENT_LEAVE => {
                self.members.insert(source, "offline");
            }
            PRESENCE_CHANGED => {
                if let (Some(address), Some(status)) = (text("address"), text("status")) {
                    let status = if status == "online" {
                        "online"
                    } else {
                        "offline"
                    };
                    self.members.insert(address, status);
                }
            }
            core_types::CHANNEL_DELETE => {
                if let Some(name) = text("channel").or_else(|| text("name")) {
                    let channel = format!("channel/{}", name.trim_start_matches("channel/"));
                    self.channels.retain(|c| c != &channel);
                }
            }
            core_types::RESOURCE_UNREGISTER => {
                if let Some(address) = text("address") {
                    self.resources.retain(|r| r != &address);
                }
            }
            core_types::RESOURCE_REGISTER => {
                if let Some(address) = text("address") {
                    add(&mut self.resources, address);
                }
            }
            _ => {}
        }
        match event.target.entity() {
            Entity::Channel(_) if event.event_type.as_str() != core_types::CHANNEL_DELETE => {
                add(&mut self.channels, event.target.to_string());
            }
            Entity::Tool(_) | Entity::File(_) | Entity::Context(_)
                if event.event_type.as_str() != core_types::RESOURCE_UNREGISTER =>
            {
                add(&mut self.resources, event.target.to_string());
            }
            _ => {}
        }
    }
}

/// The network after the first `step + 1` of `events` (in time order).
pub fn state_at(events: &[Event], step: usize) -> NetworkAt {
    let mut at = NetworkAt::default();
    for event in events.iter().take(step.saturating_add(1)) {
        at.apply(event);
    }
    at
}

/// The replay panel: a step through `events` and the network at that step.
#[component]
pub fn Replay(
    /// The events to step through, in time order.
    events: RwSignal<Vec<Event>, LocalStorage>,
) -> impl IntoView {
    let (step, set_step) = signal(0usize);
    let count = move || events.with(Vec::len);
    // One fold per step, shared by the three lists.
    let at = Memo::new(move |_| events.with(|e| state_at(e, step.get())));
    let current = move || {
        events.with(|e| {
            e.get(step.get())
                .map(|e| format!("{} · {} → {}", e.event_type, e.source, e.target))
        })
    };
    let last = move || count().saturating_sub(1);
    view! {
        <section class="replay" aria-label="Replay">
            <div class="steps">
                <button type="button" on:click=move |_| set_step.update(|s| *s = s.saturating_sub(1))
                    disabled=move || step.get() == 0>"Back a step"</button>
                <input type="range" min="0" max=last aria-label="Step"
                    prop:value=move || step.get().to_string()
                    on:input=move |ev| set_step.set(event_target_value(&ev).parse().unwrap_or(0)) />
                <button type="button" on:click=move |_| set_step.update(|s| *s = (*s + 1).min(last()))
                    disabled=move || { step.get() >= last() }>"Forward a step"</button>
                <span class="position" role="status">
                    {move || format!("Event {} of {}", (step.get() + 1).min(count()), count())}
                </span>
            </div>
            <p class="current">{current}</p>
            <div class="state">
                <ul aria-label="Members then">
                    {move || at.get().members.into_iter().map(|(address, status)| view! {
                        <li data-status=status>{format!("{address} ({status})")}</li>
                    }).collect_view()}
                </ul>
                <ul aria-label="Channels then">
                    {move || at.get().channels.into_iter().map(|c| view! { <li>{c}</li> }).collect_view()}
                </ul>
                <ul aria-label="Resources then">
                    {move || at.get().resources.into_iter().map(|r| view! { <li>{r}</li> }).collect_view()}
                </ul>
            </div>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(n: u128, kind: &str, source: &str, target: &str, payload: Value) -> Event {
        Event::from_value(
            json!({
                "id": agentnet_core::EventId::from_parts(1, n).to_string(), "type": kind,
                "source": source, "target": target, "payload": payload, "timestamp": 1,
            }),
            &agentnet_core::Limits::default(),
        )
        .unwrap()
    }

    #[test]
    fn each_step_shows_the_network_as_those_events_left_it() {
        let events = vec![
            event(
                1,
                "workspace.presence.changed",
                "mod/workspace",
                "agent:broadcast",
                json!({"address": "agent:a", "status": "online"}),
            ),
            event(
                2,
                "workspace.message.posted",
                "agent:a",
                "channel/ops",
                json!({}),
            ),
            event(
                3,
                "network.resource.register",
                "agent:a",
                "core",
                json!({"address": "resource/tool/search"}),
            ),
            event(
                4,
                "workspace.presence.changed",
                "mod/workspace",
                "agent:broadcast",
                json!({"address": "agent:a", "status": "offline"}),
            ),
            event(
                5,
                "network.resource.unregister",
                "agent:b",
                "core",
                json!({"address": "resource/tool/search"}),
            ),
        ];
        let first = state_at(&events, 0);
        assert_eq!(first.members.get("agent:a"), Some(&"online"));
        assert!(first.channels.is_empty());
        let third = state_at(&events, 2);
        assert_eq!(third.channels, ["channel/ops"]);
        assert_eq!(third.resources, ["resource/tool/search"]);
        let last = state_at(&events, 4);
        assert_eq!(last.members.get("agent:a"), Some(&"offline"));
        assert_eq!(last.members.get("agent:b"), Some(&"seen"));
        assert!(last.resources.is_empty());
        assert_eq!(state_at(&events, 99), last, "past the end is the end");
        assert_eq!(state_at(&[], 0), NetworkAt::default());
    }
}
