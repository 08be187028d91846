//! Applying the core's effects in the network's object: replies to their
//! origin, deliveries to sockets and SSE streams, rows to SQLite, and a
//! departed member's credentials ended (`crate::network::credentials`).
//!
//! The order and the follow-ups are the core's (`agentnet_core::host::apply_effects`);
//! here each effect meets its I/O. Log rows and socket frames are gathered
//! and written together ([`NetworkHost::commit`]): a frame never leaves
//! before the row it stands for is stored.

use crate::host::now_ms;
use crate::host::origin::Origin;
use crate::network::credentials::MemberCredentials;
use crate::network::object::NetworkHost;
use crate::network::storage::Store;
use agentnet_core::bindings::transport::sse::Pushed;
use agentnet_core::host::credentials::end_all;
use agentnet_core::host::{Host, apply_effects};
use agentnet_core::network::{DiscoveryAsk, Effect, ReadRequest, RegistryAnswer};
use agentnet_core::{Address, Network};
use worker::Result;

impl NetworkHost {
    /// Offers a logged event to the members' SSE streams; returns the members
    /// it was queued for with its `seq` (a stream counts as acknowledged on write).
    fn push_sse(
        &self,
        to: &[Address],
        seq: u64,
        event: &agentnet_core::Event,
    ) -> Vec<(Address, u64)> {
        let mut pushed = Vec::new();
        let mut streams = self.sse_streams.borrow_mut();
        if streams.is_empty() {
            return pushed;
        }
        let mut json = None;
        for address in to {
            let Some(open) = streams.get_mut(&address.to_string()) else {
                continue;
            };
            let json = json.get_or_insert_with(|| event.encode());
            let mut queued = false;
            for outlet in open.iter() {
                queued |= outlet.push(Some(seq), json) == Pushed::Queued;
            }
            open.retain(|outlet| outlet.is_open());
            if queued {
                pushed.push((address.clone(), seq));
            }
        }
        streams.retain(|_, open| !open.is_empty());
        pushed
    }

    /// Offers an unsequenced event (an answer, a mod's notice) to the member's SSE streams.
    fn push_sse_unordered(&self, to: &[Address], event: &agentnet_core::Event) {
        let mut streams = self.sse_streams.borrow_mut();
        for address in to {
            if let Some(open) = streams.get_mut(&address.to_string()) {
                let json = event.encode();
                for outlet in open.iter() {
                    outlet.push(None, &json);
                }
                open.retain(|outlet| outlet.is_open());
            }
        }
        streams.retain(|_, open| !open.is_empty());
    }

    /// Queues a delivery's frame for each socket of each recipient (sent at [`Self::commit`]).
    fn queue_frames(&self, deliver: &Effect) {
        for (address, frame) in deliver.frames() {
            let sockets = self.recipients(address);
            if let Some((last, others)) = sockets.split_last() {
                let mut outgoing = self.outgoing.borrow_mut();
                for to in others {
                    outgoing.push(to.id, &to.ws, to.batches, frame.clone());
                }
                outgoing.push(last.id, &last.ws, last.batches, frame);
            }
        }
    }

    /// Applies the core's effects for an input that arrived from `origin`
    /// and writes the log rows they append.
    pub(crate) fn apply(&self, origin: &Origin<'_>, effects: Vec<Effect>) -> Result<()> {
        let applied = self.apply_gathering(origin, effects);
        let committed = self.commit();
        applied.and(committed)
    }

    /// [`Self::apply`] while the caller holds the network.
    pub(crate) fn apply_to(
        &self,
        network: &mut Network,
        origin: &Origin<'_>,
        effects: Vec<Effect>,
    ) -> Result<()> {
        let applied = self.gather_with(network, origin, effects);
        let committed = self.commit();
        applied.and(committed)
    }

    /// Writes the gathered log rows, then sends the gathered frames. A frame
    /// (an ack, a delivery) never leaves before the row it stands for is
    /// written in the same transaction; if the write fails, the frames are
    /// dropped, so nothing is acknowledged that was not stored (senders
    /// resend what is not acknowledged).
    pub(crate) fn commit(&self) -> Result<()> {
        let written = self.store().and_then(|store| store.flush());
        let frames = std::mem::take(&mut *self.outgoing.borrow_mut());
        // The gateways' messages leave with the frames, or are dropped with them.
        self.send_to_gateways(written.is_ok());
        written?;
        let sent = frames.send() as u64;
        self.socket_messages.set(self.socket_messages.get() + sent);
        // MCP requests a delivery completed, and notifications of what changed.
        self.mcp.flush();
        // Deliveries to external A2A agents become calls.
        self.start_outbound();
        // Discovery queries go to the registry; listing changes to it and the directory.
        self.start_discovery_io();
        // Web Push notices of what was committed.
        self.start_webpush();
        // Stored files a deleted message or resource released leave R2.
        self.start_file_release();
        // Approvals asked of people connected through MCP: elicitations.
        self.start_elicitations();
        // Hosted agents take what was delivered to them.
        self.start_hosted();
        Ok(())
    }

    /// Applies the core's effects through the core's effect loop; the log rows
    /// they append and the frames they send wait until [`Self::commit`] (once
    /// per drain of frames).
    pub(crate) fn apply_gathering(&self, origin: &Origin<'_>, effects: Vec<Effect>) -> Result<()> {
        if effects.is_empty() {
            return Ok(());
        }
        let mut network = self.network.borrow_mut();
        let network = network
            .as_mut()
            .ok_or_else(crate::network::http::not_loaded)?;
        self.gather_with(network, origin, effects)
    }

