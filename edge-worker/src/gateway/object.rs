//! `GatewayObject`: a connection gateway of one network (`docs/scale.md`),
//! holding the hibernating WebSockets of the members placed on it.
//!
//! Its state machine is the core's [`Gateway`]; here are its I/O: the
//! network object's requests ([`LINK_PATH`]) become the core's input and its
//! writes go out on the sockets; a socket announced by
//! [`ToGateway::Open`] arrives as an upgrade the Worker forwards with its id
//! ([`SOCKET_HEADER`]), and what was written for it meanwhile waits for it;
//! the sockets' frames go to the core, and what it sends the network goes
//! in one request at a time (acks coalesced into cursors meanwhile). Each
//! socket's attachment says what the core knew of it, so an instance woken
//! after hibernation restores the core from its sockets.

use crate::gateway::held::{Carrier, Held, Waiting, read};
use crate::host::frame_texts::FrameTexts;
use crate::host::now;
use crate::network::gateway_link::{LINK_PATH, LinkBody, SOCKET_HEADER};
use agentnet_core::Timestamp;
use agentnet_core::bindings::transport::lanes::{self, Lane};
use agentnet_core::bindings::transport::sockets::SocketId;
use agentnet_core::bindings::transport::ws::close_reply;
use agentnet_core::gateway::{Gateway, GatewayEffect, GatewayId, Taken, ToGateway, ToNetwork};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use worker::{Env, Request, Response, Result, State, WebSocket};

/// One gateway's state and work (`crate::gateway::entry::GatewayObject` receives workerd's calls).
pub(crate) struct GatewayHost {
    pub(crate) state: State,
    pub(crate) env: Env,
    pub(crate) core: RefCell<Option<Gateway>>,
    /// The network and this gateway's index, from its requests or its sockets.
    pub(crate) link: RefCell<Option<(String, GatewayId)>>,
    /// Each socket by id (a shared socket under each of its lanes' ids).
    pub(crate) sockets: RefCell<BTreeMap<SocketId, WebSocket>>,
    /// Each lane's carrier (by lane 0's id) and number (`crate::gateway::lanes`).
    pub(crate) lanes: RefCell<BTreeMap<SocketId, (SocketId, Lane)>>,
    /// The shared sockets, by lane 0's id.
    pub(crate) carriers: RefCell<BTreeMap<SocketId, Carrier>>,
    /// The sockets' ids, so a frame's socket is named without reading its attachment.
    pub(crate) ids: RefCell<crate::network::socket_state::SocketIds>,
    pub(crate) waiting: RefCell<BTreeMap<SocketId, Waiting>>,
    /// Messages for the network, and whether a request to it is in flight.
    pub(crate) up: RefCell<Vec<ToNetwork>>,
    pub(crate) up_busy: Cell<bool>,
    /// A timer is set for when the acks held are due (`crate::gateway::uplink`).
    pub(crate) cursor_timer: Cell<bool>,
    /// The position of the last message taken from the network's queue to this gateway.
    pub(crate) seen: Cell<u64>,
    /// What was taken of the network's requests, so one sent again is applied once.
    pub(crate) taken: Cell<Taken>,
    /// Test-only paths are on (`crate::network::object::test_hooks_of`).
    #[cfg(feature = "test-hooks")]
    test_hooks: bool,
    /// Until when the network's requests are answered 503 once taken (a test hook).
    #[cfg(feature = "test-hooks")]
    pub(crate) answers_lost_until: Cell<Option<Timestamp>>,
    /// How often its alarm comes while it holds sockets (`Policy::gateway_reconcile_ms`).
    pub(crate) reconcile_ms: u64,
    /// When the alarm is set for (the next unbound socket's time to join).
    pub(crate) alarm_at: Cell<Option<Timestamp>>,
    pub(crate) me: std::rc::Weak<GatewayHost>,
}

