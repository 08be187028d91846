//! `NetworkObject`: the Durable Object that hosts one network.
//!
//! It maps WebSocket frames onto [`agentnet_core::Network`] and applies the
//! effects the core returns: replies and deliveries go out on sockets,
//! members and log entries go into SQLite. Sockets use the hibernation API;
//! a socket's authenticated address lives in its attachment, so nothing
//! needed after a wake-up is held only in memory.

use crate::host::{error_response, now_ms, random_seed};
use crate::storage::{LogIndex, Store};
use agentnet_core::mods::ModConfig;
use agentnet_core::network::Effect;
use agentnet_core::{Address, Network, NetworkConfig, NetworkId};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::collections::BTreeMap;
use worker::{
    DurableObject, Env, Request, Response, Result, State, WebSocket, WebSocketIncomingMessage,
    WebSocketPair, durable_object,
};

/// The network created on first start so newcomers can use agentnet at once.
pub const DEMO_NETWORK: &str = "demo";

/// What a socket's attachment remembers across hibernation.
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
struct Session {
    network: Option<String>,
    address: Option<String>,
}

/// One network's Durable Object.
#[durable_object]
pub struct NetworkObject {
    state: State,
    network: RefCell<Option<Network>>,
}

impl NetworkObject {
    fn store(&self) -> Result<Store> {
        Store::open(self.state.storage().sql())
    }

    /// Loads the network from storage on first use; creates `demo` if missing.
    fn ensure_loaded(&self, id: &NetworkId) -> Result<bool> {
        if self.network.borrow().is_some() {
            return Ok(true);
        }
        let store = self.store()?;
        let config = match store.config()? {
            Some(config) => config,
            None if id.as_str() == DEMO_NETWORK => {
                let mut config = NetworkConfig::open(id.clone(), "Demo");
                config.mods = vec![ModConfig::Workspace, ModConfig::Persistence];
                store.save_config(&config)?;
                config
            }
            None => return Ok(false),
        };
        let mut network = Network::new(config, store.rows()?, store.last_seq()?, random_seed());
        network.set_event_index(Box::new(LogIndex(self.store()?)));
        *self.network.borrow_mut() = Some(network);
        Ok(true)
    }

    fn session(ws: &WebSocket) -> Session {
        ws.deserialize_attachment::<Session>()
            .ok()
            .flatten()
            .unwrap_or_default()
    }

    /// Applies the core's effects for an input that arrived on `origin` (none for alarms).
    fn apply(&self, origin: Option<&WebSocket>, effects: Vec<Effect>) -> Result<()> {
        let store = self.store()?;
        let mut sockets: Option<BTreeMap<String, Vec<WebSocket>>> = None;
        let mut pending = effects;
        while !pending.is_empty() {
            let mut follow_up = Vec::new();
            for effect in pending {
                match &effect {
                    Effect::Reply(event) => {
                        if let Some(ws) = origin {
                            send(ws, &event.encode());
                        }
                    }
                    Effect::Bind(address) => {
                        if let Some(ws) = origin {
                            self.bind(ws, Some(address.to_string()))?;
                        }
                        sockets = None;
                    }
                    Effect::Unbind => {
                        if let Some(ws) = origin {
                            self.bind(ws, None)?;
                        }
                        sockets = None;
                    }
                    Effect::Store(row) => store.store(row)?,
                    Effect::Remove { kind, key } => store.remove(*kind, key)?,
                    Effect::Append {
                        seq,
                        event,
                        retain,
                        audiences,
                    } => store.append(*seq, event, *retain, audiences)?,
                    Effect::Deliver { .. } => {
                        let by_address = sockets.get_or_insert_with(|| self.sockets_by_address());
                        for (address, frame) in effect.frames() {
                            for ws in by_address.get(&address.to_string()).into_iter().flatten() {
                                send(ws, &frame);
                            }
                        }
                    }
                    Effect::Backlog(request) => {
                        let (rows, exhausted) = store.backlog(request)?;
                        if let Some(network) = self.network.borrow_mut().as_mut() {
                            follow_up.extend(network.answer_backlog(
                                request,
                                rows,
                                exhausted,
                                now_ms(),
                            ));
                        }
                    }
                    Effect::Query(request) => {
                        let (rows, exhausted) = store.query(request)?;
                        if let Some(network) = self.network.borrow_mut().as_mut() {
                            follow_up.extend(network.answer_query(
                                request,
                                rows,
                                exhausted,
                                now_ms(),
                            ));
                        }
                    }
                }
            }
            pending = follow_up;
        }
        Ok(())
    }

    /// Asks the platform to wake the object when the network next needs it.
    async fn schedule_alarm(&self) -> Result<()> {
        let next = self
            .network
            .borrow()
            .as_ref()
            .and_then(Network::next_wakeup);
        if let Some(at) = next {
            let storage = self.state.storage();
            let current = storage.get_alarm().await?;
            if current.is_none_or(|c| c > at as i64) {
                storage
                    .set_alarm(worker::ScheduledTime::new(worker::js_sys::Date::new(
                        &(at as f64).into(),
                    )))
                    .await?;
            }
        }
        Ok(())
    }

    fn bind(&self, ws: &WebSocket, address: Option<String>) -> Result<()> {
        let mut session = Self::session(ws);
        session.address = address;
        ws.serialize_attachment(&session)
    }

