//! `NetworkHost`: the state and the work of the Durable Object that hosts one network.
//!
//! It maps WebSocket frames onto [`agentnet_core::Network`] and applies the
//! effects the core returns: replies and deliveries go out on sockets,
//! members and log entries go into SQLite. Sockets use the hibernation API;
//! a socket's id, member and deadline live in its attachment, so nothing
//! needed after a wake-up is held only in memory (`crate::network::sockets`).

use crate::host::origin::Origin;
use crate::host::{now, random_seed};
use crate::network::graph_store::LogIndex;
use crate::network::inbox::Drainer;
use crate::network::socket_state::{Arrived, Conn, OpenSockets};
use crate::network::storage::Store;
use agentnet_core::Timestamp;
use agentnet_core::bindings;
use agentnet_core::bindings::access::cors;
use agentnet_core::bindings::access::policy::Policy;
use agentnet_core::bindings::directory::create;
use agentnet_core::bindings::route::{self, Route};
use agentnet_core::bindings::transport::lanes;
use agentnet_core::bindings::transport::sockets::Close;
use agentnet_core::model::origins::AllowedOrigins;
use agentnet_core::network::Effect;
use agentnet_core::{Network, NetworkId};
use std::cell::RefCell;
use worker::{Env, Request, Response, Result, State, WebSocket};

/// One network's Durable Object: its state and what it does
/// (`crate::network::entry::NetworkObject` is the class workerd calls).
pub struct NetworkHost {
    pub(crate) state: State,
    pub(crate) network: RefCell<Option<Network>>,
    /// The tables exist (checked once per instance, not per request).
    schema_ready: std::cell::Cell<bool>,
    /// The alarm this instance has set, so it is not read back from storage for every frame.
    alarm_at: std::cell::Cell<Option<Timestamp>>,
    /// The sockets: the core's table and the sockets by id (restored after a wake).
    pub(crate) sockets: RefCell<Option<OpenSockets>>,
    /// Which socket a frame came from, without reading its attachment.
    pub(crate) senders: crate::network::socket_state::SenderIndex,
    /// Sockets to close once the frames before them are sent.
    pub(crate) closing: RefCell<Vec<(Conn, Close)>>,
    /// Session and ticket lifetimes, socket limits.
    pub(crate) policy: Policy,
    /// Frames waiting to be handled together (group commit).
    inbox: std::rc::Rc<crate::network::inbox::Inbox>,
    /// Log rows gathered over one drain of frames, written together ([`Store::flush`]).
    pub(crate) pending_appends: std::rc::Rc<RefCell<crate::network::log_batch::PendingAppends>>,
    /// Frames for sockets, sent once the rows they acknowledge are written ([`Self::commit`]).
    pub(crate) outgoing: RefCell<crate::network::outgoing::Outgoing>,
    /// Test-only routes are on: only with the `test-hooks` feature, when
    /// `AGENTNET_TEST_HOOKS=1` (`crate::host::test_hooks`); read through [`Self::hooks_on`].
    #[cfg(feature = "test-hooks")]
    pub(crate) test_hooks: bool,
    /// What may be fetched on a member's say-so (`crate::host::outbound`).
    pub(crate) outbound_policy: agentnet_core::outbound::OutboundPolicy,
    /// Each binding's live state and what waits for a commit, one component
    /// per concern, each seeing the effects applied (`crate::network::live`).
    pub(crate) live: crate::network::live::Components,
    /// This host, for tasks that outlive a request (an MCP stream's answers).
    pub(crate) me: std::rc::Weak<NetworkHost>,
    /// The Worker's bindings (the registry object, for identity lookups).
    pub(crate) env: Env,
    /// The origin requests reach this object at (`crate::network::identity`).
    pub(crate) origin: RefCell<Option<String>>,
    /// The connection gateways, when the network has them (`crate::network::gateways`).
    pub(crate) links: crate::network::gateway_link::Links,
    /// WebSocket messages this object has sent (benchmarks: `v1/__test/counters`).
    pub(crate) socket_messages: crate::host::counter::Counter,
    /// Requests this object has taken from its gateways (benchmarks: `v1/__test/counters`).
    pub(crate) gateway_requests_in: crate::host::counter::Counter,
    /// Until when it answers its gateways' requests with 503 (only the test
    /// hook `v1/__test/refuse-gateway-requests` sets it).
    pub(crate) gateways_refused_until: std::cell::Cell<Option<agentnet_core::Timestamp>>,
}

