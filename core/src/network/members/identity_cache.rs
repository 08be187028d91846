//! The JWKS and DID documents a network's host fetched for joins (levels 2
//! and 3), each kept [`IDENTITY_TTL_MS`], and what a join still needs ([`Lookup`]).

use crate::bounded::trim_oldest;
use crate::identity::did::Did;
use crate::identity::error::IdentityError;
use crate::identity::jwt::Jwks;
use crate::ids::time::Timestamp;
use serde_json::Value;
use std::collections::BTreeMap;

/// How long a fetched JWKS or DID document is trusted.
pub const IDENTITY_TTL_MS: u64 = 10_000;
/// Most cached entries of each kind (the oldest go first).
const MAX_CACHED: usize = 1_000;

/// Something the host must fetch before handing a join to the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// The JWKS of a trusted issuer: `{issuer}/.well-known/jwks.json`.
    Jwks {
        /// The issuer (an origin).
        issuer: String,
    },
    /// A DID document: `did:openagents` from the deployment's registry,
    /// `did:wba` from [`Did::document_url`].
    Document {
        /// The DID.
        did: Did,
    },
}

impl Lookup {
    /// Where a JWKS lives.
    pub fn jwks_url(issuer: &str) -> String {
        format!("{}/.well-known/jwks.json", issuer.trim_end_matches('/'))
    }
}

/// Fetched identity material, each with the time it was fetched.
#[derive(Debug, Clone, Default)]
pub struct IdentityCache {
    pub(crate) jwks: BTreeMap<String, (Result<Jwks, IdentityError>, Timestamp)>,
    pub(crate) documents: BTreeMap<String, (Result<Value, IdentityError>, Timestamp)>,
}

pub(crate) fn fresh<T>(entry: Option<&(T, Timestamp)>, now: Timestamp) -> Option<&T> {
    entry
        .filter(|(_, at)| at.plus_millis(IDENTITY_TTL_MS) > now)
        .map(|(value, _)| value)
}

pub(crate) fn bounded<T>(map: &mut BTreeMap<String, (T, Timestamp)>) {
    trim_oldest(map, MAX_CACHED - 1, |(_, at)| *at);
}
