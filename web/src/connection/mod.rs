//! The browser's WebSocket link to one network, driven by the core [`Replica`].
//!
//! This module only moves frames and keeps one timer: the replica builds
//! every outgoing event (heartbeats included), applies every incoming frame,
//! decides when a silent link is dead and when to reconnect, and says what
//! happened as [`ReplicaEffect`]s, which the UI receives. Effects are applied
//! in the order the replica gives them: rows it wants kept are written to
//! IndexedDB ([`crate::storage`]) before any frame that follows them goes
//! out. The socket's listeners and the timer are gloo handles owned by the
//! connection, so closing it (or replacing the socket) removes them.

#[cfg(feature = "documents")]
mod documents;

use crate::clock::{now, random_u32};
use crate::error::WebError;
use crate::storage;
use agentnet_core::replica::{Keepalive, Replica, ReplicaEffect, ReplicaRow};
use agentnet_core::{Address, Event, EventId, EventType, Timestamp};
use gloo_events::EventListener;
use gloo_timers::callback::Timeout;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, WebSocket};

/// What the connection tells the UI.
pub enum Signal {
    /// A connection attempt started.
    Connecting,
    /// The socket closed; it will be reopened.
    Offline,
    /// Something the replica reports.
    Replica(Box<ReplicaEffect>),
}

/// One socket and its listeners; dropping it removes the listeners.
struct Link {
    socket: WebSocket,
    /// Which socket this is, so frames queued for an older one are not sent on it.
    generation: u64,
    _listeners: [EventListener; 3],
}

/// A step of applying effects in order.
enum Step {
    /// Rows to write to IndexedDB before anything after them.
    Store(Vec<ReplicaRow>),
    /// A frame for the socket of that generation.
    Send(u64, String),
}

struct Inner {
    url: String,
    network: String,
    link: Option<Link>,
    generation: u64,
    replica: Replica,
    credentials: Option<Value>,
    on_signal: Rc<dyn Fn(Signal)>,
    /// The timer for the replica's next deadline, and when it fires.
    timer: Option<(Timestamp, Timeout)>,
    /// Steps waiting for a write to IndexedDB that comes before them.
    queue: VecDeque<Step>,
    /// The task writing and sending `queue` is running.
    draining: bool,
    /// Closed for good ([`Connection::close`]): no reconnection, no timers.
    closed: bool,
    /// The window's `online` and `offline` listeners: the browser's word on
    /// its network goes to the replica at once.
    platform: Vec<EventListener>,
}

impl Inner {
    /// Sends `frame` now when nothing waits to be stored before it, else queues it.
    fn send(&mut self, frame: String) {
        if self.queue.is_empty() && !self.draining {
            if let Some(link) = &self.link
                && link.socket.ready_state() == WebSocket::OPEN
            {
                let _ = link.socket.send_with_str(&frame);
            }
        } else {
            self.queue.push_back(Step::Send(self.generation, frame));
        }
    }

    fn store(&mut self, row: ReplicaRow) {
        match self.queue.back_mut() {
            Some(Step::Store(rows)) => rows.push(row),
            _ => self.queue.push_back(Step::Store(vec![row])),
        }
    }

    /// Closes the current socket without hearing its close event.
    fn drop_link(&mut self) {
        if let Some(link) = self.link.take() {
            let socket = link.socket.clone();
            drop(link);
            let _ = socket.close();
        }
    }
}

/// What is left to do once the replica is no longer borrowed.
#[derive(Default)]
struct After {
    signals: Vec<Signal>,
    reconnect: bool,
}

/// An open (or reopening) link to a network.
#[derive(Clone)]
pub struct Connection {
    inner: Rc<RefCell<Inner>>,
}

impl Connection {
    /// Opens `url` and joins with `replica` (restored from storage by the caller);
    /// `on_signal` sees everything that happens. Reconnects until closed.
    pub fn open(
        url: &str,
        network: &str,
        mut replica: Replica,
        credentials: Option<Value>,
        on_signal: impl Fn(Signal) + 'static,
    ) -> Result<Self, WebError> {
        replica.set_keepalive(Some(Keepalive::default()));
        let connection = Self {
            inner: Rc::new(RefCell::new(Inner {
                url: url.to_owned(),
                network: network.to_owned(),
                link: None,
                generation: 0,
                replica,
                credentials,
                on_signal: Rc::new(on_signal),
                timer: None,
                queue: VecDeque::new(),
                draining: false,
                closed: false,
                platform: Vec::new(),
            })),
        };
        connection.follow_the_platform();
        connection.connect()?;
        Ok(connection)
    }

