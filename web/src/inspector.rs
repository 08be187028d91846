//! The event inspector: every event this workspace has seen in one network,
//! filtered by type pattern and source, following live, each openable as JSON
//! and linkable (`/n/{network}/event/{id}` opens the inspector at it). A
//! traced event (W3C `traceparent`) opens its trace: the events of that trace
//! as a tree, each under the event that caused it
//! (`agentnet_core::event::trace::tree`).
//!
//! [`Seen`] owns the events (provided through Leptos context): those of the
//! restored log, then each one the replica receives, and the history from
//! before the tab joined, paged from `mod/persistence` (`network.events.query`)
//! with "Load history".

use crate::replay::Replay;
use crate::routes::Place;
use crate::session::Session;
use agentnet_core::event::trace::{TraceContext, tree};
use agentnet_core::ids::event_type::core_types;
use agentnet_core::model::payloads::EventsPage;
use agentnet_core::replica::{Replica, ReplicaEffect};
use agentnet_core::sorting::sort_by_key;
use agentnet_core::{Address, Event, EventId, EventPattern};
use leptos::prelude::*;
use serde_json::json;

/// The events the inspector shows: cheap to copy, from context.
#[derive(Clone, Copy)]
pub struct Seen {
    events: RwSignal<Vec<Event>, LocalStorage>,
    /// Where the history read goes on from (`next_after`), once one page came.
    history_after: RwSignal<Option<u64>>,
    /// The log may hold more history after `history_after`.
    history_more: RwSignal<bool>,
    /// Why the last history read failed, in words.
    history_problem: RwSignal<Option<String>>,
    /// The history read in flight.
    reading: StoredValue<Option<EventId>>,
}

/// Events one history page asks for.
pub const HISTORY_PAGE: u64 = 200;

impl Seen {
    /// An empty list, provided to the components below.
    pub fn provide() -> Self {
        let seen = Self {
            events: RwSignal::new_local(Vec::new()),
            history_after: RwSignal::new(None),
            history_more: RwSignal::new(true),
            history_problem: RwSignal::new(None),
            reading: StoredValue::new(None),
        };
        provide_context(seen);
        seen
    }

    /// Asks for the next page of history (from the start of the log at first).
    pub fn load_history(&self, session: Session) {
        if self.reading.get_value().is_some() {
            return;
        }
        let after = self.history_after.get_untracked().unwrap_or(0);
        let id = session.request(
            core_types::EVENTS_QUERY,
            Address::core(),
            json!({"after": after, "limit": HISTORY_PAGE}),
            30_000,
        );
        if id.is_none() {
            self.history_problem.set(Some(
                "Offline: history loads once the workspace is connected.".into(),
            ));
        }
        self.reading.set_value(id);
    }

    /// A history page (or its failure) for the read in flight.
    fn on_history(&self, effect: &ReplicaEffect) {
        let pending = self.reading.get_value();
        match effect {
            ReplicaEffect::Replied { request, reply } if Some(*request) == pending => {
                self.reading.set_value(None);
                match agentnet_core::answers::read_payload::<EventsPage>(&reply.payload) {
                    Ok(page) => {
                        self.events
                            .update(|s| merge_history(s, page.events.into_iter().map(|l| l.event)));
                        self.history_after.set(Some(page.next_after));
                        self.history_more.set(page.has_more);
                        self.history_problem.set(None);
                    }
                    Err(err) => self.history_problem.set(Some(err.to_string())),
                }
            }
            ReplicaEffect::RequestFailed { request, rejection } if Some(*request) == pending => {
                self.reading.set_value(None);
                self.history_problem.set(Some(rejection.message.clone()));
            }
            _ => {}
        }
    }

    /// What a restored replica's log holds.
    pub fn restore(&self, replica: &Replica) {
        self.events.set(replica.log().values().cloned().collect());
    }

    /// Every event received joins the list; history pages join it in order.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        if let ReplicaEffect::Received(event) = effect {
            self.events.update(|s| remember(s, event.clone()));
        }
        self.on_history(effect);
    }
}

/// Most events the inspector keeps in view (the newest).
pub const INSPECTOR_LIMIT: usize = 2_000;

/// True when `event` passes the filters: a type pattern (`*`, `tool.*`, an
/// exact type; empty or invalid means all) and a source substring.
pub fn passes(event: &Event, pattern: &str, source: &str) -> bool {
    let pattern = pattern.trim();
    let type_ok = pattern.is_empty()
        || pattern
            .parse::<EventPattern>()
            .map_or(true, |p| p.matches(&event.event_type));
    type_ok && event.source.to_string().contains(source.trim())
}

