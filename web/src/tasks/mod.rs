//! Tasks (ACPs AIP, the same tasks A2A callers see): the person's tasks in
//! one network, each with its state, conversation and artifacts, started
//! and cancelled from here.
//!
//! [`Tasks`] ([`state`]) owns the list (read with `task.list`, answered by
//! the core) and the person's task events in flight; it is provided through
//! Leptos context. Once a view that shows tasks has opened
//! ([`Tasks::follow`]), it sees the replica's effects: a `task.*` event from
//! the other side (progress, an artifact, a new state) or the network's ack
//! of the person's own reads the list again. What the
//! page reads from a listing is in [`model`], the views in [`view`].

pub mod model;
pub mod state;
pub mod view;

pub use state::Tasks;
pub use view::TasksPane;
