//! The sidebar of conversations ([`view`]) and creating and leaving channels
//! ([`channels`]).

pub mod channels;
pub mod view;
