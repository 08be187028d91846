//! The switcher's dialog: a field that filters, a list of choices (the
//! arrows move, Enter or a click goes), and "Search messages for …".
//! Ctrl+K or ⌘K opens it from anywhere; Escape closes it.

use super::{Choice, choices};
use crate::chat::Chat;
use crate::people::person::Members;
use crate::routes::{Navigator, Place};
use crate::search::Search;
use crate::session::Session;
use leptos::html::Input;
use leptos::prelude::*;

/// The switcher (always in the page; `hidden` while closed).
#[component]
pub fn Switcher() -> impl IntoView {
    let chat = Chat::get();
    let session = Session::get();
    let search = Search::get();
    let open = RwSignal::new(false);
    let query = RwSignal::new(String::new());
    let active = RwSignal::new(0usize);
    let field = NodeRef::<Input>::new();
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if (ev.ctrl_key() || ev.meta_key()) && ev.key().eq_ignore_ascii_case("k") {
            ev.prevent_default();
            query.set(String::new());
            active.set(0);
            open.set(true);
            // Another network may have opened within the frame.
            request_animation_frame(move || {
                if let Some(field) = field.try_get_untracked().flatten() {
                    let _ = field.focus();
                }
            });
        }
    });
    on_cleanup(move || keys.remove());
    let offered = Memo::new(move |_| {
        let conversations: Vec<(String, String)> = chat
            .conversations()
            .into_iter()
            .map(|c| {
                let title = chat.title_of(&c);
                (c, title)
            })
            .collect();
        let people: Vec<(String, String)> = Members::get()
            .map(|m| {
                m.get()
                    .iter()
                    .map(|p| (p.address.clone(), p.shown_name().to_owned()))
                    .collect()
            })
            .unwrap_or_default();
        choices(&conversations, &people, &session.me_text(), &query.get())
    });
    // The last choice searches the messages for what was typed.
    let searching = move || !query.with(|q| q.trim().is_empty());
    let count = move || offered.with(Vec::len) + usize::from(searching());
    let close = move || open.set(false);
    let go = move |index: usize| {
        close();
        match offered.with_untracked(|o| o.get(index).cloned()) {
            Some(choice) => {
                Navigator::get().go(&session.path(&Place::Conversation(choice.conversation)))
            }
            None if searching() => {
                search.input(query.get_untracked());
                search.show();
            }
            None => {}
        }
    };
    let keydown = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "ArrowDown" | "ArrowUp" if count() > 0 => {
            ev.prevent_default();
            let step = if ev.key() == "ArrowDown" {
                1
            } else {
                count() - 1
            };
            active.update(|a| *a = (*a + step) % count());
        }
        "Enter" => {
            ev.prevent_default();
            go(active.get_untracked());
        }
        "Escape" => {
            ev.stop_propagation();
            close();
        }
        _ => {}
    };
    let option_id = |i: usize| format!("switch-{i}");
    view! {
        <section class="switcher" role="dialog" aria-label="Switch conversation" hidden=move || !open.get()>
            <div class="switcher-box">
                <label for="switch-to" class="visually-hidden">"Go to a conversation or person"</label>
                <input id="switch-to" type="text" node_ref=field autocomplete="off" spellcheck="false"
                    role="combobox" aria-expanded="true" aria-controls="switch-choices"
                    aria-activedescendant=move || option_id(active.get())
                    placeholder="Go to a conversation or person…"
                    prop:value=move || query.get()
                    on:input=move |ev| { query.set(event_target_value(&ev)); active.set(0); }
                    on:keydown=keydown
                    on:blur=move |_| close() />
                <ul id="switch-choices" role="listbox" aria-label="Conversations and people">
                    {move || offered.get().into_iter().enumerate().map(|(i, c): (usize, Choice)| view! {
                        <li id=option_id(i) role="option" class="switch-choice" aria-selected=move || (active.get() == i).to_string()
                            data-conversation=c.conversation.clone()
                            on:mousedown=move |ev| { ev.prevent_default(); go(i); }>
                            <span class="label">{c.label}</span>
                            <span class="kind">{c.kind}</span>
                        </li>
                    }).collect_view()}
                    {move || searching().then(|| {
                        let i = offered.with(Vec::len);
                        view! {
                            <li id=option_id(i) role="option" class="switch-choice search-choice" aria-selected=move || (active.get() == i).to_string()
                                on:mousedown=move |ev| { ev.prevent_default(); go(i); }>
                                <span class="label">{move || format!("Search messages for “{}”", crate::bidi::isolate(query.get().trim()))}</span>
                            </li>
                        }
                    })}
                </ul>
                <p class="switcher-hint">"↑ ↓ to choose · Enter to go · Esc to close"</p>
            </div>
        </section>
    }
}
