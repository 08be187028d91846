//! MCP's own JSON-RPC error codes, beside JSON-RPC's
//! ([`crate::bindings::jsonrpc::Code`]): each with its stable number and the
//! revisions that define it.

use crate::bindings::jsonrpc::RpcCode;

/// An MCP error code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum McpError {
    /// A resource that does not exist (-32002; revisions up to 2025-11-25,
    /// later ones answer invalid params).
    ResourceNotFound,
    /// The `Mcp-*` headers do not match the body (-32020; 2026-07-28).
    HeaderMismatch,
    /// The protocol version is not supported (-32022; 2026-07-28).
    UnsupportedProtocolVersion,
}

impl McpError {
    /// Every MCP error code.
    pub const ALL: [Self; 3] = [
        Self::ResourceNotFound,
        Self::HeaderMismatch,
        Self::UnsupportedProtocolVersion,
    ];
}

impl RpcCode for McpError {
    fn code(self) -> i64 {
        match self {
            Self::ResourceNotFound => -32002,
            Self::HeaderMismatch => -32020,
            Self::UnsupportedProtocolVersion => -32022,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_keeps_its_number() {
        let numbers: Vec<i64> = McpError::ALL.into_iter().map(RpcCode::code).collect();
        assert_eq!(numbers, [-32002, -32020, -32022]);
    }
}
