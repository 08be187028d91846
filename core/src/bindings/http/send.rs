//! Sending one event for an HTTP caller: filling what a plain client leaves
//! out, running it through the network, and the response its replies make.
//! `POST v1/events` ([`crate::bindings::http`]) and the admin routes ([`super::admin`]) use it.

use super::membership;
use crate::bindings::exchange::{BindingHost, Collected, error_reply};
use crate::bindings::message::Response;
use crate::ids::event_type::core_types;
use crate::ids::time::Timestamp;
use crate::ids::ulid::UlidGenerator;
use crate::network::Inbound;
use crate::{Address, Coded, Event, EventId, Network};
use serde_json::{Value, json};

/// Fills what a plain HTTP client may leave out of an event it POSTs (its
/// `id`, `timestamp` and `source`); everything it does send is kept, and validated later.
pub fn fill_event(body: &mut Value, id: EventId, source: &Address, now: Timestamp) {
    if let Value::Object(object) = body {
        object.entry("id").or_insert_with(|| json!(id));
        object.entry("timestamp").or_insert_with(|| json!(now));
        object.entry("source").or_insert_with(|| json!(source));
    }
}

/// The response to a POSTed event, from the replies it led to.
pub fn send_response(collected: &Collected) -> Response {
    let reply = collected
        .replies
        .last()
        .or_else(|| collected.delivered.last());
    match reply {
        Some(event) if event.event_type.as_str() == core_types::EVENT_ERROR => error_reply(event),
        Some(event) if event.event_type.as_str() == core_types::EVENT_ACK => {
            Response::json(event.payload.clone())
        }
        // Answers such as pong, discovery or history come back as the event itself.
        Some(event) => Response::json(json!(event)),
        None => Response::json(json!({"ok": true})),
    }
}

/// Sends `body` (an event, [`fill_event`] fills what it leaves out) from
/// `member`; answers its ack payload or its error.
pub fn send_value<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    mut body: Value,
    peer: Option<String>,
) -> Result<Response, H::Error> {
    let limits = network.config().limits;
    let now = host.now();
    let id = UlidGenerator::new(host.random_seed()).next_id(now);
    fill_event(&mut body, id, &member, now);
    let event = match Event::from_value(body, &limits) {
        Ok(event) => event,
        Err(err) => return Ok(Response::error(err.code(), err.to_string())),
    };
    let inbound = Inbound {
        session: Some(&member),
        connection: None,
        peer: Some(peer.as_deref().unwrap_or(membership::UNKNOWN_PEER)),
        didwba: None,
    };
    let effects = network.handle_event_on(&inbound, event, now);
    Ok(send_response(&host.collect(
        network,
        effects,
        Some(&member),
    )?))
}
