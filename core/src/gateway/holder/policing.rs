//! What a socket held by a gateway may send before it is closed: a few
//! events before it joins ([`MAX_UNBOUND_EVENTS`]), and, joined or not,
//! frames that are plainly no event (an empty or malformed batch, text that
//! is no JSON object) at the rate the network allows a socket of its own
//! ([`BAD_FRAMES`]). Such a frame still goes to the network, which answers
//! it with its error; the gateway counts it, so a socket that keeps sending
//! them is closed rather than waking the network for ever.

use crate::ErrorCode;
use crate::bindings::access::policy::BAD_FRAMES;
use crate::bindings::transport::sockets::{Close, SocketId, too_many_bad_frames};
use crate::ids::time::Timestamp;
use crate::throttle::Buckets;

/// The most events a socket may send before it is bound (a join, a
/// challenge and their retries fit; more is a client that will not join).
pub const MAX_UNBOUND_EVENTS: u32 = 10;

/// Each socket's allowance of frames that are no event.
#[derive(Debug, Clone)]
pub(super) struct BadFrames(Buckets<SocketId>);

impl Default for BadFrames {
    fn default() -> Self {
        Self(Buckets::new(BAD_FRAMES))
    }
}

impl BadFrames {
    /// The socket is gone.
    pub(super) fn forget(&mut self, socket: SocketId) {
        self.0.forget(&socket);
    }
}

/// True when an event's text (one element of a frame) cannot be an event:
/// not a JSON object's text, told without decoding it.
fn plainly_no_event(text: &str) -> bool {
    let text = text.trim();
    !(text.starts_with('{') && text.ends_with('}'))
}

impl BadFrames {
    /// Why `socket` is closed for what it sent, if it is: `texts` (its
    /// frame's events) are plainly no event and its allowance is spent, or,
    /// still unbound (`unbound_events` is then its count so far, which this
    /// adds to), it sent more than [`MAX_UNBOUND_EVENTS`]. `None` lets the
    /// frame through.
    pub(super) fn verdict(
        &mut self,
        socket: SocketId,
        texts: &[String],
        unbound_events: Option<&mut u32>,
        now: Timestamp,
    ) -> Option<Close> {
        if texts.iter().any(|t| plainly_no_event(t)) && !self.0.take(&socket, now) {
            return Some(too_many_bad_frames());
        }
        let sent = unbound_events?;
        *sent = sent.saturating_add(u32::try_from(texts.len()).unwrap_or(u32::MAX));
        // A client that will not join: the network hears no more of it (but that it is gone).
        (*sent > MAX_UNBOUND_EVENTS).then(|| {
            Close::new(
                ErrorCode::NotJoined,
                "too many events before joining: join first",
            )
        })
    }
}
