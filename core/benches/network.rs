//! Events per second through a network loaded with the standard mods.
//!
//! `cargo bench -p agentnet-core --bench network` — direct (one recipient),
//! channel (20 members) and broadcast (100 members) targets. Each iteration
//! hands one already-decoded event to `Network::handle_event` and applies
//! nothing: the figure is the core's own cost per event, effects included.
//!
//! The `network_wire` group measures what a host does per event, I/O aside:
//! the frame's text in, decoded by `Network::handle_frame`, and every text
//! out — the ack, each recipient's frame and the log row's event.

#![allow(clippy::unwrap_used)] // benchmark set-up: a failure should stop the run loudly

use agentnet_core::client::Client;
use agentnet_core::host::MemoryHost;
use agentnet_core::model::config::NetworkConfig;
use agentnet_core::model::config::{ModConfig, RateLimit};
use agentnet_core::network::{Effect, Network};
use agentnet_core::{Address, Event, EventId, Timestamp};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;
use std::hint::black_box;

/// Every this many events the members acknowledge what they were sent, as a
/// live member does: a member that never acknowledges reaches its bound of
/// unacknowledged deliveries (`MAX_IN_FLIGHT`) and is then paused, so the
/// benchmark would stop measuring delivery after a few thousand iterations.
const ACK_EVERY: u64 = 1_024;

/// Acknowledges everything sent so far for each member, every [`ACK_EVERY`] events.
fn ack_now_and_then(network: &mut Network, members: &[Address], now: u64) {
    if now.is_multiple_of(ACK_EVERY) {
        let seq = network.last_seq();
        for member in members {
            black_box(network.acknowledge(member, seq, Timestamp::from(now)));
        }
    }
}

/// The addresses of [`standard_network`]'s members.
fn member_addresses(members: usize) -> Vec<Address> {
    (0..members)
        .map(|i| format!("agent:m{i}").parse().unwrap())
        .collect()
}

fn standard_network(members: usize) -> (Network, Client) {
    let mut config = NetworkConfig::open("bench".parse().unwrap(), "Bench");
    config.mods = vec![
        ModConfig::Auth,
        ModConfig::RateLimiter(RateLimit {
            burst: u32::MAX,
            per_second: 1e12,
        }),
        ModConfig::AccessControl,
        ModConfig::Enrichment,
        ModConfig::Workspace(Default::default()),
        ModConfig::Persistence,
        ModConfig::Analytics,
    ];
    let mut network = Network::new(config, [], 0, [7; 32]);
    // Joins go through a memory host, so each member's catch-up completes and it receives live.
    let mut host = MemoryHost::default();
    let mut sender = Client::new(
        "agent:sender".parse().unwrap(),
        "bench".parse().unwrap(),
        [1; 32],
    );
    let effects = network.handle_event(
        None,
        sender.join(None, Timestamp::from(1)),
        Timestamp::from(1),
    );
    host.apply(&mut network, effects, Timestamp::from(1));
    for (i, address) in member_addresses(members).into_iter().enumerate() {
        let mut seed = [2u8; 32];
        seed[0] = i as u8;
        let mut client = Client::new(address, "bench".parse().unwrap(), seed);
        let effects = network.handle_event(
            None,
            client.join(None, Timestamp::from(1)),
            Timestamp::from(1),
        );
        host.apply(&mut network, effects, Timestamp::from(1));
    }
    (network, sender)
}

/// A network of `members` set up by `setup`, the sender's address and a
/// fresh message from it to `target`.
fn prepared(
    members: usize,
    target: &str,
    setup: impl Fn(&mut Network, &mut Client),
) -> (Network, Client, Address, Event) {
    let (mut network, mut sender) = standard_network(members);
    setup(&mut network, &mut sender);
    let event: Event = sender.event(
        "workspace.message.posted".parse().unwrap(),
        target.parse().unwrap(),
        json!({"content": "hello"}),
        Timestamp::from(2),
    );
    (network, sender, "agent:sender".parse().unwrap(), event)
}

