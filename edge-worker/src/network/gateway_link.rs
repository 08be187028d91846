//! The network object's side of its connection gateways (`docs/scale.md`).
//!
//! What each gateway is told is the core's ([`Sequencer`]); here the messages
//! wait until the rows they stand for are written ([`Links::commit`]), then
//! go to their gateway in order, one request in flight per gateway (what
//! piles up meanwhile goes in the next request, so a busy network sends each
//! gateway one request per burst, whatever the audience).
//!
//! The epoch of the network's instance is kept in SQLite: an eviction
//! rebuilds the object from its rows (as after hibernation) and is not a
//! restart. A request to a gateway that fails is sent again for a while
//! ([`post_retrying`]; the gateway skips what it took of it before, by
//! `instance` and `first`). The epoch changes when one still failed (its
//! messages may be lost): the gateways then hear [`ToGateway::Restarted`]
//! and close their sockets, whose clients resume from their watermarks.

use crate::host::sql::{integer, select_first};
use agentnet_core::bindings::transport::sockets::SocketId;
use agentnet_core::gateway::{Bound, GatewayId, Placement, Sequencer, ToGateway};
use agentnet_core::model::config::Gateways;
use agentnet_core::network::Effect;
use agentnet_core::{Address, NetworkId};
use futures_channel::oneshot;
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use worker::{Result, SqlStorage};

/// The path of the requests between a network object and its gateways.
/// The Worker forwards no client request to it (it forwards `/networks/…`
/// with its path), so only objects reach it.
pub(crate) const LINK_PATH: &str = "/_agentnet/gateway";
/// The path that makes a gateway lose its sockets, as in a crash (test hooks only).
#[cfg(feature = "test-hooks")]
pub(crate) const RESTART_PATH: &str = "/_agentnet/gateway/restart";
/// The path that makes a gateway lose its sockets and memory without telling
/// the network, as when the platform resets it (test hooks only).
#[cfg(feature = "test-hooks")]
pub(crate) const RESET_PATH: &str = "/_agentnet/gateway/reset";
/// The path that makes a gateway answer the network's requests it took with
/// 503 for a while, as when the answers are lost (test hooks only).
#[cfg(feature = "test-hooks")]
pub(crate) const LOSE_ANSWERS_PATH: &str = "/_agentnet/gateway/lose-answers";
/// The Durable Object namespace of gateways, declared in `wrangler.toml`.
pub(crate) const GATEWAYS_BINDING: &str = "GATEWAYS";
/// The network's answer to an upgrade it hands to a gateway: the gateway's object name.
pub(crate) const GATEWAY_HEADER: &str = "X-Agentnet-Gateway";
/// The socket id the gateway was told to expect ([`ToGateway::Open`]).
pub(crate) const SOCKET_HEADER: &str = "X-Agentnet-Socket";

/// One request between a network object and a gateway: its messages, in order.
#[derive(Serialize, Deserialize)]
pub(crate) struct LinkBody<T> {
    pub(crate) network: String,
    pub(crate) gateway: GatewayId,
    pub(crate) messages: Vec<T>,
    /// To a gateway: the position of the first message in the network's queue to it.
    #[serde(default)]
    pub(crate) first: u64,
    /// To a gateway: the instance of the network object whose queue `first`
    /// counts in (random; 0: not numbered). A request sent again has the same
    /// two, and the gateway skips what it took before (`Taken`).
    #[serde(default)]
    pub(crate) instance: u64,
    /// To the network: the position of the last of its messages the gateway
    /// had taken when it sent this (0: not known since the gateway woke).
    #[serde(default)]
    pub(crate) seen: u64,
}

/// The name of gateway `gateway` of `network` in the gateways' namespace.
pub(crate) fn gateway_name(network: &str, gateway: GatewayId) -> String {
    format!("{network}/gateway/{gateway}")
}

/// The messages on their way to one gateway.
#[derive(Default)]
struct Queue {
    pending: Vec<ToGateway>,
    in_flight: bool,
    /// Messages ever queued, and ever delivered (acknowledged by the gateway).
    enqueued: u64,
    delivered: u64,
    /// Who waits for the messages before a position to be delivered.
    waiters: Vec<(u64, oneshot::Sender<bool>)>,
}

