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
use crate::network::socket_state::{Attachment, Conn, OpenSockets, Recipient};
use agentnet_core::Timestamp;
use agentnet_core::bindings;
use agentnet_core::bindings::transport::sockets::{Close, SocketRecord, Sockets};
use agentnet_core::bindings::transport::ws;
use agentnet_core::{Address, NetworkId};
use worker::{Response, Result, WebSocket, WebSocketPair};

impl NetworkHost {
    /// Runs `f` on the socket table, restoring it from the attachments first after a wake.
    pub(crate) fn with_sockets<R>(&self, f: impl FnOnce(&mut OpenSockets) -> R) -> R {
        let mut guard = self.sockets.borrow_mut();
        let open = guard.get_or_insert_with(|| self.restore_sockets());
        f(open)
    }

    fn restore_sockets(&self) -> OpenSockets {
        let mut open = OpenSockets::new(Sockets::new(&self.policy));
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
            if attachment.lanes.is_some() {
                self.restore_carrier(&mut open, socket, attachment);
                continue;
            }
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
                    open.insert_conn(id, Conn::whole(socket));
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
            open.insert_conn(record.id, Conn::whole(socket));
        }
        let sql = self.state.storage().sql();
        if let Err(err) = crate::network::unjoined::restore(&mut open.table, &sql, now()) {
            worker::console_error!("restoring the gateways' unjoined sockets failed: {err}");
        }
        open
    }

    /// The network and the record of a frame's connection.
    pub(crate) fn sender_of(&self, conn: &Conn) -> Option<(NetworkId, SocketRecord)> {
        if let Some(lane) = conn.lane {
            return self.lane_sender(&conn.ws, lane);
        }
        let ws = &conn.ws;
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
    /// at the upgrade, and then applies that join's catch-up to it. A shared
    /// socket's upgrade (`?lanes=1`) is its lane 0.
    pub(crate) fn accept_socket(&self, id: &NetworkId, upgrade: ws::Upgrade) -> Result<Response> {
        let pair = WebSocketPair::new()?;
        // The table first (after a wake it is restored from the sockets the
        // platform holds), so the new socket is never read back as an old one.
        self.with_sockets(|_| ());
        self.state.accept_web_socket(&pair.server);
        let conn = if upgrade.lanes {
            self.open_carrier(
                id,
                &pair.server,
                upgrade.peer,
                upgrade.address,
                upgrade.batches,
            )?
        } else {
            let record = self.with_sockets(|open| {
                let record = open.table.open(upgrade.peer, upgrade.address, now());
                open.insert_conn(record.id, Conn::whole(pair.server.clone()));
                if upgrade.batches {
                    open.batched.insert(record.id);
                }
                record
            });
            pair.server
                .serialize_attachment(Attachment::of(id, &record, upgrade.batches))?;
            self.senders.remember(&pair.server, id, record.id);
            Conn::whole(pair.server.clone())
        };
        self.apply(&Origin::Socket(&conn), upgrade.after_accept)?;
        Response::from_websocket(pair.client)
    }

    /// The connection is now bound to `member` (or to nobody: it left).
    pub(crate) fn bind(&self, conn: &Conn, member: Option<Address>) -> Result<()> {
        let Some((network, record)) = self.sender_of(conn) else {
            return Ok(());
        };
        let bound = self.with_sockets(|open| {
            let batches = open.batched.contains(&record.id);
            open.table
                .bind(record.id, member, now())
                .map(|record| (record, batches))
        });
        match (bound, conn.lane) {
            (Some(_), Some(_)) => {
                // A member the socket cannot keep across hibernation is
                // refused as a 17th lane is; the client opens another socket.
                if !self.write_carrier(&conn.ws)? {
                    self.close_later(conn.clone(), bindings::transport::lanes::full());
                }
                Ok(())
            }
            (Some((record, batches)), None) => conn
                .ws
                .serialize_attachment(Attachment::of(&network, &record, batches)),
            (None, _) => Ok(()),
        }
    }

    /// The connections bound to `member`.
    pub(crate) fn sockets_of(&self, member: &Address) -> Vec<Conn> {
        self.recipients(member)
            .into_iter()
            .map(|r| r.conn)
            .collect()
    }

    /// The connections bound to `member`, with their ids and formats.
    pub(crate) fn recipients(&self, member: &Address) -> Vec<Recipient> {
        self.with_sockets(|open| {
            open.table
                .of_member(member)
                .into_iter()
                .filter_map(|id| {
                    let conn = open.conn(id)?;
                    let batches = open.batched.contains(&id);
                    Some(Recipient { id, conn, batches })
                })
                .collect()
        })
    }

    /// The connection that sent a frame as a recipient of its replies.
    pub(crate) fn recipient_of(&self, conn: &Conn) -> Option<Recipient> {
        let (_, record) = self.sender_of(conn)?;
        let batches = self.with_sockets(|open| open.batched.contains(&record.id));
        Some(Recipient {
            id: record.id,
            conn: conn.clone(),
            batches,
        })
    }

    /// The addresses that have an open socket.
    pub(crate) fn connected_addresses(&self) -> Vec<Address> {
        self.with_sockets(|open| open.table.members())
    }

    /// Closes `conn` with `close` once the frames before it are sent.
    pub(crate) fn close_later(&self, conn: Conn, close: Close) {
        self.closing.borrow_mut().push((conn, close));
    }

    /// Closes every socket of a member that left.
    pub(crate) fn close_member_sockets(&self, member: &Address) {
        let close = bindings::transport::sockets::left(member);
        for conn in self.sockets_of(member) {
            self.close_later(conn, close.clone());
        }
    }

    /// The unjoined sockets whose time ran out are closed.
    pub(crate) fn close_overdue(&self, now: Timestamp) {
        let overdue = self.with_sockets(|open| {
            let close = open.table.join_timeout();
            open.table
                .overdue(now)
                .into_iter()
                .filter_map(|id| open.conn(id))
                .map(|conn| (conn, close.clone()))
                .collect::<Vec<_>>()
        });
        self.closing.borrow_mut().extend(overdue);
    }

    /// When the next unjoined socket runs out of time.
    pub(crate) fn next_join_deadline(&self) -> Option<Timestamp> {
        self.with_sockets(|open| open.table.next_deadline())
    }

    /// Closes the connections waiting in `closing`; a member whose last
    /// connection that was goes offline. Call it while nothing holds the network.
    pub(crate) fn finish_closes(&self) -> Result<()> {
        let closing = std::mem::take(&mut *self.closing.borrow_mut());
        let mut result = Ok(());
        for (conn, close) in closing {
            conn.close(&close);
            if let Err(err) = self.forget_socket(&conn) {
                result = Err(err);
            }
        }
        result
    }

    /// A connection closed (either side): forget it, and mark its member
    /// offline if it has no other. A shared socket closing closes its lanes.
    pub(crate) fn forget_socket(&self, conn: &Conn) -> Result<()> {
        if let Some(lane) = conn.lane {
            return self.forget_lane(&conn.ws, lane);
        }
        if self.carrier_of(&conn.ws).is_some() {
            return self.forget_carrier(&conn.ws);
        }
        let found = self.sender_of(conn);
        self.senders.forget(&conn.ws);
        let Some((network, record)) = found else {
            return Ok(());
        };
        let member = self.with_sockets(|open| {
            open.remove_conn(record.id);
            open.table.close(record.id).and_then(|closed| closed.member)
        });
        self.left_socket(&network, member)
    }

    /// `member` (if any) lost a connection: offline unless it has another
    /// here or through a gateway.
    pub(crate) fn left_socket(&self, network: &NetworkId, member: Option<Address>) -> Result<()> {
        let member = member.filter(|m| !self.with_sockets(|open| open.table.is_connected(m)));
        // A member also connected through a gateway stays online.
        let Some(member) = member.filter(|m| !self.links.holds(m)) else {
            return Ok(());
        };
        if !self.ensure_loaded(network)? {
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
        self.forget_socket(&Conn::whole(ws.clone()))
    }
}
