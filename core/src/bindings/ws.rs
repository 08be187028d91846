//! The WebSocket binding's upgrade: `GET /networks/{id}/v1/ws`.
//!
//! Only an `Upgrade: websocket` request is taken (anything else is
//! `upgrade_required`, 426). Browsers cannot set headers, so a client may
//! join at the upgrade with `?agent_id=&token=&secret=&after=`; otherwise it joins
//! with its first frame. A join's catch-up reads need the socket, so they
//! wait in [`Upgrade::after_accept`] until the host has accepted it.

use super::exchange::{Answer, BindingHost, claimed_address, join_event, join_refused};
use super::message::{Request, Response};
use crate::network::Effect;
use crate::{Address, ErrorCode, Network};
use serde_json::json;

/// With test hooks on, a WebSocket frame of exactly this text panics the object
/// (proves that a panic inside a drain of frames does not brick it).
pub const TEST_PANIC_FRAME: &str = "__test/panic";

/// The code that finishes a closing handshake the peer started with `code`:
/// the same code, unless it is one that cannot be sent (1005, 1006, out of range).
pub fn close_reply(code: usize) -> u16 {
    match u16::try_from(code) {
        Ok(code @ 1000..=4999) if code != 1005 && code != 1006 => code,
        _ => 1000,
    }
}

/// An accepted upgrade: what the host does once it has the socket.
#[derive(Debug)]
pub struct Upgrade {
    /// The member the socket is bound to, when it joined at the upgrade.
    pub address: Option<Address>,
    /// Effects to apply for the socket once it is accepted (the join's catch-up).
    pub after_accept: Vec<Effect>,
}

/// True when the request asks for a WebSocket.
pub fn is_upgrade(req: &Request) -> bool {
    req.header("Upgrade")
        .is_some_and(|u| u.eq_ignore_ascii_case("websocket"))
}

/// Decides an upgrade request; a join in its query is submitted now.
pub fn upgrade<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
) -> Result<Answer<Upgrade>, H::Error> {
    if !is_upgrade(req) {
        return Ok(Err(Response::error(
            ErrorCode::UpgradeRequired,
            "connect with a WebSocket upgrade",
        )));
    }
    let Some(agent) = req.query("agent_id") else {
        return Ok(Ok(Upgrade {
            address: None,
            after_accept: Vec::new(),
        }));
    };
    let claimed = match claimed_address(&agent) {
        Ok(address) => address,
        Err(response) => return Ok(Err(response)),
    };
    // Browsers cannot set headers: the credentials of a join at upgrade come in the query.
    let mut credentials = serde_json::Map::new();
    for (param, key) in [("token", "token"), ("secret", "member_secret")] {
        if let Some(value) = req.query(param) {
            credentials.insert(key.into(), json!(value));
        }
    }
    let credentials = (!credentials.is_empty()).then_some(serde_json::Value::Object(credentials));
    let after = req.query("after").and_then(|a| a.parse::<u64>().ok());
    let join = join_event(host, network, &claimed, credentials, None, after);
    let effects = network.handle_event(None, join, host.now());
    let (now, after_accept): (Vec<_>, Vec<_>) = effects
        .into_iter()
        .partition(|e| !matches!(e, Effect::Read(_)));
    let collected = host.collect(network, now, None)?;
    Ok(match collected.bound {
        Some(address) => Ok(Upgrade {
            address: Some(address),
            after_accept,
        }),
        None => Err(join_refused(collected.replies.last())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closing_handshake_echoes_the_code_when_it_may() {
        assert_eq!(close_reply(1000), 1000);
        assert_eq!(close_reply(4001), 4001);
        assert_eq!(close_reply(1005), 1000);
        assert_eq!(close_reply(1006), 1000);
        assert_eq!(close_reply(999), 1000);
        assert_eq!(close_reply(70_000), 1000);
    }
}
