//! The network object's live state, one component per concern
//! ([`crate::network::component`] says what a component does): the
//! network's own SSE streams, each binding's streams and waiting requests,
//! and what waits for a commit.
//!
//! A new binding's live state is one more field here and one more line of
//! [`Components::each`]; the object hands every effect, commit and departed
//! member to them all through it (`crate::network::effects`).

use crate::a2a::live::{Outbound, Watchers};
use crate::agents::HostedLive;
use crate::ioa::live::IoaStreams;
use crate::mcp::live::McpLive;
use crate::network::component::Component;
use crate::network::discovery_queue::DiscoveryIo;
use crate::network::documents_queue::DocumentsIo;
use crate::network::file_releases::Releases;
use crate::network::sse::SseStreams;
use crate::network::webpush_queue::PushQueue;

/// Every component of the object's live state.
#[derive(Default)]
pub(crate) struct Components {
    /// The network's own Server-Sent Events streams (`/v1/sse`).
    pub(crate) sse: SseStreams,
    /// The MCP endpoint's streams, waiting requests and notices.
    pub(crate) mcp: McpLive,
    /// A2A requests that wait for a task's changes.
    pub(crate) a2a: Watchers,
    /// Open IOA streams.
    pub(crate) ioa: IoaStreams,
    /// Deliveries to external A2A agents, waiting to become calls.
    pub(crate) outbound: Outbound,
    /// Discovery queries, listing and directory updates waiting for a commit.
    pub(crate) discovery: DiscoveryIo,
    /// Asks of the shared documents' keeper waiting for a commit.
    pub(crate) documents: DocumentsIo,
    /// Events whose Web Push notices wait for their commit; the VAPID key.
    pub(crate) webpush: PushQueue,
    /// Committed events that may release stored files.
    pub(crate) releases: Releases,
    /// The hosted agents' loops and what waits for them.
    pub(crate) hosted: HostedLive,
}

impl Components {
    /// Visits every component, in the order they see effects and commits.
    pub(crate) fn each<Host>(&self, mut visit: impl FnMut(&dyn Component<Host>))
    where
        SseStreams: Component<Host>,
        McpLive: Component<Host>,
        Watchers: Component<Host>,
        IoaStreams: Component<Host>,
        Outbound: Component<Host>,
        DiscoveryIo: Component<Host>,
        DocumentsIo: Component<Host>,
        PushQueue: Component<Host>,
        Releases: Component<Host>,
        HostedLive: Component<Host>,
    {
        let all: [&dyn Component<Host>; 10] = [
            &self.sse,
            &self.mcp,
            &self.a2a,
            &self.ioa,
            &self.outbound,
            &self.discovery,
            &self.documents,
            &self.webpush,
            &self.releases,
            &self.hosted,
        ];
        for component in all {
            visit(component);
        }
    }
}
