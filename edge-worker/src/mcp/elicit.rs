//! Approvals asked of people connected through MCP, carried out: each
//! committed `workspace.approval.requested` becomes the `elicitation/create`
//! requests the core decides (`agentnet_core::bindings::mcp::elicit::asks`),
//! written on the streams it names; once the approval is decided or expires,
//! the requests still out are cancelled (`notifications/cancelled`). A client
//! that opens its stream later is asked the approvals still open
//! ([`elicit_open_approvals`]). The
//! answers come back as POSTs the core's transport turns into decisions.

use crate::host::now;
use crate::mcp::live::McpLive;
use crate::network::component::Component;
use crate::network::object::NetworkHost;
use agentnet_core::Address;
use agentnet_core::bindings::mcp::elicit::{self, Asked};
use agentnet_core::network::Effect;

/// The most approvals whose elicitations are remembered for cancelling (the oldest are forgotten).
const MAX_REMEMBERED: usize = 1_000;

/// Asks and cancels for the approval events committed since the last
/// call, in a task of its own (the commit may run while the network or
/// the streams are borrowed).
pub(crate) fn start_elicitations(host: &NetworkHost) {
    if host.live.mcp.approvals.borrow().is_empty() {
        return;
    }
    let Some(me) = host.me.upgrade() else {
        return;
    };
    worker::wasm_bindgen_futures::spawn_local(async move { elicit(&me) });
}

/// A client opened `stream`: the approvals still open that ask its
/// person are asked there too (its client was away when they were asked).
pub(crate) fn elicit_open_approvals(host: &NetworkHost, stream: &str) -> worker::Result<()> {
    let now = now();
    let open = match host.network.try_borrow() {
        Ok(network) => network
            .as_ref()
            .map(|n| elicit::still_open(n, now))
            .unwrap_or_default(),
        Err(_) => return Ok(()),
    };
    if open.is_empty() {
        return Ok(());
    }
    let store = host.store()?;
    let mut requests = Vec::with_capacity(open.len());
    for approval in open {
        requests.extend(store.event_by_id(&approval.to_string())?);
    }
    // Decided under one borrow of the network and the streams; written after (writing records on the streams).
    let asked: Vec<_> = {
        let (Ok(network), Ok(streams)) = (
            host.network.try_borrow(),
            host.live.mcp.streams.try_borrow(),
        ) else {
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
        host.live.mcp.write(stream, &message);
        remember_asked(host, approval, stream.to_owned(), id);
    }
    Ok(())
}

/// Keeps an elicitation that is out, to cancel it once its approval closes.
fn remember_asked(
    host: &NetworkHost,
    approval: agentnet_core::EventId,
    stream: String,
    id: agentnet_core::bindings::jsonrpc::Id,
) {
    let mut remembered = host.live.mcp.asked.borrow_mut();
    remembered.entry(approval).or_default().push((stream, id));
    while remembered.len() > MAX_REMEMBERED {
        remembered.pop_first();
    }
}

fn elicit(host: &NetworkHost) {
    let events = host.live.mcp.approvals.take();
    let network = match host.network.try_borrow() {
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
            let out = host.live.mcp.asked.borrow_mut().remove(&approval);
            for (stream, id) in out.unwrap_or_default() {
                host.live
                    .mcp
                    .write(&stream, &elicit::cancelled(&id, &decision));
            }
            continue;
        }
        let Some(asked) = Asked::of_request(event) else {
            continue;
        };
        let requests = match host.live.mcp.streams.try_borrow() {
            Ok(streams) => elicit::asks(network, &streams, event, now()),
            Err(_) => {
                worker::console_error!("an approval not asked through MCP: the streams are busy");
                continue;
            }
        };
        for (stream, id, request) in requests {
            host.live.mcp.write(&stream, &request);
            remember_asked(host, asked.approval, stream, id);
        }
    }
}

impl Component<NetworkHost> for McpLive {
    fn observe(&self, effect: &Effect, _taken: &mut Vec<Address>) {
        match effect {
            Effect::Store(_) | Effect::Remove { .. } => self.noticed(effect),
            Effect::Append { event, .. } => self.appended(event),
            Effect::Deliver { to, event, .. } => self.delivered(to, event),
            _ => {}
        }
    }

    /// Wakes the requests deliveries completed and writes the notifications
    /// of what changed; the approvals committed are asked as elicitations.
    fn committed(&self, host: &NetworkHost) {
        self.flush();
        start_elicitations(host);
    }

    fn end_member(&self, member: &Address) {
        McpLive::end_member(self, member);
    }
}
