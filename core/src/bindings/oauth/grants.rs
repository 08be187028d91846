//! What the authorization server keeps, and the host I/O that keeps it.
//!
//! * A registered [`Client`] (RFC 7591): its id, name and redirect URIs.
//! * A [`Grant`]: an authorization code, an access token or a refresh token,
//!   stored under the SHA-256 of its secret (the secret itself is never
//!   stored), with the member it acts as, the client, the resource (this
//!   network's MCP endpoint) and when it expires. One consent's code and
//!   every token it led to share a `family`: a code or refresh token used
//!   twice ends the whole family (OAuth 2.1 §4.1.3, §4.3.1).
//!
//! The host stores rows; every rule is in this module's callers.

use crate::bindings::exchange::BindingHost;
use crate::crypto::{sha256_hex, to_hex};
use crate::ids::time::Timestamp;
use serde::{Deserialize, Serialize};

/// A registered client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Client {
    /// Its id, issued at registration.
    pub client_id: String,
    /// The name it gave, shown on the consent page.
    #[serde(default)]
    pub client_name: Option<String>,
    /// Where codes may be sent: an authorization request names one exactly.
    pub redirect_uris: Vec<String>,
    /// When it registered (unix seconds, as RFC 7591 writes it).
    pub client_id_issued_at: u64,
}

/// What a grant's secret is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GrantKind {
    /// An authorization code, redeemed once at the token endpoint.
    Code,
    /// An access token for the MCP endpoint.
    Access,
    /// A refresh token, exchanged once for new tokens.
    Refresh,
}

/// A stored code or token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant {
    /// What it is.
    pub kind: GrantKind,
    /// The member it acts as.
    pub address: String,
    /// The client it was issued to.
    pub client_id: String,
    /// The resource it is for (the MCP endpoint's URL).
    pub resource: String,
    /// The consent it descends from.
    pub family: String,
    /// When it stops being valid.
    pub expires_at: Timestamp,
    /// A code or refresh token that was redeemed (kept to notice a second use).
    #[serde(default)]
    pub used: bool,
    /// A code's redirect URI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_uri: Option<String>,
    /// A code's S256 challenge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_challenge: Option<String>,
}

/// What the authorization server needs from a host besides [`BindingHost`].
/// A member's grants end with its membership ([`crate::host::credentials`]).
pub trait OAuthHost: BindingHost {
    /// The client registered under `client_id`.
    fn oauth_client(&mut self, client_id: &str) -> Result<Option<Client>, Self::Error>;
    /// Registers a client.
    fn add_oauth_client(&mut self, client: &Client) -> Result<(), Self::Error>;
    /// The grant stored under a secret's SHA-256 (lowercase hex).
    fn oauth_grant(&mut self, sha256: &str) -> Result<Option<Grant>, Self::Error>;
    /// Stores a grant (new or changed) under a secret's SHA-256.
    fn save_oauth_grant(&mut self, sha256: &str, grant: &Grant) -> Result<(), Self::Error>;
    /// Ends every grant of a family.
    fn end_oauth_family(&mut self, family: &str) -> Result<(), Self::Error>;
    /// Deletes the grants expired at or before `now`.
    fn prune_oauth_grants(&mut self, now: Timestamp) -> Result<(), Self::Error>;
}

/// A fresh random secret (64 hex characters).
pub fn secret<H: BindingHost>(host: &mut H) -> String {
    to_hex(&host.random_seed())
}

/// Stores `grant` under a fresh secret; returns the secret.
pub fn issue<H: OAuthHost>(host: &mut H, grant: &Grant) -> Result<String, H::Error> {
    let secret = secret(host);
    host.save_oauth_grant(&sha256_hex(secret.as_bytes()), grant)?;
    Ok(secret)
}

/// The grant a presented secret names, with the hash it is stored under.
pub fn look_up<H: OAuthHost>(
    host: &mut H,
    secret: &str,
) -> Result<Option<(String, Grant)>, H::Error> {
    let hash = sha256_hex(secret.as_bytes());
    Ok(host.oauth_grant(&hash)?.map(|grant| (hash, grant)))
}
