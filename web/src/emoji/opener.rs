//! A button that opens the emoji picker ([`super::picker`]) and the picker
//! it opens: the composer's emoji button and a message's "More reactions".
//! It says whether the picker is open (`aria-expanded`); a pick closes the
//! picker and hands the emoji on (the caller moves the focus), Escape gives
//! the focus back to the button.

use super::picker::EmojiPicker;
use leptos::prelude::*;

/// The button (its icon is its children) and, while open, the picker.
#[component]
pub fn PickerButton(
    /// A prefix for the picker's ids, unique on the page.
    id: String,
    /// The button's class.
    class: &'static str,
    /// The button's accessible name (and tooltip).
    label: &'static str,
    /// The picker's accessible name.
    picker_label: &'static str,
    /// Called with the emoji picked.
    pick: Callback<&'static str>,
    /// The button's icon.
    children: Children,
) -> impl IntoView {
    let open = RwSignal::new(false);
    let button = NodeRef::<leptos::html::Button>::new();
    let picked = Callback::new(move |glyph: &'static str| {
        open.set(false);
        pick.run(glyph);
    });
    let close = Callback::new(move |()| open.set(false));
    view! {
        // data-keep-sheet: on a phone, opening the picker keeps the message's action sheet.
        <button type="button" class=class node_ref=button aria-label=label title=label data-keep-sheet=""
            aria-haspopup="dialog" aria-expanded=move || open.get().to_string()
            // Open, a press would move the focus out of the picker (closing it) before the click toggles it.
            on:mousedown=move |ev| if open.get_untracked() { ev.prevent_default() }
            on:click=move |_| open.update(|o| *o = !*o)>
            {children()}
        </button>
        {move || open.get().then(|| view! {
            <EmojiPicker id=id.clone() label=picker_label opener=button pick=picked close />
        })}
    }
}
