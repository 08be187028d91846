//! Approvals asked of people connected through MCP, carried out: each
//! committed `workspace.approval.requested` becomes the `elicitation/create`
//! requests the core decides (`agentnet_core::bindings::mcp::elicit::asks`),
//! written on the streams it names; once the approval is decided or expires,
//! the requests still out are cancelled (`notifications/cancelled`). The
//! answers come back as POSTs the core's transport turns into decisions.

use crate::host::now_ms;
use crate::network::object::NetworkHost;
use agentnet_core::bindings::mcp::elicit::{self, Asked};

/// The most approvals whose elicitations are remembered for cancelling (the oldest are forgotten).
const MAX_REMEMBERED: usize = 1_000;

impl NetworkHost {
    /// Asks and cancels for the approval events committed since the last
    /// call, in a task of its own (the commit may run while the network or
    /// the streams are borrowed).
    pub(crate) fn start_elicitations(&self) {
        if self.mcp.approvals.borrow().is_empty() {
            return;
        }
        let Some(me) = self.me.upgrade() else {
            return;
        };
        worker::wasm_bindgen_futures::spawn_local(async move { me.elicit() });
    }

    fn elicit(&self) {
        let events = self.mcp.approvals.take();
        let network = match self.network.try_borrow() {
            Ok(network) => network,
            Err(_) => {
                worker::console_error!("approvals not asked through MCP: the network is busy");
                return;
            }
        };
        let Some(network) = network.as_ref() else {
            return;
        };
        for event in &events {
            if let Some((approval, decision)) = elicit::closed(event) {
                let out = self.mcp.asked.borrow_mut().remove(&approval);
                for (stream, id) in out.unwrap_or_default() {
                    self.mcp.write(&stream, &elicit::cancelled(&id, &decision));
                }
                continue;
            }
            let Some(asked) = Asked::of_request(event) else {
                continue;
            };
            let requests = match self.mcp.streams.try_borrow() {
                Ok(streams) => elicit::asks(network, &streams, event, now_ms()),
                Err(_) => {
                    worker::console_error!(
                        "an approval not asked through MCP: the streams are busy"
                    );
                    continue;
                }
            };
            for (stream, id, request) in requests {
                self.mcp.write(&stream, &request);
                let mut remembered = self.mcp.asked.borrow_mut();
                remembered
                    .entry(asked.approval)
                    .or_default()
                    .push((stream, id));
                while remembered.len() > MAX_REMEMBERED {
                    remembered.pop_first();
                }
            }
        }
    }
}