/// The gateways of one network object (none when its network has none).
#[derive(Default)]
pub(crate) struct Links {
    sequencer: Cell<Option<Sequencer>>,
    /// This instance of the object, drawn when it starts: the positions in
    /// the queues count from 1 in it.
    instance: Cell<u64>,
    network: RefCell<String>,
    /// Messages for rows not yet written.
    uncommitted: RefCell<Vec<(GatewayId, ToGateway)>>,
    queues: RefCell<BTreeMap<GatewayId, Queue>>,
    /// Members bound through gateways (the alarm counts them as connected).
    members: RefCell<BTreeSet<Address>>,
    /// Each member's latest [`ToGateway::Open`] or [`ToGateway::Bind`]: its
    /// gateway and position in that queue.
    latest: RefCell<BTreeMap<Address, (GatewayId, u64)>>,
    /// The gateways' sockets refused (`NetworkHost::opened_on_gateway`, in
    /// `unjoined.rs`) that have not closed yet: what a gateway sent from one
    /// before it heard is dropped.
    pub(crate) refused: RefCell<BTreeSet<SocketId>>,
    /// Whom each gateway socket is bound to: a gateway's `Offline` for one
    /// socket of a member bound through another is stale.
    pub(crate) bound: RefCell<Bound>,
    /// Requests sent to gateways, for benchmarks.
    pub(crate) requests: crate::host::counter::Counter,
}

const EPOCH_SCHEMA: &str =
    "CREATE TABLE IF NOT EXISTS gateway_epoch (id INTEGER PRIMARY KEY, epoch INTEGER NOT NULL)";

#[derive(Deserialize)]
struct EpochRow {
    epoch: i64,
}

/// The stored epoch, `bump`ed (and stored) when asked or when there is none yet.
fn epoch(sql: &SqlStorage, bump: bool) -> Result<u64> {
    sql.exec(EPOCH_SCHEMA, None)?;
    let row: Option<EpochRow> =
        select_first(sql, "SELECT epoch FROM gateway_epoch WHERE id = 0", None)?;
    let stored = row.and_then(|r| u64::try_from(r.epoch).ok());
    match stored {
        Some(epoch) if !bump => Ok(epoch),
        _ => {
            let next = stored.map_or(1, |e| e + 1);
            sql.exec(
                "INSERT OR REPLACE INTO gateway_epoch (id, epoch) VALUES (0, ?)",
                vec![integer(next)?],
            )?;
            Ok(next)
        }
    }
}

impl Links {
    /// Sets up the links of a network loaded with `gateways`, its members
    /// stored online counted as bound through them.
    pub(crate) fn start(
        &self,
        network: &NetworkId,
        gateways: Option<Gateways>,
        sql: &SqlStorage,
        online: Vec<Address>,
    ) -> Result<()> {
        let Some(gateways) = gateways else {
            return Ok(());
        };
        let placement = Placement::with_gateways(gateways.count);
        self.sequencer
            .set(Some(Sequencer::new(placement, epoch(sql, false)?)));
        *self.network.borrow_mut() = network.to_string();
        self.members.borrow_mut().extend(online);
        if self.instance.get() == 0 {
            self.instance.set(Self::new_socket_id().max(1));
        }
        Ok(())
    }

    /// The network's id (empty when it has no gateways).
    pub(crate) fn network(&self) -> String {
        self.network.borrow().clone()
    }

    /// The router, when the network has gateways.
    pub(crate) fn sequencer(&self) -> Option<Sequencer> {
        self.sequencer.get()
    }

    /// A new epoch (stored): what is in the queues is dropped and every
    /// gateway hears [`ToGateway::Restarted`] first. Returns the members that
    /// were bound through gateways (their sockets close).
    pub(crate) fn restart(&self, sql: &SqlStorage) -> Result<Vec<Address>> {
        let Some(old) = self.sequencer.get() else {
            return Ok(Vec::new());
        };
        self.sequencer
            .set(Some(Sequencer::new(old.placement(), epoch(sql, true)?)));
        self.uncommitted.borrow_mut().clear();
        for queue in self.queues.borrow_mut().values_mut() {
            queue.pending.clear();
        }
        // The gateways close every socket they hold (none reports it closed).
        self.refused.borrow_mut().clear();
        let mut uncommitted = self.uncommitted.borrow_mut();
        for gateway in 0..old.placement().gateways() {
            uncommitted.push((gateway, ToGateway::Restarted));
        }
        Ok(std::mem::take(&mut *self.members.borrow_mut())
            .into_iter()
            .collect())
    }