    fn sockets_by_address(&self) -> BTreeMap<String, Vec<WebSocket>> {
        let mut map: BTreeMap<String, Vec<WebSocket>> = BTreeMap::new();
        for ws in self.state.get_websockets() {
            if let Some(address) = Self::session(&ws).address {
                map.entry(address).or_default().push(ws);
            }
        }
        map
    }

    fn network_id_of(ws: &WebSocket) -> Option<NetworkId> {
        Self::session(ws).network.and_then(|n| n.parse().ok())
    }

    /// A socket closed: finish the handshake and mark its member offline if it has no other.
    fn connection_closed(&self, ws: &WebSocket, code: usize) -> Result<()> {
        let session = Self::session(ws);
        // Finish the closing handshake; 1005/1006 cannot be sent back.
        let reply_code = if (1000..=4999).contains(&code) && code != 1005 && code != 1006 {
            code
        } else {
            1000
        };
        let _ = ws.close(u16::try_from(reply_code).ok(), Some("closed"));
        let (Some(id), Some(address)) = (Self::network_id_of(ws), session.address) else {
            return Ok(());
        };
        let still_connected = self.state.get_websockets().iter().any(|other| {
            other != ws && Self::session(other).address.as_deref() == Some(address.as_str())
        });
        if still_connected || !self.ensure_loaded(&id)? {
            return Ok(());
        }
        let Ok(address) = address.parse::<Address>() else {
            return Ok(());
        };
        let effects = match self.network.borrow_mut().as_mut() {
            Some(network) => network.disconnect(&address, now_ms()),
            None => Vec::new(),
        };
        self.apply(Some(ws), effects)
    }
}

fn send(ws: &WebSocket, frame: &str) {
    // A socket that is closing cannot take frames; the others still get theirs.
    if let Err(err) = ws.send_with_str(frame) {
        worker::console_warn!("dropping frame for a closed socket: {err}");
    }
}

/// `/networks/{id}/{rest…}` → (`id`, `rest`).
fn split_path(path: &str) -> Option<(&str, &str)> {
    let rest = path.strip_prefix("/networks/")?;
    Some(rest.split_once('/').unwrap_or((rest, "")))
}

impl DurableObject for NetworkObject {
    fn new(state: State, _env: Env) -> Self {
        Self {
            state,
            network: RefCell::new(None),
        }
    }

    async fn fetch(&self, req: Request) -> Result<Response> {
        let path = req.path();
        let Some((id, rest)) = split_path(&path) else {
            return error_response(404, "not_found", "unknown path");
        };
        let id: NetworkId = match id.parse() {
            Ok(id) => id,
            Err(err) => return error_response(400, "invalid_network_id", &err.to_string()),
        };
        if !self.ensure_loaded(&id)? {
            return error_response(404, "not_found", &format!("network {id} does not exist"));
        }
        match rest {
            "v1/ws" => {
                let upgrade = req.headers().get("Upgrade")?.unwrap_or_default();
                if !upgrade.eq_ignore_ascii_case("websocket") {
                    return error_response(
                        426,
                        "upgrade_required",
                        "connect with a WebSocket upgrade",
                    );
                }
                let pair = WebSocketPair::new()?;
                self.state.accept_web_socket(&pair.server);
                pair.server.serialize_attachment(&Session {
                    network: Some(id.to_string()),
                    address: None,
                })?;
                Response::from_websocket(pair.client)
            }
            _ => error_response(404, "not_found", &format!("no route for {path}")),
        }
    }

    async fn websocket_message(
        &self,
        ws: WebSocket,
        message: WebSocketIncomingMessage,
    ) -> Result<()> {
        let Some(id) = Self::network_id_of(&ws) else {
            return Ok(());
        };
        if !self.ensure_loaded(&id)? {
            return Ok(());
        }
        let session = Self::session(&ws);
        let session_address: Option<Address> =
            session.address.as_deref().and_then(|a| a.parse().ok());
        let text = match message {
            WebSocketIncomingMessage::String(text) => text,
            WebSocketIncomingMessage::Binary(_) => {
                "binary frames are not event envelopes".to_owned()
            }
        };
        let effects = {
            let mut guard = self.network.borrow_mut();
            let Some(network) = guard.as_mut() else {
                return Ok(());
            };
            network.handle_frame(session_address.as_ref(), &text, now_ms())
        };
        self.apply(Some(&ws), effects)?;
        self.schedule_alarm().await
    }

    async fn websocket_close(
        &self,
        ws: WebSocket,
        code: usize,
        _reason: String,
        _clean: bool,
    ) -> Result<()> {
        self.connection_closed(&ws, code)
    }

    async fn alarm(&self) -> Result<Response> {
        let effects = match self.network.borrow_mut().as_mut() {
            Some(network) => network.on_alarm(now_ms()),
            // Not loaded: nothing is pending in memory, so there is nothing to redeliver.
            None => Vec::new(),
        };
        self.apply(None, effects)?;
        self.schedule_alarm().await?;
        Response::ok("alarm handled")
    }

    async fn websocket_error(&self, ws: WebSocket, _error: worker::Error) -> Result<()> {
        self.connection_closed(&ws, 1011)
    }
}
