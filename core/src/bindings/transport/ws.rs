//! The WebSocket binding: `GET /networks/{id}/v1/ws`, and its frames.
//!
//! Only an `Upgrade: websocket` request is taken (anything else is
//! `upgrade_required`, 426). Browsers cannot set headers, so the upgrade may
//! authenticate in its URL: `?ticket=` (from `POST v1/ticket`, good once;
//! preferred) or `?session=` binds the socket to that member; `?agent_id=&token=&secret=&after=`
//! joins at the upgrade. Otherwise it joins with its first frame, within
//! [`Policy::join_deadline_ms`](crate::bindings::access::policy::Policy), and may say as whom
//! with `?member=` ([`placement_hint`]: on a network with connection gateways
//! the socket is then held by that member's gateway). A socket the network
//! has no room for is accepted and closed at once ([`crate::bindings::http::refusal`]), as browsers
//! see only close codes. A join's catch-up reads need the socket, so they
//! wait in [`Upgrade::after_accept`] until the host has accepted it.
//!
//! Each frame goes through [`frame`]: a socket that sends too many frames
//! that are no events (or, unjoined, anything but a join or a challenge) is
//! closed ([`Sockets::bad_frame`]); failed joins and challenges are
//! throttled by the network per source ([`crate::network::Inbound`]).

use super::sockets::{Close, SocketRecord, Sockets};
use crate::bindings::access::didwba;
use crate::bindings::access::session::{QueryTokens, authenticate};
use crate::bindings::exchange::{BindingHost, claimed_address, join_event, join_refused, rejected};
use crate::bindings::message::{Request, Response};
use crate::bindings::step::{Step, go_on};
use crate::ids::event_type::core_types;
use crate::network::{Effect, Inbound};
use crate::{Address, ErrorCode, Event, Network, Timestamp};
use serde_json::json;

/// With test hooks on, a WebSocket frame of exactly this text panics the object
/// (proves that a panic inside a drain of frames does not brick it).
pub const TEST_PANIC_FRAME: &str = "__test/panic";

/// The longest client IP taken from `CF-Connecting-IP`.
const MAX_PEER_LEN: usize = 64;

/// The code that finishes a closing handshake the peer started with `code`:
/// the same code, unless it is one that cannot be sent (1005, 1006, out of range).
pub fn close_reply(code: usize) -> u16 {
    match u16::try_from(code) {
        Ok(code @ 1000..=4999) if code != 1005 && code != 1006 => code,
        _ => 1000,
    }
}

/// The client's IP as the platform reports it (`CF-Connecting-IP`), when it looks like one.
pub fn peer_of(req: &Request) -> Option<String> {
    let ip = req.header("CF-Connecting-IP")?.trim();
    let plausible = !ip.is_empty()
        && ip.len() <= MAX_PEER_LEN
        && ip
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == '.' || c == ':');
    plausible.then(|| ip.to_owned())
}

/// An accepted upgrade: what the host does once it has the socket.
#[derive(Debug)]
pub struct Upgrade {
    /// The member the socket is bound to, when it joined at the upgrade.
    pub address: Option<Address>,
    /// Effects to apply for the socket once it is accepted (the join's catch-up).
    pub after_accept: Vec<Effect>,
    /// The client's IP, when known.
    pub peer: Option<String>,
    /// The client asked for batched frames (`?frames=batch`, [`wants_batches`]).
    pub batches: bool,
    /// The client asked for a shared socket (`?lanes=1`, [`super::lanes`]):
    /// this upgrade's member (or join) is its lane 0. On a network with
    /// gateways, the gateway of that member holds it (when it names one),
    /// and its lanes may join only as members placed there.
    pub lanes: bool,
    /// For a socket that joins by frame: the address it will join as
    /// (`?member=`, [`placement_hint`]; a shared socket's lane 0), so a
    /// network with gateways can hand it to that member's gateway at once.
    pub placement: Option<Address>,
}

/// True when the upgrade asks for batched frames (`?frames=batch`): the
/// network then sends this socket JSON arrays of events
/// (`crate::event::batch`), one frame per burst. Without it each frame is one
/// event, as older clients expect. Batches are accepted from every socket.
pub fn wants_batches(req: &Request) -> bool {
    req.query("frames").as_deref() == Some("batch")
}

