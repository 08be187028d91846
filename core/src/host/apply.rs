//! The effect loop: [`apply_effects`] and the [`Host`] side it drives.

use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::network::{
    DiscoveryAsk, DocumentAnswer, DocumentAsk, Effect, Network, ReadRequest, ReadRows, Reader,
    RegistryAnswer,
};

/// A host's side of [`apply_effects`]: storage, the log and connections.
pub trait Host {
    /// What the host's I/O fails with.
    type Error;

    /// Applies one effect (a [`Effect::Read`] too, once [`Host::read`] has
    /// answered it; most hosts ignore it there). Returns the deliveries it
    /// wrote to push transports that count as acknowledged on write (SSE):
    /// `(member, seq)`.
    fn apply(&mut self, effect: Effect) -> Result<Vec<(Address, u64)>, Self::Error>;

    /// The log rows `(seq, event)` a read asks for, in `seq` order, and whether
    /// the log has no more such rows after them.
    fn read(&mut self, request: &ReadRequest) -> Result<ReadRows, Self::Error>;

    /// A member's catch-up page could not be read: the host reports `error`
    /// (logs it). [`apply_effects`] goes on with everything else; the network
    /// reads that page again later.
    fn catch_up_failed(&mut self, request: &ReadRequest, error: Self::Error);

    /// The registry's answer to a member's `network.discovery.query`, or
    /// `None` when the host answers it later itself (its registry is across
    /// an await) with [`Network::answer_discovery`]. A host without a
    /// registry answers with no agents from it.
    fn discover(&mut self, ask: &DiscoveryAsk) -> Result<Option<RegistryAnswer>, Self::Error> {
        let _ = ask;
        Ok(Some(RegistryAnswer {
            agents: Ok(Vec::new()),
            origin: String::new(),
        }))
    }

    /// The answer of the keeper of the network's shared documents, when the
    /// network keeps them elsewhere ([`Network::keep_documents_elsewhere`]),
    /// or `None` when the host answers later itself with
    /// [`Network::answer_document`]. A host that keeps none refuses syncs
    /// ([`DocumentAnswer::unavailable`]).
    fn documents(&mut self, ask: &DocumentAsk) -> Result<Option<DocumentAnswer>, Self::Error> {
        Ok(Some(DocumentAnswer::unavailable(ask)))
    }
}

