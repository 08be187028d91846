//! Applying the core's effects in the network's object: replies to their
//! origin, deliveries to sockets and SSE streams, rows to SQLite, and a
//! departed member's credentials ended (`crate::network::credentials`).
//!
//! The order and the follow-ups are the core's (`agentnet_core::host::apply_effects`);
//! here each effect meets its I/O: the object's own (rows, socket frames,
//! bindings of sockets) and every component's of its live state
//! (`crate::network::live`), which sees each effect and each commit. Log rows and socket frames are gathered
//! and written together ([`NetworkHost::commit`]): a frame never leaves
//! before the row it stands for is stored.

use crate::host::now;
use crate::host::origin::Origin;
use crate::network::component::Component;
use crate::network::credentials::MemberCredentials;
use crate::network::object::NetworkHost;
use crate::network::storage::Store;
use agentnet_core::host::credentials::end_all;
use agentnet_core::host::{Host, apply_effects};
use agentnet_core::network::{
    DiscoveryAsk, DocumentAnswer, DocumentAsk, Effect, ReadRequest, RegistryAnswer,
};
use agentnet_core::{Address, Network};
use worker::Result;

impl NetworkHost {
    /// Queues a delivery's frame for each socket of each recipient (sent at [`Self::commit`]).
    fn queue_frames(&self, deliver: &Effect) {
        for (address, frame) in deliver.frames() {
            let sockets = self.recipients(address);
            if let Some((last, others)) = sockets.split_last() {
                let mut outgoing = self.outgoing.borrow_mut();
                for to in others {
                    outgoing.push(to.id, &to.conn, to.batches, frame.clone());
                }
                outgoing.push(last.id, &last.conn, last.batches, frame);
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
        self.socket_messages.add(frames.send() as u64);
        // What waited for these rows: MCP's answers and notices, calls to
        // external agents, discovery, Web Push, file releases, hosted agents.
        self.live.each(|c: &dyn Component<Self>| c.committed(self));
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
        let applied = apply_effects(network, effects, now(), &mut applier);
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

// `apply` and `read` are kept out of the core's effect loop (`#[inline(never)]`): inlined, the
// loop became one function of 20 KB that V8's optimizing tier compiles as soon as a few members
// join, with 7 MB of scratch memory that workerd keeps (BENCHMARKS.md, "Memory at the peer's").
impl Host for Applier<'_> {
    type Error = worker::Error;

    #[inline(never)]
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
        self.host.live.discovery.ask(ask.clone());
        Ok(None)
    }

    fn documents(&mut self, ask: &DocumentAsk) -> Result<Option<DocumentAnswer>> {
        // Answered once the documents' keeper has (`crate::network::documents`).
        self.host.live.documents.ask(ask.clone());
        Ok(None)
    }

    #[inline(never)]
    fn apply(&mut self, effect: Effect) -> Result<Vec<(Address, u64)>> {
        let host = self.host;
        if let Origin::Collect(collected) = self.origin {
            collected.borrow_mut().record(&effect);
        }
        // Each binding's live state sees the effect (`crate::network::component`).
        let mut taken = Vec::new();
        host.live
            .each(|c: &dyn Component<NetworkHost>| c.observe(&effect, &mut taken));
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
                Origin::Socket(conn) => {
                    if let (Some(text), Some(to)) = (effect.reply_text(), host.recipient_of(conn)) {
                        host.outgoing
                            .borrow_mut()
                            .push(to.id, &to.conn, to.batches, text)
                    }
                }
                Origin::Collect(_) | Origin::Gateway(_) | Origin::Nowhere => {}
            },
            Effect::Page(_) => {}
            Effect::Bind(address) => {
                if let Origin::Socket(conn) = self.origin {
                    host.bind(conn, Some(address.clone()))?;
                }
            }
            Effect::Unbind => {
                if let Origin::Socket(conn) = self.origin {
                    host.bind(conn, None)?;
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
            Effect::Store(row) => self.store.store(row)?,
            Effect::StoreConfig(config) => self.store.save_config(config)?,
            Effect::Remove { kind, key } => self.store.remove(*kind, key)?,
            Effect::Append {
                seq,
                event,
                retain,
                audiences,
                links,
            } => self.store.append(*seq, event, *retain, audiences, links),
            Effect::PruneLog {
                transient_through,
                history_through,
            } => self.store.prune_log(*transient_through, *history_through)?,
            // Asks answered by `Host::discover` and `Host::documents` before they get here.
            Effect::Read(_) | Effect::Discover(_) | Effect::Document(_) => {}
            Effect::Deliver { order, .. } => {
                host.queue_frames(&effect);
                // Recipients whose stream wrote it or whose hosted agent holds
                // it (handed over at commit) have it: acknowledged as written.
                return Ok(match order {
                    Some(order) => taken.into_iter().map(|a| (a, order.seq)).collect(),
                    None => Vec::new(),
                });
            }
        }
        Ok(Vec::new())
    }
}
