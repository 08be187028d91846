//! HTTP sessions and tickets: what a bearer token proves, for how long, and
//! where it may travel.
//!
//! * A join over HTTP starts a session: a random token whose SHA-256 the host
//!   stores with the member's address. It expires after
//!   [`Policy::session_idle_ms`] without use (each use refreshes it, written
//!   at most every [`Policy::session_touch_ms`]) and
//!   [`Policy::session_max_age_ms`] after the join however it is used;
//!   an expired one is refused with `session_expired` and forgotten, and
//!   every new session prunes the expired ones. Leaving ends them all.
//! * The token goes in `Authorization: Bearer …`. A URL ends up in logs, so
//!   it is taken from `?session=` only where a browser cannot send the header:
//!   the WebSocket upgrade and the SSE stream ([`QueryTokens::Allowed`]).
//!   Anywhere else a `?session=` is refused (`invalid_request`).
//! * Better there: `POST v1/ticket` (with the header) answers a ticket, good
//!   once, for [`Policy::ticket_ttl_ms`]: `?ticket=` on `v1/ws` or `v1/sse`.

use super::policy::{Expired, SessionState};
use crate::bindings::exchange::{Answer, BindingHost};
use crate::bindings::message::{Request, Response};
use crate::bindings::step::Step;
use crate::crypto::{sha256_hex, to_hex};
use crate::{Address, ErrorCode, Timestamp};
use serde_json::json;

/// Whether a route takes a token from its URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryTokens {
    /// Only `Authorization: Bearer`; a `?session=` or `?ticket=` is refused.
    Refused,
    /// Also `?ticket=` and `?session=` (a WebSocket upgrade, an SSE stream).
    Allowed,
}

/// The member a request's credential names: `Authorization: Bearer <session>`,
/// or where `query` allows, `?ticket=` (used up) or `?session=`.
pub fn authenticate<H: BindingHost>(
    host: &mut H,
    req: &Request,
    query: QueryTokens,
) -> Result<Step<Address>, H::Error> {
    let in_url = ["session", "ticket"]
        .into_iter()
        .find(|key| req.query(key).is_some());
    if let (Some(key), QueryTokens::Refused) = (in_url, query) {
        return Ok(Step::Answer(Response::error(
            ErrorCode::InvalidRequest,
            format!(
                "a {key} in the URL ends up in logs: send Authorization: Bearer <session token> (?ticket= and ?session= are taken only by v1/ws and v1/sse)"
            ),
        )));
    }
    let bearer = req
        .header("Authorization")
        .and_then(|h| h.strip_prefix("Bearer "))
        .map(|t| t.trim().to_owned());
    if bearer.is_none()
        && query == QueryTokens::Allowed
        && let Some(ticket) = req.query("ticket")
    {
        return redeem_ticket(host, &ticket);
    }
    let Some(token) = bearer.or_else(|| req.query("session")) else {
        return Ok(Step::Answer(Response::error(
            ErrorCode::NotJoined,
            "send Authorization: Bearer <session token> from /v1/join",
        )));
    };
    let hash = sha256_hex(token.as_bytes());
    let Some(row) = host.session(&hash)? else {
        return Ok(Step::Answer(Response::error(
            ErrorCode::NotJoined,
            "unknown or ended session; join again",
        )));
    };
    let policy = host.policy();
    let now = host.now();
    match row.state(&policy, now) {
        SessionState::Expired => {
            host.end_session(&hash)?;
            return Ok(Step::Answer(Response::error(
                ErrorCode::SessionExpired,
                "the session expired; join again (with your member secret) for a new one",
            )));
        }
        SessionState::Live { touch: true } => host.touch_session(&hash, now)?,
        SessionState::Live { touch: false } => {}
    }
    Ok(address_of(&row.address).into())
}

fn address_of(stored: &str) -> Answer<Address> {
    stored
        .parse()
        .map_err(|_| Response::error(ErrorCode::NotJoined, "the session is damaged; join again"))
}

/// Starts a session for `address` (pruning the expired ones); returns its
/// token and when it expires unless used.
pub fn start<H: BindingHost>(
    host: &mut H,
    address: &Address,
) -> Result<(String, Timestamp), H::Error> {
    let policy = host.policy();
    let now = host.now();
    host.prune_sessions(Expired::at(&policy, now))?;
    let token = to_hex(&host.random_seed());
    host.add_session(&sha256_hex(token.as_bytes()), address, now)?;
    Ok((token, now.plus_millis(policy.session_idle_ms)))
}

/// `POST v1/ticket`: a ticket for `member`, good once for a WebSocket or a stream.
pub fn issue_ticket<H: BindingHost>(host: &mut H, member: &Address) -> Result<Response, H::Error> {
    let now = host.now();
    host.prune_tickets(now)?;
    let ticket = to_hex(&host.random_seed());
    let expires_at = now.plus_millis(host.policy().ticket_ttl_ms);
    host.add_ticket(&sha256_hex(ticket.as_bytes()), member, expires_at)?;
    Ok(Response::json(
        json!({"ticket": ticket, "expires_at": expires_at}),
    ))
}

/// The member a ticket names, using it up.
pub fn redeem_ticket<H: BindingHost>(
    host: &mut H,
    ticket: &str,
) -> Result<Step<Address>, H::Error> {
    let row = host.take_ticket(&sha256_hex(ticket.as_bytes()))?;
    Ok(Step::from(match row {
        Some(row) if row.expires_at > host.now() => address_of(&row.address),
        _ => Err(Response::error(
            ErrorCode::NotJoined,
            "unknown, used or expired ticket: ask POST v1/ticket for another",
        )),
    }))
}
