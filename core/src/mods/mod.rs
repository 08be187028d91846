//! Mods: ordered interceptors of the event pipeline (ONM §7).
//!
//! A mod has an address (`mod/{name}`), the event-type patterns it
//! intercepts, a priority (lower runs earlier) and a mode:
//!
//! | mode | may change the event | may reject | may emit |
//! |---|---|---|---|
//! | guard | no | yes | no |
//! | transform | yes | no | yes |
//! | observe | no | no | yes |
//!
//! The [`Pipeline`] runs the guards, then the transforms, then the observers,
//! each group by priority. A network's mods are configuration
//! ([`ModConfig`](crate::model::config::ModConfig)): a bare network loads none.

mod access_control;
mod analytics;
pub mod api;
mod auth;
mod enrichment;
mod persistence;
pub mod pipeline;
mod rate_limiter;
pub mod workspace;

pub use access_control::check_resource_permissions;
pub use analytics::Analytics;
pub use api::{Command, Context, JoinClaim, LoggedEvents, Mod, ModMode, ModSpec, NoLog, Outbox};
pub use pipeline::Pipeline;
