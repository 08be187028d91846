//! Chat: the conversations (everyone, channels, direct), their messages,
//! threads ([`threads`]) and the composer.
//!
//! [`Chat`] ([`state`]) owns the chat's signals, is provided through Leptos
//! context and sees the replica's effects in [`Chat::on_effect`]: messages
//! received, and what the network made of the person's own (also told to
//! the other tabs of this workspace, [`tabs`]). The models are
//! [`conversations`] and [`messages`]; [`history`] reads what the network
//! kept of a conversation ([`reads`]). The open conversation is [`ChatPane`]
//! ([`pane`]); the rest is in folders by concept:
//!
//! * [`list`]: the message list, its rows and lines, times, jumping to a message;
//! * [`text`]: a message's Markdown, mentions in it, and its plain text;
//! * [`composer`]: writing and posting, `@` completion, up-arrow recall, typing;
//! * [`files`]: attaching files, showing them, the picture viewer;
//! * [`changes`]: edits, deletions and reactions, one's own and what is known of others';
//! * [`agents`]: agents at work on an answer, the tools they used, approvals they ask for;
//! * [`sessions`]: Workspace sessions and the open session's header;
//! * [`attention`]: unread counts, notifications while hidden, Web Push when closed;
//! * [`sidebar`]: the conversation list ([`Conversations`]) and channels.

pub mod agents;
pub mod attention;
pub mod changes;
pub mod composer;
pub mod conversations;
pub mod files;
pub mod history;
pub mod list;
pub mod messages;
pub mod pane;
pub mod reads;
pub mod sessions;
pub mod sidebar;
pub mod state;
pub mod tabs;
pub mod text;
pub mod threads;

pub use pane::ChatPane;
pub use sidebar::view::Conversations;
pub use state::Chat;
