//! Handlers for the log: history queries, acknowledgements, resume, and
//! events for mods or members (routed).

use super::payload::{address_in, invalid};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::ids::time::Timestamp;
use crate::model::requests::field::{AsSent, read};
use crate::model::requests::history::{Acknowledge, EventsQuery, Resume};
use crate::model::search::SearchText;
use crate::network::effects::{Effect, LogFilter, ReadRequest, Reader};
use crate::network::engine::Network;
use crate::network::log::reads::MAX_READ_LIMIT;
use crate::network::pipeline::outcome::{Handled, Outcome, unacked};

/// `network.events.query`: a read of the history (needs `mod/persistence`).
pub(super) fn query(network: &mut Network, event: &Event) -> Handled {
    if !network.keeps_history {
        return Err(Rejection::new(
            ErrorCode::NotSupported,
            "this network keeps no history: network.events.query needs mod/persistence",
        ));
    }
    let query = read::<EventsQuery>(&event.payload);
    let types = query
        .types
        .given()
        .map(|types| types.parse::<crate::ids::event_type::EventPattern>())
        .transpose()
        .map_err(|e| Rejection::from(&e))?;
    // `text`: only messages with every word of it (`invalid_search` when it is no valid search).
    let text = match query.text {
        AsSent::Absent | AsSent::Null => None,
        AsSent::Given(value) | AsSent::Wrong(value) => {
            Some(SearchText::try_from(&value).map_err(|e| Rejection::from(&e))?)
        }
    };
    let limit = query.limit.given().unwrap_or(50);
    let request = ReadRequest {
        reader: Reader::Query {
            request_id: event.id,
            requester: event.source.clone(),
        },
        filter: LogFilter::History {
            types,
            source: address_in(query.source, "source")?,
            target: address_in(query.target, "target")?,
            text,
        },
        after: query.after.given().unwrap_or(0),
        limit: usize::try_from(limit)
            .unwrap_or(MAX_READ_LIMIT)
            .clamp(1, MAX_READ_LIMIT),
    };
    Ok(unacked(vec![Effect::Read(request)]))
}

/// `network.event.ack` to `core`: a member's cumulative delivery acknowledgement.
pub(super) fn acknowledge(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    // A member's cumulative delivery acknowledgement.
    let seq = read::<Acknowledge>(&event.payload)
        .seq
        .given()
        .ok_or_else(|| invalid("an ack to core carries payload.seq"))?;
    Ok(Outcome {
        no_ack: true,
        effects: network.acknowledge(&event.source, seq, now),
        ..Outcome::default()
    })
}

/// `network.agent.resume`: catch up from a cursor.
pub(super) fn resume(network: &mut Network, event: &Event) -> Handled {
    let after = read::<Resume>(&event.payload)
        .after
        .given()
        .unwrap_or_else(|| network.tracker.cursor(&event.source));
    let mut outcome = Outcome {
        no_ack: true,
        ..Outcome::default()
    };
    if network.at_least_once() {
        outcome
            .after_ack
            .push(network.catch_up(&event.source, after));
    }
    Ok(outcome)
}

/// An event for a mod: the mod handles it; what it emits goes to its targets.
pub(super) fn to_mod(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let (handled, emitted, commands) = network.with_mods(now, None, |pipeline, cx, out| {
        pipeline.handle(cx, event, out)
    });
    handled?;
    let mut effects: Vec<Effect> = commands
        .into_iter()
        .flat_map(|c| network.apply_command(c))
        .collect();
    effects.extend(emitted.into_iter().map(|e| Effect::Deliver {
        to: vec![e.target.clone()],
        event: std::rc::Rc::new(e),
        order: None,
    }));
    Ok(Outcome {
        effects,
        log: true,
        ..Outcome::default()
    })
}
