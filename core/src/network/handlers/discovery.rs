//! `network.discovery.query` to core: a member asks for agents by
//! capability; the network hands the host a [`DiscoveryAsk`] and answers
//! once the registry's part is back ([`Network::answer_discovery`]).

use super::payload::invalid;
use crate::discovery::network_query::query_from_payload;
use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::network::effects::{DiscoveryAsk, Effect};
use crate::network::pipeline::outcome::{Handled, unacked};

/// Reads the query; the answer (not an ack) comes as `network.discovery.response`.
pub(super) fn query(event: &Event) -> Handled {
    if event.target != Address::core() {
        return Err(invalid("network.discovery.query goes to core"));
    }
    let query = query_from_payload(&event.payload).map_err(|e| Rejection::from(&e))?;
    Ok(unacked(vec![Effect::Discover(DiscoveryAsk {
        request_id: event.id,
        requester: event.source.clone(),
        query,
    })]))
}
