//! The live transports of a network's HTTP API: the WebSocket upgrade and its
//! frames, the network's sockets (caps, join deadline, bad frames), shared
//! sockets' lanes, and Server-Sent Events streams.

pub mod lanes;
pub mod sockets;
pub mod sse;
pub mod ws;
