//! Frames waiting to be sent after a commit, by socket: a socket that asked
//! for batched frames (`?frames=batch`) gets its burst as one frame (a few,
//! for a long burst), the others one frame per event.

use agentnet_core::bindings::sockets::SocketId;
use agentnet_core::event::batch;
use std::collections::BTreeMap;
use worker::WebSocket;

/// One socket's waiting frames.
struct Queued {
    ws: WebSocket,
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
    pub(crate) fn push(&mut self, id: SocketId, ws: &WebSocket, batches: bool, frame: String) {
        self.by_socket
            .entry(id)
            .or_insert_with(|| Queued {
                ws: ws.clone(),
                batches,
                frames: Vec::new(),
            })
            .frames
            .push(frame);
    }

    /// Sends every socket its frames, in the order they were queued; returns
    /// how many WebSocket messages that took.
    pub(crate) fn send(self) -> usize {
        let mut sent = 0;
        for queued in self.by_socket.into_values() {
            if queued.batches {
                for frame in batch::frames(&queued.frames, true) {
                    sent += send(&queued.ws, &frame);
                }
            } else {
                for frame in &queued.frames {
                    sent += send(&queued.ws, frame);
                }
            }
        }
        sent
    }
}

fn send(ws: &WebSocket, frame: &str) -> usize {
    // A socket that is closing cannot take frames; the others still get theirs.
    if let Err(err) = ws.send_with_str(frame) {
        worker::console_warn!("dropping frame for a closed socket: {err}");
    }
    1
}
