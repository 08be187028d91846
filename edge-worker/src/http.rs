//! The HTTP binding of seed 000 §11 and the WebSocket upgrade, inside a network's object.
//!
//! | route | what |
//! |---|---|
//! | `POST /v1/join` `{agent_id, credentials}` | join; answers a bearer session token |
//! | `POST /v1/leave` | leave; ends the session |
//! | `POST /v1/events` (event JSON) | send; answers the ack `{id, seq}` or an error |
//! | `GET /v1/events?after=&limit=` | poll what came after `after` (a seq or an event id) |
//! | `POST /v1/heartbeat` | sign of life |
//! | `GET /v1/discover` | the roster |
//! | `GET /v1/profile` | the network profile with its transports |
//! | `GET /v1/ws` | WebSocket; authenticate by a join frame or `?agent_id=&token=&secret=` |
//!
//! Every request is translated into a core call; errors are `{code, message}`
//! with the HTTP status of [`status_of`].

use crate::host::{error_response, now_ms, random_seed};
use crate::network_object::{Collected, NetworkHost, Origin, Session};
use agentnet_core::client::Client;
use agentnet_core::crypto::{sha256_hex, to_hex};
use agentnet_core::ids::event_type::core_types;
use agentnet_core::{Address, ErrorCode, Event, EventId, Limits, Network, NetworkId};
use serde_json::{Value, json};
use std::cell::RefCell;
use worker::{Method, Request, Response, Result, WebSocketPair};

/// Most events one poll returns.
const MAX_POLL: usize = 200;

/// The HTTP status for an error code.
pub fn status_of(code: ErrorCode) -> u16 {
    match code {
        ErrorCode::NotJoined => 401,
        ErrorCode::AccessDenied
        | ErrorCode::VerificationFailed
        | ErrorCode::Forbidden
        | ErrorCode::SourceMismatch
        | ErrorCode::ReservedType => 403,
        ErrorCode::UnknownTarget | ErrorCode::NotFound => 404,
        ErrorCode::AlreadyExists | ErrorCode::AddressInUse | ErrorCode::OwnerOffline => 409,
        ErrorCode::TooLarge => 413,
        ErrorCode::RateLimited => 429,
        ErrorCode::MethodNotAllowed => 405,
        ErrorCode::UpgradeRequired => 426,
        ErrorCode::NotSupported => 501,
        ErrorCode::Internal => 500,
        ErrorCode::NetworkUnavailable => 503,
        ErrorCode::Timeout => 504,
        _ => 400,
    }
}

pub(crate) fn coded_error(code: ErrorCode, message: &str) -> Result<Response> {
    error_response(status_of(code), code.as_str(), message)
}

/// The error in a `network.event.error` reply, as an HTTP response.
fn error_reply(event: &Event) -> Result<Response> {
    let rejection = agentnet_core::Rejection::from_error_payload(&event.payload);
    coded_error(rejection.code, &rejection.message)
}

fn query_param(req: &Request, key: &str) -> Option<String> {
    crate::host::query_param(req, key)
}

fn bearer(req: &Request) -> Option<String> {
    let header = req.headers().get("Authorization").ok().flatten()?;
    header.strip_prefix("Bearer ").map(|t| t.trim().to_owned())
}

/// Reads the whole body. Every POST body is read before any answer: the
/// runtime faults a request whose body is still unread when its response goes out.
async fn read_body(req: &mut Request) -> std::result::Result<String, Result<Response>> {
    req.text()
        .await
        .map_err(|_| coded_error(ErrorCode::MalformedEvent, "the body is not readable text"))
}

