//! Reports a panic instead of leaving a dead page: a bug in the workspace
//! would otherwise end as an opaque `unreachable` trap in the console while
//! the page stops answering. The hook logs the panic's message and where it
//! happened, and shows it in the page (`www/index.html`'s failure box, the
//! same one a failed load uses) with a way to reload.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/failure.js")]
extern "C" {
    #[wasm_bindgen(js_name = reportFailure)]
    fn report_failure(message: &str);
}

/// What the person is told when the workspace panicked.
pub fn failure_text(panic: &str) -> String {
    format!("The workspace stopped because of a bug: {panic}. Reload the page to start again.")
}

/// Installs the hook (once, before the app mounts).
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        report_failure(&failure_text(&info.to_string()));
    }));
}

/// Panics with `message`: how the end-to-end test proves a real panic in the
/// running app reaches the person (`tests/e2e/web/routes.test.mjs`). Exported
/// to the page's JavaScript only; nothing in the app calls it.
#[doc(hidden)]
#[expect(clippy::panic, reason = "panicking is this function's whole purpose")]
#[wasm_bindgen(js_name = panicForTest)]
pub fn panic_for_test(message: &str) {
    panic!("{message}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_failure_names_the_panic_and_the_way_out() {
        let text = failure_text("panicked at web/src/chat/state.rs:10:5: boom");
        assert!(text.contains("boom") && text.contains("state.rs:10"));
        assert!(text.contains("Reload the page"));
    }
}
