//! Events per second through a network loaded with the standard mods.
//!
//! `cargo bench -p agentnet-core --bench network` — direct (one recipient),
//! channel (20 members) and broadcast (100 members) targets. Each iteration
//! hands one already-decoded event to `Network::handle_event` and applies
//! nothing: the figure is the core's own cost per event, effects included.

#![allow(clippy::unwrap_used)] // benchmark set-up: a failure should stop the run loudly

use agentnet_core::client::Client;
use agentnet_core::memory_host::MemoryHost;
use agentnet_core::mods::{ModConfig, RateLimit};
use agentnet_core::network::{Effect, Network, NetworkConfig};
use agentnet_core::{Address, Event, EventId};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;
use std::hint::black_box;

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
        ModConfig::Workspace,
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
    let effects = network.handle_event(None, sender.join(None, 1), 1);
    host.apply(&mut network, effects, 1);
    for i in 0..members {
        let address: Address = format!("agent:m{i}").parse().unwrap();
        let mut seed = [2u8; 32];
        seed[0] = i as u8;
        let mut client = Client::new(address, "bench".parse().unwrap(), seed);
        let effects = network.handle_event(None, client.join(None, 1), 1);
        host.apply(&mut network, effects, 1);
    }
    (network, sender)
}

fn bench_target(
    c: &mut Criterion,
    name: &str,
    members: usize,
    target: &str,
    setup: impl Fn(&mut Network, &mut Client),
) {
    let (mut network, mut sender) = standard_network(members);
    setup(&mut network, &mut sender);
    let me: Address = "agent:sender".parse().unwrap();
    let probe: Event = sender.event(
        "workspace.message.posted".parse().unwrap(),
        target.parse().unwrap(),
        json!({"content": "probe"}),
        2,
    );
    let delivered: usize = network
        .handle_event(Some(&me), probe, 2)
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
    let event: Event = sender.event(
        "workspace.message.posted".parse().unwrap(),
        target.parse().unwrap(),
        json!({"content": "hello"}),
        2,
    );
    let mut group = c.benchmark_group("network");
    group.throughput(Throughput::Elements(1));
    let mut now = 2;
    group.bench_function(name, |b| {
        b.iter(|| {
            now += 1;
            // A fresh id each time: a repeated id would only measure deduplication.
            let mut fresh = event.clone();
            fresh.id = EventId::from_parts(now, u128::from(now));
            black_box(network.handle_event(Some(&me), fresh, now))
        })
    });
    group.finish();
}

fn events(c: &mut Criterion) {
    bench_target(c, "direct", 1, "agent:m0", |_, _| {});
    bench_target(c, "channel_20", 20, "channel/room", |network, sender| {
        let members: Vec<String> = (0..20).map(|i| format!("agent:m{i}")).collect();
        let create = sender.event(
            "network.channel.create".parse().unwrap(),
            Address::core(),
            json!({"channel": "room", "members": members}),
            2,
        );
        network.handle_event(Some(&"agent:sender".parse().unwrap()), create, 2);
    });
    bench_target(c, "broadcast_100", 100, "agent:broadcast", |_, _| {});
}

criterion_group!(benches, events);
criterion_main!(benches);