impl GatewayHost {
    pub(crate) fn new(state: State, env: Env, me: std::rc::Weak<GatewayHost>) -> Self {
        crate::host::answer_heartbeats(&state);
        let (_hooks_on, policy) = crate::network::object::test_hooks_of(&env);
        let reconcile_ms = policy.gateway_reconcile_ms;
        if let Err(err) = crate::gateway::store::create(&state.storage().sql()) {
            worker::console_error!("creating the gateway's member table failed: {err}");
        }
        Self {
            state,
            env,
            core: RefCell::new(None),
            link: RefCell::new(None),
            sockets: RefCell::new(BTreeMap::new()),
            lanes: RefCell::default(),
            carriers: RefCell::default(),
            ids: RefCell::default(),
            waiting: RefCell::new(BTreeMap::new()),
            up: RefCell::new(Vec::new()),
            up_busy: Cell::new(false),
            cursor_timer: Cell::new(false),
            seen: Cell::new(0),
            taken: Cell::default(),
            #[cfg(feature = "test-hooks")]
            test_hooks: _hooks_on,
            #[cfg(feature = "test-hooks")]
            answers_lost_until: Cell::new(None),
            reconcile_ms,
            alarm_at: Cell::new(None),
            me,
        }
    }

    /// Runs `f` on the core, restored from the sockets' attachments after a wake.
    pub(crate) fn with_core<R>(&self, f: impl FnOnce(&mut Gateway) -> R) -> R {
        if self.core.borrow().is_none() {
            self.wake();
        }
        let mut guard = self.core.borrow_mut();
        let core = guard.get_or_insert_with(Gateway::default);
        f(core)
    }

    /// The core restored after a wake; members kept in storage with no
    /// socket left (the platform reset the gateway, or their last socket
    /// closed while it slept) are announced gone.
    fn wake(&self) {
        let core = self.restore();
        let sql = self.state.storage().sql();
        let known = self.link.borrow().clone();
        match crate::gateway::store::settle_link(&sql, known) {
            Ok(link) => *self.link.borrow_mut() = link,
            Err(err) => {
                worker::console_error!("reading or keeping the gateway's network failed: {err}")
            }
        }
        let gone = match crate::gateway::store::kept(&sql) {
            Ok(kept) => core.reconcile(kept),
            Err(err) => {
                worker::console_error!("reading the gateway's members failed: {err}");
                Vec::new()
            }
        };
        *self.core.borrow_mut() = Some(core);
        if !gone.is_empty() {
            self.apply(gone);
            self.send_up();
        }
    }

    /// The core as the sockets the platform kept say (a wake is not a
    /// restart: nothing is lost, so the network is not told).
    fn restore(&self) -> Gateway {
        let (mut core, _) = Gateway::start();
        for ws in self.state.get_websockets() {
            if ws.as_ref().ready_state() != worker::worker_sys::web_sys::WebSocket::OPEN {
                continue;
            }
            let Some(held) = read(&ws) else { continue };
            self.link
                .borrow_mut()
                .get_or_insert((held.network.clone(), held.gateway));
            if held.lanes.is_some() {
                self.restore_carrier(&mut core, ws, held);
                continue;
            }
            // What it says of the member is what storage already keeps.
            let _kept = core.opened(held.socket, held.opening());
            self.sockets.borrow_mut().insert(held.socket, ws);
        }
        core
    }

    pub(crate) async fn fetch(&self, mut req: Request) -> Result<Response> {
        if let Some(socket) = req.headers().get(SOCKET_HEADER)? {
            return self.arrive(socket.parse().ok());
        }
        match req.path().as_str() {
            LINK_PATH => {
                let body: LinkBody<ToGateway> = req.json().await?;
                self.network_request(body);
                self.schedule_alarm().await?;
                #[cfg(feature = "test-hooks")]
                if self.answer_lost() {
                    return Response::error("the answer was lost (test hook)", 503);
                }
                Ok(Response::empty()?.with_status(204))
            }
            #[cfg(feature = "test-hooks")]
            crate::network::gateway_link::LOSE_ANSWERS_PATH if self.test_hooks => {
                self.lose_answers();
                Response::ok("answers lost for a while")
            }
            #[cfg(feature = "test-hooks")]
            crate::network::gateway_link::RESTART_PATH if self.test_hooks => {
                self.restart();
                Response::ok("restarted")
            }
            #[cfg(feature = "test-hooks")]
            crate::network::gateway_link::RESET_PATH if self.test_hooks => {
                self.reset();
                Response::ok("reset")
            }
            _ => Response::error("not found", 404),
        }
    }

