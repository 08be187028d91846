//! Chat: the conversations (everyone, channels, direct), their messages,
//! threads ([`threads`]) and the composer.
//!
//! [`Chat`] ([`state`]) owns the chat's signals, is provided through Leptos
//! context and sees the replica's effects in [`Chat::on_effect`]: messages
//! received, and what the network made of the person's own (also told to
//! the other tabs of this workspace, [`tabs`]). The models are
//! [`conversations`] and [`messages`], what the list shows ([`rows`]) and
//! when ([`time`]); [`history`] reads what the network kept of a
//! conversation. The components are the open conversation ([`ChatPane`]:
//! its [`list`] of [`line`]s in [`markdown`] and the [`composer`]) and the sidebar
//! ([`Conversations`], which creates [`channels`]); [`sessions`] names and
//! updates Workspace sessions; [`unread`] counts what the person has not seen
//! and [`notify`] tells them of what is for them while the tab is hidden,
//! [`push`] (Web Push) when it is closed;
//! [`edits`] edits and deletes the person's own messages; [`reactions`]
//! shows and toggles reactions; [`attach`] and [`attachment_view`] attach
//! files to a message and show them, [`file_view`] shows a file as what it
//! is (and pictures in a viewer); [`jump`] opens a conversation at one
//! message (a search result, a shared link); [`activity`] and [`working`]
//! show agents at work on an answer (with Stop), [`steps`] the tools an
//! agent's answer used, [`approvals`] (with
//! [`approval_cards`]) the cards of approvals agents ask for.

pub mod activity;
pub mod approval_cards;
pub mod approvals;
pub mod attach;
pub mod attachment_view;
pub mod changes;
pub mod channels;
pub mod complete;
pub mod composer;
pub mod conversations;
pub mod edits;
pub mod file_view;
pub mod history;
mod inline;
pub mod jump;
pub mod line;
pub mod list;
pub mod markdown;
pub mod messages;
pub mod notify;
pub mod own;
pub mod pane;
pub mod plain;
pub mod push;
pub mod reaction_counts;
pub mod reactions;
pub mod reads;
pub mod recall;
pub mod rows;
pub mod session_header;
pub mod sessions;
pub mod sidebar;
pub mod state;
pub mod steps;
pub mod tabs;
pub mod threads;
pub mod time;
pub mod typing;
pub mod unread;
pub mod working;

pub use pane::ChatPane;
pub use sidebar::Conversations;
pub use state::Chat;
