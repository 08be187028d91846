//! A member's credentials end with its membership: every way a member stops
//! being one — it leaves, a master removes or bans it, retention forgets it,
//! a master archives the network (every member at once) — comes to the host as one [`Effect::EndCredentials`], and the host ends
//! everything that lets a client act as that member, through [`end_all`].
//!
//! Which credentials there are is decided here, once: a host implements one
//! method per kind ([`Credentials`]), so a kind added later is a compile
//! error in every host until it ends it too. After [`end_all`], someone who
//! joins under the same address later starts with nothing of the old
//! member's: its access tokens, refresh tokens, MCP sessions, session tokens
//! and tickets are refused, and its sockets and streams are closed.
//!
//! An archived network keeps its roster and its log as history, but nobody
//! acts in it any more: no session, token or stream of its members outlives
//! the archive, and joins are refused.
//!
//! [`Effect::EndCredentials`]: crate::network::Effect::EndCredentials

use crate::ids::address::Address;

/// What a host holds for a member, one method per kind of credential.
pub trait Credentials {
    /// The host's error.
    type Error;
    /// Closes its WebSockets (those a gateway holds too).
    fn close_sockets(&mut self, member: &Address) -> Result<(), Self::Error>;
    /// Closes its event streams: `v1/sse`, the MCP endpoint's SSE streams,
    /// and any other open response that streams to it.
    fn close_streams(&mut self, member: &Address) -> Result<(), Self::Error>;
    /// Ends its session tokens and its unused socket tickets.
    fn end_sessions(&mut self, member: &Address) -> Result<(), Self::Error>;
    /// Ends its OAuth grants: codes, access tokens and refresh tokens.
    fn end_oauth_grants(&mut self, member: &Address) -> Result<(), Self::Error>;
    /// Ends its MCP sessions (and the requests waiting in them).
    fn end_mcp_sessions(&mut self, member: &Address) -> Result<(), Self::Error>;
}

/// Ends every credential `member` holds: first what is stored (so no request
/// that races the close finds a credential still valid), then what is open.
pub fn end_all<H: Credentials>(host: &mut H, member: &Address) -> Result<(), H::Error> {
    host.end_sessions(member)?;
    host.end_oauth_grants(member)?;
    host.end_mcp_sessions(member)?;
    host.close_sockets(member)?;
    host.close_streams(member)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Ended(Vec<&'static str>);

    /// Each method of [`Credentials`], recording the kind it ends by name.
    macro_rules! recording {
        ($($method:ident => $kind:literal),* $(,)?) => {
            $(fn $method(&mut self, _: &Address) -> Result<(), Self::Error> {
                self.0.push($kind);
                Ok(())
            })*
        };
    }

    impl Credentials for Ended {
        type Error = std::convert::Infallible;
        recording! {
            close_sockets => "sockets",
            close_streams => "streams",
            end_sessions => "sessions",
            end_oauth_grants => "oauth",
            end_mcp_sessions => "mcp",
        }
    }

    #[test]
    fn every_kind_ends_what_is_stored_before_what_is_open() {
        let mut ended = Ended::default();
        let Ok(()) = end_all(&mut ended, &"agent:x".parse().unwrap());
        assert_eq!(ended.0, ["sessions", "oauth", "mcp", "sockets", "streams"]);
    }
}
