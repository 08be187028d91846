//! The HTTP binding of ONM §11, inside one network.
//!
//! | route | what |
//! |---|---|
//! | `POST /v1/join` `{agent_id, credentials?, role?, resume_after?}` | join; answers the ack with a bearer session `token` ([`super::membership`]) |
//! | `POST /v1/leave` | leave; ends the member's sessions, sockets and streams |
//! | `POST /v1/ticket` | a ticket for `v1/ws` or `v1/sse`, good once ([`super::session`]) |
//! | `POST /v1/events` (event JSON) | send; answers the ack `{id, seq}` or an error |
//! | `GET /v1/events?after=&limit=` | poll what came after `after` (a seq or an event id) |
//! | `POST /v1/heartbeat` | sign of life |
//! | `GET /v1/discover` | the roster |
//! | `GET /v1/profile` (or the network's root) | the network profile with its transports |
//! | `GET /v1/sse` | Server-Sent Events ([`super::sse`]) |
//! | `GET /v1/ws` | WebSocket ([`super::ws`]) |
//! | `/mcp` | MCP Streamable HTTP ([`super::mcp`]; the edge routes it there) |
//! | `/oauth/{authorize,token,register}` | the network's OAuth authorization server ([`super::oauth`]; likewise) |
//!
//! Paths are under `/networks/{id}/`. Every route but join, the profile and
//! the WebSocket takes its session from `Authorization: Bearer`; a token in
//! the URL is refused there ([`super::session`]). Errors are `{code, message}` with the
//! status of [`status_of`](super::status_of); a known path with another
//! method is `method_not_allowed` (405), an unknown one `not_found`.

use super::exchange::{Answer, BindingHost, json_body, rejected};
use super::membership;
use super::message::{Method, Request, Response};
pub use super::send::{fill_event, send_response};
use super::session::{self, QueryTokens, authenticate};
use super::sockets::{Close, Sockets};
use super::sse;
use super::ws;
use crate::model::payloads::{Transport, json_of};
use crate::network::Page;
use crate::{Address, ErrorCode, EventId, Network, NetworkId};
use serde_json::{Value, json};

/// Events a poll returns unless it asks for another number.
pub const DEFAULT_POLL: usize = 50;
/// Most events one poll returns.
pub const MAX_POLL: usize = 200;
/// The path the Worker creates a network at, inside the network's own object.
pub const CREATE_PATH: &str = "/__create";

/// Which object-level request this is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// `POST /__create`: the Worker asks the object to create its network ([`super::create`]).
    Create,
    /// A request under `/networks/{id}/`.
    Network(NetworkId),
}

/// Reads which network a request is for.
pub fn target(req: &Request) -> Answer<Target> {
    let path = req.path();
    if path == CREATE_PATH && req.method == Method::Post {
        return Ok(Target::Create);
    }
    let Some(rest) = path.strip_prefix("/networks/") else {
        return Err(Response::error(ErrorCode::NotFound, "unknown path"));
    };
    let id = rest.split_once('/').map_or(rest, |(id, _)| id);
    id.parse()
        .map(Target::Network)
        .map_err(|err: crate::ids::network_id::NetworkIdError| {
            Response::error(ErrorCode::InvalidNetworkId, err.to_string())
        })
}

/// The answer for a network that does not exist.
pub fn no_such_network(id: &NetworkId) -> Response {
    Response::error(ErrorCode::NotFound, format!("network {id} does not exist"))
}

/// A route that only exists with test hooks on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TestHook {
    /// `POST v1/__test/fail-next-batch`: the next log batch fails (it is then written row by row).
    FailNextBatch,
    /// `POST v1/__test/panic`: the object panics (it must not stay bricked).
    Panic,
    /// `POST v1/__test/restart-sequencer`: the network object behaves as a
    /// new instance towards its gateways (a new epoch; they close their sockets).
    RestartSequencer,
    /// `POST v1/__test/restart-gateways`: every gateway loses its sockets and
    /// starts afresh, as after a crash.
    RestartGateways,
    /// `POST v1/__test/reset-gateways`: every gateway loses its sockets and
    /// its memory without telling the network, as when the platform resets it.
    ResetGateways,
    /// `GET v1/__test/counters`: what the object has sent (WebSocket
    /// messages, requests to gateways), for benchmarks.
    Counters,
}

/// What a request under `/networks/{id}/` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `GET v1/profile` or the root.
    Profile,
    /// `GET v1/discover`.
    Discover,
    /// `POST v1/join`.
    Join,
    /// `POST v1/leave`.
    Leave,
    /// `POST v1/ticket`.
    Ticket,
    /// `POST v1/events`.
    Send,
    /// `GET v1/events`.
    Poll,
    /// `POST v1/heartbeat`.
    Heartbeat,
    /// `GET v1/sse`.
    Sse,
    /// `v1/ws`, any method.
    WebSocket,
    /// `v1/admin/…` ([`super::admin`]).
    Admin,
    /// `POST v1/invitations/reject` `{code}`: the code's holder declines it, unjoined.
    RejectInvitation,
    /// `POST v1/invitations/show` `{code}`: what the code's holder is invited to, unjoined.
    ShowInvitation,
    /// `GET v1/analytics`.
    Analytics,
    /// A test-only route.
    Test(TestHook),
}