/// Whether `env` turns the test hooks on, and the [`Policy`] the object
/// applies (shortened only by test hooks): never without the `test-hooks` feature.
pub(crate) fn test_hooks_of(env: &Env) -> (bool, Policy) {
    #[cfg(feature = "test-hooks")]
    {
        let on = crate::host::test_hooks::enabled(env);
        (on, crate::host::test_hooks::policy(env, on))
    }
    #[cfg(not(feature = "test-hooks"))]
    {
        let _ = env;
        (false, Policy::default())
    }
}

impl NetworkHost {
    /// Whether the test-only routes are on: never without the `test-hooks` feature.
    pub(crate) fn hooks_on(&self) -> bool {
        #[cfg(feature = "test-hooks")]
        {
            self.test_hooks
        }
        #[cfg(not(feature = "test-hooks"))]
        {
            false
        }
    }

    pub(crate) fn store(&self) -> Result<Store> {
        if self.schema_ready.get() {
            return Ok(Store::existing(
                self.state.storage().sql(),
                self.pending_appends.clone(),
            ));
        }
        let store = Store::open(self.state.storage().sql(), self.pending_appends.clone())?;
        crate::oauth::store::open(&store.sql)?;
        crate::network::webpush_store::open(&store.sql)?;
        crate::network::file_store::open(&store.sql)?;
        crate::agents::store::open(&store.sql)?;
        self.schema_ready.set(true);
        Ok(store)
    }

    /// Loads the network from storage on first use; creates a built-in one (`demo`) if missing.
    /// An id no network has gets `false` and no tables: any id in a path reaches an object,
    /// and probing ids must not fill storage.
    pub(crate) fn ensure_loaded(&self, id: &NetworkId) -> Result<bool> {
        if self.network.borrow().is_some() {
            return Ok(true);
        }
        if !self.schema_ready.get()
            && create::builtin_config(id).is_none()
            && !Store::exists(&self.state.storage().sql())?
        {
            return Ok(false);
        }
        let store = self.store()?;
        let config = match store.config()? {
            Some(config) => config,
            None => match create::builtin_config(id) {
                Some(config) => {
                    store.save_config(&config)?;
                    config
                }
                None => return Ok(false),
            },
        };
        let gateways = config.gateways;
        let rows = store.rows()?;
        // The shared documents are the documents Worker's (`crate::network::documents`):
        // rows this object stored itself before they were go there first.
        self.hand_over_documents(&rows);
        let mut network = Network::new(config, rows, store.last_seq()?, random_seed());
        network.keep_documents_elsewhere();
        network.set_event_index(Box::new(LogIndex(self.store()?)));
        network.set_outbound(self.outbound_policy.clone());
        let online = network
            .state()
            .members
            .values()
            .filter(|m| m.is_online())
            .map(|m| m.address.clone())
            .collect();
        self.links.start(id, gateways, &store.sql, online)?;
        self.live
            .hosted
            .set_configs(&network.config().hosted_agents);
        *self.network.borrow_mut() = Some(network);
        Ok(true)
    }

    /// Asks the platform to wake the object when the network next needs it.
    pub(crate) async fn schedule_alarm(&self) -> Result<()> {
        let network = self
            .network
            .borrow()
            .as_ref()
            .and_then(Network::wakeup_bound);
        let next = [
            network,
            self.next_join_deadline(),
            self.live.hosted.hosted_wakeup(self),
        ]
        .into_iter()
        .flatten()
        .min();
        if let Some(at) = next {
            if self.alarm_at.get().is_some_and(|set| set <= at) {
                return Ok(());
            }
            let storage = self.state.storage();
            let current = storage.get_alarm().await?;
            if let Some(c) = current
                .and_then(|c| u64::try_from(c).ok())
                .map(Timestamp::from_millis)
                .filter(|c| *c <= at)
            {
                self.alarm_at.set(Some(c));
                return Ok(());
            }
            self.alarm_at.set(Some(at));
            {
                storage
                    .set_alarm(worker::ScheduledTime::new(worker::js_sys::Date::new(
                        &(at.as_millis() as f64).into(),
                    )))
                    .await?;
            }
        }
        Ok(())
    }

