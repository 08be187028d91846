//! The MCP endpoint's live state in the network's object: its SSE streams'
//! connections, the requests waiting for a delivery, and the changes to
//! notify listening clients of.
//!
//! What a stream is, which notice reaches whom and how a stream resumes are
//! the core's (`agentnet_core::bindings::mcp::streams` and `notices`); here
//! are the connections (`crate::host::sse` outlets) those decisions are
//! written to. It is a component of the object (`crate::mcp::elicit` has its
//! `impl`, `crate::network::component` says what one is): deliveries and row
//! changes are seen as the object applies the core's effects; waiting
//! requests are woken and notifications written at the next commit
//! ([`McpLive::flush`]), once the rows they stand for are stored. Approvals
//! asked of people become elicitations on their streams ([`crate::mcp::elicit`]).

use crate::host::now;
use crate::host::sse::Outlet;
use agentnet_core::bindings::jsonrpc::Id;
use agentnet_core::bindings::mcp::elicit;
use agentnet_core::bindings::mcp::notices::{self, Notice};
use agentnet_core::bindings::mcp::streams::Streams;
use agentnet_core::bindings::mcp::waiting::Waiting;
use agentnet_core::network::Effect;
use agentnet_core::{Address, Event, EventId, NetworkId};
use futures_channel::oneshot;
use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// An open SSE connection: the outlet its response body reads.
pub(crate) type Stream = Rc<Outlet>;

/// A request waiting for a delivery, and how to wake it.
struct Waiter {
    key: u64,
    waiting: Waiting,
    /// The stream its answer goes on, if any.
    stream: Option<String>,
    wake: oneshot::Sender<Event>,
}

/// The MCP endpoint's live state.
#[derive(Default)]
pub(crate) struct McpLive {
    /// The streams (the core's registry).
    pub(crate) streams: RefCell<Streams>,
    /// Each connected stream's connection.
    senders: RefCell<BTreeMap<String, Stream>>,
    /// Answers still to come on each stream.
    pending: RefCell<BTreeMap<String, usize>>,
    waiters: RefCell<Vec<Waiter>>,
    next_key: Cell<u64>,
    /// Waiters woken by a delivery, to wake at the next commit.
    ready: RefCell<Vec<(oneshot::Sender<Event>, Event)>>,
    /// Changes to notify at the next commit.
    notices: RefCell<BTreeSet<Notice>>,
    /// This object's network (for resource URIs).
    network: RefCell<Option<NetworkId>>,
    /// Members whose streams are still to close (ended while the streams were in use).
    ended: RefCell<Vec<Address>>,
    /// A task writes keepalives to the connected streams.
    pub(crate) ticking: Cell<bool>,
    /// Approval events committed, still to ask or cancel elicitations for ([`crate::mcp::elicit`]).
    pub(crate) approvals: RefCell<Vec<Rc<Event>>>,
    /// The elicitations still out, per approval: each one's stream and request id.
    pub(crate) asked: RefCell<BTreeMap<EventId, Vec<(String, Id)>>>,
}

impl McpLive {
    /// Notes this object's network.
    pub(crate) fn set_network(&self, id: &NetworkId) {
        if self.network.borrow().is_none() {
            *self.network.borrow_mut() = Some(id.clone());
        }
    }

    /// A delivery is being applied: the requests it completes wake at the next commit.
    pub(crate) fn delivered(&self, to: &[Address], event: &Event) {
        if self.waiters.borrow().is_empty() {
            return;
        }
        let mut waiters = self.waiters.borrow_mut();
        let mut ready = self.ready.borrow_mut();
        let mut index = 0;
        while index < waiters.len() {
            if waiters
                .get(index)
                .is_some_and(|w| w.waiting.wakes_on(to, event))
            {
                let woken = waiters.swap_remove(index);
                ready.push((woken.wake, event.clone()));
            } else {
                index += 1;
            }
        }
    }

    /// An event is being appended to the log: an approval's request or
    /// decision is kept for its elicitations (sent once it is committed).
    pub(crate) fn appended(&self, event: &Rc<Event>) {
        if elicit::Asked::of_request(event).is_some() || elicit::closed(event).is_some() {
            self.approvals.borrow_mut().push(event.clone());
        }
    }

    /// A row change is being applied: what listeners should hear of it.
    pub(crate) fn noticed(&self, effect: &Effect) {
        let found = notices::of_effect(effect);
        if !found.is_empty() {
            self.notices.borrow_mut().extend(found);
        }
    }

    /// Waits for `waiting`'s delivery: the key to stop waiting and the receiver.
    pub(crate) fn register(
        &self,
        waiting: Waiting,
        stream: Option<&str>,
    ) -> (u64, oneshot::Receiver<Event>) {
        let (wake, woken) = oneshot::channel();
        let key = self.next_key.get();
        self.next_key.set(key + 1);
        let stream = stream.map(str::to_owned);
        self.waiters.borrow_mut().push(Waiter {
            key,
            waiting,
            stream,
            wake,
        });
        (key, woken)
    }

