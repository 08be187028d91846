//! Server-Sent Events streams: the plumbing of `GET /networks/{id}/v1/sse`,
//! a [`Component`] of the network's object.
//!
//! What a stream holds, when it reads its next page and when it is cut are
//! the core's (`agentnet_core::bindings::transport::sse::Stream`); here a stream is an
//! [`Outlet`] of the core's stream (`crate::host::sse`): the response body
//! reads its records and the outlet writes the keepalive comment while it is
//! idle. Deliveries are offered to the recipients' streams as the object
//! applies them; a member that leaves has its streams ended with a last
//! `closed` record. Opening one, and the task that reads the next page of
//! what it missed once the client has read the last (each page in a turn of
//! its own, so frames and requests are handled in between), are
//! `crate::network::http`'s.

use crate::host::sse::Outlet;
use crate::network::component::Component;
use agentnet_core::bindings;
use agentnet_core::bindings::transport::sse::{self, Pushed};
use agentnet_core::network::Effect;
use agentnet_core::{Address, Event};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// A stream of the network's, as the object holds it.
pub(crate) type NetworkOutlet = Outlet<sse::Stream>;

/// The open streams by member address (they keep the object awake).
#[derive(Default)]
pub(crate) struct SseStreams(RefCell<BTreeMap<String, Vec<Rc<NetworkOutlet>>>>);

/// Offers an event's JSON to a stream (`seq` for a logged one). Busy only
/// while this stream's own page is read, which delivers nothing: a logged
/// event then waits in the log for the page anyway.
fn push(outlet: &NetworkOutlet, seq: Option<u64>, json: &str) -> Pushed {
    outlet
        .with(|stream| stream.push(seq, json))
        .unwrap_or(Pushed::Waits)
}

impl SseStreams {
    /// Offers a logged event to the members' streams; returns the members it
    /// was queued for (a stream counts as acknowledged on write).
    fn push_logged(&self, to: &[Address], seq: u64, event: &Event, taken: &mut Vec<Address>) {
        let mut streams = self.0.borrow_mut();
        if streams.is_empty() {
            return;
        }
        let mut json = None;
        for address in to {
            let Some(open) = streams.get_mut(&address.to_string()) else {
                continue;
            };
            let json = json.get_or_insert_with(|| event.encode());
            let mut queued = false;
            for outlet in open.iter() {
                queued |= push(outlet, Some(seq), json) == Pushed::Queued;
            }
            open.retain(|outlet| outlet.is_open());
            if queued {
                taken.push(address.clone());
            }
        }
        streams.retain(|_, open| !open.is_empty());
    }

    /// Offers an unsequenced event (an answer, a mod's notice) to the members' streams.
    fn push_unordered(&self, to: &[Address], event: &Event) {
        let mut streams = self.0.borrow_mut();
        for address in to {
            if let Some(open) = streams.get_mut(&address.to_string()) {
                let json = event.encode();
                for outlet in open.iter() {
                    push(outlet, None, &json);
                }
                open.retain(|outlet| outlet.is_open());
            }
        }
        streams.retain(|_, open| !open.is_empty());
    }

    /// Holds `outlet` among its member's streams.
    pub(crate) fn add(&self, outlet: &Rc<NetworkOutlet>, member: String) {
        self.0
            .borrow_mut()
            .entry(member)
            .or_default()
            .push(Rc::clone(outlet));
    }

    /// The open streams of `member` (as its address reads).
    pub(crate) fn open_of(&self, member: &str) -> usize {
        self.0
            .borrow()
            .get(member)
            .map_or(0, |open| open.iter().filter(|o| o.is_open()).count())
    }
}

impl<Host> Component<Host> for SseStreams {
    fn observe(&self, effect: &Effect, taken: &mut Vec<Address>) {
        if let Effect::Deliver { to, event, order } = effect {
            match order {
                Some(order) => self.push_logged(to, order.seq, event, taken),
                None => self.push_unordered(to, event),
            }
        }
    }

    /// Ends every stream of a member that left, each with a last `closed` record.
    fn end_member(&self, member: &Address) {
        let streams = self.0.borrow_mut().remove(&member.to_string());
        let record = sse::closed_record(&bindings::transport::sockets::left(member));
        for outlet in streams.into_iter().flatten() {
            outlet.with(|stream| stream.close(record.clone()));
            outlet.wake_all();
        }
    }
}
