//! Workspace sessions: what each session channel is called and where it stands
//! ([`model`]), and the open session's header with its form ([`header`]).

pub mod header;
pub mod model;
