//! Calls to a network's ANP endpoint, `/networks/{id}/anp/rpc`: the I/O
//! around the core's binding (`agentnet_core::bindings::anp::rpc`). The core
//! answers now, or the call waits for its tool's owner and is answered
//! once the result arrives or the deadline passes.

use crate::host::respond;
use crate::mcp::endpoint::{answer_later, take_call};
use crate::network::object::NetworkHost;
use agentnet_core::NetworkId;
use agentnet_core::bindings;
use agentnet_core::bindings::anp::rpc::{self, Outcome};
use agentnet_core::bindings::mcp::outcome::accepted;
use worker::{Response, Result};

/// The binding's entry from the object (`crate::network::http`).
impl NetworkHost {
    /// Answers an ANP client's call (`NetworkRoute::Anp` of the route table).
    /// The route step (`NetworkHost::route`) has loaded the network.
    pub(crate) async fn serve_anp(
        &self,
        request: bindings::Request,
        id: NetworkId,
    ) -> Result<Response> {
        take_call(self, &request, &id).await?;
        let outcome = self.with_network(|io, network| rpc::handle(io, network, &request))?;
        self.live.mcp.flush();
        match outcome {
            Outcome::Respond(response) => respond(response),
            Outcome::Wait(waiting) => {
                let answer = answer_later(self, waiting, None, |io, network, waiting, arrival| {
                    rpc::finish(io, network, waiting, arrival)
                });
                match answer.await? {
                    Some(answer) => respond(answer),
                    // Cancelled (the object let its waiting requests go): nothing to answer.
                    None => respond(accepted()),
                }
            }
        }
    }
}
