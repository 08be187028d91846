//! The I/O of the object's WebSockets: accepting, refusing, binding and
//! closing one, against the core's table of them
//! (`agentnet_core::bindings::transport::sockets`, kept in `crate::network::socket_state`).
//!
//! The table lives in memory and is restored from the sockets' attachments
//! once after a wake, then changed socket by socket. Closes the
//! object decides (a member left, a join deadline, too many bad frames) wait
//! in `closing` until the frames before them are sent
//! ([`NetworkHost::finish_closes`]).

use crate::host::now;
use crate::host::origin::Origin;
use crate::network::object::NetworkHost;
use crate::network::socket_state::{Attachment, OpenSockets, Recipient};
use agentnet_core::Timestamp;
use agentnet_core::bindings;
use agentnet_core::bindings::transport::sockets::{Close, SocketRecord, Sockets};
use agentnet_core::bindings::transport::ws;
use agentnet_core::{Address, NetworkId};
use std::collections::{BTreeMap, BTreeSet};
use worker::{Response, Result, WebSocket, WebSocketPair};

impl NetworkHost {
    /// Runs `f` on the socket table, restoring it from the attachments first after a wake.
    pub(crate) fn with_sockets<R>(&self, f: impl FnOnce(&mut OpenSockets) -> R) -> R {
        let mut guard = self.sockets.borrow_mut();
        let open = guard.get_or_insert_with(|| self.restore_sockets());
        f(open)
    }

    fn restore_sockets(&self) -> OpenSockets {
        let mut open = OpenSockets {
            table: Sockets::new(&self.policy),
            by_id: BTreeMap::new(),
            batched: BTreeSet::new(),
        };
        let mut unnamed = Vec::new();
        for socket in self.state.get_websockets() {
            // One the object closed before it slept may still be listed while it closes.
            if socket.as_ref().ready_state() != worker::worker_sys::web_sys::WebSocket::OPEN {
                continue;
            }
            let attachment = Attachment::read(&socket);
            let member = attachment.address.as_deref().and_then(|a| a.parse().ok());
            let network: Option<NetworkId> =
                attachment.network.as_deref().and_then(|n| n.parse().ok());
            match attachment.id {
                Some(id) => {
                    if let Some(network) = &network {
                        self.senders.remember(&socket, network, id);
                    }
                    open.table.restore(SocketRecord {
                        id,
                        member,
                        peer: attachment.peer,
                        since: attachment.since,
                    });
                    open.by_id.insert(id, socket);
                    if attachment.batches {
                        open.batched.insert(id);
                    }
                }
                None => unnamed.push((socket, attachment, member)),
            }
        }
        // Sockets from before ids get one now (after every kept id is known).
        for (socket, attachment, member) in unnamed {
            let record = open.table.open(attachment.peer.clone(), member, now());
            if let Some(network) = attachment.network.and_then(|n| n.parse().ok()) {
                let _ = socket.serialize_attachment(Attachment::of(&network, &record, false));
                self.senders.remember(&socket, &network, record.id);
            }
            open.by_id.insert(record.id, socket);
        }
        let sql = self.state.storage().sql();
        if let Err(err) = crate::network::unjoined::restore(&mut open.table, &sql, now()) {
            worker::console_error!("restoring the gateways' unjoined sockets failed: {err}");
        }
        open
    }

    /// The network and the record of a frame's socket.
    pub(crate) fn sender_of(&self, ws: &WebSocket) -> Option<(NetworkId, SocketRecord)> {
        let (network, id) = match self.senders.lookup(ws) {
            Some(known) => known,
            None => {
                // Restoring the table names and remembers every open socket.
                self.with_sockets(|_| ());
                match self.senders.lookup(ws) {
                    Some(known) => known,
                    None => {
                        let attachment = Attachment::read(ws);
                        let network: NetworkId = attachment.network?.parse().ok()?;
                        let id = attachment.id?;
                        self.senders.remember(ws, &network, id);
                        (network, id)
                    }
                }
            }
        };
        let record = self.with_sockets(|open| open.table.get(id).cloned())?;
        Some((network, record))
    }

    /// The close for an upgrade the network has no room for, if any.
    pub(crate) fn socket_refusal(
        &self,
        request: &bindings::Request,
        route: &bindings::http::ApiRoute,
    ) -> Option<agentnet_core::bindings::transport::sockets::Close> {
        self.expire_on_gateways();
        self.with_sockets(|open| bindings::http::refusal(&open.table, request, route))
    }

    /// Accepts a socket only to close it at once with `close` (browsers see only close codes).
    pub(crate) fn refuse_socket(&self, close: &Close) -> Result<Response> {
        let pair = WebSocketPair::new()?;
        pair.server.accept()?;
        pair.server
            .close(Some(close.code), Some(close.reason.as_str()))?;
        Response::from_websocket(pair.client)
    }

    /// Accepts the WebSocket of an upgrade, bound to the member that joined
    /// at the upgrade, and then applies that join's catch-up to it.
    pub(crate) fn accept_socket(&self, id: &NetworkId, upgrade: ws::Upgrade) -> Result<Response> {
        let pair = WebSocketPair::new()?;
        // The table first (after a wake it is restored from the sockets the
        // platform holds), so the new socket is never read back as an old one.
        self.with_sockets(|_| ());
        self.state.accept_web_socket(&pair.server);
        let record = self.with_sockets(|open| {
            let record = open.table.open(upgrade.peer, upgrade.address, now());
            open.by_id.insert(record.id, pair.server.clone());
            if upgrade.batches {
                open.batched.insert(record.id);
            }
            record
        });
        pair.server
            .serialize_attachment(Attachment::of(id, &record, upgrade.batches))?;
        self.senders.remember(&pair.server, id, record.id);
        self.apply(&Origin::Socket(&pair.server), upgrade.after_accept)?;
        Response::from_websocket(pair.client)
    }

