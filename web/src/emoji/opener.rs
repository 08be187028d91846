//! A button that opens the emoji picker ([`super::picker`]) and the picker
//! it opens: the composer's emoji button and a message's "More reactions".
//! It shows an [`Icon`] and says whether the picker is open
//! (`aria-expanded`); a pick closes the picker and hands the emoji on (the
//! caller moves the focus), Escape gives the focus back to the button.
//! The picker is a part loaded when a picker first opens
//! ([`picker_part`]).

use super::picker::EmojiPicker;
use crate::lazy::{LazyPart, split_views};
use leptos::context::Provider;
use leptos::prelude::*;

/// The icon a picker button shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    /// A smiling face (the composer's emoji button).
    Smile,
    /// A smiling face with a plus (add a reaction).
    AddReaction,
}

/// The icon's drawing: a face, its smile and eyes (and a plus).
fn drawing(icon: Icon) -> impl IntoView {
    let (size, cx, r, path) = match icon {
        Icon::Smile => (
            "20",
            "12",
            "9",
            "M8 14.5c1.8 2 6.2 2 8 0M9 9.5h.01M15 9.5h.01",
        ),
        Icon::AddReaction => (
            "18",
            "11",
            "8",
            "M8 14.5c1.6 1.8 4.4 1.8 6 0M8.5 9.5h.01M13.5 9.5h.01M19 3v4M17 5h4",
        ),
    };
    view! {
        <svg aria-hidden="true" viewBox="0 0 24 24" width=size height=size fill="none"
            stroke="currentColor" stroke-width="1.8" stroke-linecap="round">
            <circle cx=cx cy="12" r=r />
            <path d=path />
        </svg>
    }
}

/// The button and, while open, the picker.
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
    icon: Icon,
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
            {drawing(icon)}
        </button>
        {move || open.get().then(|| {
            // Given to this button's picker alone: the page has one button per message.
            let opened = OpenPicker { id: id.clone(), label: picker_label, opener: button, pick: picked, close };
            view! {
                <Provider value=opened>
                    <LazyPart load=picker_with_table what="the emoji" overlay=true />
                </Provider>
            }
        })}
    }
}

/// What a [`PickerButton`] gives the picker it opens, through a context
/// provided to that picker's part alone.
#[derive(Clone)]
pub struct OpenPicker {
    id: String,
    label: &'static str,
    opener: NodeRef<leptos::html::Button>,
    pick: Callback<&'static str>,
    close: Callback<()>,
}

/// The picker of the [`PickerButton`] it opens under ([`picker_part`]).
#[component]
pub fn OpenedPicker() -> impl IntoView {
    use_context::<OpenPicker>().map(|open| {
        view! {
            <EmojiPicker id=open.id label=open.label opener=open.opener pick=open.pick close=open.close />
        }
    })
}

split_views! {
    /// The emoji picker of the composer and of a message's "More reactions", as a part.
    picker_part in emoji_picker_chunk => view! { <OpenedPicker /> };
}

/// The picker's part once the emoji table is here too ([`super::table`]).
fn picker_with_table() -> crate::lazy::Loading {
    Box::pin(async {
        super::table::load().await;
        picker_part().await
    })
}
