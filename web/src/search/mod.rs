//! Searching the messages of a network.
//!
//! What the person types is a [`SearchText`] (the core's rule: every word
//! must appear in a message's text, in any case). The search runs twice:
//! over what this browser's replica holds (its log and outbox), at once on
//! every keystroke, and over the network's history, through
//! `network.events.query {text}` (answered when the network runs
//! `mod/persistence`, from the edge's full-text index), a moment after the
//! typing stops, paging on while the network has more (up to
//! [`MAX_PAGES`]). Results merge into one list, each message once
//! ([`found`]); a result opens the message in its conversation
//! (`/n/{net}/channel/{name}?message={id}`, a reply in its thread), scrolled
//! to it and highlighted, the conversation's history read down to it when
//! it is older than what the page holds ([`crate::chat::list::jump`]). [`view`]
//! has the button in the top bar (`/` from outside a field, or Ctrl+K's switcher) and the panel.
//!
//! The state is provided through Leptos context and sees the replica's
//! effects in [`Search::on_effect`], like every feature.

pub mod found;
pub mod view;

use crate::session::Session;
use agentnet_core::ids::event_type::core_types;
use agentnet_core::model::payloads::EventsPage;
use agentnet_core::model::search::{SearchText, SearchTextError};
use agentnet_core::replica::ReplicaEffect;
use agentnet_core::{Address, ErrorCode, EventId};
use found::{Origin, Results};
use leptos::prelude::*;
use std::collections::BTreeMap;

/// Events one page of the network's history answers with at most.
const PAGE: u64 = 200;

/// Pages of the network's history one search reads at most.
pub const MAX_PAGES: u32 = 5;

/// How long typing must pause before the network is asked.
const DEBOUNCE_MS: u32 = 250;

/// How long one page may take.
const TIMEOUT_MS: u64 = 30_000;

/// Where the search of the network's history is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Remote {
    /// Not asked (nothing to search).
    Idle,
    /// Asked; pages are coming.
    Searching,
    /// Answered in full (or as far as [`MAX_PAGES`] go).
    Done,
    /// The network keeps no history (no `mod/persistence`).
    NoHistory,
    /// Not connected: only what this browser holds was searched.
    Offline,
    /// The network refused or did not answer, with why.
    Failed(String),
}

/// A page of history asked for, and for which search.
#[derive(Clone, Debug)]
struct Asked {
    generation: u64,
    search: SearchText,
    page: u32,
}

/// The search of one network's workspace: cheap to copy, from context with [`Search::get`].
#[derive(Clone, Copy)]
pub struct Search {
    session: Session,
    /// Whether the panel is open.
    pub open: RwSignal<bool>,
    /// What the person typed.
    pub query: RwSignal<String>,
    /// The search whose results show (`None`: nothing typed).
    pub shown: RwSignal<Option<SearchText>>,
    /// What it found so far.
    pub results: RwSignal<Results>,
    /// Where the network's part of it is.
    pub remote: RwSignal<Remote>,
    /// Why the typed text is no search (too long, a control character).
    pub problem: RwSignal<Option<String>>,
    /// Counts searches, so answers to an older one are dropped.
    generation: StoredValue<u64>,
    asked: StoredValue<BTreeMap<EventId, Asked>>,
}

impl Search {
    /// The search of `session`'s network, provided to the components below.
    pub fn provide(session: Session) -> Self {
        let search = Self {
            session,
            open: RwSignal::new(false),
            query: RwSignal::new(String::new()),
            shown: RwSignal::new(None),
            results: RwSignal::new(Results::default()),
            remote: RwSignal::new(Remote::Idle),
            problem: RwSignal::new(None),
            generation: StoredValue::new(0),
            asked: StoredValue::new(BTreeMap::new()),
        };
        provide_context(search);
        search
    }

    /// The workspace's search.
    pub fn get() -> Self {
        expect_context()
    }

