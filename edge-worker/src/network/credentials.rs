//! The object's side of [`agentnet_core::host::credentials`]: where each
//! kind of credential a member holds lives here, and how it ends. The core
//! says when ([`agentnet_core::network::Effect::EndCredentials`], applied in
//! [`crate::network::effects`]) and which kinds there are.

use crate::mcp::store as mcp_store;
use crate::network::component::Component;
use crate::network::object::NetworkHost;
use crate::network::storage::Store;
use crate::oauth::store as oauth_store;
use agentnet_core::Address;
use agentnet_core::host::credentials::Credentials;
use worker::{Error, SqlStorage};

/// A member's credentials in the network's object.
pub(crate) struct MemberCredentials<'a> {
    pub(crate) host: &'a NetworkHost,
    pub(crate) store: &'a Store,
}

impl MemberCredentials<'_> {
    fn sql(&self) -> SqlStorage {
        self.host.state.storage().sql()
    }
}

impl Credentials for MemberCredentials<'_> {
    type Error = Error;

    fn close_sockets(&mut self, member: &Address) -> Result<(), Error> {
        // A gateway's sockets close on the message the effect is routed as.
        self.host.close_member_sockets(member);
        Ok(())
    }

    fn close_streams(&mut self, member: &Address) -> Result<(), Error> {
        // Every component's: the network's SSE streams, MCP's, A2A's, IOA's.
        self.host
            .live
            .each(|c: &dyn Component<NetworkHost>| c.end_member(member));
        Ok(())
    }

    fn end_sessions(&mut self, member: &Address) -> Result<(), Error> {
        self.store.end_sessions(&member.to_string())
    }

    fn end_oauth_grants(&mut self, member: &Address) -> Result<(), Error> {
        oauth_store::end_member(&self.sql(), &member.to_string())
    }

    fn end_mcp_sessions(&mut self, member: &Address) -> Result<(), Error> {
        mcp_store::end_member(&self.sql(), member)
    }
}
