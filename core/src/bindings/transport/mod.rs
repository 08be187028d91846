//! The live transports of a network's HTTP API: the WebSocket upgrade and its
//! frames, the network's sockets (caps, join deadline, bad frames), and
//! Server-Sent Events streams.

pub mod sockets;
pub mod sse;
pub mod ws;