    /// Searches for what the person typed: the replica at once, the network
    /// after a pause in the typing.
    pub fn input(&self, raw: String) {
        self.query.set(raw.clone());
        let generation = self.generation.get_value() + 1;
        self.generation.set_value(generation);
        self.asked.update_value(BTreeMap::clear);
        let search = match raw.parse::<SearchText>() {
            Ok(search) => search,
            Err(error) => {
                self.problem
                    .set((error != SearchTextError::Empty).then(|| error.to_string()));
                self.shown.set(None);
                self.results.set(Results::default());
                self.remote.set(Remote::Idle);
                return;
            }
        };
        self.problem.set(None);
        self.results.set(self.local(&search));
        self.shown.set(Some(search.clone()));
        self.remote.set(Remote::Searching);
        let this = *self;
        gloo_timers::callback::Timeout::new(DEBOUNCE_MS, move || {
            if this.generation.try_get_value() == Some(generation) {
                this.ask(search, 0, 0, generation);
            }
        })
        .forget();
    }

    /// What the replica holds that matches `search`: its log, then its outbox.
    fn local(&self, search: &SearchText) -> Results {
        let me = self.session.me_text();
        let mut results = Results::default();
        self.session.with_connection(|c| {
            c.with_replica(|replica| {
                let log = replica.log().iter().map(|(seq, e)| (Some(*seq), e));
                results.add(search, log, Origin::Replica, &me);
                results.add(
                    search,
                    replica.outbox().map(|entry| (None, &entry.event)),
                    Origin::Replica,
                    &me,
                );
            })
        });
        results
    }

    /// Asks the network for a page of its history after `after` (deferred:
    /// this may run while the connection delivers the answer to the last page).
    fn ask(&self, search: SearchText, after: u64, page: u32, generation: u64) {
        let this = *self;
        wasm_bindgen_futures::spawn_local(async move {
            let payload =
                serde_json::json!({"text": search.as_str(), "after": after, "limit": PAGE});
            let id = this.session.request(
                core_types::EVENTS_QUERY,
                Address::core(),
                payload,
                TIMEOUT_MS,
            );
            match id {
                Some(id) => this.asked.update_value(|asked| {
                    asked.insert(
                        id,
                        Asked {
                            generation,
                            search,
                            page,
                        },
                    );
                }),
                None => {
                    let _ = this.remote.try_set(Remote::Offline);
                }
            }
        });
    }

    /// A page of history (or its failure), when it answers one of the search's.
    pub fn on_effect(&self, effect: &ReplicaEffect) {
        let (request, answer) = match effect {
            ReplicaEffect::Replied { request, reply } => (request, Ok(&reply.payload)),
            ReplicaEffect::RequestFailed { request, rejection } => (request, Err(rejection)),
            _ => return,
        };
        let Some(asked) = self.asked.try_update_value(|a| a.remove(request)).flatten() else {
            return;
        };
        if self.generation.get_value() != asked.generation {
            return;
        }
        let page = match answer {
            Ok(payload) => agentnet_core::answers::read_payload::<EventsPage>(payload),
            Err(rejection) => {
                return self.remote.set(match rejection.code {
                    ErrorCode::NotSupported => Remote::NoHistory,
                    _ => Remote::Failed(rejection.message.clone()),
                });
            }
        };
        let Ok(page) = page else {
            return self.remote.set(Remote::NoHistory);
        };
        let me = self.session.me_text();
        let mut full = false;
        self.results.update(|results| {
            results.add(
                &asked.search,
                page.events.iter().map(|l| (Some(l.seq), &l.event)),
                Origin::Network,
                &me,
            );
            full = results.len() >= found::MAX_RESULTS;
        });
        let next = asked.page + 1;
        if page.has_more && !full && next < MAX_PAGES {
            self.ask(asked.search, page.next_after, next, asked.generation);
        } else {
            self.remote.set(Remote::Done);
        }
    }

    /// Opens the panel.
    pub fn show(&self) {
        self.open.set(true);
    }

    /// Closes the panel (what was typed and found stays for the next time).
    pub fn close(&self) {
        self.open.set(false);
    }
}
