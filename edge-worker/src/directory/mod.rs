//! What the Worker asks the directory (the registry Worker's
//! `DirectoryObject`, one for the deployment) when a network is created or
//! listed ([`requests`]).
//!
//! May use the core, [`crate::host`] and [`crate::handover`] only.

pub mod requests;
