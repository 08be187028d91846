//! The message list of the open conversation or thread: the list that follows new
//! messages ([`view`]), what it shows as rows ([`rows`]) and each message's line
//! ([`line`]), times as people read them ([`time`]), and opening a conversation at one
//! message ([`jump`]).

pub mod jump;
pub mod line;
pub mod rows;
pub mod time;
pub mod view;
