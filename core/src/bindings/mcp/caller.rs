//! Who an MCP method is called by: the member, the revision it speaks, the
//! request's id and its legacy session — what every method's answer depends
//! on besides its params — and [`MethodCall`], a call being answered: the
//! host and network it runs on, with its caller.

use super::results::cacheable;
use super::revision::Revision;
use super::waiting::{Reply, WaitFor, Waiting};
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::Id;
use crate::bindings::member::{Submitted, discover, submit_core};
use crate::{Address, Network};
use serde_json::{Value, json};

/// Who asks, in which revision, under which request id.
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    /// The member the request is authenticated as.
    pub member: &'a Address,
    /// The revision it speaks.
    pub revision: Revision,
    /// The request's id.
    pub request: &'a Id,
    /// The legacy session, if any.
    pub session: Option<&'a str>,
}

/// A method (or tool) call being answered: what it runs on and who calls.
pub struct MethodCall<'c, H> {
    /// The host, for time, randomness and what it keeps.
    pub host: &'c mut H,
    /// The network the call acts in.
    pub network: &'c mut Network,
    /// Who calls.
    pub caller: &'c Caller<'c>,
}

impl<H: BindingHost> MethodCall<'_, H> {
    /// The same call, borrowed again: to hand on and still have.
    pub fn reborrow(&mut self) -> MethodCall<'_, H> {
        MethodCall {
            host: self.host,
            network: self.network,
            caller: self.caller,
        }
    }

    /// Sends the core event `kind` (to `target`, else to `core`) as the
    /// caller, and what the network answered.
    pub fn submit_core(
        &mut self,
        kind: &'static str,
        target: Option<Address>,
        payload: Value,
    ) -> Result<Submitted, H::Error> {
        submit_core(
            self.host,
            self.network,
            self.caller.member,
            kind,
            target,
            payload,
        )
    }

    /// The caller's request waiting, for `wait_ms` at the most, for `wait`.
    pub fn waiting(&self, wait_ms: u64, wait: WaitFor) -> Waiting {
        let caller = self.caller;
        Waiting {
            request: caller.request.clone(),
            revision: caller.revision,
            member: caller.member.clone(),
            session: caller.session.map(str::to_owned),
            deadline: self.host.now().plus_millis(wait_ms),
            wait,
        }
    }

    /// A `*/list` result, `{key: [...]}` (cacheable from 2026-07-28): the
    /// resources the member may see (only those of `kind` when named, found
    /// with `network.resource.discover`) made entries by `entries`; the
    /// network's refusal of the discovery is the error.
    pub fn list(
        self,
        kind: Option<&str>,
        key: &str,
        entries: impl FnOnce(&Network, &Caller<'_>, Vec<Value>) -> Vec<Value>,
    ) -> Result<Reply, H::Error> {
        let Self {
            host,
            network,
            caller,
        } = self;
        Ok(match discover(host, network, caller.member, kind)? {
            Ok(found) => {
                let listed = entries(network, caller, found);
                Reply::Result(cacheable(caller.revision, json!({ key: listed })))
            }
            Err(error) => Reply::Error(error),
        })
    }
}
