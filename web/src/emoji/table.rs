//! The emoji table is a file of its own, `/pkg/emoji-table.txt` (`table.txt`,
//! copied there by `build_web` in `scripts/lib.sh`; the service worker keeps
//! it), fetched when the composer first takes the focus or a picker first
//! opens: 15 KB of gzip'd data that most visits to the first page never
//! use (BENCHMARKS.md, "The first page, continued"). Until it is here,
//! [`super::find`] finds nothing: no emoji are offered and a `:shortcode:`
//! stays text. Tests compile it in.

use std::cell::Cell;
use std::sync::OnceLock;
use wasm_bindgen::prelude::*;

/// Where the page fetches the table from.
pub const PATH: &str = "/pkg/emoji-table.txt";

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    #[wasm_bindgen(js_name = getText, catch)]
    async fn get_text(url: &str) -> Result<JsValue, JsValue>;
}

/// The table's text once fetched, for the rest of the page's life.
static FETCHED: OnceLock<&'static str> = OnceLock::new();

thread_local! {
    /// A fetch is on its way (so [`start_loading`] does not start another).
    static FETCHING: Cell<bool> = const { Cell::new(false) };
}

/// The table's text, when it is here.
#[cfg(not(test))]
pub fn text() -> Option<&'static str> {
    FETCHED.get().copied()
}

/// The table's text: compiled into tests.
#[cfg(test)]
pub fn text() -> Option<&'static str> {
    Some(include_str!("table.txt"))
}

/// Fetches the table unless it is here; resolves once it is here (true) or
/// could not come (false: offline with nothing cached; a later call tries
/// again).
pub async fn load() -> bool {
    if FETCHED.get().is_some() {
        return true;
    }
    // Two calls at once both fetch: the second is answered from the browser's cache.
    FETCHING.with(|f| f.set(true));
    let text = get_text(PATH).await.ok().and_then(|t| t.as_string());
    FETCHING.with(|f| f.set(false));
    match text {
        Some(text) => {
            // Kept for the page's life: the emoji borrow their names from it.
            let _ = FETCHED.set(Box::leak(text.into_boxed_str()));
            true
        }
        None => false,
    }
}

/// Starts fetching the table in the background, unless it is here or on its way.
pub fn start_loading() {
    if FETCHED.get().is_some() || FETCHING.with(Cell::get) {
        return;
    }
    wasm_bindgen_futures::spawn_local(async {
        load().await;
    });
}
