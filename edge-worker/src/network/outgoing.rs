//! Frames waiting to be sent after a commit, by socket: a socket that asked
//! for batched frames (`?frames=batch`) gets its burst as one frame (a few,
//! for a long burst), the others one frame per event.

use crate::host::frame_texts::FrameTexts;
use crate::network::socket_state::Conn;
use agentnet_core::bindings::transport::sockets::SocketId;
use agentnet_core::event::batch;
use std::collections::BTreeMap;

/// One socket's waiting frames.
struct Queued {
    conn: Conn,
    batches: bool,
    frames: Vec<String>,
}

/// The frames of one commit, by socket.
#[derive(Default)]
pub(crate) struct Outgoing {
    by_socket: BTreeMap<SocketId, Queued>,
}

impl Outgoing {
    /// Queues `frame` for the socket `id`.
    pub(crate) fn push(&mut self, id: SocketId, conn: &Conn, batches: bool, frame: String) {
        self.by_socket
            .entry(id)
            .or_insert_with(|| Queued {
                conn: conn.clone(),
                batches,
                frames: Vec::new(),
            })
            .frames
            .push(frame);
    }

    /// Sends every socket its frames, in the order they were queued; returns
    /// how many WebSocket messages that took. Equal frames (a fan-out's)
    /// share one JS string ([`FrameTexts`]).
    pub(crate) fn send(self) -> usize {
        let mut sent = 0;
        let mut texts = FrameTexts::default();
        for queued in self.by_socket.into_values() {
            let frames = if queued.batches {
                batch::frames(&queued.frames, true)
            } else {
                queued.frames
            };
            for frame in frames {
                texts.send(&queued.conn.ws, queued.conn.lane, frame);
                sent += 1;
            }
        }
        sent
    }
}
