//! Files in the conversation: what the person attaches and what messages carry
//! ([`attach`], big files to the network's file store), how the page shows them
//! ([`attachment_view`]) and a file as what it is, pictures in a viewer ([`file_view`]).

pub mod attach;
pub mod attachment_view;
pub mod file_view;
