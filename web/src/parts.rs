//! The workspace's split points: each part a newcomer does not need to read
//! a conversation loads from its own chunk when first opened
//! ([`crate::lazy`]). Their state lives in the first chunk (each feature's
//! `provide` in `lib.rs`), so only views move here. (The shared documents'
//! engine is a chunk too: [`crate::documents::engine`]. So are the emoji
//! picker and the Join and Create forms, whose split points stand beside the
//! buttons that open them, in `emoji::opener` and `networks::bar`: the
//! conversation's views import those, and importing this module back would
//! close an import circle.)

use crate::lazy::split_views;
use leptos::prelude::*;

split_views! {
    /// The Admin pane: the network's settings, members, charts and hosted agents.
    admin_pane in admin_pane_chunk => view! { <crate::admin::AdminPane /> };
    /// The event inspector with its replay.
    inspector in inspector_chunk => view! { <crate::inspector::Inspector /> };
    /// A shared document's page: the editor and its preview.
    document_page in document_page_chunk => view! { <crate::documents::page::DocumentPage /> };
    /// The tasks pane: the list, or one task.
    tasks_pane in tasks_pane_chunk => view! { <crate::tasks::TasksPane /> };
    /// The network's About page.
    about in about_chunk => {
        let network = crate::session::Session::get().network_name();
        view! { <crate::profile::About network /> }
    };
    /// The Directory: public networks and agents found by capability.
    directory in directory_chunk => view! { <crate::directory::Directory /> };
    /// The search panel and its results.
    search_panel in search_panel_chunk => view! { <crate::search::view::SearchPanel /> };
    /// The invitation page (`/invite/{network}#{code}`), which a person sees once.
    invite_page in invite_page_chunk => view! { <crate::invite::InvitePage /> };
    /// The picture viewer for attachments.
    lightbox in lightbox_chunk => view! { <crate::chat::files::file_view::Lightbox /> };
}
