//! Requests that reached a network's object: the I/O around the core's bindings.
//!
//! What a path means, how a request becomes an event and what the answer
//! says are decided in `agentnet_core::bindings`; here the request is read,
//! the bindings' I/O is done ([`RequestIo`]: sessions in SQLite, the log's id
//! index, effects applied to sockets and storage) and the answer is written,
//! a stream opened or a socket accepted.

use crate::host::apart::apart;
use crate::host::origin::Origin;
use crate::host::sse::{MoreWanted, Outlet};
use crate::host::{now, now_ms, random_seed, request_of, respond};
use crate::mcp::store as mcp_store;
use crate::network::object::NetworkHost;
use crate::network::sse::NetworkOutlet;
use crate::network::storage::Store;
use crate::network::webpush_store;
use crate::oauth::store as oauth_store;
use agentnet_core::bindings::access::policy::{Expired, Policy, SessionRow, TicketRow};
use agentnet_core::bindings::directory::create;
use agentnet_core::bindings::http::webpush::PushStore;
use agentnet_core::bindings::http::{self, Outcome};
use agentnet_core::bindings::mcp::session::{McpHost, Session as McpSession};
use agentnet_core::bindings::oauth::grants::{Client, Grant, OAuthHost};
use agentnet_core::bindings::route::{NetworkRoute, Route};
use agentnet_core::bindings::transport::sse;
use agentnet_core::bindings::{self, BindingHost, Collected};
use agentnet_core::network::Effect;
use agentnet_core::webpush::Subscription;
use agentnet_core::{Address, EventId, Network, Timestamp};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;
use worker::{Request, Response, Result};

/// The object's I/O for one request.
pub(crate) struct RequestIo<'a> {
    host: &'a NetworkHost,
    store: Store,
}

impl<'a> RequestIo<'a> {
    /// The I/O of `host` for one request.
    pub(crate) fn new(host: &'a NetworkHost) -> Result<Self> {
        Ok(Self {
            host,
            store: host.store()?,
        })
    }

    /// The object's SQLite storage.
    pub(crate) fn sql(&self) -> worker::SqlStorage {
        self.host.state.storage().sql()
    }
}

/// The error of a request that finds its object's network not loaded.
pub(crate) fn not_loaded() -> worker::Error {
    worker::Error::RustError("network not loaded".into())
}

impl NetworkHost {
    /// Runs `work` on the loaded network with a request's I/O: the way each
    /// binding's request reaches the core.
    pub(crate) fn with_network<T>(
        &self,
        work: impl FnOnce(&mut RequestIo<'_>, &mut Network) -> Result<T>,
    ) -> Result<T> {
        let mut guard = self.network.borrow_mut();
        let network = guard.as_mut().ok_or_else(not_loaded)?;
        work(&mut RequestIo::new(self)?, network)
    }
}

impl BindingHost for RequestIo<'_> {
    type Error = worker::Error;

    fn now(&self) -> Timestamp {
        now()
    }

    fn random_seed(&mut self) -> [u8; 32] {
        random_seed()
    }

    fn policy(&self) -> Policy {
        self.host.policy
    }

    fn session(&mut self, token_sha256: &str) -> Result<Option<SessionRow>> {
        self.store.session(token_sha256)
    }

    fn add_session(&mut self, token_sha256: &str, address: &Address, now: Timestamp) -> Result<()> {
        self.store
            .add_session(token_sha256, &address.to_string(), now)
    }

    fn touch_session(&mut self, token_sha256: &str, now: Timestamp) -> Result<()> {
        self.store.touch_session(token_sha256, now)
    }

    fn end_session(&mut self, token_sha256: &str) -> Result<()> {
        self.store.end_session(token_sha256)
    }

    fn prune_sessions(&mut self, expired: Expired) -> Result<()> {
        self.store.prune_sessions(expired)
    }

    fn add_ticket(
        &mut self,
        ticket_sha256: &str,
        address: &Address,
        expires_at: Timestamp,
    ) -> Result<()> {
        self.store
            .add_ticket(ticket_sha256, &address.to_string(), expires_at)
    }

    fn take_ticket(&mut self, ticket_sha256: &str) -> Result<Option<TicketRow>> {
        self.store.take_ticket(ticket_sha256)
    }

    fn prune_tickets(&mut self, now: Timestamp) -> Result<()> {
        self.store.prune_tickets(now)
    }

    fn seq_of(&mut self, id: &EventId) -> Result<Option<u64>> {
        self.store.seq_of(&id.to_string())
    }

