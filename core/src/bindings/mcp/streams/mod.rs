//! The SSE streams of the MCP endpoint: their event ids, what they sent (so
//! a dropped stream can resume), and which stream hears which notice.
//!
//! A host keeps one [`Streams`] per network and writes to the connection of
//! each stream what it returns. In the legacy revisions every record has an
//! id `{stream}_{n}` and is kept ([`MAX_KEPT`] per stream, for
//! [`RESUME_WINDOW_MS`] after the stream ends or its connection drops); a
//! `GET` with `Last-Event-ID` replays what came after that id on *that*
//! stream and, when the stream is not done, carries on with it. A
//! 2025-11-25 request stream opens with a priming event (an id, a `retry`
//! and no data). A session's notifications go to one stream only: its
//! newest `GET` stream. 2026-07-28 streams have no ids and do not resume;
//! closing one ends it.

use super::notices::{Filter, Listener};
use super::revision::Revision;
use super::session::Session;
use crate::Address;
use crate::bindings::jsonrpc::Id;
use crate::bindings::transport::sse;
use crate::crypto::to_hex;
use crate::ids::time::Timestamp;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Records kept per stream for resuming.
pub const MAX_KEPT: usize = 256;
/// How long an ended or dropped stream can still be resumed.
pub const RESUME_WINDOW_MS: u64 = 60_000;
/// The `retry` a priming event asks reconnecting clients to wait (ms).
pub const RETRY_MS: u64 = 500;

/// What a stream is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamKind {
    /// The answer(s) to a POST.
    Request,
    /// A legacy session's `GET` stream of notifications.
    Notifications,
    /// A 2026-07-28 `subscriptions/listen` stream.
    Subscription(Id),
}

/// Who a stream belongs to and what it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamSpec {
    /// The legacy session, if any.
    pub session: Option<String>,
    /// The member it serves.
    pub member: Address,
    /// The revision it speaks.
    pub revision: Revision,
    /// What it is for.
    pub kind: StreamKind,
    /// What it hears (notification streams).
    pub listener: Option<Listener>,
    /// Its session's client takes `elicitation/create` in form mode
    /// ([`super::elicit`]; notification streams of legacy sessions).
    pub elicits: bool,
}

impl StreamSpec {
    /// The stream answering one request of `member`'s, in its legacy
    /// `session` when it has one.
    pub fn request(session: Option<String>, member: &Address, revision: Revision) -> Self {
        Self {
            session,
            member: member.clone(),
            revision,
            kind: StreamKind::Request,
            listener: None,
            elicits: false,
        }
    }

    /// `session`'s `GET` stream of notifications, for `member`.
    pub fn notifications(session: &Session, member: &Address) -> Self {
        Self {
            kind: StreamKind::Notifications,
            listener: Some(Listener::Session(session.subscriptions.clone())),
            elicits: session.elicits,
            ..Self::request(Some(session.id.clone()), member, session.revision)
        }
    }

    /// `member`'s `subscriptions/listen` stream `id` (2026-07-28), hearing `filter`.
    pub fn subscription(member: &Address, id: &Id, filter: &Filter) -> Self {
        Self {
            kind: StreamKind::Subscription(id.clone()),
            listener: Some(Listener::Subscription {
                id: id.clone(),
                filter: filter.clone(),
            }),
            ..Self::request(None, member, Revision::V2026_07_28)
        }
    }
}

#[derive(Debug)]
struct Entry {
    spec: StreamSpec,
    kept: VecDeque<(u64, String)>,
    next: u64,
    done: bool,
    attached: bool,
    /// When it ended or lost its connection.
    idle_since: Option<Timestamp>,
    opened: Timestamp,
}

/// A stream resumed after `Last-Event-ID`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resumed {
    /// Its id.
    pub stream: String,
    /// The records after the one the client had.
    pub records: Vec<String>,
    /// It is complete: close it after the records.
    pub done: bool,
}

