//! Signed links to a stored file: what lets a picture's `<img src>` or a
//! download link fetch the bytes without a session header.
//!
//! A link names the member it was made for and when it expires, signed with
//! the network's link key (HMAC-SHA256, a secret the host keeps and never
//! answers). Fetching it checks the signature and the time, and then — as
//! the network is *now* — that the member may still read the file: a member
//! who left, or was taken off the channel, holds a link that no longer works.

use super::{FileError, FileId};
use crate::NetworkId;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How long a link works (1 hour): long enough to watch a video through,
/// short enough that a copied link goes stale.
pub const LINK_TTL_MS: u64 = 60 * 60 * 1000;

/// The parts of a link's query: `member`, `expires`, `sig`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// Whom it was made for.
    pub member: Address,
    /// When it stops working (written as milliseconds since the epoch).
    pub expires_at: Timestamp,
    /// The signature, base64url.
    pub sig: String,
}

fn mac(
    key: &[u8; 32],
    network: &NetworkId,
    file: &FileId,
    member: &Address,
    expires_at: Timestamp,
) -> Hmac<Sha256> {
    // A key of any length is accepted by HMAC; 32 bytes never fails.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key)
        .unwrap_or_else(|_| unreachable!("HMAC takes keys of any length"));
    mac.update(format!("agentnet-file-link\n{network}\n{file}\n{member}\n{expires_at}").as_bytes());
    mac
}

/// A link for `member` to `file`, working until `now` + [`LINK_TTL_MS`].
pub fn sign(
    key: &[u8; 32],
    network: &NetworkId,
    file: &FileId,
    member: &Address,
    now: Timestamp,
) -> Link {
    let expires_at = now.plus_millis(LINK_TTL_MS);
    let sig = URL_SAFE_NO_PAD.encode(
        mac(key, network, file, member, expires_at)
            .finalize()
            .into_bytes(),
    );
    Link {
        member: member.clone(),
        expires_at,
        sig,
    }
}

/// The member a link was made for, when its signature holds and it has not expired.
pub fn verify(
    key: &[u8; 32],
    network: &NetworkId,
    file: &FileId,
    link: &Link,
    now: Timestamp,
) -> Result<Address, FileError> {
    if now >= link.expires_at {
        return Err(FileError::BadLink);
    }
    let sig = URL_SAFE_NO_PAD
        .decode(&link.sig)
        .map_err(|_| FileError::BadLink)?;
    mac(key, network, file, &link.member, link.expires_at)
        .verify_slice(&sig)
        .map_err(|_| FileError::BadLink)?;
    Ok(link.member.clone())
}

impl Link {
    /// The link's query, `member=…&expires=…&sig=…` (percent-encoded).
    pub fn query(&self) -> String {
        let member: String =
            url::form_urlencoded::byte_serialize(self.member.to_string().as_bytes()).collect();
        format!(
            "member={member}&expires={}&sig={}",
            self.expires_at, self.sig
        )
    }

    /// A link read from a request's query values; `None` when one is missing or malformed.
    pub fn from_query(
        member: Option<String>,
        expires: Option<String>,
        sig: Option<String>,
    ) -> Option<Self> {
        Some(Self {
            member: member?.parse().ok()?,
            expires_at: Timestamp::from_millis(expires?.parse().ok()?),
            sig: sig?,
        })
    }
}
