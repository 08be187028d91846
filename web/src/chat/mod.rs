//! Chat: the conversations (everyone, channels, direct), their messages,
//! replies and the composer.
//!
//! [`Chat`] ([`state`]) owns the chat's signals, is provided through Leptos
//! context and sees the replica's effects in [`Chat::on_effect`]: messages
//! received, and what the network made of the person's own (also told to
//! the other tabs of this workspace, [`tabs`]). The models are
//! [`conversations`] and [`messages`]; the components are the open
//! conversation ([`ChatPane`]) and the sidebar ([`Conversations`]);
//! [`sessions`] names and updates Workspace sessions.

pub mod conversations;
pub mod messages;
pub mod pane;
pub mod session_header;
pub mod sessions;
pub mod sidebar;
pub mod state;
pub mod tabs;

pub use pane::ChatPane;
pub use sidebar::Conversations;
pub use state::Chat;