    /// A fresh socket id (random, so ids stay unique across the object's instances).
    pub(crate) fn new_socket_id() -> SocketId {
        let seed = crate::host::random_seed();
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&seed[..8]);
        // Within 53 bits: the id also travels through JavaScript.
        u64::from_le_bytes(bytes) & ((1 << 53) - 1)
    }

    /// Queues `message` for `gateway`, sent with the next commit.
    pub(crate) fn announce(&self, gateway: GatewayId, message: ToGateway) {
        self.track(&message);
        self.uncommitted.borrow_mut().push((gateway, message));
    }

    /// Keeps the members bound through gateways true to a message on its
    /// way: a socket bound to a member (`Open` with one, `Bind`) counts it,
    /// whose presence is then its gateway's to end; `CloseMember` forgets it.
    fn track(&self, message: &ToGateway) {
        if let Some((_, member)) = message.binds() {
            self.members.borrow_mut().insert(member.clone());
        } else if let ToGateway::CloseMember { member } = message {
            self.members.borrow_mut().remove(member);
        }
    }

    /// Queues the messages the core routes for the effects of one input.
    pub(crate) fn route(&self, origin: Option<(GatewayId, SocketId)>, effects: &[Effect]) {
        let Some(sequencer) = self.sequencer.get() else {
            return;
        };
        let routed = sequencer.route(origin, effects);
        for (_, message) in &routed {
            self.track(message);
        }
        self.uncommitted.borrow_mut().extend(routed);
    }

    /// True when `gateway` sent `member`'s `Offline` before it had taken the
    /// member's latest `Open` (it had `seen` messages): the member reconnected since.
    pub(crate) fn is_stale_offline(&self, member: &Address, gateway: GatewayId, seen: u64) -> bool {
        self.latest
            .borrow()
            .get(member)
            // 0: the gateway woke since and does not know (its close counts).
            .is_some_and(|(at, position)| seen > 0 && *at == gateway && *position > seen)
    }

    /// A member's gateway said it is gone (or its gateway restarted).
    pub(crate) fn forget(&self, gone: &[Address]) {
        let mut members = self.members.borrow_mut();
        for member in gone {
            members.remove(member);
        }
    }

    /// True when `member` is bound through a gateway.
    pub(crate) fn holds(&self, member: &Address) -> bool {
        self.members.borrow().contains(member)
    }

    /// The members bound through gateways.
    pub(crate) fn members(&self) -> Vec<Address> {
        self.members.borrow().iter().cloned().collect()
    }

    /// After a commit: the messages of written rows go into their queues
    /// (dropped when the write failed); returns the gateways to send to.
    pub(crate) fn commit(&self, written: bool) -> Vec<GatewayId> {
        let messages = std::mem::take(&mut *self.uncommitted.borrow_mut());
        if !written {
            return Vec::new();
        }
        let mut queues = self.queues.borrow_mut();
        let mut touched = BTreeSet::new();
        for (gateway, message) in messages {
            self.bound.borrow_mut().sent(gateway, &message);
            let queue = queues.entry(gateway).or_default();
            // A member's socket opened or joined: its gateway's older `Offline`s are stale.
            if let Some((_, member)) = message.binds() {
                let position = queue.enqueued + 1;
                self.latest
                    .borrow_mut()
                    .insert(member.clone(), (gateway, position));
            }
            queue.pending.push(message);
            queue.enqueued += 1;
            touched.insert(gateway);
        }
        // A gateway with a request in flight gets these with its next one.
        touched
            .into_iter()
            .filter(|g| {
                queues
                    .get_mut(g)
                    .is_some_and(|q| !std::mem::replace(&mut q.in_flight, true))
            })
            .collect()
    }

    /// Resolves when every message queued so far for `gateway` was delivered
    /// (`false`: a request failed on the way).
    pub(crate) fn delivered(&self, gateway: GatewayId) -> oneshot::Receiver<bool> {
        let (tx, rx) = oneshot::channel();
        let mut queues = self.queues.borrow_mut();
        let queue = queues.entry(gateway).or_default();
        if queue.delivered >= queue.enqueued {
            let _ = tx.send(true);
        } else {
            queue.waiters.push((queue.enqueued, tx));
        }
        rx
    }

    /// The next request's messages for `gateway` (in flight since
    /// [`Self::commit`] named it), or `None` when there are none (it is idle).
    pub(crate) fn next_batch(&self, gateway: GatewayId) -> Option<(LinkBody<ToGateway>, u64)> {
        let mut queues = self.queues.borrow_mut();
        let queue = queues.entry(gateway).or_default();
        if queue.pending.is_empty() {
            queue.in_flight = false;
            return None;
        }
        self.requests.add(1);
        let first = queue.enqueued - queue.pending.len() as u64 + 1;
        let body = LinkBody {
            network: self.network.borrow().clone(),
            gateway,
            messages: std::mem::take(&mut queue.pending),
            first,
            instance: self.instance.get(),
            seen: 0,
        };
        Some((body, queue.enqueued))
    }

    /// The messages up to `upto` reached `gateway` (or failed to).
    pub(crate) fn sent(&self, gateway: GatewayId, upto: u64, ok: bool) {
        let mut queues = self.queues.borrow_mut();
        let queue = queues.entry(gateway).or_default();
        queue.delivered = queue.delivered.max(upto);
        let (done, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut queue.waiters)
            .into_iter()
            .partition(|(at, _)| *at <= upto);
        queue.waiters = waiting;
        for (_, tx) in done {
            let _ = tx.send(ok);
        }
    }
}