/// The routing table.
pub fn route(req: &Request, test_hooks: bool) -> Answer<Route> {
    let path = req.path();
    let rest = path
        .strip_prefix("/networks/")
        .and_then(|r| r.split_once('/'))
        .map_or("", |(_, rest)| rest)
        .trim_end_matches('/');
    Ok(match (&req.method, rest) {
        (_, "v1/ws") => Route::WebSocket,
        (Method::Get, "v1/profile" | "") => Route::Profile,
        (Method::Get, "v1/discover") => Route::Discover,
        (Method::Post, "v1/join") => Route::Join,
        (Method::Post, "v1/__test/fail-next-batch") if test_hooks => {
            Route::Test(TestHook::FailNextBatch)
        }
        (Method::Post, "v1/__test/panic") if test_hooks => Route::Test(TestHook::Panic),
        (Method::Post, "v1/__test/restart-sequencer") if test_hooks => {
            Route::Test(TestHook::RestartSequencer)
        }
        (Method::Get, "v1/__test/counters") if test_hooks => Route::Test(TestHook::Counters),
        (Method::Post, "v1/__test/restart-gateways") if test_hooks => {
            Route::Test(TestHook::RestartGateways)
        }
        (Method::Post, "v1/__test/reset-gateways") if test_hooks => {
            Route::Test(TestHook::ResetGateways)
        }
        (Method::Get, "v1/sse") => Route::Sse,
        (Method::Post, "v1/leave") => Route::Leave,
        (Method::Post, "v1/ticket") => Route::Ticket,
        (Method::Post, "v1/events") => Route::Send,
        (Method::Get, "v1/events") => Route::Poll,
        (Method::Post, "v1/heartbeat") => Route::Heartbeat,
        (Method::Get, "v1/analytics") => Route::Analytics,
        (Method::Post, "v1/invitations/reject") => Route::RejectInvitation,
        (Method::Post, "v1/invitations/show") => Route::ShowInvitation,
        (_, admin) if admin.starts_with("v1/admin/") => Route::Admin,
        (
            method,
            "v1/profile" | "v1/discover" | "v1/join" | "v1/leave" | "v1/ticket" | "v1/events"
            | "v1/heartbeat" | "v1/analytics",
        ) => {
            return Err(Response::error(
                ErrorCode::MethodNotAllowed,
                format!("{method} is not allowed on {rest}"),
            ));
        }
        _ => {
            return Err(Response::error(
                ErrorCode::NotFound,
                format!("no route for {path}"),
            ));
        }
    })
}

/// The close for an upgrade the network has no room for, before it is decided
/// (a join at upgrade must not happen for a socket that is then refused).
pub fn refusal(sockets: &Sockets, req: &Request, test_hooks: bool) -> Option<Close> {
    let upgrade = matches!(route(req, test_hooks), Ok(Route::WebSocket)) && ws::is_upgrade(req);
    if !upgrade {
        return None;
    }
    sockets
        .admits(ws::peer_of(req).as_deref(), ws::binds_at_upgrade(req))
        .err()
}

/// What the host does to answer a request.
#[derive(Debug)]
pub enum Outcome {
    /// Write this response.
    Respond(Response),
    /// Open an SSE stream ([`sse::HEADERS`]) that starts with these records.
    Stream(sse::Stream),
    /// Accept a WebSocket.
    Upgrade(ws::Upgrade),
    /// Do what the test hook says.
    Test(TestHook),
}

impl From<Response> for Outcome {
    fn from(response: Response) -> Self {
        Outcome::Respond(response)
    }
}

/// The transports a network's profile lists, as reached from `origin`.
pub fn transports(origin: &str, id: &NetworkId) -> Vec<Transport> {
    let ws_origin = origin
        .replacen("https://", "wss://", 1)
        .replacen("http://", "ws://", 1);
    [
        ("http", format!("{origin}/networks/{id}")),
        ("websocket", format!("{ws_origin}/networks/{id}/v1/ws")),
        ("sse", format!("{origin}/networks/{id}/v1/sse")),
        ("mcp", format!("{origin}/networks/{id}/mcp")),
    ]
    .into_iter()
    .map(|(kind, endpoint)| Transport {
        endpoint,
        kind: kind.to_owned(),
    })
    .collect()
}

/// The network's profile as reached from `origin`.
pub fn profile(network: &Network, origin: &str) -> Value {
    json_of(&network.network_profile(transports(origin, network.id())))
}

/// Answers a request for the loaded `network` (after [`target`]), within
/// the trace context its `traceparent` header carries.
pub fn handle<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    test_hooks: bool,
) -> Result<Outcome, H::Error> {
    network.traced(req.trace_context(), |network| {
        serve(host, network, req, test_hooks)
    })
}

