//! The HTTP binding of ONM §11, inside one network.
//!
//! Its parts, in this folder: [`membership`] (join and leave), [`admin`]
//! (`v1/admin/…`), [`send`] (one event sent for a caller), [`files`] (files
//! of real size) and [`webpush`] (Web Push subscriptions).
//!
//! | route | what |
//! |---|---|
//! | `POST /v1/join` `{agent_id, credentials?, role?, resume_after?}` | join; answers the ack with a bearer session `token` ([`membership`]) |
//! | `POST /v1/leave` | leave; ends the member's sessions, sockets and streams |
//! | `POST /v1/ticket` | a ticket for `v1/ws` or `v1/sse`, good once ([`crate::bindings::access::session`]) |
//! | `POST /v1/events` (event JSON) | send; answers the ack `{id, seq}` or an error |
//! | `GET /v1/events?after=&limit=` | poll what came after `after` (a seq or an event id) |
//! | `POST /v1/heartbeat` | sign of life |
//! | `GET /v1/discover` | the roster |
//! | `GET /v1/profile` (or the network's root) | the network profile with its transports |
//! | `GET /v1/sse` | Server-Sent Events ([`crate::bindings::transport::sse`]) |
//! | `GET /v1/ws` | WebSocket ([`crate::bindings::transport::ws`]) |
//! | `/mcp` | MCP Streamable HTTP ([`super::mcp`]; the edge routes it there) |
//! | `/oauth/{authorize,token,register}` | the network's OAuth authorization server ([`super::oauth`]; likewise) |
//!
//! Paths are under `/networks/{id}/`. Every route but join, the profile and
//! the WebSocket takes its session from `Authorization: Bearer`; a token in
//! the URL is refused there ([`crate::bindings::access::session`]). Errors are `{code, message}` with the
//! status of [`status_of`](super::status_of); a known path with another
//! method is `method_not_allowed` (405), an unknown one `not_found`.

pub mod admin;
pub mod files;
pub mod membership;
pub mod send;
pub mod webpush;

use super::exchange::{Answer, BindingHost, json_body, rejected};
use super::message::{Request, Response};
use super::step::{Step, go_on};
use crate::bindings::access::caller::{Caller, Origins};
use crate::bindings::access::session::{self, QueryTokens, authenticate};
use crate::bindings::transport::sockets::{Close, Sockets};
use crate::bindings::transport::sse;
use crate::bindings::transport::ws;
use crate::model::payloads::{Transport, json_of};
use crate::network::Page;
use crate::{Address, ErrorCode, EventId, Network, NetworkId};
pub use send::{fill_event, send_response};
use serde_json::{Value, json};

/// Events a poll returns unless it asks for another number.
pub const DEFAULT_POLL: usize = 50;
/// Most events one poll returns.
pub const MAX_POLL: usize = 200;
pub use super::route::CREATE_PATH;
pub use super::route::{ApiRoute, TestHook};

/// The answer for a network that does not exist.
pub fn no_such_network(id: &NetworkId) -> Response {
    Response::error(ErrorCode::NotFound, format!("network {id} does not exist"))
}

/// The answer for a path that names nothing in the network's object.
pub fn unknown_path() -> Response {
    Response::error(ErrorCode::NotFound, "unknown path")
}

/// The close for an upgrade the network has no room for, before it is decided
/// (a join at upgrade must not happen for a socket that is then refused).
pub fn refusal(sockets: &Sockets, req: &Request, route: &ApiRoute) -> Option<Close> {
    let upgrade = *route == ApiRoute::WebSocket && ws::is_upgrade(req);
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

/// Answers a request for the loaded `network` to its HTTP API (`route`, read by
/// [`super::route`]), within the trace context its `traceparent` header
/// carries. A [`TestHook`] route is `not_found` unless `test_hooks`.
pub fn handle<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    route: &ApiRoute,
    test_hooks: bool,
) -> Result<Outcome, H::Error> {
    network.traced(req.trace_context(), |network| {
        match route {
            ApiRoute::Profile => return Ok(Response::json(profile(network, req.origin())).into()),
            ApiRoute::Join => {
                let peer = ws::peer_of(req);
                return Ok(membership::join(host, network, req, peer)?.into());
            }
            ApiRoute::Test(hook) if test_hooks => return Ok(Outcome::Test(*hook)),
            ApiRoute::Test(_) | ApiRoute::Unknown => {
                let message = format!("no route for {}", req.path());
                return Ok(Response::error(ErrorCode::NotFound, message).into());
            }
            ApiRoute::WrongMethod(tail) => {
                let message = format!("{} is not allowed on {tail}", req.method);
                return Ok(Response::error(ErrorCode::MethodNotAllowed, message).into());
            }
            ApiRoute::RejectInvitation => return Ok(admin::reject(host, network, req)?.into()),
            ApiRoute::ShowInvitation => {
                return Ok(admin::show(network, req, host.now()).into());
            }
            ApiRoute::WebSocket => {
                return Ok(match ws::upgrade(host, network, req)? {
                    Step::Go(upgrade) => Outcome::Upgrade(upgrade),
                    Step::Answer(response) => response.into(),
                });
            }
            _ => {}
        }
        // A DIDWba header in place of a bearer joins its DID; the answer carries the session.
        let caller = go_on!(Caller::resolve(host, network, req, Origins::Unchecked));
        Ok(
            match member_request(host, network, caller.request(), route)? {
                Outcome::Respond(response) => caller.answer(response).into(),
                other => other,
            },
        )
    })
}

/// [`handle`]'s routes that a member's session takes.
fn member_request<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    route: &ApiRoute,
) -> Result<Outcome, H::Error> {
    let peer = ws::peer_of(req);
    let member = match route {
        ApiRoute::Sse => go_on!(authenticate(host, req, QueryTokens::Allowed)),
        _ => go_on!(authenticate(host, req, QueryTokens::Refused)),
    };
    let response = match route {
        ApiRoute::Discover => Response::json(network.state().roster(&network.mods(), &member)),
        ApiRoute::Sse => {
            return Ok(
                match sse::open(host, network, member, sse::resume_point(req))? {
                    Step::Go(stream) => Outcome::Stream(stream),
                    Step::Answer(response) => response.into(),
                },
            );
        }
        ApiRoute::Leave => membership::leave(host, network, member, peer)?,
        ApiRoute::Ticket => session::issue_ticket(host, &member)?,
        ApiRoute::Send => send(host, network, member, &req.body, peer)?,
        ApiRoute::Poll => poll(host, network, member, req)?,
        ApiRoute::Analytics => admin::analytics(network, &member),
        ApiRoute::Admin(action) => admin::handle(host, network, member, req, action, peer)?,
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
        Ok(body) => send::send_value(host, network, member, body, peer),
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