/// Applies `effects` and everything they lead to, depth first, at time `now`.
///
/// A catch-up read that fails costs only its member (see
/// [`Host::catch_up_failed`]): an alarm's redelivery to everyone else, or a
/// join's ack, still goes out. Any other failure stops the loop and is returned.
pub fn apply_effects<H: Host>(
    network: &mut Network,
    effects: Vec<Effect>,
    now: Timestamp,
    host: &mut H,
) -> Result<(), H::Error> {
    let mut stack = vec![effects.into_iter()];
    while let Some(top) = stack.last_mut() {
        let Some(effect) = top.next() else {
            stack.pop();
            continue;
        };
        let mut follow_up = match &effect {
            Effect::Read(request) => match host.read(request) {
                Ok((rows, exhausted)) => network.answer_read(request, rows, exhausted, now),
                Err(error) if matches!(request.reader, Reader::CatchUp { .. }) => {
                    network.read_failed(request, now);
                    host.catch_up_failed(request, error);
                    continue;
                }
                Err(error) => return Err(error),
            },
            Effect::Discover(ask) => match host.discover(ask)? {
                Some(answer) => network.answer_discovery(ask, answer, now),
                None => Vec::new(),
            },
            Effect::Document(ask) => match host.documents(ask)? {
                Some(answer) => network.answer_document(answer, now),
                None => Vec::new(),
            },
            _ => Vec::new(),
        };
        for (member, seq) in host.apply(effect)? {
            follow_up.extend(network.acknowledge_pushed(&member, seq, now));
        }
        if !follow_up.is_empty() {
            stack.push(follow_up.into_iter());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Client;
    use crate::host::memory::MemoryHost;
    use crate::model::config::NetworkConfig;
    use serde_json::json;

    fn addr(s: &str) -> Address {
        s.parse().unwrap()
    }

    /// A host unlike [`MemoryHost`]: it serves reads from a log it is given and
    /// has an SSE stream open for one member, as the edge's object does.
    struct StreamingHost {
        log: MemoryHost,
        streaming: Address,
        applied: Vec<String>,
    }

    fn label(effect: &Effect) -> String {
        match effect {
            Effect::Read(request) => match &request.reader {
                Reader::CatchUp { member } => {
                    format!("read catch-up {member} after {}", request.after)
                }
                Reader::Page { member } => format!("read page {member}"),
                Reader::Query { requester, .. } => format!("read query {requester}"),
            },
            Effect::Deliver { to, event, .. } => {
                let to: Vec<String> = to.iter().map(ToString::to_string).collect();
                format!("deliver {} to {}", event.event_type, to.join(","))
            }
            Effect::Append { seq, .. } => format!("append {seq}"),
            Effect::Ack(_) => "ack".into(),
            Effect::Store(row) => format!("store {} {}", row.kind().as_str(), row.key()),
            other => format!("{other:?}").chars().take(12).collect(),
        }
    }

    impl Host for StreamingHost {
        type Error = Infallible;

        fn apply(&mut self, effect: Effect) -> Result<Vec<(Address, u64)>, Infallible> {
            self.applied.push(label(&effect));
            let pushed = match &effect {
                Effect::Deliver {
                    to,
                    order: Some(order),
                    ..
                } if to.contains(&self.streaming) => vec![(self.streaming.clone(), order.seq)],
                _ => Vec::new(),
            };
            // Keep the log and rows as the memory host does.
            self.log.apply_one(&effect);
            Ok(pushed)
        }

        fn read(&mut self, request: &ReadRequest) -> Result<ReadRows, Infallible> {
            Ok(self.log.read_rows(request))
        }

        fn catch_up_failed(&mut self, _: &ReadRequest, error: Infallible) {
            match error {}
        }
    }

    use std::convert::Infallible;

    /// The same script through two different hosts.
    fn script(mut run: impl FnMut(&mut Network, Vec<Effect>, u64) -> Vec<String>) -> Vec<String> {
        let mut network = Network::new(
            NetworkConfig::open("demo".parse().unwrap(), "Demo"),
            [],
            0,
            [9; 32],
        );
        let mut alice = Client::new(addr("agent:alice"), "demo".parse().unwrap(), [1; 32]);
        let mut bob = Client::new(addr("agent:bob"), "demo".parse().unwrap(), [2; 32]);
        let mut order = Vec::new();
        let join_alice = network.handle_event(
            None,
            alice.join(None, Timestamp::from(1)),
            Timestamp::from(1),
        );
        order.extend(run(&mut network, join_alice, 1));
        let join_bob =
            network.handle_event(None, bob.join(None, Timestamp::from(2)), Timestamp::from(2));
        let secret = join_bob
            .iter()
            .find_map(|e| match e {
                Effect::Ack(ack) => ack.extra.get("member_secret").cloned(),
                _ => None,
            })
            .expect("a first join is given a member secret");
        order.extend(run(&mut network, join_bob, 2));
        let gone = network.disconnect(&addr("agent:bob"), Timestamp::from(3));
        order.extend(run(&mut network, gone, 3));
        for n in 0..3 {
            let event = alice.event(
                "chat.msg".parse().unwrap(),
                addr("agent:broadcast"),
                json!({"n": n}),
                Timestamp::from(4 + n),
            );
            let effects =
                network.handle_event(Some(&addr("agent:alice")), event, Timestamp::from(4 + n));
            order.extend(run(&mut network, effects, 4 + n));
        }
        let mut join = bob.join(Some(json!({"member_secret": secret})), Timestamp::from(10));
        join.payload["resume"] = json!({"after": 0});
        let back = network.handle_event(None, join, Timestamp::from(10));
        order.extend(run(&mut network, back, 10));
        order
    }

    /// The script through a [`StreamingHost`] that streams to `member`.
    fn streamed(member: &str) -> Vec<String> {
        let mut streaming = StreamingHost {
            log: MemoryHost::default(),
            streaming: addr(member),
            applied: Vec::new(),
        };
        script(|network, effects, now| {
            apply_effects(network, effects, Timestamp::from(now), &mut streaming).unwrap();
            std::mem::take(&mut streaming.applied)
        })
    }

    #[test]
    fn every_host_applies_effects_in_the_same_depth_first_order() {
        let mut memory = MemoryHost::default();
        let in_memory = script(|network, effects, now| {
            memory
                .apply(network, effects, Timestamp::from(now))
                .iter()
                .map(label)
                .collect()
        });
        let other = streamed("agent:nobody");
        assert_eq!(in_memory, other);
        // Bob's rejoin: the ack first (it tells bob it joined and from where it
        // resumes), then the catch-up read and right after it its three deliveries.
        let read = in_memory
            .iter()
            .rposition(|l| l == "read catch-up agent:bob after 0")
            .expect("bob catches up");
        assert_eq!(in_memory[read - 1], "ack", "{in_memory:#?}");
        assert_eq!(
            in_memory[read + 1..],
            [
                "deliver chat.msg to agent:bob".to_owned(),
                "deliver chat.msg to agent:bob".to_owned(),
                "deliver chat.msg to agent:bob".to_owned(),
            ],
            "{in_memory:#?}"
        );
    }

    #[test]
    fn a_delivery_pushed_to_a_stream_is_acknowledged_right_after_it() {
        let order = streamed("agent:bob");
        let first = order
            .iter()
            .position(|l| l == "deliver chat.msg to agent:bob")
            .expect("bob receives");
        assert!(
            order[first + 1..]
                .iter()
                .any(|l| l == "store cursor agent:bob"),
            "the pushed delivery moved bob's cursor: {order:#?}"
        );
    }
}
