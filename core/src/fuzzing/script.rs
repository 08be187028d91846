//! Conversations written as `network_frames` input: each frame is run
//! through the same network the target builds as it is written, so a script
//! can answer what the network said (a member secret, a sequence number, a
//! document's sync message), and the texts the network sent are kept as
//! `event_json` seeds.

use super::frames::{FuzzNetwork, SESSIONS, frame_line};
use crate::client::Client;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::network::Effect;
use serde_json::{Value, json};

/// A conversation being written: the input text so far and what the network
/// answered.
pub(super) struct Script {
    network: Option<FuzzNetwork>,
    clients: Vec<Client>,
    /// The input: one frame a line, as `network_frames` reads it.
    pub text: String,
    /// The member secret each session was given at its first join.
    secrets: Vec<Option<String>>,
    /// The last sequence number delivered to each session.
    delivered: Vec<u64>,
    /// How many events entered the log.
    pub appended: usize,
    /// Every text the network sent or logged, in order.
    pub sent: Vec<String>,
}

impl Script {
    /// An empty conversation with the target's network.
    pub fn new() -> Self {
        let clients = SESSIONS
            .iter()
            .zip(1u8..)
            .filter_map(|(name, n)| {
                let address: Address = name.parse().ok()?;
                Some(Client::new(
                    address,
                    super::frames::NETWORK.parse().ok()?,
                    [n; 32],
                ))
            })
            .collect();
        Self {
            network: FuzzNetwork::new(),
            clients,
            text: String::new(),
            secrets: vec![None; SESSIONS.len()],
            delivered: vec![0; SESSIONS.len()],
            appended: 0,
            sent: Vec::new(),
        }
    }

    /// The time the next frame runs at.
    pub fn now(&self) -> Timestamp {
        self.network
            .as_ref()
            .map_or(Timestamp::from(0), FuzzNetwork::now)
    }

    /// Writes `frame` on `session`'s connection (or an unjoined one) and
    /// runs it; returns what the host applied.
    pub fn raw(&mut self, session: Option<usize>, frame: &str) -> Vec<Effect> {
        let line = frame_line(session, frame);
        self.text.push_str(&line);
        let Some(network) = self.network.as_mut() else {
            return Vec::new();
        };
        let effects = network.line(line.trim_end_matches('\n'));
        for effect in &effects {
            self.record(effect);
        }
        effects
    }

    /// `who`'s connection closes.
    pub fn disconnect(&mut self, who: usize) -> Vec<Effect> {
        self.raw(Some(who), "")
    }

    /// A minute passes and the host's alarm runs.
    pub fn alarm(&mut self) -> Vec<Effect> {
        self.raw(None, "")
    }

    fn record(&mut self, effect: &Effect) {
        if let Effect::Append { event, .. } = effect {
            self.appended += 1;
            self.sent.push(event.encode());
        }
        if let Effect::Ack(ack) = effect
            && let (Some(i), Some(secret)) = (
                self.session_of(&ack.to),
                ack.extra.get("member_secret").and_then(Value::as_str),
            )
        {
            self.secrets[i] = Some(secret.to_owned());
        }
        for (to, frame) in effect.frames() {
            if let Some(i) = self.session_of(to)
                && let Ok(value) = serde_json::from_str::<Value>(&frame)
                && let Some(seq) = value
                    .pointer("/metadata/delivery/seq")
                    .and_then(Value::as_u64)
            {
                self.delivered[i] = self.delivered[i].max(seq);
            }
            self.sent.push(frame);
        }
        self.sent.extend(effect.reply_text());
    }

    fn session_of(&self, address: &Address) -> Option<usize> {
        SESSIONS
            .iter()
            .position(|name| address.to_string() == *name)
    }

    /// `who` joins on an unjoined connection, with the member secret it was
    /// given before (and `resume` after what it acknowledged) when it has one.
    pub fn join(&mut self, who: usize) -> Vec<Effect> {
        let credentials = self.secrets.get(who).cloned().flatten().map(
            |secret| json!({"member_secret": secret, "resume": {"after": self.delivered[who]}}),
        );
        let now = self.now();
        let Some(join) = self.clients.get_mut(who).map(|c| c.join(credentials, now)) else {
            return Vec::new();
        };
        self.raw(None, &join.encode())
    }

    /// An event of `kind` from `who` to `target`, on its own connection.
    pub fn send(&mut self, who: usize, kind: &str, target: &str, payload: Value) -> Vec<Effect> {
        match self.event(who, kind, target, payload) {
            Some(event) => self.raw(Some(who), &event.encode()),
            None => Vec::new(),
        }
    }

    /// A well-formed event from `who`, not yet sent.
    pub fn event(&mut self, who: usize, kind: &str, target: &str, payload: Value) -> Option<Event> {
        let (Ok(kind), Ok(target)) = (kind.parse(), target.parse()) else {
            return None;
        };
        let now = self.now();
        Some(self.clients.get_mut(who)?.event(kind, target, payload, now))
    }

    /// `who` acknowledges everything delivered to it so far.
    pub fn ack(&mut self, who: usize) -> Vec<Effect> {
        let seq = self.delivered.get(who).copied().unwrap_or(0);
        self.send(who, "network.event.ack", "core", json!({ "seq": seq }))
    }
}