    /// The network's messages, in order.
    fn network_request(&self, body: LinkBody<ToGateway>) {
        let link = Some((body.network.clone(), body.gateway));
        if *self.link.borrow() != link {
            // Kept, so that a reset gateway its alarm wakes can still report to the network.
            let sql = self.state.storage().sql();
            if let Err(err) = crate::gateway::store::save_link(&sql, &body.network, body.gateway) {
                worker::console_error!("keeping the gateway's network failed: {err}");
            }
            *self.link.borrow_mut() = link;
        }
        self.with_core(|_| ());
        let now = now();
        self.expire(now);
        let link = (body.network, body.gateway);
        let seen = body.first + body.messages.len() as u64;
        // A request sent again (its answer was lost): what was taken of it is not applied twice.
        let mut taken = self.taken.get();
        let already = taken.already(body.instance, body.first, body.messages.len());
        self.taken.set(taken);
        for message in body.messages.into_iter().skip(already) {
            if let Some((_, member)) = message.binds() {
                // The member is back: its close, not yet sent, is no news.
                self.up.borrow_mut().retain(
                    |m| !matches!(m, ToNetwork::Offline { member: gone, .. } if gone == member),
                );
            }
            self.remember(&link, &message, now);
            let lane = match &message {
                ToGateway::Bind { socket, .. } | ToGateway::Unbind { socket } => {
                    self.lane_of(*socket).map(|(carrier, _)| (carrier, *socket))
                }
                _ => None,
            };
            let effects = self.with_core(|core| core.on_network(message, now));
            self.apply(effects);
            if let Some((carrier, socket)) = lane
                && !self.write_carrier(carrier)
            {
                self.refuse_overfull_lane(socket);
            }
        }
        self.seen.set(seen.saturating_sub(1));
        self.send_up();
    }

    /// Keeps each socket's attachment (or its waiting record) true to what the core knows.
    fn remember(
        &self,
        (network, gateway): &(String, GatewayId),
        message: &ToGateway,
        now: Timestamp,
    ) {
        let (socket, member) = match message {
            ToGateway::Open {
                socket,
                member,
                batches,
                peer,
                join_within_ms,
                lanes,
            } => {
                let held = Held {
                    network: network.clone(),
                    gateway: *gateway,
                    socket: *socket,
                    member: member.clone(),
                    batches: *batches,
                    peer: peer.clone(),
                    join_within_ms: *join_within_ms,
                    since: now,
                    lanes: None,
                };
                let waiting = Waiting {
                    since: crate::host::now(),
                    held,
                    frames: Vec::new(),
                    shared: *lanes,
                };
                self.waiting.borrow_mut().insert(*socket, waiting);
                return;
            }
            ToGateway::Bind {
                socket,
                member,
                epoch,
            } => (*socket, Some((member.clone(), *epoch))),
            ToGateway::Unbind { socket } => (*socket, None),
            _ => return,
        };
        if self.lane_of(socket).is_some() {
            // A lane's carrier is written from the core once it has taken this.
            return;
        }
        let unbound = member.is_none();
        let update = |held: &mut Held| {
            held.member = member;
            if unbound {
                held.since = now;
            }
        };
        if let Some(waiting) = self.waiting.borrow_mut().get_mut(&socket) {
            update(&mut waiting.held);
        } else if let Some(ws) = self.sockets.borrow().get(&socket)
            && let Some(mut held) = read(ws)
        {
            update(&mut held);
            let _ = ws.serialize_attachment(&held);
        }
    }