fn json_body(text: &str, limits: &Limits) -> std::result::Result<Value, Result<Response>> {
    if text.len() > limits.max_frame_bytes {
        return Err(coded_error(
            ErrorCode::TooLarge,
            "the body exceeds the network's frame limit",
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        coded_error(
            ErrorCode::MalformedEvent,
            &format!("the body is not JSON: {e}"),
        )
    })
}

/// `/networks/{id}/{rest…}` → (`id`, `rest`).
fn split_path(path: &str) -> Option<(&str, &str)> {
    let rest = path.strip_prefix("/networks/")?;
    Some(rest.split_once('/').unwrap_or((rest, "")))
}

impl NetworkHost {
    fn with_network<T>(&self, f: impl FnOnce(&mut Network) -> T) -> Result<T> {
        let mut guard = self.network.borrow_mut();
        let network = guard
            .as_mut()
            .ok_or_else(|| worker::Error::RustError("network not loaded".into()))?;
        Ok(f(network))
    }

    /// Runs one event through the network as `session`, collecting the replies.
    fn submit(&self, session: Option<&Address>, event: Event) -> Result<Collected> {
        let collected = RefCell::new(Collected::default());
        let effects = self.with_network(|n| n.handle_event(session, event, now_ms()))?;
        self.apply(&Origin::Collect(&collected), effects)?;
        Ok(collected.into_inner())
    }

    fn authenticated(
        &self,
        req: &Request,
    ) -> Result<std::result::Result<Address, Result<Response>>> {
        let Some(token) = bearer(req).or_else(|| query_param(req, "session")) else {
            return Ok(Err(coded_error(
                ErrorCode::NotJoined,
                "send Authorization: Bearer <session token> from /v1/join",
            )));
        };
        match self.store()?.session(&sha256_hex(token.as_bytes()))? {
            Some(address) => match address.parse() {
                Ok(address) => Ok(Ok(address)),
                Err(_) => Ok(Err(coded_error(
                    ErrorCode::NotJoined,
                    "the session is damaged; join again",
                ))),
            },
            None => Ok(Err(coded_error(
                ErrorCode::NotJoined,
                "unknown or ended session; join again",
            ))),
        }
    }

    fn client_for(&self, address: &Address) -> Result<Client> {
        let id = self.with_network(|n| n.id().clone())?;
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&random_seed());
        Ok(Client::new(address.clone(), id, seed))
    }

    fn transports(&self, req: &Request, id: &NetworkId) -> Value {
        let origin = crate::host::origin(req);
        let ws_origin = origin
            .replacen("https://", "wss://", 1)
            .replacen("http://", "ws://", 1);
        json!([
            {"type": "http", "endpoint": format!("{origin}/networks/{id}")},
                        {"type": "websocket", "endpoint": format!("{ws_origin}/networks/{id}/v1/ws")},
            {"type": "sse", "endpoint": format!("{origin}/networks/{id}/v1/sse")},
        ])
    }

    /// Routes a request that reached this network's object.
    pub(crate) async fn route(&self, mut req: Request) -> Result<Response> {
        let path = req.path();
        let body = if req.method() == Method::Post {
            match read_body(&mut req).await {
                Ok(body) => body,
                Err(response) => return response,
            }
        } else {
            String::new()
        };
        if path == "/__create" && req.method() == Method::Post {
            return self.create(&req, &body);
        }
        let Some((id, rest)) = split_path(&path) else {
            return coded_error(ErrorCode::NotFound, "unknown path");
        };
        let id: NetworkId = match id.parse() {
            Ok(id) => id,
            Err(err) => return error_response(400, "invalid_network_id", &err.to_string()),
        };
        if !self.ensure_loaded(&id)? {
            return coded_error(ErrorCode::NotFound, &format!("network {id} does not exist"));
        }
        let rest = rest.trim_end_matches('/').to_owned();
        match (req.method(), rest.as_str()) {
            (_, "v1/ws") => self.upgrade(&req, &id),
            (Method::Get, "v1/profile" | "") => {
                let transports = self.transports(&req, &id);
                Response::from_json(&self.with_network(|n| n.profile(transports))?)
            }
            (Method::Get, "v1/discover") => match self.authenticated(&req)? {
                Ok(_) => Response::from_json(&self.with_network(|n| n.state().roster(&n.mods()))?),
                Err(response) => response,
            },
            (Method::Post, "v1/join") => self.join(&body),
            (Method::Post, "v1/__test/fail-next-batch") if self.test_hooks => {
                // Proves in tests that a failed log batch is written row by row.
                self.store()?.fail_next_batch();
                Response::ok("the next log batch will fail")
            }
            (Method::Post, "v1/__test/panic") if self.test_hooks => {
                // Proves in tests that a wasm panic does not brick the object.
                #[allow(clippy::panic)]
                {
                    panic!("test hook: deliberate panic")
                }
            }
            (Method::Get, "v1/sse") => match self.authenticated(&req)? {
                Ok(address) => {
                    let resume = req
                        .headers()
                        .get("Last-Event-ID")?
                        .or_else(|| query_param(&req, "after"))
                        .and_then(|a| a.trim().parse::<u64>().ok());
                    let after = match resume {
                        Some(after) => after,
                        None => self.with_network(|n| n.cursor(&address))?,
                    };
                    self.open_sse(address, after)
                }
                Err(response) => response,
            },
            (Method::Post, "v1/leave") => self.leave(&req),
            (Method::Post, "v1/events") => self.send_event(&req, &body),
            (Method::Get, "v1/events") => self.poll(&req),
            (Method::Post, "v1/heartbeat") => match self.authenticated(&req)? {
                Ok(address) => {
                    let effects = self.with_network(|n| n.heartbeat(&address, now_ms()))?;
                    self.apply(&Origin::Nowhere, effects)?;
                    Response::from_json(&json!({"ok": true, "address": address}))
                }
                Err(response) => response,
            },
            (
                _,
                "v1/profile" | "v1/discover" | "v1/join" | "v1/leave" | "v1/events"
                | "v1/heartbeat",
            ) => error_response(
                405,
                "method_not_allowed",
                &format!("{} is not allowed on {rest}", req.method()),
            ),
            _ => coded_error(ErrorCode::NotFound, &format!("no route for {path}")),
        }
    }

    fn create(&self, req: &Request, body: &str) -> Result<Response> {
        let body: Value = match json_body(body, &Limits::default()) {
            Ok(v) => v,
            Err(response) => return response,
        };
        let config = match crate::create::config_from_request(&body) {
            Ok(config) => config,
            Err(message) => return coded_error(ErrorCode::InvalidRequest, &message),
        };
        let store = self.store()?;
        if store.config()?.is_some() {
            return coded_error(
                ErrorCode::AlreadyExists,
                &format!("network {} exists", config.0.id),
            );
        }
        let (mut config, admin_token) = config;
        config.access.admin_token_sha256 = Some(sha256_hex(admin_token.as_bytes()));
        store.save_config(&config)?;
        let id = config.id.clone();
        self.ensure_loaded(&id)?;
        let transports = self.transports(req, &id);
        let profile = self.with_network(|n| n.profile(transports))?;
        Ok(
            Response::from_json(
                &json!({"id": id, "profile": profile, "admin_token": admin_token}),
            )?
            .with_status(201),
        )
    }

    fn join(&self, body: &str) -> Result<Response> {
        let body = match json_body(body, &Limits::default()) {
            Ok(v) => v,
            Err(response) => return response,
        };
        let Some(agent) = body.get("agent_id").and_then(Value::as_str) else {
            return coded_error(ErrorCode::InvalidRequest, "agent_id is required");
        };
        let address: Address = match agent.parse() {
            Ok(a) => a,
            Err(e) => return coded_error(ErrorCode::InvalidAddress, &format!("agent_id: {e}")),
        };
        let credentials = body.get("credentials").cloned().filter(|c| !c.is_null());
        let mut join = self.client_for(&address)?.join(credentials, now_ms());
        if let (Some(role), Value::Object(payload)) = (body.get("role").cloned(), &mut join.payload)
        {
            payload.insert("role".into(), role);
        }
        if let (Some(after), Value::Object(payload)) = (
            body.get("resume_after").and_then(Value::as_u64),
            &mut join.payload,
        ) {
            payload.insert("resume".into(), json!({"after": after}));
        }
        let collected = self.submit(None, join)?;
        let reply = collected.replies.last().cloned();
        match (collected.bound, reply) {
            (Some(address), Some(ack)) => {
                let token = to_hex(&random_seed());
                self.store()?.add_session(
                    &sha256_hex(token.as_bytes()),
                    &address.to_string(),
                    now_ms(),
                )?;
                let mut answer = ack.payload.clone();
                answer["token"] = json!(token);
                Response::from_json(&answer)
            }
            (_, Some(error)) if error.event_type.as_str() == core_types::EVENT_ERROR => {
                error_reply(&error)
            }
            _ => coded_error(
                ErrorCode::AccessDenied,
                "the network did not accept the join",
            ),
        }
    }

    fn leave(&self, req: &Request) -> Result<Response> {
        let address = match self.authenticated(req)? {
            Ok(a) => a,
            Err(response) => return response,
        };
        let leave = self.client_for(&address)?.event(
            core_types::AGENT_LEAVE
                .parse()
                .map_err(|_| worker::Error::RustError("type".into()))?,
            Address::core(),
            json!({}),
            now_ms(),
        );
        self.submit(Some(&address), leave)?;
        self.store()?.end_sessions(&address.to_string())?;
        Response::from_json(&json!({"ok": true}))
    }

    fn send_event(&self, req: &Request, body: &str) -> Result<Response> {
        let address = match self.authenticated(req)? {
            Ok(a) => a,
            Err(response) => return response,
        };
        let limits = self.with_network(|n| n.config().limits)?;
        let mut body = match json_body(body, &limits) {
            Ok(v) => v,
            Err(response) => return response,
        };
        // Fill what a plain HTTP client may leave out; everything it does send is validated.
        if let Value::Object(object) = &mut body {
            let mut client = self.client_for(&address)?;
            let fresh = client.event(
                core_types::PING
                    .parse()
                    .map_err(|_| worker::Error::RustError("type".into()))?,
                Address::core(),
                json!({}),
                now_ms(),
            );
            object.entry("id").or_insert_with(|| json!(fresh.id));
            object
                .entry("timestamp")
                .or_insert_with(|| json!(fresh.timestamp));
            object.entry("source").or_insert_with(|| json!(address));
        }
        let event = match Event::from_value(body, &limits) {
            Ok(event) => event,
            Err(err) => return coded_error(agentnet_core::Coded::code(&err), &err.to_string()),
        };
        let collected = self.submit(Some(&address), event)?;
        let reply = collected
            .replies
            .last()
            .cloned()
            .or_else(|| collected.delivered.last().cloned());
        match reply {
            Some(event) if event.event_type.as_str() == core_types::EVENT_ERROR => {
                error_reply(&event)
            }
            Some(event) if event.event_type.as_str() == core_types::EVENT_ACK => {
                Response::from_json(&event.payload)
            }
            // Answers such as pong, discovery or history come back as the event itself.
            Some(event) => Response::from_json(&event),
            None => Response::from_json(&json!({"ok": true})),
        }
    }

    fn poll(&self, req: &Request) -> Result<Response> {
        let address = match self.authenticated(req)? {
            Ok(a) => a,
            Err(response) => return response,
        };
        let store = self.store()?;
        let after = match query_param(req, "after") {
            None => self.with_network(|n| n.cursor(&address))?,
            Some(text) => match text.parse::<u64>() {
                Ok(seq) => seq,
                Err(_) => match text.parse::<EventId>() {
                    Ok(id) => match store.seq_of(&id.to_string())? {
                        Some(seq) => seq,
                        None => {
                            return coded_error(
                                ErrorCode::NotFound,
                                &format!("no logged event {id}"),
                            );
                        }
                    },
                    Err(_) => {
                        return coded_error(
                            ErrorCode::InvalidRequest,
                            "after is a seq number or an event id",
                        );
                    }
                },
            },
        };
        let limit = query_param(req, "limit")
            .and_then(|l| l.parse::<usize>().ok())
            .unwrap_or(50)
            .clamp(1, MAX_POLL);
        let effects = match self.with_network(|n| n.read_page(&address, after, limit, now_ms()))? {
            Ok(effects) => effects,
            Err(rejection) => return coded_error(rejection.code, &rejection.message),
        };
        let collected = RefCell::new(Collected::default());
        self.apply(&Origin::Collect(&collected), effects)?;
        match collected.into_inner().page {
            Some(page) => Response::from_json(&json!({
                "events": page.to_json()["events"],
                "next_after": page.next_after,
            })),
            None => coded_error(ErrorCode::Internal, "the poll read no page"),
        }
    }

    fn upgrade(&self, req: &Request, id: &NetworkId) -> Result<Response> {
        let upgrade = req.headers().get("Upgrade")?.unwrap_or_default();
        if !upgrade.eq_ignore_ascii_case("websocket") {
            return error_response(426, "upgrade_required", "connect with a WebSocket upgrade");
        }
        // Browsers cannot set headers: authentication may come in the query.
        let mut address = None;
        if let Some(agent) = query_param(req, "agent_id") {
            let claimed: Address = match agent.parse() {
                Ok(a) => a,
                Err(e) => return coded_error(ErrorCode::InvalidAddress, &format!("agent_id: {e}")),
            };
            let mut credentials = serde_json::Map::new();
            for (param, key) in [("token", "token"), ("secret", "member_secret")] {
                if let Some(value) = query_param(req, param) {
                    credentials.insert(key.into(), json!(value));
                }
            }
            let credentials = (!credentials.is_empty()).then_some(Value::Object(credentials));
            let mut join = self.client_for(&claimed)?.join(credentials, now_ms());
            if let (Some(after), Value::Object(payload)) = (
                query_param(req, "after").and_then(|a| a.parse::<u64>().ok()),
                &mut join.payload,
            ) {
                payload.insert("resume".into(), json!({"after": after}));
            }
            let collected = RefCell::new(Collected::default());
            let effects = self.with_network(|n| n.handle_event(None, join, now_ms()))?;
            // Catch-up deliveries need the socket, so they are applied once it is accepted.
            let (now, later): (Vec<_>, Vec<_>) = effects
                .into_iter()
                .partition(|e| !matches!(e, agentnet_core::network::Effect::Read(_)));
            self.apply(&Origin::Collect(&collected), now)?;
            let collected = collected.into_inner();
            match collected.bound {
                Some(bound) => {
                    address = Some((bound, later));
                }
                None => {
                    return match collected.replies.last() {
                        Some(error) => error_reply(error),
                        None => coded_error(
                            ErrorCode::AccessDenied,
                            "the network did not accept the join",
                        ),
                    };
                }
            }
        }
        let pair = WebSocketPair::new()?;
        self.state.accept_web_socket(&pair.server);
        self.sockets_changed();
        pair.server.serialize_attachment(&Session {
            network: Some(id.to_string()),
            address: address.as_ref().map(|(a, _)| a.to_string()),
        })?;
        if let Some((_, backlog)) = address {
            self.apply(&Origin::Socket(&pair.server), backlog)?;
        }
        Response::from_websocket(pair.client)
    }
}