fn serve<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    test_hooks: bool,
) -> Result<Outcome, H::Error> {
    let route = match route(req, test_hooks) {
        Ok(route) => route,
        Err(response) => return Ok(response.into()),
    };
    match route {
        Route::Profile => return Ok(Response::json(profile(network, req.origin())).into()),
        Route::Join => {
            let peer = ws::peer_of(req);
            return Ok(membership::join(host, network, req, peer)?.into());
        }
        Route::Test(hook) => return Ok(Outcome::Test(hook)),
        Route::RejectInvitation => return Ok(super::admin::reject(host, network, req)?.into()),
        Route::ShowInvitation => {
            return Ok(super::admin::show(network, req, host.now()).into());
        }
        Route::WebSocket => {
            return Ok(match ws::upgrade(host, network, req)? {
                Ok(upgrade) => Outcome::Upgrade(upgrade),
                Err(response) => response.into(),
            });
        }
        _ => {}
    }
    // A DIDWba header in place of a bearer joins its DID; the answer carries the session.
    match super::didwba::exchange(host, network, req)? {
        Err(refused) => Ok(refused.into()),
        Ok(None) => member_request(host, network, req, route),
        Ok(Some((req, token))) => Ok(match member_request(host, network, &req, route)? {
            Outcome::Respond(response) => super::didwba::with_bearer(response, &token).into(),
            other => other,
        }),
    }
}

/// [`handle`]'s routes that a member's session takes.
fn member_request<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    route: Route,
) -> Result<Outcome, H::Error> {
    let peer = ws::peer_of(req);
    let member = match route {
        Route::Sse => match authenticate(host, req, QueryTokens::Allowed)? {
            Ok(member) => member,
            Err(response) => return Ok(response.into()),
        },
        _ => match authenticate(host, req, QueryTokens::Refused)? {
            Ok(member) => member,
            Err(response) => return Ok(response.into()),
        },
    };
    let response = match route {
        Route::Discover => Response::json(network.state().roster(&network.mods(), &member)),
        Route::Sse => {
            return Ok(
                match sse::open(host, network, member, sse::resume_point(req))? {
                    Ok(stream) => Outcome::Stream(stream),
                    Err(response) => response.into(),
                },
            );
        }
        Route::Leave => membership::leave(host, network, member, peer)?,
        Route::Ticket => session::issue_ticket(host, &member)?,
        Route::Send => send(host, network, member, &req.body, peer)?,
        Route::Poll => poll(host, network, member, req)?,
        Route::Analytics => super::admin::analytics(network, &member),
        Route::Admin => super::admin::handle(host, network, member, req, peer)?,
        _ => {
            let effects = network.heartbeat(&member, host.now());
            host.apply(network, effects)?;
            Response::json(json!({"ok": true, "address": member}))
        }
    };
    Ok(response.into())
}

fn send<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    text: &str,
    peer: Option<String>,
) -> Result<Response, H::Error> {
    match json_body(text, &network.config().limits) {
        Ok(body) => super::send::send_value(host, network, member, body, peer),
        Err(response) => Ok(response),
    }
}

/// Where a poll starts, as `?after=` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum After {
    /// No `after`: the member's cursor.
    Cursor,
    /// After this `seq`.
    Seq(u64),
    /// After this logged event (the host looks up its `seq`).
    Event(EventId),
}

/// Reads `?after=`: a seq number or an event id.
pub fn parse_after(text: Option<&str>) -> Answer<After> {
    let Some(text) = text else {
        return Ok(After::Cursor);
    };
    if let Ok(seq) = text.parse::<u64>() {
        return Ok(After::Seq(seq));
    }
    text.parse::<EventId>().map(After::Event).map_err(|_| {
        Response::error(
            ErrorCode::InvalidRequest,
            "after is a seq number or an event id",
        )
    })
}

/// Reads `?limit=`: [`DEFAULT_POLL`] unless a number, at most [`MAX_POLL`].
pub fn parse_limit(text: Option<&str>) -> usize {
    text.and_then(|l| l.parse::<usize>().ok())
        .unwrap_or(DEFAULT_POLL)
        .clamp(1, MAX_POLL)
}

/// A page as a poll answers it: `{events: [{seq, event}], next_after}`.
pub fn page_response(page: &Page) -> Response {
    Response::json(json!({
        "events": page.to_json()["events"],
        "next_after": page.next_after,
    }))
}

fn poll<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    req: &Request,
) -> Result<Response, H::Error> {
    let after = match parse_after(req.query("after").as_deref()) {
        Ok(After::Cursor) => network.cursor(&member),
        Ok(After::Seq(seq)) => seq,
        Ok(After::Event(id)) => match host.seq_of(&id)? {
            Some(seq) => seq,
            None => {
                let message = format!("no logged event {id}");
                return Ok(Response::error(ErrorCode::NotFound, message));
            }
        },
        Err(response) => return Ok(response),
    };
    let limit = parse_limit(req.query("limit").as_deref());
    let effects = match network.read_page(&member, after, limit, host.now()) {
        Ok(effects) => effects,
        Err(rejection) => return Ok(rejected(&rejection)),
    };
    Ok(match host.collect(network, effects, Some(&member))?.page {
        Some(page) => page_response(&page),
        None => Response::error(ErrorCode::Internal, "the poll read no page"),
    })
}
