//! The frame around a network's workspace: its top bar (the network's name,
//! who you are, the connection and how many messages wait to be sent), the
//! views, and on phones the two sheets that slide over the conversation —
//! the menu (views and conversations) and people (people and resources).
//! A sheet closes on Escape, on a tap outside it, and when the place changes.

use crate::chat::Chat;
use crate::networks::Networks;
use crate::routes::Place;
use crate::session::{Pane, Session, Status};
use leptos::prelude::*;

/// The sheet open on a phone, if any (wide screens show both parts always).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sheet {
    /// Neither: the conversation fills the screen.
    #[default]
    None,
    /// Views and conversations.
    Menu,
    /// People and resources.
    People,
}

impl Sheet {
    /// Its name in the page's markup (`data-sheet`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Menu => "menu",
            Self::People => "people",
        }
    }

    /// The sheet a toggle opens, given the open one: the other closes, the same one closes.
    pub fn toggled(self, wanted: Sheet) -> Sheet {
        if self == wanted { Sheet::None } else { wanted }
    }
}

/// The open sheet: cheap to copy, from context with [`Sheets::get`].
#[derive(Clone, Copy)]
pub struct Sheets {
    open: RwSignal<Sheet>,
}

impl Sheets {
    /// No sheet open; any change of place closes the open one.
    pub fn provide(place: Memo<Place>) -> Self {
        let sheets = Self {
            open: RwSignal::new(Sheet::None),
        };
        Effect::new(move |_| {
            place.track();
            sheets.open.set(Sheet::None);
        });
        provide_context(sheets);
        sheets
    }

    /// The sheets of the workspace.
    pub fn get() -> Self {
        expect_context()
    }

    /// The open sheet.
    pub fn open(&self) -> Sheet {
        self.open.get()
    }

    /// The open sheet, read without tracking (an event handler's question).
    pub fn open_untracked(&self) -> Sheet {
        self.open.get_untracked()
    }

    /// Opens `sheet`, or closes it when it is open.
    pub fn toggle(&self, sheet: Sheet) {
        self.open.update(|open| *open = open.toggled(sheet));
    }

    /// Closes the open sheet.
    pub fn close(&self) {
        self.open.set(Sheet::None);
    }
}

/// The network's name, the person, the connection's state (with what is
/// queued) and, on phones, the buttons that open the sheets.
#[component]
pub fn TopBar() -> impl IntoView {
    let session = Session::get();
    let chat = Chat::get();
    let sheets = Sheets::get();
    let networks = Networks::get();
    let id = session.network_name();
    let name = {
        let id = id.clone();
        move || networks.label_of(&id)
    };
    let expanded = move |sheet: Sheet| move || (sheets.open() == sheet).to_string();
    view! {
        <header class="topbar">
            <button type="button" class="sheet-toggle menu" aria-controls="workspace-menu"
                aria-expanded=expanded(Sheet::Menu) on:click=move |_| sheets.toggle(Sheet::Menu)>
                <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
                    <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
                </svg>
                <span class="visually-hidden">"Views and conversations"</span>
            </button>
            <h1 class="network" data-id=id.clone() title=format!("Network id: {id}")>{name}</h1>
            <span class="me" title=session.me_text() data-address=session.me_text()>
                <crate::people::face::Avatar address=session.me_text() />
                <strong>{move || crate::people::person::Members::name_of(&session.me_text())}</strong>
            </span>
            <crate::search::view::SearchButton />
            <span class="status" role="status" data-state=move || session.status.get().as_str()
                title=move || match chat.queued() {
                    0 => "Nothing waits to be sent".to_owned(),
                    1 => "1 message waits to be sent".to_owned(),
                    n => format!("{n} messages wait to be sent"),
                }>
                {move || match (session.status.get(), chat.queued()) {
                    (Status::Online, _) => "online".to_owned(),
                    (state, 0) => state.as_str().to_owned(),
                    (state, n) => format!("{} · {n} queued", state.as_str()),
                }}
            </span>
            <button type="button" class="sheet-toggle people" aria-controls="workspace-people"
                aria-expanded=expanded(Sheet::People) on:click=move |_| sheets.toggle(Sheet::People)>
                <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none"
                    stroke="currentColor" stroke-width="2" stroke-linecap="round">
                    <circle cx="9" cy="8" r="3.5" />
                    <path d="M2.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6" />
                    <path d="M16 4.8a3.5 3.5 0 0 1 0 6.4M18 14.4c2.1.8 3.5 2.8 3.5 5.6" />
                </svg>
                <span class="visually-hidden">"People and resources"</span>
            </button>
        </header>
    }
}

/// The links that switch the main pane (the conversation link returns to
/// the conversation open last; Admin for masters only).
#[component]
pub fn Panes() -> impl IntoView {
    let session = Session::get();
    let chat = Chat::get();
    let admin = crate::admin::Admin::get();
    let people = crate::people::People::get().members();
    let me = session.me_text();
    // A master by the roster's word, or by the core's answer to the configuration read.
    let is_master = move || {
        admin.is_master()
            || people.with(|p| p.iter().any(|m| m.address == me && m.role == "master"))
    };
    let link = move |which: Pane, label: &'static str| {
        let href = move || match which {
            Pane::Conversation => session.path(&Place::Conversation(chat.open_conversation())),
            Pane::Inspector => session.path(&Place::Inspector),
            Pane::Tasks => session.path(&Place::Tasks),
            Pane::Admin => session.path(&Place::Admin),
            _ => session.path(&Place::About),
        };
        view! {
            <li><a href=href aria-current=move || (session.pane() == which).then_some("page")>{label}</a></li>
        }
    };
    view! {
        <nav class="views" aria-label="Views">
            <ul>
                {link(Pane::Conversation, "Conversation")}
                {link(Pane::Tasks, "Tasks")}
                {link(Pane::Inspector, "Inspector")}
                {link(Pane::About, "About")}
                // Only a master sees Admin (the core let it read the configuration).
                {move || is_master().then(|| link(Pane::Admin, "Admin"))}
            </ul>
        </nav>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toggle_opens_its_sheet_closes_it_again_and_replaces_the_other() {
        assert_eq!(Sheet::None.toggled(Sheet::Menu), Sheet::Menu);
        assert_eq!(Sheet::Menu.toggled(Sheet::Menu), Sheet::None);
        assert_eq!(Sheet::Menu.toggled(Sheet::People), Sheet::People);
        assert_eq!(Sheet::People.as_str(), "people");
        assert_eq!(Sheet::default(), Sheet::None);
    }
}
