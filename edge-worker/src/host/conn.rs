//! One member's connection as the objects send to it: a WebSocket of its
//! own, or one lane of a shared one (`?lanes=1`,
//! `agentnet_core::bindings::transport::lanes`).

use agentnet_core::bindings::transport::lanes::{self, Lane};
use agentnet_core::bindings::transport::sockets::Close;
use worker::WebSocket;

/// One member's connection: a WebSocket of its own, or one lane of a shared one.
#[derive(Clone)]
pub(crate) struct Conn {
    pub(crate) ws: WebSocket,
    pub(crate) lane: Option<Lane>,
}

impl Conn {
    /// A WebSocket of its own (or a shared one as a whole).
    pub(crate) fn whole(ws: WebSocket) -> Self {
        Self { ws, lane: None }
    }

    /// Lane `lane` of the shared socket `ws`.
    pub(crate) fn lane(ws: WebSocket, lane: Lane) -> Self {
        Self {
            ws,
            lane: Some(lane),
        }
    }

    /// Closes it with `close`: the socket, or the lane alone.
    pub(crate) fn close(&self, close: &Close) {
        match self.lane {
            None => {
                let _ = self.ws.close(Some(close.code), Some(close.reason.as_str()));
            }
            Some(lane) => {
                let _ = self.ws.send_with_str(lanes::close_frame(lane, close));
            }
        }
    }
}