/// How long to wait before trying a failed request between a network object
/// and a gateway again for the `tries`-th time after the first, or `None` to
/// give up: from 100 ms, doubling, at most 3.2 s apart, about 12 s in all. An
/// object that panicked or was moved starts again in a fresh instance, which
/// on a busy machine takes seconds; giving up sooner lost what the request
/// carried (a join never answered, every socket of the network closed).
fn retry_delay(tries: u32) -> Option<std::time::Duration> {
    const TRIES: u32 = 8;
    (tries < TRIES).then(|| std::time::Duration::from_millis(100u64 << tries.min(5)))
}

/// POSTs `body` to `path` of the object `stub` gives, sending it again after
/// [`retry_delay`] while it fails (each failure logged as one to `to`): both
/// directions between a network object and its gateways. The last error once
/// it gives up.
pub(crate) async fn post_retrying(
    stub: impl Fn() -> Result<worker::Stub>,
    path: &str,
    body: &str,
    to: &str,
) -> Result<()> {
    let mut tries = 0;
    loop {
        let sent = match stub() {
            Ok(stub) => post(&stub, path, body.to_owned()).await,
            Err(err) => Err(err),
        };
        match (sent, retry_delay(tries)) {
            (Err(err), Some(wait)) => {
                worker::console_warn!("a request to {to} failed, again: {err}");
                tries += 1;
                worker::Delay::from(wait).await;
            }
            (sent, _) => return sent,
        }
    }
}

/// POSTs `body` to `path` of the object behind `stub`; an answer outside 2xx is an error.
pub(crate) async fn post(stub: &worker::Stub, path: &str, body: String) -> Result<()> {
    let mut init = worker::RequestInit::new();
    init.with_method(worker::Method::Post)
        .with_body(Some(body.into()));
    let request = worker::Request::new_with_init(&format!("https://object{path}"), &init)?;
    let response = stub.fetch_with_request(request).await?;
    match response.status_code() {
        200..=299 => Ok(()),
        status => Err(worker::Error::RustError(format!(
            "{path} answered {status}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_failed_request_is_tried_again_for_seconds_then_given_up() {
        let waits: Vec<Duration> = (0..).map_while(retry_delay).collect();
        assert_eq!(waits.first(), Some(&Duration::from_millis(100)));
        assert!(waits.windows(2).all(|w| w[0] <= w[1]), "{waits:?}");
        assert_eq!(waits.iter().max(), Some(&Duration::from_millis(3_200)));
        let total: Duration = waits.iter().sum();
        assert!(
            total >= Duration::from_secs(10) && total <= Duration::from_secs(15),
            "{total:?}"
        );
    }
}
