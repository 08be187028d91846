//! Documents: files and contexts opened from the resources panel.
//!
//! Text is a live shared document (Automerge in the core's replica, loaded
//! when first needed from the chunk of [`engine`], edited in [`live`], the
//! open ones kept across reloads and reopened by [`open`]);
//! structured JSON context is read whole and saved ([`editor`], its content
//! in [`content`]); [`page`] shows one on a page of its own, at its URL,
//! titled by its name. Around the text, [`labels`] says why a document is
//! read-only, and Markdown has a rendered [`preview`].
//! [`Documents`] ([`state`]) owns their signals and the read
//! and save in flight, is provided through Leptos context and sees the
//! replica's effects in [`Documents::on_effect`].

pub mod content;
pub mod editor;
#[cfg(feature = "documents")]
pub mod engine;
#[cfg(feature = "documents")]
mod frames;
pub mod labels;
pub mod live;
pub mod open;
pub mod page;
pub mod preview;
pub mod state;
#[cfg(feature = "documents")]
pub(crate) mod timing;

pub use state::Documents;
