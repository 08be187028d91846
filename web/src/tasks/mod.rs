//! Tasks (ACPs AIP, the same tasks A2A callers see): the person's tasks in
//! one network, each with its state, conversation and artifacts, started
//! and cancelled from here.
//!
//! [`Tasks`] ([`state`]) owns the list (read with `task.list`, answered by
//! the core) and the person's task events in flight; it is provided through
//! Leptos context and sees the replica's effects in [`Tasks::on_effect`]: a
//! `task.*` event from the other side (progress, an artifact, a new state)
//! or the network's ack of the person's own reads the list again. What the
//! page reads from a listing is in [`model`], the views in [`view`].

pub mod model;
pub mod state;
pub mod view;

pub use state::Tasks;
pub use view::TasksPane;
