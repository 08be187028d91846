//! Where the answers to one input go: its socket, the HTTP response being
//! collected, a socket held by a gateway, or nowhere (an alarm, a closed socket).

use crate::host::conn::Conn;
use agentnet_core::bindings::Collected;
use std::cell::RefCell;

/// Where the replies of one input go.
pub(crate) enum Origin<'a> {
    /// A WebSocket frame: replies go back on its connection (a socket, or a lane of one).
    Socket(&'a Conn),
    /// An HTTP request: replies are collected for the response.
    Collect(&'a RefCell<Collected>),
    /// A gateway's request: replies go back through it to its socket
    /// (`None`: cursors, presence, nobody to reply to).
    Gateway(
        Option<(
            agentnet_core::gateway::GatewayId,
            agentnet_core::bindings::transport::sockets::SocketId,
        )>,
    ),
    /// An alarm or a closed socket: nobody to reply to.
    Nowhere,
}