    /// Hands one WebSocket frame to the core and applies what it returns.
    fn handle_socket_frame(&self, conn: &Conn, text: &str) -> Result<()> {
        #[cfg(feature = "test-hooks")]
        crate::host::test_hooks::panic_frame(self.test_hooks, text);
        let Some((id, record)) = self.sender_of(conn) else {
            return Ok(());
        };
        if !self.ensure_loaded(&id)? {
            return Ok(());
        }
        let framed = {
            let mut guard = self.network.borrow_mut();
            let Some(network) = guard.as_mut() else {
                return Ok(());
            };
            self.with_sockets(|open| {
                bindings::transport::ws::frame(network, &mut open.table, &record, text, now())
            })
        };
        if let Some(close) = framed.close {
            self.close_later(conn.clone(), close);
        }
        self.apply_gathering(&Origin::Socket(conn), framed.effects)
    }
}

/// What workerd's calls into the object do (`crate::network::entry` receives them).
impl NetworkHost {
    pub(crate) fn new(state: State, env: Env, me: std::rc::Weak<NetworkHost>) -> Self {
        crate::host::answer_heartbeats(&state);
        let (_hooks_on, policy) = test_hooks_of(&env);
        Self {
            state,
            network: RefCell::new(None),
            schema_ready: std::cell::Cell::new(false),
            alarm_at: std::cell::Cell::new(None),
            sockets: RefCell::new(None),
            senders: Default::default(),
            closing: RefCell::new(Vec::new()),
            policy,
            inbox: Default::default(),
            pending_appends: Default::default(),
            outgoing: Default::default(),
            #[cfg(feature = "test-hooks")]
            test_hooks: _hooks_on,
            outbound_policy: crate::host::outbound::policy_of(&env),
            live: Default::default(),
            me,
            env,
            origin: RefCell::new(None),
            links: Default::default(),
            socket_messages: Default::default(),
            gateway_requests_in: Default::default(),
            gateways_refused_until: Default::default(),
        }
    }

    pub(crate) async fn fetch(self: &std::rc::Rc<Self>, req: Request) -> Result<Response> {
        if req.path() == crate::network::gateway_link::LINK_PATH {
            return self.gateway_request(req).await;
        }
        let head = crate::host::request_head(&req);
        let route = route::parse(&head);
        let decision = cors::decide(&head, &self.allowed_origins(&head, &route)?);
        let response = crate::host::with_cors(decision, self.route(req, route)).await;
        // A woken object reports the hosted agents' turns a restart cut short.
        self.live.hosted.start_hosted(self);
        let closed = self.finish_closes();
        self.schedule_alarm().await?;
        closed.and(response)
    }

    /// The `allowed_origins` of the network `req` is for (none when there is no such network).
    fn allowed_origins(
        &self,
        req: &bindings::Request,
        route: &std::result::Result<Route, bindings::Response>,
    ) -> Result<AllowedOrigins> {
        if req.header("Origin").is_none() {
            return Ok(AllowedOrigins::default());
        }
        if let Some(id) = route.as_ref().ok().and_then(Route::network)
            && self.ensure_loaded(id)?
            && let Some(network) = self.network.borrow().as_ref()
        {
            return Ok(network.config().allowed_origins.clone());
        }
        Ok(AllowedOrigins::default())
    }

    /// Queues a WebSocket frame; returns the drainer role when this frame
    /// starts a drain ([`Self::drain`]), `None` when a running drain takes it.
    pub(crate) fn queue_frame(&self, ws: WebSocket, text: String) -> Option<Drainer> {
        self.inbox.push(ws, text)
    }

