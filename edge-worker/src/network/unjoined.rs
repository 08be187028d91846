//! The gateways' unjoined sockets, counted by the network object against its
//! socket limits (`max_unjoined`, `max_unjoined_per_peer`) as its own are:
//! it announces each one it hands to a gateway, so a client cannot open more
//! unjoined sockets by naming members placed on different gateways.
//!
//! A socket counts from its upgrade until it joins (the network binds it),
//! its gateway says it closed ([`ToNetwork::Closed`]), or its time to
//! join runs out (the gateway closes it then; here it simply stops counting,
//! so a lost message can hold a slot no longer than that). A socket whose
//! member leaves counts again from then. The counted sockets are kept in
//! SQLite, so an object that wakes from hibernation still counts them.
//!
//! A socket a gateway opens itself (a shared socket's lane,
//! [`ToNetwork::Opened`]) over those limits is refused: the gateway closes
//! it with the limit's close, and its frames are dropped until it has.
//!
//! [`ToNetwork::Closed`]: agentnet_core::gateway::ToNetwork::Closed
//! [`ToNetwork::Opened`]: agentnet_core::gateway::ToNetwork::Opened

use crate::host::now;
use crate::host::sql::{integer, select, table_exists};
use crate::network::object::NetworkHost;
use agentnet_core::Timestamp;
use agentnet_core::bindings::transport::sockets::{Close, SocketId, Sockets};
use agentnet_core::gateway::{GatewayId, ToGateway};
use serde::Deserialize;
use worker::{SqlStorage, SqlStorageValue};

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS gateway_unjoined \
     (socket INTEGER PRIMARY KEY, peer TEXT, until INTEGER NOT NULL)";

#[derive(Deserialize)]
struct Row {
    socket: i64,
    peer: Option<String>,
    until: i64,
}

/// Gives `table` back the counted sockets kept in `sql` whose time has not
/// run out at `now` (and forgets the others).
pub(crate) fn restore(table: &mut Sockets, sql: &SqlStorage, now: Timestamp) -> worker::Result<()> {
    if !table_exists(sql, "gateway_unjoined")? {
        // A network that never handed an unjoined socket to a gateway.
        return Ok(());
    }
    sql.exec(
        "DELETE FROM gateway_unjoined WHERE until <= ?",
        vec![integer(now.as_millis())?],
    )?;
    let rows: Vec<Row> = select(
        sql,
        "SELECT socket, peer, until FROM gateway_unjoined",
        None,
    )?;
    for row in rows {
        if let (Ok(socket), Ok(until)) = (u64::try_from(row.socket), u64::try_from(row.until)) {
            table.hold_elsewhere(socket, row.peer, Timestamp::from_millis(until));
        }
    }
    Ok(())
}

impl NetworkHost {
    /// A gateway opened the unjoined socket `socket` from `peer` (a shared
    /// socket's lane): it counts ([`Self::count_on_gateway`]) when the
    /// network's limits take one more, as they would a socket of its own;
    /// else the gateway is told to close it with the limit's close.
    pub(crate) fn opened_on_gateway(
        &self,
        gateway: GatewayId,
        socket: SocketId,
        peer: Option<String>,
    ) {
        match self.with_sockets(|open| open.table.admits(peer.as_deref(), false)) {
            Ok(()) => self.count_on_gateway(socket, peer),
            Err(Close { code, reason }) => {
                // Sent with the next commit, as any message to a gateway.
                self.links.refused.borrow_mut().insert(socket);
                let refuse = ToGateway::Refuse {
                    socket,
                    code,
                    reason,
                };
                self.links.announce(gateway, refuse);
            }
        }
    }

    /// The unjoined socket `socket` from `peer` is (again) on a gateway: it
    /// counts until it joins, closes, or the join deadline from now.
    pub(crate) fn count_on_gateway(&self, socket: SocketId, peer: Option<String>) {
        let until = now().plus_millis(self.policy.join_deadline_ms);
        self.with_sockets(|open| open.table.hold_elsewhere(socket, peer.clone(), until));
        let peer = peer.map_or(SqlStorageValue::Null, SqlStorageValue::from);
        let written = integer(socket).and_then(|socket| {
            let until = integer(until.as_millis())?;
            let sql = self.state.storage().sql();
            sql.exec(SCHEMA, None)?;
            sql.exec(
                "INSERT OR REPLACE INTO gateway_unjoined (socket, peer, until) VALUES (?, ?, ?)",
                vec![socket, peer, until],
            )
        });
        if let Err(err) = written {
            worker::console_error!("keeping a gateway's unjoined socket failed: {err}");
        }
    }

    /// The gateway's socket `socket` joined or closed: it counts no more.
    pub(crate) fn uncount_on_gateway(&self, socket: SocketId) {
        if !self.with_sockets(|open| open.table.settle_elsewhere(socket)) {
            return;
        }
        self.forget_counted(&[socket]);
    }

    /// Stops counting the gateways' sockets whose time to join ran out.
    pub(crate) fn expire_on_gateways(&self) {
        let now = now();
        let expired = self.with_sockets(|open| open.table.expire_elsewhere(now));
        self.forget_counted(&expired);
    }

    fn forget_counted(&self, sockets: &[SocketId]) {
        let sql = self.state.storage().sql();
        for socket in sockets {
            let removed = integer(*socket).and_then(|socket| {
                sql.exec(
                    "DELETE FROM gateway_unjoined WHERE socket = ?",
                    vec![socket],
                )
            });
            if let Err(err) = removed {
                worker::console_error!("forgetting a gateway's unjoined socket failed: {err}");
            }
        }
    }
}
