//! Why a Web Push key, subscription or message was refused.

use crate::error::{Coded, ErrorCode};

/// What went wrong with a Web Push key, subscription or message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebPushError {
    /// A field is not base64url, or not of its length.
    #[error("{0} is not valid: {1}")]
    Malformed(&'static str, &'static str),
    /// A public key is not a point of P-256, or a secret not a P-256 scalar.
    #[error("{0} is not a P-256 key")]
    BadKey(&'static str),
    /// The message does not fit in one record (push services take 4096 bytes).
    #[error("the notification is {0} bytes: too large for one push message")]
    TooLarge(usize),
    /// An encrypted message that does not decrypt (a receiver's check).
    #[error("the push message does not decrypt")]
    Undecryptable,
}

impl Coded for WebPushError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::TooLarge(_) => ErrorCode::TooLarge,
            Self::Undecryptable => ErrorCode::VerificationFailed,
            Self::Malformed(..) | Self::BadKey(_) => ErrorCode::InvalidRequest,
        }
    }
}
