//! The Admin view for masters: managing the running network with
//! `network.admin.*` events, invitations, and `mod/analytics`' counts as charts.
//!
//! [`Admin`] ([`state`]) owns what the view read and sent, provided through
//! Leptos context and fed the replica's effects in [`Admin::on_effect`];
//! [`view`] is the pane (its [`members`] list and other [`sections`]),
//! [`charts`] the bar charts, [`hosted`] the agents the network runs.

pub mod charts;
pub mod hosted;
pub mod members;
pub mod sections;
pub mod state;
pub mod view;

pub use state::Admin;
pub use view::AdminPane;