    /// [`Self::apply_gathering`] while the caller holds the network.
    pub(crate) fn gather_with(
        &self,
        network: &mut Network,
        origin: &Origin<'_>,
        effects: Vec<Effect>,
    ) -> Result<()> {
        if effects.is_empty() {
            return Ok(());
        }
        let mut applier = Applier {
            host: self,
            origin,
            store: self.store()?,
            routed: Vec::new(),
        };
        let applied = apply_effects(network, effects, now_ms(), &mut applier);
        // What the gateways' members get of it (the core decides; sent at commit).
        let from = match origin {
            Origin::Gateway(from) => *from,
            _ => None,
        };
        self.links.route(from, &applier.routed);
        applied
    }
}

/// The object as the core's effect loop sees it, for one input from `origin`.
struct Applier<'a> {
    host: &'a NetworkHost,
    origin: &'a Origin<'a>,
    store: Store,
    /// The effects that concern sockets held by gateways, when the network has them.
    routed: Vec<Effect>,
}

impl Host for Applier<'_> {
    type Error = worker::Error;

    fn read(&mut self, request: &ReadRequest) -> Result<(Vec<(u64, agentnet_core::Event)>, bool)> {
        self.store.read(request)
    }

    fn catch_up_failed(&mut self, request: &ReadRequest, error: worker::Error) {
        worker::console_error!(
            "a catch-up page of {:?} failed; it is read again later: {error}",
            request.reader
        );
    }

    fn discover(&mut self, ask: &DiscoveryAsk) -> Result<Option<RegistryAnswer>> {
        // Answered once the registry has (`crate::network::discovery`).
        self.host.discovery.ask(ask.clone());
        Ok(None)
    }

    fn apply(&mut self, effect: Effect) -> Result<Vec<(Address, u64)>> {
        let host = self.host;
        if let Origin::Collect(collected) = self.origin {
            collected.borrow_mut().record(&effect);
        }
        if host.links.sequencer().is_some()
            && matches!(
                effect,
                Effect::Reply(_)
                    | Effect::Ack(_)
                    | Effect::Bind(_)
                    | Effect::Unbind
                    | Effect::EndCredentials(_)
                    | Effect::Deliver { .. }
            )
        {
            self.routed.push(effect.clone());
        }
        match &effect {
            Effect::Reply(_) | Effect::Ack(_) => match self.origin {
                Origin::Socket(ws) => {
                    if let (Some(text), Some(to)) = (effect.reply_text(), host.recipient_of(ws)) {
                        host.outgoing
                            .borrow_mut()
                            .push(to.id, &to.ws, to.batches, text)
                    }
                }
                Origin::Collect(_) | Origin::Gateway(_) | Origin::Nowhere => {}
            },
            Effect::Page(_) => {}
            Effect::Bind(address) => {
                if let Origin::Socket(ws) = self.origin {
                    host.bind(ws, Some(address.clone()))?;
                }
            }
            Effect::Unbind => {
                if let Origin::Socket(ws) = self.origin {
                    host.bind(ws, None)?;
                }
            }
            Effect::EndCredentials(member) => {
                let mut credentials = MemberCredentials {
                    host,
                    store: &self.store,
                };
                end_all(&mut credentials, member)?;
                crate::network::webpush_store::forget(&self.store.sql, member)?;
            }
            Effect::Store(row) => {
                host.mcp.noticed(&effect);
                // A member's record or the tools it offers: the listing may have changed.
                if let agentnet_core::model::state::Row::Member(_)
                | agentnet_core::model::state::Row::Resource(_) = row
                {
                    host.discovery.members_changed();
                }
                if let agentnet_core::model::state::Row::Task(task) = row {
                    host.a2a.changed(task);
                }
                self.store.store(row)?
            }
            Effect::StoreConfig(config) => {
                host.discovery.settings_changed();
                host.hosted.set_configs(&config.hosted_agents);
                self.store.save_config(config)?
            }
            Effect::Remove { kind, key } => {
                host.mcp.noticed(&effect);
                if matches!(
                    kind,
                    agentnet_core::model::state::RowKind::Member
                        | agentnet_core::model::state::RowKind::Resource
                ) {
                    host.discovery.members_changed();
                }
                self.store.remove(*kind, key)?
            }
            Effect::Append {
                seq,
                event,
                retain,
                audiences,
                links,
            } => {
                self.store.append(*seq, event, *retain, audiences, links);
                host.webpush.appended(event);
                host.releases.appended(event);
                host.mcp.appended(event);
                if !links.is_empty() {
                    host.ioa.appended(*seq, event);
                }
            }
            Effect::PruneLog {
                transient_through,
                history_through,
            } => self.store.prune_log(*transient_through, *history_through)?,
            Effect::Read(_) | Effect::Discover(_) => {}
            Effect::Deliver { to, event, order } => {
                host.queue_frames(&effect);
                host.mcp.delivered(to, event);
                host.outbound
                    .queue(to, event, order.as_ref().map(|o| o.seq));
                // A hosted agent takes its delivery at commit: acknowledged as written.
                let hosted = host.hosted.queue(to, event);
                let mut acked = match order {
                    Some(order) => host.push_sse(to, order.seq, event),
                    None => {
                        host.push_sse_unordered(to, event);
                        Vec::new()
                    }
                };
                if let Some(order) = order {
                    acked.extend(hosted.into_iter().map(|agent| (agent, order.seq)));
                }
                return Ok(acked);
            }
        }
        Ok(Vec::new())
    }
}
