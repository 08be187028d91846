//! Why an outbound fetch was refused or gave nothing: one stable reason per
//! case ([`OutboundError::reason`]), under [`ErrorCode::InvalidRequest`],
//! answered 400 (the URL) or 502 (the fetch).
//!
//! A target that could not be reached, refused the connection, reset it or
//! did not answer in time is one case, [`OutboundError::Unreachable`], with
//! one text: what the edge tells a caller must not say which of those
//! happened, or its answers would map someone else's ports.

use crate::error::{Coded, ErrorCode};

/// Why the edge does not fetch a URL, or why a fetch gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OutboundError {
    /// Not a URL the WHATWG URL parser reads (or longer than allowed); its
    /// host names are ASCII ([`crate::outbound`]).
    #[error(
        "the URL could not be read (a host name is ASCII: write an internationalized one as xn--…)"
    )]
    Invalid,
    /// A scheme other than `http` or `https`.
    #[error("only http and https URLs are fetched, not {0:?}")]
    Scheme(String),
    /// A user name or password in the URL.
    #[error("URLs with credentials (user:password@) are not fetched")]
    Credentials,
    /// A host that is this machine, a private network, a link or otherwise
    /// not public, as the URL parser reads it.
    #[error("{0} is a private, loopback or link-local address: not fetched")]
    Private(String),
    /// The target answered with a redirect (redirects are not followed).
    #[error("the target answered with a redirect, which is not followed")]
    Redirect,
    /// No answer: whatever the reason, the same text.
    #[error("the target could not be reached or did not answer")]
    Unreachable,
}

impl OutboundError {
    /// The stable reason carried beside the code.
    pub const fn reason(&self) -> &'static str {
        match self {
            Self::Invalid => "url_invalid",
            Self::Scheme(_) => "url_scheme_refused",
            Self::Credentials => "url_credentials_refused",
            Self::Private(_) => "url_private_address",
            Self::Redirect => "redirect_refused",
            Self::Unreachable => "fetch_failed",
        }
    }

    /// True for a refusal of the URL itself (nothing was sent).
    pub const fn is_refusal(&self) -> bool {
        !matches!(self, Self::Redirect | Self::Unreachable)
    }

    /// The HTTP status it is answered with: 400 for the URL, 502 for the fetch.
    pub const fn status(&self) -> u16 {
        if self.is_refusal() { 400 } else { 502 }
    }

    /// `{reason}: {message}`, the text refusals carry.
    pub fn described(&self) -> String {
        format!("{}: {self}", self.reason())
    }
}

impl Coded for OutboundError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRequest
    }
}