    /// Tells the replica when the browser loses or regains its network (the
    /// window's `offline` and `online` events): the link ends at once rather
    /// than when a heartbeat goes unanswered, and comes back at once rather
    /// than after the backoff grown while offline.
    fn follow_the_platform(&self) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let listeners = [("offline", false), ("online", true)].map(|(name, available)| {
            let weak = Rc::downgrade(&self.inner);
            EventListener::new(&window, name, move |_| {
                if let Some(c) = Self::from_weak(&weak) {
                    c.run(|inner| ((), inner.replica.network_changed(available, now())));
                }
            })
        });
        self.inner.borrow_mut().platform = listeners.into();
    }

    fn from_weak(weak: &Weak<RefCell<Inner>>) -> Option<Self> {
        weak.upgrade().map(|inner| Self { inner })
    }

    /// Opens a new socket; on failure the replica schedules the next attempt.
    fn connect(&self) -> Result<(), WebError> {
        let (url, on_signal) = {
            let inner = self.inner.borrow();
            if inner.closed {
                return Ok(());
            }
            (inner.url.clone(), inner.on_signal.clone())
        };
        on_signal(Signal::Connecting);
        let Ok(socket) = WebSocket::new(&url) else {
            self.lost();
            return Err(WebError::NoSocket);
        };
        let weak = Rc::downgrade(&self.inner);
        let on_open = {
            let weak = weak.clone();
            EventListener::new(&socket, "open", move |_| {
                if let Some(c) = Self::from_weak(&weak) {
                    c.run(|inner| {
                        let credentials = inner.credentials.clone();
                        ((), inner.replica.connected(credentials, now()))
                    });
                }
            })
        };
        let on_message = {
            let weak = weak.clone();
            EventListener::new(&socket, "message", move |event| {
                let text = event
                    .dyn_ref::<MessageEvent>()
                    .and_then(|m| m.data().as_string());
                if let (Some(c), Some(text)) = (Self::from_weak(&weak), text) {
                    c.run(|inner| ((), inner.replica.receive(&text, now())));
                }
            })
        };
        let on_close = EventListener::new(&socket, "close", move |_| {
            if let Some(c) = Self::from_weak(&weak) {
                c.lost();
            }
        });
        let mut inner = self.inner.borrow_mut();
        inner.drop_link();
        let generation = inner.generation + 1;
        inner.generation = generation;
        inner.link = Some(Link {
            socket,
            generation,
            _listeners: [on_open, on_message, on_close],
        });
        Ok(())
    }

    /// The socket closed (or could not open): the replica schedules the next attempt.
    fn lost(&self) {
        let on_signal = {
            let mut inner = self.inner.borrow_mut();
            if inner.closed {
                return;
            }
            inner.link = None;
            inner.replica.lost(now(), random_u32());
            inner.on_signal.clone()
        };
        on_signal(Signal::Offline);
        self.schedule();
    }

    /// Calls the replica, applies its effects in order, then tells the UI.
    fn run<T>(&self, call: impl FnOnce(&mut Inner) -> (T, Vec<ReplicaEffect>)) -> T {
        let (value, after, on_signal) = {
            let mut inner = self.inner.borrow_mut();
            let (value, effects) = call(&mut inner);
            let after = self.apply(&mut inner, effects);
            (value, after, inner.on_signal.clone())
        };
        for signal in after.signals {
            on_signal(signal);
        }
        if after.reconnect {
            let _ = self.connect();
        }
        self.schedule();
        value
    }

    fn apply(&self, inner: &mut Inner, effects: Vec<ReplicaEffect>) -> After {
        let mut after = After::default();
        for effect in effects {
            match effect {
                ReplicaEffect::Send(frame) => inner.send(frame),
                ReplicaEffect::Persist(row) => inner.store(row),
                ReplicaEffect::Disconnect => {
                    // The heartbeat went unanswered: the socket is dead even if the browser has not noticed.
                    inner.drop_link();
                    inner.replica.lost(now(), random_u32());
                    after.signals.push(Signal::Offline);
                }
                ReplicaEffect::Reconnect => after.reconnect = true,
                other => after.signals.push(Signal::Replica(Box::new(other))),
            }
        }
        if !inner.queue.is_empty() && !inner.draining {
            inner.draining = true;
            let weak = Rc::downgrade(&self.inner);
            wasm_bindgen_futures::spawn_local(drain(weak));
        }
        after
    }

    /// Keeps a timer for the replica's next deadline. A timer set for that
    /// moment or earlier stays: waking early costs a call that finds nothing due.
    fn schedule(&self) {
        let mut inner = self.inner.borrow_mut();
        if inner.closed {
            return;
        }
        let Some(at) = inner.replica.poll_timeout() else {
            return;
        };
        if inner.timer.as_ref().is_some_and(|(armed, _)| *armed <= at) {
            return;
        }
        let wait = at.millis_since(now()).min(u64::from(u32::MAX)) as u32;
        let weak = Rc::downgrade(&self.inner);
        let timeout = Timeout::new(wait, move || {
            if let Some(c) = Self::from_weak(&weak) {
                c.inner.borrow_mut().timer = None;
                c.run(|inner| ((), inner.replica.handle_timeout(now())));
            }
        });
        inner.timer = Some((at, timeout));
    }

    /// Closes the link for good: the socket, the timer, any reconnection.
    /// What is queued stays in storage for the next time this network opens.
    pub fn close(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.closed = true;
        inner.timer = None;
        inner.platform.clear();
        inner.drop_link();
        inner.replica.disconnected();
    }

    /// The participant's address.
    pub fn address(&self) -> Address {
        self.inner.borrow().replica.address().clone()
    }

    /// Runs `f` with the replica (what it holds: its log and outbox), unless
    /// the replica is busy (this was called while it delivers an effect).
    pub fn with_replica<T>(&self, f: impl FnOnce(&Replica) -> T) -> Option<T> {
        self.inner.try_borrow().ok().map(|inner| f(&inner.replica))
    }

    /// The highest gap-free log position the replica holds, once synced.
    pub fn watermark(&self) -> Option<u64> {
        self.inner.borrow().replica.watermark()
    }

    /// Sends a request; its answer arrives as `ReplicaEffect::Replied` with this id.
    pub fn request(
        &self,
        event_type: EventType,
        target: Address,
        payload: Value,
        timeout_ms: u64,
    ) -> EventId {
        self.run(|inner| {
            inner
                .replica
                .request(event_type, target, payload, timeout_ms, now())
        })
    }

    /// Posts an event through the replica (queued while offline); returns its id.
    pub fn post(&self, event_type: EventType, target: Address, payload: Value) -> EventId {
        self.post_with(event_type, target, payload, Map::new())
    }

    /// [`Connection::post`] with metadata (`in_reply_to`, `mentions`, …).
    pub fn post_with(
        &self,
        event_type: EventType,
        target: Address,
        payload: Value,
        metadata: Map<String, Value>,
    ) -> EventId {
        self.run(|inner| {
            inner
                .replica
                .post(event_type, target, payload, metadata, now())
        })
    }

    /// An event in the outbox (created here, not yet in the log).
    pub fn outgoing(&self, id: EventId) -> Option<Event> {
        self.inner
            .borrow()
            .replica
            .outbox()
            .find(|entry| entry.event.id == id)
            .map(|entry| entry.event.clone())
    }
}

/// Writes queued rows and sends the frames after them, in order, until the queue is empty.
async fn drain(weak: Weak<RefCell<Inner>>) {
    loop {
        let Some(inner) = weak.upgrade() else {
            return;
        };
        let step = {
            let mut inner = inner.borrow_mut();
            let step = inner.queue.pop_front();
            if step.is_none() {
                inner.draining = false;
            }
            step
        };
        match step {
            None => return,
            Some(Step::Store(rows)) => {
                let network = inner.borrow().network.clone();
                drop(inner);
                // A failed write loses only the cache: what follows goes out regardless.
                let _ = storage::write(&network, rows).await;
            }
            Some(Step::Send(generation, frame)) => {
                if let Some(link) = inner
                    .borrow()
                    .link
                    .as_ref()
                    .filter(|l| l.generation == generation)
                    .filter(|l| l.socket.ready_state() == WebSocket::OPEN)
                {
                    let _ = link.socket.send_with_str(&frame);
                }
            }
        }
    }
}
