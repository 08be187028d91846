//! JSON-RPC error codes: [`RpcCode`], the trait of every protocol's code
//! enum, and [`Code`], the ones JSON-RPC 2.0 reserves plus agentnet's refusal.

/// A JSON-RPC error code with a stable number: [`Code`] and each protocol's own.
pub trait RpcCode: Copy {
    /// The number sent as `error.code`.
    fn code(self) -> i64;
}

/// The codes JSON-RPC 2.0 reserves (§5.1), and agentnet's refusal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// Invalid JSON was received (-32700).
    ParseError,
    /// The JSON sent is not a valid request object (-32600).
    InvalidRequest,
    /// The method does not exist or is not available (-32601).
    MethodNotFound,
    /// Invalid method parameters (-32602).
    InvalidParams,
    /// Internal error (-32603).
    InternalError,
    /// The network refused what the request asked (-31000, agentnet's own,
    /// outside the reserved range; `data.code` says which, e.g. `rate_limited`).
    NetworkRefused,
}

impl Code {
    /// Every code.
    pub const ALL: [Self; 6] = [
        Self::ParseError,
        Self::InvalidRequest,
        Self::MethodNotFound,
        Self::InvalidParams,
        Self::InternalError,
        Self::NetworkRefused,
    ];

    /// The code of `number`, if it is one of these.
    pub fn of(number: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.code() == number)
    }
}

impl RpcCode for Code {
    fn code(self) -> i64 {
        match self {
            Self::ParseError => -32700,
            Self::InvalidRequest => -32600,
            Self::MethodNotFound => -32601,
            Self::InvalidParams => -32602,
            Self::InternalError => -32603,
            Self::NetworkRefused => -31000,
        }
    }
}