/// The address an upgrade that joins by frame says it will join as
/// (`?member=<address>`): a network with connection gateways hands the socket
/// to that member's gateway, which refuses a join as any address placed
/// elsewhere. `Ok(None)` without the parameter; an invalid address is
/// `invalid_address`.
pub fn placement_hint(req: &Request) -> Result<Option<Address>, Response> {
    let Some(member) = req.query("member") else {
        return Ok(None);
    };
    member.parse::<Address>().map(Some).map_err(|err| {
        Response::error(
            ErrorCode::InvalidAddress,
            format!("?member= is not an address: {err}"),
        )
    })
}

/// The events' texts in one frame from a socket: the elements of a batch, or the frame.
pub fn events_of(text: &str) -> Vec<&str> {
    crate::event::batch::split(text)
}

/// True when the request asks for a WebSocket.
pub fn is_upgrade(req: &Request) -> bool {
    req.header("Upgrade")
        .is_some_and(|u| u.eq_ignore_ascii_case("websocket"))
}

/// True when the upgrade binds its socket to a member as it opens.
pub fn binds_at_upgrade(req: &Request) -> bool {
    ["agent_id", "ticket", "session"]
        .iter()
        .any(|key| req.query(key).is_some())
        || didwba::proof_of(req).is_some()
}

/// Decides an upgrade request; a join, ticket or session in its query is taken now.
pub fn upgrade<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
) -> Result<Step<Upgrade>, H::Error> {
    let batches = wants_batches(req);
    let lanes = super::lanes::wants_lanes(req);
    let hint = match placement_hint(req) {
        Ok(hint) => hint,
        Err(response) => return Ok(Step::Answer(response)),
    };
    Ok(decide_upgrade(host, network, req)?.map(|upgrade| Upgrade {
        batches,
        lanes,
        // Only a socket that is not bound yet needs to say where it belongs
        // (a shared one: where its first member belongs).
        placement: upgrade.address.is_none().then_some(hint).flatten(),
        ..upgrade
    }))
}

fn decide_upgrade<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
) -> Result<Step<Upgrade>, H::Error> {
    if !is_upgrade(req) {
        return Ok(Step::Answer(Response::error(
            ErrorCode::UpgradeRequired,
            "connect with a WebSocket upgrade",
        )));
    }
    let peer = peer_of(req);
    let after = req.query("after").and_then(|a| a.parse::<u64>().ok());
    if req.query("ticket").is_some() || req.query("session").is_some() {
        let member = go_on!(authenticate(host, req, QueryTokens::Allowed), Step::Answer);
        let effects = match network.attach(&member, after, host.now()) {
            Ok(effects) => effects,
            Err(rejection) => return Ok(Step::Answer(rejected(&rejection))),
        };
        return accepted(host, network, effects, peer);
    }
    if let Some(header) = didwba::proof_of(req) {
        return didwba_upgrade(host, network, req, &header, after);
    }
    let Some(agent) = req.query("agent_id") else {
        return Ok(Step::Go(Upgrade {
            address: None,
            after_accept: Vec::new(),
            peer,
            batches: false,
            lanes: false,
            placement: None,
        }));
    };
    let claimed = match claimed_address(&agent) {
        Ok(address) => address,
        Err(response) => return Ok(Step::Answer(response)),
    };
    // Browsers cannot set headers: the credentials of a join at upgrade come in the query.
    let mut credentials = serde_json::Map::new();
    for (param, key) in [("token", "token"), ("secret", "member_secret")] {
        if let Some(value) = req.query(param) {
            credentials.insert(key.into(), json!(value));
        }
    }
    let credentials = (!credentials.is_empty()).then_some(serde_json::Value::Object(credentials));
    let join = join_event(host, network, &claimed, credentials, None, after);
    let inbound = Inbound {
        peer: peer.as_deref(),
        ..Inbound::default()
    };
    let effects = network.handle_event_on(&inbound, join, host.now());
    accepted(host, network, effects, peer)
}

/// An upgrade with a `DIDWba` header (clients that can set headers): the
/// DID joins at level 3 — as the query's `agent_id`, else as the address its
/// DID gives ([`didwba::address_for`]) — and the socket is bound to it.
fn didwba_upgrade<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    header: &str,
    after: Option<u64>,
) -> Result<Step<Upgrade>, H::Error> {
    let claimed = match req.query("agent_id") {
        Some(agent) => claimed_address(&agent),
        None => didwba::address_of_header(header),
    };
    let address = match claimed {
        Ok(address) => address,
        Err(response) => return Ok(Step::Answer(response)),
    };
    let peer = peer_of(req);
    let join = join_event(host, network, &address, None, None, after);
    let inbound = Inbound {
        peer: peer.as_deref(),
        didwba: Some((header, didwba::domain_of(req))),
        ..Inbound::default()
    };
    let effects = network.handle_event_on(&inbound, join, host.now());
    Ok(match accepted(host, network, effects, peer)? {
        Step::Answer(refused) if refused.status == 403 => {
            Step::Answer(didwba::unauthorized(refused))
        }
        other => other,
    })
}

