//! The directory (`DirectoryObject`, one for the deployment): the list of
//! public networks and the count of recent creations ([`object`]), and what
//! the Worker asks of it when a network is created or listed ([`requests`]).
//!
//! May use the core and [`crate::host`] only.

pub mod object;
pub mod requests;
