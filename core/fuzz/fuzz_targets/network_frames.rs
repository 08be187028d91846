//! A sequence of frames from a few connections into a network with every
//! standard mod: nothing panics, the log's sequence numbers only grow, and
//! every text a host would send or store is an event serde writes the same.
#![no_main]

use agentnet_core::model::config::ModConfig;
use agentnet_core::network::{Effect, Network};
use agentnet_core::model::config::NetworkConfig;
use agentnet_core::{Address, Event, Limits};
use libfuzzer_sys::fuzz_target;

const SESSIONS: [&str; 3] = ["agent:alice", "human:bob", "openagents:carol"];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(id) = "fuzz".parse() else { return };
    let mut config = NetworkConfig::open(id, "Fuzz");
    config.mods = [
        "auth",
        "access-control",
        "rate-limiter",
        "enrichment",
        "workspace",
        "persistence",
        "analytics",
    ]
    .iter()
    .filter_map(|name| ModConfig::from_name(name))
    .collect();
    let mut network = Network::new(config, [], 0, [0; 32]);
    let mut last_seq = 0;
    let roomy = Limits {
        max_frame_bytes: usize::MAX,
        max_payload_bytes: usize::MAX,
        max_metadata_bytes: usize::MAX,
        ..Limits::default()
    };
    // Each line is one frame; its first byte picks the connection (or none).
    for (now, line) in text.lines().enumerate() {
        let mut chars = line.chars();
        let session: Option<Address> = chars
            .next()
            .and_then(|c| SESSIONS.get(c as usize % 4))
            .and_then(|s| s.parse().ok());
        for effect in network.handle_frame(session.as_ref(), chars.as_str(), now as u64) {
            let mut texts: Vec<String> = effect.frames().into_iter().map(|(_, f)| f).collect();
            texts.extend(effect.reply_text());
            if let Effect::Append { seq, event, .. } = &effect {
                assert!(*seq > last_seq, "sequence went from {last_seq} to {seq}");
                last_seq = *seq;
                let text = event.encode();
                assert_eq!(Some(&text), serde_json::to_string(&**event).ok().as_ref());
                texts.push(text);
            }
            for text in texts {
                assert!(Event::decode(&text, &roomy).is_ok(), "not an event: {text}");
            }
        }
    }
});
