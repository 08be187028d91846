//! Waiting for the browser to paint before a long task.
//!
//! Loading a large shared document takes Automerge a few hundred
//! milliseconds of the main thread. Started in the same task as the first
//! render, it can hold back the frame that shows the document's cached text,
//! so the page stays blank instead of showing it; started after that frame,
//! the text is on screen first.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// How long to wait for a frame at most: a hidden tab gets none.
const FRAME_WAIT_MS: i32 = 200;

/// Resolves once the browser has painted what is rendered now (the next
/// animation frame, then one task after it), or after [`FRAME_WAIT_MS`]
/// when no frame comes.
pub async fn after_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let Some(window) = web_sys::window() else {
            let _ = resolve.call0(&JsValue::UNDEFINED);
            return;
        };
        let after_frame = {
            let window = window.clone();
            let resolve = resolve.clone();
            Closure::once_into_js(move || {
                let next_task = Closure::once_into_js(move || {
                    let _ = resolve.call0(&JsValue::UNDEFINED);
                });
                let _ = window.set_timeout_with_callback(next_task.unchecked_ref());
            })
        };
        let _ = window.request_animation_frame(after_frame.unchecked_ref());
        // Resolving twice is harmless: whichever comes first settles it.
        let fallback = Closure::once_into_js(move || {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        });
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
            fallback.unchecked_ref(),
            FRAME_WAIT_MS,
        );
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