    /// The socket is now bound to `member` (or to nobody: it left).
    pub(crate) fn bind(&self, ws: &WebSocket, member: Option<Address>) -> Result<()> {
        let Some((network, record)) = self.sender_of(ws) else {
            return Ok(());
        };
        let bound = self.with_sockets(|open| {
            let batches = open.batched.contains(&record.id);
            open.table
                .bind(record.id, member, now())
                .map(|record| (record, batches))
        });
        match bound {
            Some((record, batches)) => {
                ws.serialize_attachment(Attachment::of(&network, &record, batches))
            }
            None => Ok(()),
        }
    }

    /// The sockets bound to `member`.
    pub(crate) fn sockets_of(&self, member: &Address) -> Vec<WebSocket> {
        self.recipients(member).into_iter().map(|r| r.ws).collect()
    }

    /// The sockets bound to `member`, with their ids and formats.
    pub(crate) fn recipients(&self, member: &Address) -> Vec<Recipient> {
        self.with_sockets(|open| {
            open.table
                .of_member(member)
                .into_iter()
                .filter_map(|id| {
                    let ws = open.by_id.get(&id)?.clone();
                    let batches = open.batched.contains(&id);
                    Some(Recipient { id, ws, batches })
                })
                .collect()
        })
    }

    /// The socket that sent a frame as a recipient of its replies.
    pub(crate) fn recipient_of(&self, ws: &WebSocket) -> Option<Recipient> {
        let (_, record) = self.sender_of(ws)?;
        let batches = self.with_sockets(|open| open.batched.contains(&record.id));
        Some(Recipient {
            id: record.id,
            ws: ws.clone(),
            batches,
        })
    }

    /// The addresses that have an open socket.
    pub(crate) fn connected_addresses(&self) -> Vec<Address> {
        self.with_sockets(|open| open.table.members())
    }

    /// Closes `ws` with `close` once the frames before it are sent.
    pub(crate) fn close_later(&self, ws: WebSocket, close: Close) {
        self.closing.borrow_mut().push((ws, close));
    }

    /// Closes every socket of a member that left.
    pub(crate) fn close_member_sockets(&self, member: &Address) {
        let close = bindings::transport::sockets::left(member);
        for ws in self.sockets_of(member) {
            self.close_later(ws, close.clone());
        }
    }

    /// The unjoined sockets whose time ran out are closed.
    pub(crate) fn close_overdue(&self, now: Timestamp) {
        let overdue = self.with_sockets(|open| {
            let close = open.table.join_timeout();
            open.table
                .overdue(now)
                .into_iter()
                .filter_map(|id| open.by_id.get(&id).cloned())
                .map(|ws| (ws, close.clone()))
                .collect::<Vec<_>>()
        });
        self.closing.borrow_mut().extend(overdue);
    }

    /// When the next unjoined socket runs out of time.
    pub(crate) fn next_join_deadline(&self) -> Option<Timestamp> {
        self.with_sockets(|open| open.table.next_deadline())
    }

    /// Closes the sockets waiting in `closing`; a member whose last socket
    /// that was goes offline. Call it while nothing holds the network.
    pub(crate) fn finish_closes(&self) -> Result<()> {
        let closing = std::mem::take(&mut *self.closing.borrow_mut());
        let mut result = Ok(());
        for (ws, close) in closing {
            let _ = ws.close(Some(close.code), Some(close.reason.as_str()));
            if let Err(err) = self.forget_socket(&ws) {
                result = Err(err);
            }
        }
        result
    }

    /// A socket closed (either side): forget it, and mark its member offline
    /// if it has no other.
    pub(crate) fn forget_socket(&self, ws: &WebSocket) -> Result<()> {
        let found = self.sender_of(ws);
        self.senders.forget(ws);
        let Some((network, record)) = found else {
            return Ok(());
        };
        let member = self.with_sockets(|open| {
            open.by_id.remove(&record.id);
            open.batched.remove(&record.id);
            open.table
                .close(record.id)
                .and_then(|closed| closed.member)
                .filter(|member| !open.table.is_connected(member))
        });
        // A member also connected through a gateway stays online.
        let Some(member) = member.filter(|m| !self.links.holds(m)) else {
            return Ok(());
        };
        if !self.ensure_loaded(&network)? {
            return Ok(());
        }
        let effects = match self.network.borrow_mut().as_mut() {
            Some(network) => network.disconnect(&member, now()),
            None => Vec::new(),
        };
        self.apply(&Origin::Nowhere, effects)
    }

    /// True when `member` has a socket this object holds itself (not through a gateway).
    pub(crate) fn is_connected_here(&self, member: &Address) -> bool {
        self.with_sockets(|open| open.table.is_connected(member))
    }

    /// The peer closed a socket: finish the closing handshake and forget it.
    pub(crate) fn connection_closed(&self, ws: &WebSocket, code: usize) -> Result<()> {
        let _ = ws.close(Some(ws::close_reply(code)), Some("closed"));
        self.forget_socket(ws)
    }
}