fn bench_target(
    c: &mut Criterion,
    name: &str,
    members: usize,
    target: &str,
    setup: impl Fn(&mut Network, &mut Client),
) {
    let (mut network, mut sender, me, event) = prepared(members, target, setup);
    let probe: Event = sender.event(
        "workspace.message.posted".parse().unwrap(),
        target.parse().unwrap(),
        json!({"content": "probe"}),
        Timestamp::from(2),
    );
    let delivered: usize = network
        .handle_event(Some(&me), probe, Timestamp::from(2))
        .iter()
        .map(|e| match e {
            Effect::Deliver { to, .. } => to.len(),
            _ => 0,
        })
        .sum();
    assert_eq!(
        delivered, members,
        "{name}: every member must receive the measured event"
    );
    measure(c, "network", name, network, members, |network, now| {
        // A fresh id each time: a repeated id would only measure deduplication.
        let mut fresh = event.clone();
        fresh.id = EventId::from_parts(now, u128::from(now));
        network.handle_event(Some(&me), fresh, Timestamp::from(now))
    });
}

fn bench_wire(
    c: &mut Criterion,
    name: &str,
    members: usize,
    target: &str,
    setup: impl Fn(&mut Network, &mut Client),
) {
    let (network, _, me, event) = prepared(members, target, setup);
    let text = event.encode();
    let id = event.id.to_string();
    let at = text.find(&id).unwrap();
    measure(c, "network_wire", name, network, members, |network, now| {
        // A fresh id spliced into the same text each time.
        let mut frame = String::with_capacity(text.len());
        frame.push_str(&text[..at]);
        frame.push_str(&EventId::from_parts(now, u128::from(now)).to_string());
        frame.push_str(&text[at + id.len()..]);
        let effects = network.handle_frame(Some(&me), &frame, Timestamp::from(now));
        let mut sent = 0;
        for effect in &effects {
            sent += match effect {
                Effect::Append { event, .. } => event.encode().len(),
                Effect::Deliver { .. } => effect.frames().iter().map(|(_, f)| f.len()).sum(),
                _ => effect.reply_text().map_or(0, |t| t.len()),
            };
        }
        (effects, sent)
    });
}

/// Measures `step` as `name` in the benchmark group `group`: each iteration
/// moves the clock on by one, the members acknowledging now and then, and
/// hands `step` the network and the new time.
fn measure<R>(
    c: &mut Criterion,
    group: &str,
    name: &str,
    mut network: Network,
    members: usize,
    mut step: impl FnMut(&mut Network, u64) -> R,
) {
    let members = member_addresses(members);
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(1));
    let mut now = 2;
    group.bench_function(name, |b| {
        b.iter(|| {
            now += 1;
            ack_now_and_then(&mut network, &members, now);
            black_box(step(&mut network, now))
        })
    });
    group.finish();
}

fn create_room(network: &mut Network, sender: &mut Client) {
    let members: Vec<String> = (0..20).map(|i| format!("agent:m{i}")).collect();
    let create = sender.event(
        "network.channel.create".parse().unwrap(),
        Address::core(),
        json!({"channel": "room", "members": members}),
        Timestamp::from(2),
    );
    network.handle_event(
        Some(&"agent:sender".parse().unwrap()),
        create,
        Timestamp::from(2),
    );
    // Listed members are invited: each joins the channel itself.
    for (i, member) in members.iter().enumerate() {
        let address: Address = member.parse().unwrap();
        let mut seed = [3u8; 32];
        seed[0] = i as u8;
        let join = Client::new(address.clone(), "bench".parse().unwrap(), seed).event(
            "network.channel.join".parse().unwrap(),
            Address::core(),
            json!({"channel": "room"}),
            Timestamp::from(2),
        );
        network.handle_event(Some(&address), join, Timestamp::from(2));
    }
}

fn events(c: &mut Criterion) {
    bench_target(c, "direct", 1, "agent:m0", |_, _| {});
    bench_target(c, "channel_20", 20, "channel/room", create_room);
    bench_target(c, "broadcast_100", 100, "agent:broadcast", |_, _| {});
    bench_wire(c, "direct", 1, "agent:m0", |_, _| {});
    bench_wire(c, "channel_20", 20, "channel/room", create_room);
    bench_wire(c, "broadcast_100", 100, "agent:broadcast", |_, _| {});
}

criterion_group!(benches, events);
criterion_main!(benches);
