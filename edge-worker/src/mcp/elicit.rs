//! Approvals asked of people connected through MCP, carried out: each
//! committed `workspace.approval.requested` becomes the `elicitation/create`
//! requests the core decides (`agentnet_core::bindings::mcp::elicit::asks`),
//! written on the streams it names; once the approval is decided or expires,
//! the requests still out are cancelled (`notifications/cancelled`). A client
//! that opens its stream later is asked the approvals still open
//! ([`NetworkHost::elicit_open_approvals`]). The
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

    /// A client opened `stream`: the approvals still open that ask its
    /// person are asked there too (its client was away when they were asked).
    pub(crate) fn elicit_open_approvals(&self, stream: &str) -> worker::Result<()> {
        let now = now_ms();
        let open = match self.network.try_borrow() {
            Ok(network) => network
                .as_ref()
                .map(|n| elicit::still_open(n, now))
                .unwrap_or_default(),
            Err(_) => return Ok(()),
        };
        if open.is_empty() {
            return Ok(());
        }
        let store = self.store()?;
        let mut requests = Vec::with_capacity(open.len());
        for approval in open {
            requests.extend(store.event_by_id(&approval.to_string())?);
        }
        // Decided under one borrow of the network and the streams; written after (writing records on the streams).
        let asked: Vec<_> = {
            let (Ok(network), Ok(streams)) =
                (self.network.try_borrow(), self.mcp.streams.try_borrow())
            else {
                return Ok(());
            };
            let Some(network) = network.as_ref() else {
                return Ok(());
            };
            requests
                .iter()
                .filter_map(|request| {
                    let (id, message) = elicit::asks_on(network, &streams, stream, request, now)?;
                    Some((request.id, id, message))
                })
                .collect()
        };
        for (approval, id, message) in asked {
            self.mcp.write(stream, &message);
            self.remember_asked(approval, stream.to_owned(), id);
        }
        Ok(())
    }

    /// Keeps an elicitation that is out, to cancel it once its approval closes.
    fn remember_asked(
        &self,
        approval: agentnet_core::EventId,
        stream: String,
        id: agentnet_core::bindings::jsonrpc::Id,
    ) {
        let mut remembered = self.mcp.asked.borrow_mut();
        remembered.entry(approval).or_default().push((stream, id));
        while remembered.len() > MAX_REMEMBERED {
            remembered.pop_first();
        }
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
                self.remember_asked(asked.approval, stream, id);
            }
        }
    }
}