/// Every open (or resumable) stream of one network.
#[derive(Debug, Default)]
pub struct Streams {
    streams: BTreeMap<String, Entry>,
}

/// A fresh stream id from 32 random bytes.
pub fn new_id(seed: &[u8; 32]) -> String {
    to_hex(seed.get(..8).unwrap_or(&[]))
}

/// The SSE record of `data`, with `id` when it has one.
pub fn record(id: Option<&str>, data: &str) -> String {
    sse::frame(id, Some("message"), None, data)
}

/// `{stream}_{n}` split, if it is one.
pub fn parse_event_id(text: &str) -> Option<(&str, u64)> {
    let (stream, n) = text.trim().rsplit_once('_')?;
    Some((stream, n.parse().ok()?))
}

impl Streams {
    /// Opens stream `id`; answers the records to write first (a priming event).
    pub fn open(&mut self, id: &str, spec: StreamSpec, now: Timestamp) -> Vec<String> {
        self.prune(now);
        let prime = spec.revision.primes_streams() && spec.kind == StreamKind::Request;
        self.streams.insert(
            id.to_owned(),
            Entry {
                spec,
                kept: VecDeque::new(),
                next: 0,
                done: false,
                attached: true,
                idle_since: None,
                opened: now,
            },
        );
        if !prime {
            return Vec::new();
        }
        let event = self.next_id(id).unwrap_or_default();
        vec![sse::frame(Some(&event), None, Some(RETRY_MS), "")]
    }

    fn next_id(&mut self, id: &str) -> Option<String> {
        let entry = self.streams.get_mut(id)?;
        let n = entry.next;
        entry.next += 1;
        Some(format!("{id}_{n}"))
    }

    /// The record of `message` on stream `id` (kept when the stream resumes), if the stream exists.
    pub fn record(&mut self, id: &str, message: &Value) -> Option<String> {
        let resumable = self.streams.get(id)?.spec.revision.resumable();
        if !resumable {
            return Some(record(None, &message.to_string()));
        }
        let event = self.next_id(id)?;
        let text = record(Some(&event), &message.to_string());
        let entry = self.streams.get_mut(id)?;
        entry.kept.push_back((entry.next - 1, text.clone()));
        if entry.kept.len() > MAX_KEPT {
            entry.kept.pop_front();
        }
        Some(text)
    }

    /// Stream `id` said all it had to say.
    pub fn finish(&mut self, id: &str, now: Timestamp) {
        if let Some(entry) = self.streams.get_mut(id) {
            entry.done = true;
            entry.idle_since.get_or_insert(now);
        }
    }

    /// Stream `id` lost its connection: kept for resuming when it can resume, else forgotten.
    pub fn detach(&mut self, id: &str, now: Timestamp) {
        let Some(entry) = self.streams.get_mut(id) else {
            return;
        };
        if entry.spec.revision.resumable() {
            entry.attached = false;
            entry.idle_since.get_or_insert(now);
        } else {
            self.streams.remove(id);
        }
    }

    /// Whether stream `id` resumes after its connection drops (legacy revisions).
    pub fn resumes(&self, id: &str) -> bool {
        self.streams
            .get(id)
            .is_some_and(|e| e.spec.revision.resumable())
    }

    /// Whether stream `id` exists and is done.
    pub fn is_done(&self, id: &str) -> bool {
        self.streams.get(id).is_some_and(|e| e.done)
    }

    /// Resumes the stream of `session` that `last_event_id` names.
    pub fn resume(
        &mut self,
        session: &str,
        last_event_id: &str,
        now: Timestamp,
    ) -> Option<Resumed> {
        self.prune(now);
        let (stream, after) = parse_event_id(last_event_id)?;
        let entry = self.streams.get_mut(stream)?;
        if entry.spec.session.as_deref() != Some(session) {
            return None;
        }
        entry.attached = true;
        if !entry.done {
            entry.idle_since = None;
        }
        let records = entry
            .kept
            .iter()
            .filter(|(n, _)| *n > after)
            .map(|(_, r)| r.clone())
            .collect();
        Some(Resumed {
            stream: stream.to_owned(),
            records,
            done: entry.done,
        })
    }