/// One event as the inspector lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Event id.
    pub id: agentnet_core::EventId,
    /// Event type.
    pub kind: String,
    /// `source → target`.
    pub route: String,
    /// The whole event, pretty-printed.
    pub json: String,
    /// Its W3C trace id (32 hex digits), when it is traced.
    pub trace: Option<String>,
    /// Its depth in the trace shown (0 in the plain list).
    pub depth: usize,
}

impl From<&Event> for Row {
    fn from(event: &Event) -> Self {
        Self {
            id: event.id,
            kind: event.event_type.to_string(),
            route: format!("{} → {}", event.source, event.target),
            json: serde_json::to_string_pretty(event).unwrap_or_default(),
            trace: TraceContext::from_metadata(&event.metadata)
                .ok()
                .flatten()
                .map(|t| t.parent.trace_hex()),
            depth: 0,
        }
    }
}

/// The rows to show: the trace `trace` (32 hex digits) as a tree when one is
/// asked for, else the events passing the filters, newest first.
pub fn rows(events: &[Event], pattern: &str, source: &str, trace: &str) -> Vec<Row> {
    if let Ok(trace_id) = u128::from_str_radix(trace.trim(), 16) {
        return tree(events, trace_id)
            .into_iter()
            .map(|(depth, event)| Row {
                depth,
                ..Row::from(event)
            })
            .collect();
    }
    events
        .iter()
        .rev()
        .filter(|e| passes(e, pattern, source))
        .map(Row::from)
        .collect()
}

/// Adds an event, keeping ids unique and at most [`INSPECTOR_LIMIT`] events.
pub fn remember(events: &mut Vec<Event>, event: Event) {
    if events.iter().any(|e| e.id == event.id) {
        return;
    }
    events.push(event);
    if events.len() > INSPECTOR_LIMIT {
        let extra = events.len() - INSPECTOR_LIMIT;
        events.drain(..extra);
    }
}

/// Adds history pages' events to those seen, in time order (event ids are),
/// without duplicates, keeping the newest [`INSPECTOR_LIMIT`].
pub fn merge_history(events: &mut Vec<Event>, page: impl IntoIterator<Item = Event>) {
    for event in page {
        if !events.iter().any(|e| e.id == event.id) {
            events.push(event);
        }
    }
    sort_by_key(events, |e| e.id);
    if events.len() > INSPECTOR_LIMIT {
        let extra = events.len() - INSPECTOR_LIMIT;
        events.drain(..extra);
    }
}