    /// Handles queued frames until a turn of the event loop brings none.
    pub(crate) async fn drain(&self, drainer: Drainer) -> Result<()> {
        // Under load, wait one turn of the event loop first so the frames on their
        // way join this batch; a lone frame is handled at once. Frames that arrive
        // meanwhile are handled together after a turn: one commit for all of them.
        if drainer.under_load() {
            worker::Delay::from(std::time::Duration::ZERO).await;
        }
        let mut first_error = None;
        loop {
            let mut handled = 0;
            while let Some((ws, message)) = drainer.next() {
                handled += 1;
                // A shared socket's message holds its lanes' frames, one per line.
                let frames: Vec<&str> = match self.carrier_of(&ws) {
                    Some(_) => message.split(lanes::LINE_BREAK).collect(),
                    None => vec![message.as_str()],
                };
                for frame in frames {
                    // A shared socket's frame names its lane (or closes one).
                    let (conn, frame) = match self.arrived(ws.clone(), frame) {
                        Ok(Arrived::Frame(conn, frame)) => (conn, frame),
                        Ok(Arrived::Done) => continue,
                        Err(err) => {
                            worker::console_error!("a shared socket's frame failed: {err}");
                            first_error.get_or_insert(err);
                            continue;
                        }
                    };
                    // A batched frame's events are handled one by one, as single frames are.
                    for text in bindings::transport::ws::events_of(frame) {
                        if let Err(err) = self.handle_queued(&conn, text).await {
                            worker::console_error!("a frame failed: {err}");
                            first_error.get_or_insert(err);
                        }
                    }
                }
            }
            if handled == 0 {
                break;
            }
            // Before yielding: write these frames' rows, then send their acks and
            // deliveries, then close the sockets these frames ended.
            if let Err(err) = self.commit() {
                worker::console_error!("writing the log failed: {err}");
                first_error.get_or_insert(err);
            }
            if let Err(err) = self.finish_closes() {
                worker::console_error!("closing sockets failed: {err}");
                first_error.get_or_insert(err);
            }
            worker::Delay::from(std::time::Duration::ZERO).await;
        }
        drop(drainer);
        self.schedule_alarm().await?;
        first_error.map_or(Ok(()), Err)
    }

    /// Handles one event's text from a socket: resolves the identities it
    /// mentions, then hands it to the core.
    async fn handle_queued(&self, conn: &Conn, text: &str) -> Result<()> {
        if agentnet_core::network::members::identity::mentions_identity(text)
            && let Some((id, _)) = self.sender_of(conn)
        {
            // After a wake the network loads with the first frame: load it first.
            let _ = self.ensure_loaded(&id);
        }
        if let Err(err) = self.resolve_identity(text).await {
            worker::console_error!("resolving an identity failed: {err}");
        }
        self.handle_socket_frame(conn, text)
    }

    pub(crate) async fn alarm(&self) -> Result<Response> {
        // The alarm that was set has fired.
        self.alarm_at.set(None);
        // An object evicted from memory wakes here: what it stored goes on
        // (a catch-up a page at a time is one of its rows).
        if self.network.borrow().is_none()
            && let Some(config) = self.store()?.config()?
        {
            self.ensure_loaded(&config.id)?;
        }
        let at = now();
        self.close_overdue(at);
        self.finish_closes()?;
        let mut connected = self.connected_addresses();
        // So is a member bound through a gateway (it says when the member goes).
        connected.extend(self.links.members());
        // So is an open MCP stream.
        connected.extend(self.live.mcp.connected());
        // And a hosted agent, which the object runs.
        connected.extend(self.live.hosted.addresses());
        connected.sort();
        connected.dedup();
        let effects = match self.network.borrow_mut().as_mut() {
            Some(network) => {
                // An open socket is a sign of life even when hibernation kept its pings away.
                let mut effects: Vec<Effect> = connected
                    .iter()
                    .flat_map(|a| network.heartbeat(a, at))
                    .collect();
                effects.extend(network.on_alarm(at));
                effects
            }
            // No network stored: nothing to do.
            None => Vec::new(),
        };
        self.apply(&Origin::Nowhere, effects)?;
        self.live.outbound.send_due_pushes(self)?;
        if self.network.borrow().is_some() {
            self.live.hosted.hosted_alarm(self)?;
        }
        self.schedule_alarm().await?;
        Response::ok("alarm handled")
    }
}