    fn collect(
        &mut self,
        network: &mut Network,
        effects: Vec<Effect>,
        requester: Option<&Address>,
    ) -> Result<Collected> {
        let collected = RefCell::new(Collected::for_requester(requester));
        self.host
            .apply_to(network, &Origin::Collect(&collected), effects)?;
        Ok(collected.into_inner())
    }

    fn apply(&mut self, network: &mut Network, effects: Vec<Effect>) -> Result<()> {
        self.host.apply_to(network, &Origin::Nowhere, effects)
    }

    fn open_streams(&self, member: &Address) -> usize {
        self.host.live.sse.open_of(&member.to_string())
    }

    fn keep_agent_key(
        &mut self,
        agent: &Address,
        key: Option<&agentnet_core::agent::hosted::ProviderKey>,
    ) -> Result<bool> {
        crate::agents::store::keep(&self.sql(), agent, key.map(|k| k.expose()))?;
        Ok(true)
    }

    fn agent_key_source(
        &mut self,
        agent: &Address,
    ) -> Result<agentnet_core::agent::hosted::KeySource> {
        use agentnet_core::agent::hosted::KeySource;
        Ok(
            if crate::agents::store::key(&self.sql(), agent)?.is_some() {
                KeySource::Own
            } else if self.host.live.hosted.deployment_key(self.host).is_some() {
                KeySource::Deployment
            } else {
                KeySource::None
            },
        )
    }
}

/// Members' push subscriptions (`crate::network::webpush`).
impl PushStore for RequestIo<'_> {
    type Error = worker::Error;

    fn push_public_key(&mut self) -> Result<String> {
        Ok(self.host.vapid_key()?.public_b64url())
    }

    fn add_subscription(&mut self, member: &Address, subscription: &Subscription) -> Result<()> {
        webpush_store::add(&self.sql(), member, subscription, now_ms())
    }

    fn remove_subscription(&mut self, member: &Address, endpoint: &str) -> Result<bool> {
        webpush_store::remove(&self.sql(), &member.to_string(), endpoint)
    }
}

impl McpHost for RequestIo<'_> {
    fn mcp_session(&mut self, id: &str) -> Result<Option<McpSession>> {
        mcp_store::get(&self.sql(), id)
    }

    fn save_mcp_session(&mut self, session: &McpSession) -> Result<()> {
        mcp_store::save(&self.sql(), session)
    }

    fn end_mcp_session(&mut self, id: &str) -> Result<bool> {
        mcp_store::end(&self.sql(), id)
    }
}

impl OAuthHost for RequestIo<'_> {
    fn oauth_client(&mut self, client_id: &str) -> Result<Option<Client>> {
        oauth_store::client(&self.sql(), client_id)
    }

    fn add_oauth_client(&mut self, client: &Client) -> Result<()> {
        oauth_store::add_client(&self.sql(), client)
    }

    fn oauth_grant(&mut self, sha256: &str) -> Result<Option<Grant>> {
        oauth_store::grant(&self.sql(), sha256)
    }

    fn save_oauth_grant(&mut self, sha256: &str, grant: &Grant) -> Result<()> {
        oauth_store::save_grant(&self.sql(), sha256, grant)
    }

    fn end_oauth_family(&mut self, family: &str) -> Result<()> {
        oauth_store::end_family(&self.sql(), family)
    }

    fn prune_oauth_grants(&mut self, now: Timestamp) -> Result<()> {
        oauth_store::prune(&self.sql(), now)
    }
}

