//! The network object (`NetworkObject`, one Durable Object per network):
//! workerd's entry into it ([`entry`]), its state and work ([`object`]), its
//! SQLite rows ([`storage`], [`log_batch`], [`log_pages`], [`graph_store`], [`text_index`],
//! [`sessions`]), its WebSockets ([`sockets`], [`socket_state`], [`inbox`],
//! [`outgoing`]) and SSE streams ([`sse`]), the requests that reach
//! it ([`http`]), the core's effects applied ([`effects`]) and shown to each
//! component of its live state ([`component`], [`live`]), a departed member's
//! credentials ended ([`credentials`]), what a join needs
//! fetched ([`identity`]), its discovery I/O ([`discovery`],
//! [`discovery_queue`]), its shared documents' keeper in the documents Worker
//! ([`documents`], [`documents_queue`]), files of real size in R2 ([`files`],
//! [`file_store`], [`file_releases`]) and its side of the connection gateways
//! ([`gateways`], [`gateway_link`], [`unjoined`]); its test hooks, only with
//! the `test-hooks` feature (`test_hooks`).
//!
//! May use the core, [`crate::host`] and the bindings' I/O folders
//! ([`crate::mcp`], [`crate::a2a`], [`crate::oauth`], [`crate::ioa`]) that run
//! inside this object; never the gateway, registry or directory objects' code
//! (it reaches those objects only through their stubs).

pub mod component;
pub mod credentials;
pub mod discovery;
pub mod discovery_queue;
pub mod documents;
pub mod documents_queue;
pub mod effects;
pub mod entry;
pub mod file_releases;
pub mod file_store;
pub mod files;
pub mod gateway_link;
pub mod gateways;
pub mod graph_store;
pub mod http;
pub mod identity;
pub mod inbox;
pub mod lanes;
pub mod live;
pub mod log_batch;
pub mod log_pages;
pub mod object;
pub mod outgoing;
pub mod sessions;
pub mod socket_state;
pub mod sockets;
pub mod sse;
pub mod storage;
#[cfg(feature = "test-hooks")]
pub mod test_hooks;
pub mod text_index;
pub mod unjoined;
pub mod webpush;
pub mod webpush_queue;
pub mod webpush_store;
