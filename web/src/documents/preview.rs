//! The rendered preview of a Markdown document, beside its source where
//! there is room (the `.markdown-split` container is wide enough) and
//! instead of it on a narrow one, where a toggle switches between the two.
//! It renders with the chat's safe renderer
//! ([`crate::chat::text::markdown::document_to_html`]: no raw HTML, safe links).

use crate::chat::text::markdown::document_to_html;
use leptos::prelude::*;

/// The toggle between the source and the preview (shown only where they
/// cannot sit side by side, by the stylesheet).
#[component]
pub fn PreviewToggle(
    /// True while the preview shows instead of the source.
    previewing: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <button type="button" class="preview-toggle" aria-pressed=move || previewing.get().to_string()
            on:click=move |_| previewing.update(|p| *p = !*p)>
            {move || if previewing.get() { "Show source" } else { "Show preview" }}
        </button>
    }
}

/// The preview of `text`, labelled for `title`.
#[component]
pub fn MarkdownPreview(
    /// The document's text.
    text: Signal<String>,
    /// The document's title (names the preview region).
    title: String,
) -> impl IntoView {
    view! {
        <div class="markdown-preview" role="region" aria-label=format!("Preview of {}", crate::bidi::isolate(&title))
            tabindex="0" inner_html=move || document_to_html(&text.get())></div>
    }
}
