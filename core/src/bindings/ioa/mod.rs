//! IOA (Internet of Agents v0.1, docs/protocols.md) served per network at
//! `/networks/{id}/ioa`, so an unmodified IOA client pointed at that base
//! URL works. The mapping (docs/ioa.md):
//!
//! * a space is a channel (idempotent by name, tags kept) — [`spaces`];
//! * a node is a member; `/auth/register` joins under the network's access
//!   policy and its token is a network session — [`nodes`];
//! * a message is an [`wire::MESSAGE_TYPE`] event with IOA's fields, its id
//!   the event id, `created_at` the event time; `refs` are the event's
//!   `metadata.refs`, checked by the network — [`wire`], [`send`], [`apps`], [`schema`];
//! * reads walk the message graph's index — [`reads`]; live streams — [`stream`];
//! * routes and who calls — [`routes`]; errors as IOA's — [`refusal`].
//!
//! Every route but `/health`, `/ready` and `/auth/register` takes
//! `Authorization: Bearer <token>`, and the token alone says who calls: a
//! client's `X-Node-ID` is ignored (IOA's reference server lets it override
//! the token). Errors are `{"detail": "…"}` with IOA's status codes.

pub mod apps;
pub mod nodes;
pub mod reads;
pub mod refusal;
pub mod routes;
pub mod schema;
pub mod send;
pub mod spaces;
pub mod stream;
pub mod wire;

#[cfg(test)]
mod tests;

pub use refusal::Refusal;
pub use routes::{Handled, Target, handle};