    /// Stops waiting (the deadline passed).
    pub(crate) fn unregister(&self, key: u64) {
        self.waiters.borrow_mut().retain(|w| w.key != key);
    }

    /// Stops waiting for `member`'s request `request` (cancelled): it gets no answer.
    pub(crate) fn cancel(&self, member: &Address, request: &Id) {
        self.waiters
            .borrow_mut()
            .retain(|w| !(&w.waiting.member == member && &w.waiting.request == request));
    }

    /// Stops waiting for the requests of an ended session.
    pub(crate) fn end_session(&self, streams: &[String], session: &str) {
        self.waiters
            .borrow_mut()
            .retain(|w| w.waiting.session.as_deref() != Some(session));
        for stream in streams {
            self.close(stream);
        }
    }

    /// Stops waiting for `member`'s requests and closes its streams: it is no longer a member.
    pub(crate) fn end_member(&self, member: &Address) {
        self.waiters
            .borrow_mut()
            .retain(|w| &w.waiting.member != member);
        // A request in progress holds the streams: they end at the next flush.
        let ended = match self.streams.try_borrow_mut() {
            Ok(mut streams) => streams.end_member(member),
            Err(_) => {
                self.ended.borrow_mut().push(member.clone());
                Vec::new()
            }
        };
        for stream in ended {
            self.close(stream.as_str());
        }
    }

    /// Wakes the requests that deliveries completed and writes the notifications
    /// of what changed (later, when the streams are in use right now).
    pub(crate) fn flush(&self) {
        for member in self.ended.take() {
            self.end_member(&member);
        }
        for (wake, event) in self.ready.take() {
            let _ = wake.send(event);
        }
        if self.notices.borrow().is_empty() {
            return;
        }
        let (Ok(mut streams), Some(network)) =
            (self.streams.try_borrow_mut(), self.network.borrow().clone())
        else {
            return;
        };
        let changes = self.notices.take();
        for (stream, listener) in streams.listeners() {
            for notice in &changes {
                if let Some(message) = notices::message(&network, notice, &listener)
                    && let Some(record) = streams.record(&stream, &message)
                {
                    self.send(&stream, record);
                }
            }
        }
    }

    fn send(&self, stream: &str, record: String) {
        if let Some(outlet) = self.senders.borrow().get(stream) {
            outlet.send(record);
        }
    }

    /// Writes `message` on `stream` (kept for resuming when the stream resumes).
    pub(crate) fn write(&self, stream: &str, message: &Value) {
        let record = self.streams.borrow_mut().record(stream, message);
        if let Some(record) = record {
            self.send(stream, record);
        }
    }

    /// `sender` is now `stream`'s connection (a resumed stream replaces the dropped one),
    /// with `waits` more answers to come.
    pub(crate) fn attach(&self, stream: &str, sender: Stream, waits: usize) {
        if let Some(old) = self.senders.borrow_mut().insert(stream.to_owned(), sender) {
            old.close();
        }
        *self
            .pending
            .borrow_mut()
            .entry(stream.to_owned())
            .or_default() += waits;
    }

    /// One answer on `stream` was written; closes the stream when it was the
    /// last one and the stream ends with its answers.
    pub(crate) fn answered(&self, stream: &str, closes: bool) {
        let left = {
            let mut pending = self.pending.borrow_mut();
            let left = pending.get(stream).map_or(0, |n| n.saturating_sub(1));
            pending.insert(stream.to_owned(), left);
            left
        };
        if left == 0 && closes {
            self.streams.borrow_mut().finish(stream, now());
            self.close(stream);
        }
    }

    /// Closes `stream`'s connection.
    pub(crate) fn close(&self, stream: &str) {
        self.pending.borrow_mut().remove(stream);
        if let Some(outlet) = self.senders.borrow_mut().remove(stream) {
            outlet.close();
        }
    }

    /// Writes a keepalive comment to every connected stream and forgets the
    /// connections that are gone; whether any stream is still connected.
    pub(crate) fn keepalive(&self) -> bool {
        let gone: Vec<String> = self
            .senders
            .borrow()
            .iter()
            .filter(|(_, outlet)| !outlet.keepalive())
            .map(|(id, _)| id.clone())
            .collect();
        for stream in gone {
            self.senders.borrow_mut().remove(&stream);
            let resumes = self.streams.borrow().resumes(&stream);
            self.streams.borrow_mut().detach(&stream, now());
            if !resumes {
                // Closing a 2026-07-28 stream cancels its request: nothing more is sent for it.
                self.waiters
                    .borrow_mut()
                    .retain(|w| w.stream.as_deref() != Some(stream.as_str()));
            }
        }
        !self.senders.borrow().is_empty()
    }

    /// Members with a connected stream.
    pub(crate) fn connected(&self) -> BTreeSet<Address> {
        self.streams.borrow().connected_members()
    }
}