    /// Does what the core says.
    pub(crate) fn apply(&self, effects: Vec<GatewayEffect>) {
        let mut texts = FrameTexts::default();
        for effect in effects {
            match effect {
                GatewayEffect::Send { socket, frame } => {
                    if let Some(ws) = self.sockets.borrow().get(&socket) {
                        let lane = self.lane_of(socket).map(|(_, lane)| lane);
                        texts.send(ws, lane, frame);
                    } else if let Some(waiting) = self.waiting.borrow_mut().get_mut(&socket) {
                        waiting.frames.push(frame);
                    }
                }
                GatewayEffect::Close { socket, close } => {
                    // What was written before the close goes before it.
                    texts.flush();
                    self.waiting.borrow_mut().remove(&socket);
                    if self.lane_of(socket).is_some() {
                        self.drop_lane(socket, Some(&close));
                    } else if let Some(ws) = self.sockets.borrow_mut().remove(&socket) {
                        let _ = ws.close(Some(close.code), Some(close.reason.as_str()));
                    }
                }
                GatewayEffect::ToNetwork(message) => push_up(&mut self.up.borrow_mut(), message),
                GatewayEffect::Placed { member, present } => {
                    let sql = self.state.storage().sql();
                    if let Err(err) = crate::gateway::store::keep(&sql, &member, present) {
                        worker::console_error!(
                            "keeping the gateway's member {member} failed: {err}"
                        );
                    }
                }
            }
        }
    }

    /// A frame from a socket.
    pub(crate) fn frame(&self, ws: &WebSocket, text: &str) {
        // After a wake, the shared sockets are known once the core is restored.
        self.with_core(|_| ());
        let known = self.ids.borrow().get(ws);
        let Some(socket) = known.or_else(|| {
            let socket = read(ws)?.socket;
            self.ids.borrow().remember(ws, socket);
            Some(socket)
        }) else {
            return;
        };
        let shared = self.carriers.borrow().contains_key(&socket);
        let effects = if shared {
            // Its lanes' frames, one per line.
            text.split(lanes::LINE_BREAK)
                .flat_map(|line| self.carrier_frame(socket, line))
                .collect()
        } else {
            self.with_core(|core| core.on_socket_frame(socket, text, now()))
        };
        self.apply(effects);
        self.send_up();
    }

    /// A socket closed (either side).
    pub(crate) fn closed(&self, ws: &WebSocket, code: usize) {
        self.with_core(|_| ());
        let _ = ws.close(Some(close_reply(code)), Some("closed"));
        self.ids.borrow().forget(ws);
        // A socket the gateway forgot (its attachment cleared by a reset) closing is no news.
        let Some(held) = read(ws).filter(|held| *held != Held::default()) else {
            return;
        };
        let shared = self.carriers.borrow().contains_key(&held.socket);
        let effects = if shared {
            self.end_carrier(held.socket, None)
        } else if let Some(lanes) = held.lanes.as_deref() {
            // A shared socket that closed while the gateway slept (a wake
            // restores only open sockets): its members are reconciled as
            // gone; the network hears its lanes closed.
            crate::gateway::held::closed_asleep(lanes)
        } else {
            self.sockets.borrow_mut().remove(&held.socket);
            self.with_core(|core| core.closed(held.socket))
        };
        self.apply(effects);
        self.send_up();
    }
}

/// Queues `message` for the network; frames from the same socket as the
/// message before it join that message (one message per burst, not per frame).
fn push_up(up: &mut Vec<ToNetwork>, message: ToNetwork) {
    if let (
        Some(ToNetwork::Frames {
            socket: last,
            member: bound,
            frames,
            ..
        }),
        ToNetwork::Frames {
            socket,
            member,
            frames: more,
            ..
        },
    ) = (up.last_mut(), &message)
        && last == socket
        && bound == member
    {
        frames.extend(more.iter().cloned());
        return;
    }
    up.push(message);
}
