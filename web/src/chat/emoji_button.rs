//! The composer's emoji button: it opens the emoji picker
//! ([`crate::emoji::picker`]) above the composer; the emoji picked goes in
//! at the caret (the composer's `insert`) and the focus goes back to the
//! text, Escape gives it back to the button.

use leptos::prelude::*;

/// The emoji button of the conversation's composer, or of the thread's (`in_thread`).
#[component]
pub fn EmojiButton(
    /// The thread's composer.
    in_thread: bool,
    /// Puts the emoji picked in the text at the caret.
    insert: Callback<&'static str>,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let button = NodeRef::<leptos::html::Button>::new();
    let id = if in_thread {
        "thread-emoji"
    } else {
        "composer-emoji"
    };
    let pick = Callback::new(move |glyph: &'static str| {
        open.set(false);
        insert.run(glyph);
    });
    let close = Callback::new(move |()| open.set(false));
    view! {
        <button type="button" class="emoji-button" node_ref=button aria-label="Insert an emoji"
            title="Insert an emoji" aria-haspopup="dialog" aria-expanded=move || open.get().to_string()
            // Open, a press would move the focus out of the picker (closing it) before the click toggles it.
            on:mousedown=move |ev| if open.get_untracked() { ev.prevent_default() }
            on:click=move |_| open.update(|o| *o = !*o)>
            <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none"
                stroke="currentColor" stroke-width="1.8" stroke-linecap="round">
                <circle cx="12" cy="12" r="9" />
                <path d="M8 14.5c1.8 2 6.2 2 8 0M9 9.5h.01M15 9.5h.01" />
            </svg>
        </button>
        {move || open.get().then(|| view! {
            <crate::emoji::picker::EmojiPicker id=id.to_owned() label="Insert an emoji" opener=button pick close />
        })}
    }
}
