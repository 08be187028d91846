//! What asks for the person's attention: unread counts per conversation
//! ([`unread`]), browser notifications while the tab is hidden ([`notify`]) and Web
//! Push when it is closed ([`push`]).

pub mod notify;
pub mod push;
pub mod unread;