impl NetworkHost {
    /// Answers a request that reached this network's object, along the
    /// route the core's table read ([`route::parse`], once in `fetch`). Each
    /// binding's own route is awaited [`apart`].
    pub(crate) async fn route(
        self: &Rc<Self>,
        mut req: Request,
        route: std::result::Result<Route, bindings::Response>,
    ) -> Result<Response> {
        // A file's part is bytes, not text: the files binding reads its body itself.
        if let Ok(Route::Network(id, NetworkRoute::Files(files))) = &route {
            return apart(self.serve_files(req, id.clone(), files.clone())).await;
        }
        let request = match request_of(&mut req).await {
            Ok(request) => request,
            Err(response) => return respond(response),
        };
        let (id, route) = match route {
            Ok(Route::Network(id, route)) => (id, route),
            Ok(Route::Create) => return self.create(&request),
            Ok(_) => return respond(http::unknown_path()),
            Err(response) => return respond(response),
        };
        // Every route below answers for a network this object holds: loaded
        // once here, so no binding's entry asks again.
        if matches!(route, NetworkRoute::Unknown | NetworkRoute::Files(_)) {
            return respond(http::unknown_path());
        }
        if !self.ensure_loaded(&id)? {
            return respond(http::no_such_network(&id));
        }
        let api = match route {
            NetworkRoute::Api(api) => api,
            NetworkRoute::A2aRemotes => {
                return apart(self.live.outbound.add_remote(self, request)).await;
            }
            NetworkRoute::A2a(target) => {
                return apart(self.live.a2a.serve_a2a(self, request, target)).await;
            }
            NetworkRoute::Ioa(target) => {
                return apart(self.live.ioa.serve_ioa(self, request, target)).await;
            }
            NetworkRoute::Anp => return apart(self.serve_anp(request, id)).await,
            NetworkRoute::Mcp => return apart(self.live.mcp.serve_mcp(self, request, id)).await,
            NetworkRoute::McpMetadata => return self.live.mcp.mcp_metadata(self, &request, &id),
            NetworkRoute::OAuth(target) => {
                return apart(self.serve_oauth(&request, &target)).await;
            }
            NetworkRoute::Push(push) => return self.serve_push(&request, push),
            // Files: taken before the body was read, above; Unknown: answered above.
            NetworkRoute::Files(_) | NetworkRoute::Unknown => return respond(http::unknown_path()),
        };
        self.note_origin(request.origin());
        self.resolve_request(&request).await?;
        // A socket the network has no room for is refused before anything is decided for it.
        if let Some(close) = self.socket_refusal(&request, &api) {
            return self.refuse_socket(&close);
        }
        let outcome = self.with_network(|io, network| {
            http::handle(io, network, &request, &api, self.hooks_on())
        })?;
        match outcome {
            Outcome::Respond(response) => respond(response),
            Outcome::Stream(stream) => open_sse(self, stream),
            Outcome::Upgrade(upgrade) => match self.links.sequencer() {
                // A socket that joined at its upgrade, or named whom it joins
                // as, goes to that member's gateway (a shared one too: its
                // lanes are for members placed there); one that did neither stays here.
                Some(sequencer) if upgrade.address.is_some() || upgrade.placement.is_some() => {
                    apart(self.hand_to_gateway(sequencer, upgrade)).await
                }
                _ => self.accept_socket(&id, upgrade),
            },
            #[cfg(feature = "test-hooks")]
            Outcome::Test(hook) => apart(self.run_test_hook(hook)).await,
            // Without the feature no request is a test hook's (`http::handle` is told so).
            #[cfg(not(feature = "test-hooks"))]
            Outcome::Test(_) => respond(http::unknown_path()),
        }
    }

    /// Creates this object's network from the Worker's creation request (once in the object's
    /// life: a function of its own, not inlined into [`Self::route`]).
    #[inline(never)]
    fn create(&self, request: &bindings::Request) -> Result<Response> {
        let (config, admin_token) = match create::request(&request.body, &random_seed()) {
            Ok(created) => created,
            Err(response) => return respond(response),
        };
        let store = self.store()?;
        if store.config()?.is_some() {
            return respond(create::already_exists(&config.id));
        }
        store.save_config(&config)?;
        self.ensure_loaded(&config.id)?;
        let profile = match self.network.borrow().as_ref() {
            Some(network) => http::profile(network, request.origin()),
            None => return Err(worker::Error::RustError("network not loaded".into())),
        };
        respond(create::created(&config.id, profile, &admin_token))
    }
}

/// Opens a stream the core has opened with its first records queued.
fn open_sse(host: &Rc<NetworkHost>, stream: sse::Stream) -> Result<Response> {
    let member = stream.member().to_string();
    let catching_up = stream.is_catching_up();
    let outlet = Outlet::new(stream);
    host.live.sse.add(&outlet, member);
    if catching_up {
        let (host, outlet) = (Rc::clone(host), Rc::clone(&outlet));
        worker::wasm_bindgen_futures::spawn_local(async move {
            while MoreWanted(&outlet).await {
                // A turn of its own: other frames and requests go between two pages.
                worker::Delay::from(Duration::ZERO).await;
                if let Err(err) = next_stream_page(&host, &outlet) {
                    worker::console_error!("a stream's page failed; the stream ends: {err}");
                    outlet.with(sse::Stream::cut);
                }
                outlet.wake_all();
            }
        });
    }
    outlet.keep_alive();
    outlet.response()
}

/// Reads the next page of a stream that catches up, as the core decides.
fn next_stream_page(host: &NetworkHost, outlet: &NetworkOutlet) -> Result<()> {
    if let Err(rejection) =
        host.with_network(|io, network| sse::next_page(io, network, outlet.records()))?
    {
        // The member is gone: the core has cut the stream.
        worker::console_log!("a stream ends: {rejection}");
    }
    Ok(())
}
