//! OAuth 2.1 for the MCP endpoint: every network is its own authorization
//! server, so a standard MCP client connects with no hand-copied token. The
//! consent step is joining the network.
//!
//! The flow an MCP client drives (MCP authorization, revisions 2025-06-18
//! and 2025-11-25): a `401` from `/networks/{id}/mcp` points to its
//! protected-resource metadata, which names the issuer
//! `{origin}/networks/{id}`; the issuer's metadata
//! (`/.well-known/oauth-authorization-server/networks/{id}`) names the
//! endpoints; the client registers (RFC 7591), sends the person to the
//! consent page with a PKCE challenge and the `resource`, gets a code back
//! at its redirect URI, and trades it at the token endpoint for an access
//! token that makes MCP requests that member's, as a session token does.
//!
//! | module | what |
//! |---|---|
//! | [`metadata`] | the issuer, its endpoints and metadata (RFC 8414) |
//! | [`routes`] | which path is which endpoint; answering a request ([`routes::handle`]) |
//! | [`register`], [`cimd`] | dynamic client registration (RFC 7591); client ID metadata documents |
//! | [`authorize`], [`consent`] | the authorization request; the consent page and its join |
//! | [`token`] | codes and refresh tokens for tokens; access tokens at the MCP endpoint |
//! | [`grants`] | clients, codes and tokens (hashed) and the host's store ([`grants::OAuthHost`]) |
//! | [`pkce`], [`uris`], [`form`], [`errors`] | S256; redirect URIs and resources; form encoding; error shapes |

pub mod authorize;
pub mod cimd;
pub mod consent;
pub mod errors;
pub mod form;
pub mod grants;
pub mod metadata;
pub mod pkce;
pub mod register;
pub mod routes;
pub mod token;
pub mod uris;

#[cfg(test)]
mod tests;
