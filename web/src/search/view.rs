//! The search on the page: a button in the top bar ("Search messages", or
//! `/` outside a field; Ctrl+K's switcher reaches it too) and the panel it opens — beside the
//! conversation on wide screens, over the whole screen on a phone — with the
//! field, a line that says where the search is, and the results: where,
//! who, when and the text with the matches marked (as text: nothing in a
//! message becomes markup). A result opens the message in its conversation,
//! scrolled to it and highlighted ([`crate::chat::list::jump`]).

use super::found::{Found, Origin, Piece, excerpt, plain_text};
use super::{Remote, Search};
use crate::chat::Chat;
use crate::chat::list::time::{Clock, relative};
use crate::routes::Place;
use crate::session::Session;
use agentnet_core::model::search::SearchText;
use leptos::html::Input;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The magnifying glass both the button and the field show.
fn glass() -> impl IntoView {
    view! {
        <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none"
            stroke="currentColor" stroke-width="2" stroke-linecap="round">
            <circle cx="10.5" cy="10.5" r="6.5" />
            <path d="M15.5 15.5 21 21" />
        </svg>
    }
}

/// True when a key typed in `target` is text for it (a field, an editor).
fn typing_in(target: Option<web_sys::EventTarget>) -> bool {
    target
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| {
            matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                || el.closest("[contenteditable]").ok().flatten().is_some()
        })
}

/// The top bar's button that opens the search.
#[component]
pub fn SearchButton() -> impl IntoView {
    let search = Search::get();
    view! {
        <button type="button" class="search-open" aria-controls="search" aria-label="Search messages"
            aria-expanded=move || search.open.get().to_string() aria-keyshortcuts="/"
            on:click=move |_| if search.open.get_untracked() { search.close() } else { search.show() }>
            {glass()}
            <span class="label">"Search messages"</span>
            <kbd aria-hidden="true">"/"</kbd>
        </button>
    }
}

/// What the status line says about `shown`'s results.
fn status(shown: Option<&SearchText>, count: usize, remote: &Remote) -> String {
    let Some(shown) = shown else {
        return "Find a message by its words: what this browser holds shows at once, \
                the network's history as it answers. Every word must appear."
            .to_owned();
    };
    let whence = match remote {
        Remote::Idle | Remote::Done => "",
        Remote::Searching if count == 0 => return "Searching the network's history…".to_owned(),
        Remote::Searching => " · searching the network's history…",
        Remote::NoHistory => " · this network keeps no history: only what this browser holds",
        Remote::Offline => " · offline: only what this browser holds",
        Remote::Failed(_) => " · the network's history could not be searched",
    };
    match count {
        0 => format!(
            "No messages match “{}”{whence}.",
            crate::bidi::isolate(shown.as_str())
        ),
        1 => format!("1 message{whence}"),
        n => format!("{n} messages{whence}"),
    }
}

/// `/` (outside a field) opens the search (Ctrl+K opens the switcher): in the
/// first chunk, while the panel loads from its own when first opened.
#[component]
pub fn SearchKeys() -> impl IntoView {
    let search = Search::get();
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let slash = ev.key() == "/" && !ev.ctrl_key() && !ev.meta_key() && !typing_in(ev.target());
        if slash {
            ev.prevent_default();
            search.show();
        }
    });
    on_cleanup(move || keys.remove());
}

/// The search panel, in the page while open ([`crate::parts::search_panel`]).
#[component]
pub fn SearchPanel() -> impl IntoView {
    let search = Search::get();
    let session = Session::get();
    let chat = Chat::get();
    let field = NodeRef::<Input>::new();
    let focus_field = move || {
        // The panel may have closed within the frame.
        request_animation_frame(move || {
            if let Some(field) = field.try_get_untracked().flatten() {
                let _ = field.focus();
                field.select();
            }
        })
    };
    let close = move || {
        search.close();
        request_animation_frame(|| {
            let button = document().query_selector(".search-open").ok().flatten();
            if let Some(button) = button.and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok()) {
                let _ = button.focus();
            }
        });
    };
    // Opened (by the button or `/`): its field takes the focus.
    Effect::new(move |_| {
        if search.open.get() {
            focus_field();
        }
    });
    // Each result with the search it shows the matches of (a new search marks anew).
    let results = move || {
        let shown = search.shown.get();
        search.results.with(|r| {
            r.newest_first()
                .into_iter()
                .filter_map(|found| shown.clone().map(|s| (found, s)))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <section id="search" class="search" role="dialog" aria-label="Search messages"
            on:keydown=move |ev| if ev.key() == "Escape" { ev.stop_propagation(); close() }>
            <form class="search-form" role="search" on:submit=move |ev| {
                ev.prevent_default();
                search.input(search.query.get_untracked());
            }>
                <label for="search-text" class="visually-hidden">"Search messages"</label>
                {glass()}
                <input id="search-text" type="search" node_ref=field autocomplete="off"
                    placeholder="Search messages" maxlength="200" spellcheck="false"
                    prop:value=move || search.query.get()
                    on:input=move |ev| search.input(event_target_value(&ev)) />
                <button type="button" class="search-close" on:click=move |_| close()>"Close"</button>
            </form>
            <p class="search-status" role="status">
                {move || search.problem.get().unwrap_or_else(|| search.shown.with(|shown| {
                    status(shown.as_ref(), search.results.with(|r| r.len()), &search.remote.get())
                }))}
            </p>
            <ol class="search-results">
                <For each=results key=|(found, shown)| (found.line.id, shown.to_string())
                    children=move |(found, shown)| view! {
                        <ResultItem found=found shown=shown session=session chat=chat
                            close=Callback::new(move |()| search.close()) />
                    } />
            </ol>
        </section>
    }
}

/// One result: a link to the message in its conversation, `shown`'s words marked.
#[component]
fn ResultItem(
    found: Found,
    shown: SearchText,
    session: Session,
    chat: Chat,
    close: Callback<()>,
) -> impl IntoView {
    let line = found.line.clone();
    let href = session.path_at(&Place::Conversation(line.conversation.clone()), line.id);
    let title = chat.title_of(&line.conversation);
    let at = line.at;
    let when = move || relative(chat.clock.now.get(), at).unwrap_or_else(|| Clock::exact(at));
    let text = excerpt(&plain_text(&line.content), &shown)
        .into_iter()
        .map(|piece| match piece {
            Piece::Plain(text) => text.into_any(),
            Piece::Match(text) => view! { <mark>{text}</mark> }.into_any(),
        })
        .collect_view();
    let (id, seq) = (line.id, found.seq);
    let open = move |_| {
        chat.expect_jump(id, seq);
        chat.jump_again(id);
        close.run(());
    };
    view! {
        <li class="search-result" data-id=line.id.to_string() data-origin=found.origin.as_str()>
            <a href=href on:click=open>
                <span class="result-head">
                    <span class="where">{title}</span>
                    <span class="who">{line.source.clone()}</span>
                    <time datetime=Clock::iso(at) title=Clock::exact(at)>{when}</time>
                </span>
                <span class="result-text">{text}</span>
                {(found.origin == Origin::Network).then(|| view! {
                    <span class="origin">"from the network's history"</span>
                })}
            </a>
        </li>
    }
}