    /// Per legacy session, its newest notification stream (an attached one
    /// before a dropped one).
    fn newest_per_session(&self) -> Vec<(&String, &Entry)> {
        let mut newest: BTreeMap<&str, (&String, &Entry)> = BTreeMap::new();
        for (id, entry) in &self.streams {
            if let (StreamKind::Notifications, Some(session), false) =
                (&entry.spec.kind, entry.spec.session.as_deref(), entry.done)
            {
                let better = newest
                    .get(session)
                    .is_none_or(|(_, b)| (entry.attached, entry.opened) > (b.attached, b.opened));
                if better {
                    newest.insert(session, (id, entry));
                }
            }
        }
        newest.into_values().collect()
    }

    /// The streams that hear notices, each with its listener: every
    /// subscription stream, and per legacy session its newest notification
    /// stream (an attached one before a dropped one).
    pub fn listeners(&self) -> Vec<(String, Listener)> {
        let mut found: Vec<(String, Listener)> = self
            .streams
            .iter()
            .filter(|(_, e)| matches!(e.spec.kind, StreamKind::Subscription(_)) && e.attached)
            .filter_map(|(id, e)| Some((id.clone(), e.spec.listener.clone()?)))
            .collect();
        for (id, entry) in self.newest_per_session() {
            if let Some(listener) = &entry.spec.listener {
                found.push((id.clone(), listener.clone()));
            }
        }
        found
    }

    /// The streams an `elicitation/create` to `member` may go on: per legacy
    /// session of `member` whose client takes elicitation, its newest
    /// notification stream, with the session's revision.
    pub fn elicitable(&self, member: &Address) -> Vec<(String, Revision)> {
        self.newest_per_session()
            .into_iter()
            .filter(|(_, e)| e.spec.elicits && &e.spec.member == member)
            .map(|(id, e)| (id.clone(), e.spec.revision))
            .collect()
    }

    /// The session's `resources/subscribe` set changed.
    pub fn subscriptions_changed(&mut self, session: &str, subscribed: &BTreeSet<String>) {
        for entry in self.streams.values_mut() {
            if entry.spec.session.as_deref() == Some(session)
                && entry.spec.kind == StreamKind::Notifications
            {
                entry.spec.listener = Some(Listener::Session(subscribed.clone()));
            }
        }
    }

    /// Forgets every stream of `session`; answers their ids.
    pub fn end_session(&mut self, session: &str) -> Vec<String> {
        let ids: Vec<String> = self
            .streams
            .iter()
            .filter(|(_, e)| e.spec.session.as_deref() == Some(session))
            .map(|(id, _)| id.clone())
            .collect();
        for id in &ids {
            self.streams.remove(id);
        }
        ids
    }

    /// Forgets every stream that serves `member` (it is no longer one); answers their ids.
    pub fn end_member(&mut self, member: &Address) -> Vec<String> {
        let ids: Vec<String> = self
            .streams
            .iter()
            .filter(|(_, e)| &e.spec.member == member)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &ids {
            self.streams.remove(id);
        }
        ids
    }

    /// The members with a connected stream (signs of life for presence).
    pub fn connected_members(&self) -> BTreeSet<Address> {
        self.streams
            .values()
            .filter(|e| e.attached && !e.done)
            .map(|e| e.spec.member.clone())
            .collect()
    }

    fn prune(&mut self, now: Timestamp) {
        self.streams.retain(|_, e| {
            e.idle_since
                .is_none_or(|since| since.plus_millis(RESUME_WINDOW_MS) > now)
        });
    }
}

#[cfg(test)]
mod tests;