/// The inspector view.
#[component]
pub fn Inspector() -> impl IntoView {
    let seen = expect_context::<Seen>();
    let events = seen.events;
    let session = Session::get();
    let linked = Memo::new(move |_| match session.place.get() {
        Place::Event(id) => Some(id),
        _ => None,
    });
    let missing = move || {
        linked
            .get()
            .filter(|id| events.with(|e| !e.iter().any(|e| e.id == *id)))
    };
    let (pattern, set_pattern) = signal(String::new());
    let (source, set_source) = signal(String::new());
    let (trace, set_trace) = signal(String::new());
    let shown = move || {
        let (pattern, source, trace) = (pattern.get(), source.get(), trace.get());
        events.with(|events| rows(events, &pattern, &source, &trace))
    };
    view! {
        <section class="inspector" aria-label="Event inspector">
            <h2 class="pane-title">"Inspector"</h2>
            <form class="filters" on:submit=|ev| ev.prevent_default()>
                <label>"Type" <input name="type" placeholder="e.g. workspace.* or tool.call"
                    prop:value=move || pattern.get()
                    on:input=move |ev| set_pattern.set(event_target_value(&ev)) /></label>
                <label>"Source" <input name="source" placeholder="e.g. agent:echo"
                    prop:value=move || source.get()
                    on:input=move |ev| set_source.set(event_target_value(&ev)) /></label>
                <label>"Trace" <input name="trace" placeholder="a trace id: shows its tree"
                    prop:value=move || trace.get()
                    on:input=move |ev| set_trace.set(event_target_value(&ev)) /></label>
                <span class="count">{move || format!("{} shown", shown().len())}</span>
                <button type="button" class="load-history"
                    disabled=move || !seen.history_more.get()
                    title="Events from before this tab joined, from the network's history (mod/persistence)"
                    on:click=move |_| seen.load_history(session)>
                    {move || match (seen.history_after.get(), seen.history_more.get()) {
                        (None, _) => "Load history",
                        (Some(_), true) => "Load more history",
                        (Some(_), false) => "All history loaded",
                    }}
                </button>
            </form>
            {move || seen.history_problem.get().map(|problem| view! {
                <p class="problem" role="alert">{format!("History: {problem}")}</p>
            })}
            <details class="replay-panel">
                <summary>"Replay"</summary>
                <Replay events=events />
            </details>
            {move || missing().map(|id| view! {
                <p class="problem" role="alert">{format!("Event {id} is not among those this workspace has seen.")}</p>
            })}
            <ul class="events" aria-label="Events">
                <For each=shown key=|row| (row.id, row.depth) let:row>
                    <li class="event" data-type=row.kind.clone() data-id=row.id.to_string()
                        data-depth=row.depth style:margin-left=format!("{}em", row.depth * 2)>
                        <details open=move || linked.get() == Some(row.id)>
                            <summary>
                                <span class="type">{row.kind.clone()}</span>
                                <span class="route">{row.route.clone()}</span>
                            </summary>
                            <pre class="json">{row.json.clone()}</pre>
                        </details>
                        <a class="event-link" href=session.path(&Place::Event(row.id))
                            aria-label=format!("Link to event {}", row.id)>"Link"</a>
                        {row.trace.clone().map(|id| view! {
                            <button type="button" class="trace-link"
                                aria-label=format!("Show trace {id}")
                                on:click=move |_| set_trace.set(id.clone())>"Trace"</button>
                        })}
                    </li>
                </For>
            </ul>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn event(n: u128, kind: &str, source: &str) -> Event {
        Event::from_value(
            json!({
                "id": agentnet_core::EventId::from_parts(1, n).to_string(), "type": kind,
                "source": source, "target": "agent:broadcast", "payload": {}, "timestamp": 1,
            }),
            &agentnet_core::Limits::default(),
        )
        .unwrap()
    }

    #[test]
    fn filters_by_type_pattern_and_source() {
        let tool = event(1, "tool.call.started", "agent:echo");
        let chat = event(2, "workspace.message.posted", "human:ann");
        assert!(passes(&tool, "tool.*", ""));
        assert!(!passes(&chat, "tool.*", ""));
        assert!(passes(&chat, "", "ann"));
        assert!(!passes(&tool, "", "ann"));
        assert!(
            passes(&tool, "not a pattern!", "echo"),
            "an unfinished pattern filters nothing"
        );
    }

    #[test]
    fn a_trace_id_shows_that_trace_as_a_tree() {
        let mut root = event(1, "tool.call", "agent:a");
        root.metadata.insert(
            "traceparent".into(),
            json!("00-0000000000000000000000000000abcd-0000000000000063-01"),
        );
        let mut child = event(2, "tool.result", "agent:b");
        child.metadata.insert(
            "traceparent".into(),
            json!("00-0000000000000000000000000000abcd-0000000000000001-01"),
        );
        let plain = event(3, "a.b", "agent:c");
        let events = vec![root, child, plain];
        let listed = rows(&events, "", "", "");
        assert_eq!(listed.len(), 3);
        assert_eq!(
            listed[2].trace.as_deref(),
            Some("0000000000000000000000000000abcd")
        );
        let traced: Vec<(usize, String)> = rows(&events, "", "", "abcd")
            .into_iter()
            .map(|r| (r.depth, r.kind))
            .collect();
        assert_eq!(
            traced,
            vec![(0, "tool.call".to_owned()), (1, "tool.result".to_owned())]
        );
    }

    #[test]
    fn history_joins_what_was_seen_in_time_order_once() {
        let mut events = vec![event(5, "a.b", "agent:x"), event(9, "a.b", "agent:x")];
        merge_history(
            &mut events,
            [
                event(1, "a.b", "agent:x"),
                event(5, "a.b", "agent:x"),
                event(7, "a.b", "agent:x"),
            ],
        );
        let ids: Vec<u128> = events.iter().map(|e| e.id.to_u128() & 0xff).collect();
        assert_eq!(ids, [1, 5, 7, 9]);
    }

    #[test]
    fn keeps_unique_events_up_to_the_limit() {
        let mut events = Vec::new();
        remember(&mut events, event(1, "a.b", "agent:x"));
        remember(&mut events, event(1, "a.b", "agent:x"));
        assert_eq!(events.len(), 1);
        for n in 2..(INSPECTOR_LIMIT as u128 + 10) {
            remember(&mut events, event(n, "a.b", "agent:x"));
        }
        assert_eq!(events.len(), INSPECTOR_LIMIT);
        assert_eq!(events[0].id, agentnet_core::EventId::from_parts(1, 10));
    }
}
