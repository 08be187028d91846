//! Sends WebSocket text frames, making each distinct text a JS string once.
//!
//! A fan-out sends the same frame to many sockets (a broadcast's frames
//! differ only in `metadata.delivery.prev`, which is the same for members
//! with the same history). Passing each copy to `WebSocket.send` as a Rust
//! `&str` copied it out of wasm memory and decoded a new JS string per
//! socket; here each distinct text is decoded once per burst and the one
//! string is handed to every socket that gets it.
//!
//! The frames of a shared socket's lanes in one burst go out as one message,
//! one lane's frame per line (docs/wire.md, "Shared sockets"): a broadcast
//! to 16 lanes of a socket is one send, not 16 (which also kept a proxy with
//! Nagle's algorithm in front of the edge, as `wrangler dev`'s is, waiting
//! for the client's delayed acknowledgement: 200 ms per fan-out). A message
//! is cut before it passes [`GATHER_BYTES`], as a batch is
//! ([`batch::MAX_BATCH_BYTES`]): past V8's large-object size every runtime
//! it crosses makes its string several times slower.
//!
//! (What a send costs beyond that is workerd's: about 750 bytes of JS heap
//! per `send` that outlive the young generation, whatever the string —
//! see BENCHMARKS.md, "the slowest fan-outs are the worker's major GCs".)

use agentnet_core::bindings::transport::lanes::{self, Lane};
use agentnet_core::event::batch;
use std::collections::HashMap;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use worker::WebSocket;
use worker::js_sys::{JsString, Map};

#[wasm_bindgen]
extern "C" {
    /// A WebSocket seen as what takes text already on the JS side.
    type TextSocket;

    /// `WebSocket.send(text)`.
    #[wasm_bindgen(method, catch, js_name = send)]
    fn send(this: &TextSocket, text: &JsString) -> Result<(), JsValue>;
}

/// The most bytes of lanes' frames gathered into one message of a shared
/// socket; a line that would pass it starts the next message (a line longer
/// than this, one lane's batch, goes alone).
const GATHER_BYTES: usize = batch::MAX_BATCH_BYTES;

/// The JS strings of the frames sent so far in one burst, by text, and the
/// lanes' frames gathered per shared socket until the burst ends
/// ([`FrameTexts::flush`], or when it is dropped).
#[derive(Default)]
pub(crate) struct FrameTexts {
    by_text: HashMap<String, JsString>,
    /// Each shared socket's message so far and its length in bytes.
    gathered: Vec<(WebSocket, JsString, usize)>,
    /// Each gathered socket's place in `gathered`, by its JS object (one
    /// lookup per lane's frame, however many shared sockets the burst
    /// reaches); made at the first lane's frame.
    places: Option<Map>,
}

impl FrameTexts {
    /// Sends `frame` on `ws`, reusing the JS string of an equal frame sent
    /// before through this `FrameTexts`. A socket that is closing cannot
    /// take frames; the others still get theirs.
    /// On a lane of a shared socket, the frame goes after the lane's prefix
    /// (joined on the JS side, so the shared text is still made once), and
    /// waits for the socket's other lanes' frames of this burst.
    pub(crate) fn send(&mut self, ws: &WebSocket, lane: Option<Lane>, frame: String) {
        let text_bytes = frame.len();
        let text = match self.by_text.get(&frame) {
            Some(text) => text.clone(),
            None => {
                let text = JsString::from(frame.as_str());
                self.by_text.insert(frame, text.clone());
                text
            }
        };
        let Some(lane) = lane else {
            return send_text(ws, &text);
        };
        let prefix = lanes::prefix(lane);
        let line_bytes = prefix.len() + text_bytes;
        let line = JsString::from(prefix.as_str()).concat(&text);
        let socket: &JsValue = ws.as_ref();
        let places = self.places.get_or_insert_with(Map::new);
        let place = places.get(socket).as_f64().map(|at| at as usize);
        match place.and_then(|at| self.gathered.get_mut(at)) {
            Some((_, lines, bytes)) if *bytes + 1 + line_bytes > GATHER_BYTES => {
                send_text(ws, lines);
                (*lines, *bytes) = (line, line_bytes);
            }
            Some((_, lines, bytes)) => {
                *lines = lines
                    .concat(&JsString::from(lanes::LINE_BREAK))
                    .concat(&line);
                *bytes += 1 + line_bytes;
            }
            None => {
                places.set(socket, &JsValue::from(self.gathered.len() as f64));
                self.gathered.push((ws.clone(), line, line_bytes));
            }
        }
    }

    /// Sends the lanes' frames gathered so far, one message per shared socket
    /// (before anything else is written on those sockets, such as a lane's close).
    pub(crate) fn flush(&mut self) {
        if let Some(places) = &self.places {
            places.clear();
        }
        for (ws, lines, _) in self.gathered.drain(..) {
            send_text(&ws, &lines);
        }
    }
}

impl Drop for FrameTexts {
    fn drop(&mut self) {
        self.flush();
    }
}

/// `WebSocket.send(text)`; a socket that is closing cannot take it.
fn send_text(ws: &WebSocket, text: &JsString) {
    let socket: &worker::web_sys::WebSocket = ws.as_ref();
    if let Err(err) = socket.unchecked_ref::<TextSocket>().send(text) {
        worker::console_warn!("dropping a frame for a closed socket: {err:?}");
    }
}