/// Applies what binds the socket now; its reads wait until it is accepted.
fn accepted<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    effects: Vec<Effect>,
    peer: Option<String>,
) -> Result<Step<Upgrade>, H::Error> {
    let (now, after_accept): (Vec<_>, Vec<_>) = effects
        .into_iter()
        .partition(|e| !matches!(e, Effect::Read(_)));
    let collected = host.collect(network, now, None)?;
    Ok(match collected.bound {
        Some(address) => Step::Go(Upgrade {
            address: Some(address),
            after_accept,
            peer,
            batches: false,
            lanes: false,
            placement: None,
        }),
        None => Step::Answer(join_refused(collected.replies.last())),
    })
}

/// What one frame led to.
#[derive(Debug)]
pub struct Framed {
    /// The effects to apply, replies on this socket first among them.
    pub effects: Vec<Effect>,
    /// Close the socket (after its replies are sent).
    pub close: Option<Close>,
}

/// Hands one frame from the socket `record` describes to the network.
pub fn frame(
    network: &mut Network,
    sockets: &mut Sockets,
    record: &SocketRecord,
    text: &str,
    now: Timestamp,
) -> Framed {
    let inbound = Inbound {
        session: record.member.as_ref(),
        connection: Some(record.id),
        peer: record.peer.as_deref(),
        didwba: None,
    };
    let event = match Event::decode(text, &network.config().limits) {
        Ok(event) => event,
        Err(_) => {
            return Framed {
                effects: network.handle_frame_on(&inbound, text, now),
                close: sockets.bad_frame(record.id, now),
            };
        }
    };
    let admission =
        [core_types::AGENT_JOIN, core_types::AGENT_CHALLENGE].contains(&event.event_type.as_str());
    let refused_unjoined = record.member.is_none() && !admission;
    Framed {
        effects: network.handle_event_on(&inbound, event, now),
        close: refused_unjoined
            .then(|| sockets.bad_frame(record.id, now))
            .flatten(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::message::Method;

    #[test]
    fn a_closing_handshake_echoes_the_code_when_it_may() {
        assert_eq!(close_reply(1000), 1000);
        assert_eq!(close_reply(4001), 4001);
        assert_eq!(close_reply(1005), 1000);
        assert_eq!(close_reply(1006), 1000);
        assert_eq!(close_reply(999), 1000);
        assert_eq!(close_reply(70_000), 1000);
    }

    #[test]
    fn the_peer_is_the_platforms_client_ip_when_it_looks_like_one() {
        let req = |ip: &str| {
            Request::new(Method::Get, "http://h/networks/demo/v1/ws")
                .with_header("CF-Connecting-IP", ip)
        };
        assert_eq!(
            peer_of(&req(" 203.0.113.9 ")).as_deref(),
            Some("203.0.113.9")
        );
        assert_eq!(peer_of(&req("2001:db8::1")).as_deref(), Some("2001:db8::1"));
        assert_eq!(peer_of(&req("")), None);
        assert_eq!(peer_of(&req("evil; drop")), None);
        assert_eq!(peer_of(&req(&"1".repeat(65))), None);
        assert_eq!(peer_of(&Request::new(Method::Get, "http://h/")), None);
    }

    #[test]
    fn the_member_hint_is_an_address_or_a_clear_error() {
        let req =
            |query: &str| Request::new(Method::Get, format!("http://h/networks/demo/v1/ws{query}"));
        assert_eq!(placement_hint(&req("")), Ok(None));
        assert_eq!(
            placement_hint(&req("?member=agent:alice")),
            Ok(Some("agent:alice".parse().unwrap()))
        );
        let refused = placement_hint(&req("?member=not%20an%20address")).unwrap_err();
        assert_eq!(refused.status, 400);
        let code = refused.json_body().and_then(|b| b.get("code")).cloned();
        assert_eq!(code, Some(json!("invalid_address")));
    }
}
