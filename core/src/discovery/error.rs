//! Discovery errors: one enum for every refusal of the discovery service
//! (an invalid ACS document, an unusable agent description, a feed cursor
//! behind the retention window, a bad webhook subscription), each with a
//! stable reason (`DiscoveryError::reason`) and the [`ErrorCode`] it travels under.

use crate::error::{Coded, ErrorCode};

/// Why the discovery service refused something.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiscoveryError {
    /// A required ACS field is absent.
    #[error("ACS field {0} is required")]
    AcsMissing(String),
    /// An ACS field has the wrong JSON type or an empty value.
    #[error("ACS field {field} {expected}")]
    AcsType {
        /// The field's path (`skills[0].tags`).
        field: String,
        /// What it should be.
        expected: &'static str,
    },
    /// An ACS value outside what the spec allows (protocolVersion, transport, scheme type, time, AIC).
    #[error("ACS field {field} is invalid: {detail}")]
    AcsValue {
        /// The field's path.
        field: String,
        /// What is wrong.
        detail: String,
    },
    /// Two skills with one id.
    #[error("ACS skill id {0:?} appears twice")]
    AcsDuplicateSkill(String),
    /// An endpoint's `security` names a scheme `securitySchemes` does not define.
    #[error("ACS endpoint security names unknown scheme {0:?}")]
    AcsUnknownScheme(String),
    /// The ACS `aic` is not the agent's.
    #[error("the ACS aic {0:?} is not this agent's AIC")]
    AcsWrongAic(String),
    /// An agent description that is not a usable ANP document.
    #[error("the agent description is invalid: {0}")]
    BadDescription(String),
    /// A feed cursor older than the oldest change kept: take a snapshot.
    #[error(
        "seq {seq} is behind the retention window (oldest kept: {oldest}); take a new snapshot"
    )]
    BehindRetention {
        /// The caller's seq.
        seq: u64,
        /// The oldest seq still kept.
        oldest: u64,
    },
    /// A query or cursor parameter that does not parse.
    #[error("parameter {name}: {detail}")]
    BadParameter {
        /// The parameter.
        name: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// A webhook subscription that cannot be kept.
    #[error("webhook: {0}")]
    BadWebhook(String),
    /// A URL the outbound policy refuses, or a fetch that gave no answer
    /// ([`crate::outbound`]: `url_invalid`, `url_scheme_refused`,
    /// `url_credentials_refused`, `url_private_address`, `redirect_refused`,
    /// `fetch_failed`).
    #[error("{0}")]
    Outbound(#[from] crate::outbound::OutboundError),
    /// A fetched document larger than allowed.
    #[error("the document is larger than {0} bytes")]
    TooLarge(usize),
    /// Too many submissions from one caller.
    #[error("too many submissions; retry in {retry_after_s} s")]
    RateLimited {
        /// Seconds until one is allowed again.
        retry_after_s: u64,
    },
}

impl DiscoveryError {
    /// An [`DiscoveryError::AcsType`].
    pub fn acs_type(field: impl Into<String>, expected: &'static str) -> Self {
        Self::AcsType {
            field: field.into(),
            expected,
        }
    }

    /// An [`DiscoveryError::AcsValue`].
    pub fn acs_value(field: impl Into<String>, detail: impl Into<String>) -> Self {
        Self::AcsValue {
            field: field.into(),
            detail: detail.into(),
        }
    }

    /// The stable reason carried in HTTP bodies beside the code.
    pub const fn reason(&self) -> &'static str {
        match self {
            Self::AcsMissing(_) => "acs_missing_field",
            Self::AcsType { .. } => "acs_wrong_type",
            Self::AcsValue { .. } => "acs_invalid_value",
            Self::AcsDuplicateSkill(_) => "acs_duplicate_skill",
            Self::AcsUnknownScheme(_) => "acs_unknown_scheme",
            Self::AcsWrongAic(_) => "acs_wrong_aic",
            Self::BadDescription(_) => "invalid_description",
            Self::BehindRetention { .. } => "behind_retention",
            Self::BadParameter { .. } => "invalid_parameter",
            Self::BadWebhook(_) => "invalid_webhook",
            Self::Outbound(e) => e.reason(),
            Self::TooLarge(_) => "description_too_large",
            Self::RateLimited { .. } => "rate_limited",
        }
    }

    /// The HTTP status it is answered with.
    pub const fn status(&self) -> u16 {
        match self {
            Self::BehindRetention { .. } => 410,
            Self::RateLimited { .. } => 429,
            Self::TooLarge(_) => 502,
            Self::Outbound(e) => e.status(),
            _ => 400,
        }
    }

    /// Seconds to wait before asking again (a `retry-after` header), for a refusal that has one.
    pub const fn retry_after(&self) -> Option<u64> {
        match self {
            Self::RateLimited { retry_after_s } => Some(*retry_after_s),
            _ => None,
        }
    }
}

impl Coded for DiscoveryError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::BehindRetention { .. } => ErrorCode::NotFound,
            Self::RateLimited { .. } => ErrorCode::RateLimited,
            _ => ErrorCode::InvalidRequest,
        }
    }
}
