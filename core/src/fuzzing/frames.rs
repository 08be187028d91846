//! The network state machine's fuzz target: a sequence of frames from a few
//! connections into a network with every standard mod.
//!
//! The input is text, one frame a line; a line's first character picks the
//! connection it arrives on (its code modulo 4: 0 `agent:alice`, 1
//! `human:bob`, 2 `openagents:carol`, 3 a connection that has not joined),
//! and the line's index is the time in milliseconds. [`frame_line`] writes
//! such a line.

use crate::event::{Event, Limits};
use crate::host::MemoryHost;
use crate::ids::address::Address;
use crate::model::config::{ModConfig, NetworkConfig};
use crate::network::{Effect, Network};

/// The addresses a line's first character binds its frame to; past the end
/// (index 3) the frame comes from a connection that has not joined.
pub const SESSIONS: [&str; 3] = ["agent:alice", "human:bob", "openagents:carol"];

/// The id of the network the frames go to.
pub const NETWORK: &str = "fuzz";

/// The standard mods the network loads.
const MODS: [&str; 7] = [
    "auth",
    "access-control",
    "rate-limiter",
    "enrichment",
    "workspace",
    "persistence",
    "analytics",
];

/// One input line: `frame` on the connection of `SESSIONS[session]`, or on
/// one that has not joined when `session` is `None`.
pub fn frame_line(session: Option<usize>, frame: &str) -> String {
    let picker = match session {
        Some(0) => '0',
        Some(1) => '1',
        Some(2) => '2',
        _ => '3',
    };
    format!("{picker}{frame}\n")
}

/// The open network [`NETWORK`] with every standard mod, as the target
/// starts it, behind the in-memory host (which stores its rows and log and
/// answers its reads at once, so catch-up, pages and queries run).
pub(super) struct FuzzNetwork {
    network: Network,
    host: MemoryHost,
}

impl FuzzNetwork {
    pub fn new() -> Option<Self> {
        let mut config = NetworkConfig::open(NETWORK.parse().ok()?, "Fuzz");
        config.mods = MODS
            .iter()
            .filter_map(|m| ModConfig::from_name(m))
            .collect();
        Some(Self {
            network: Network::new(config, [], 0, [0; 32]),
            host: MemoryHost::default(),
        })
    }

    /// Handles `frame` from `session` at `now`; returns every effect the
    /// host applied, in order.
    pub fn frame(&mut self, session: Option<&Address>, frame: &str, now: u64) -> Vec<Effect> {
        let effects = self.network.handle_frame(session, frame, now);
        self.host.apply(&mut self.network, effects, now)
    }
}

/// Runs the frames through the network and its host: nothing panics, the log's sequence numbers only grow,
/// and every text a host would send or store is an event serde writes the
/// same. Returns how many events entered the log.
pub fn network_frames(data: &[u8]) -> usize {
    let Ok(text) = std::str::from_utf8(data) else {
        return 0;
    };
    let Some(mut network) = FuzzNetwork::new() else {
        return 0;
    };
    let sessions: Vec<Address> = SESSIONS.iter().filter_map(|s| s.parse().ok()).collect();
    let roomy = Limits {
        max_frame_bytes: usize::MAX,
        max_payload_bytes: usize::MAX,
        max_metadata_bytes: usize::MAX,
        ..Limits::default()
    };
    let mut last_seq = 0;
    let mut appended = 0;
    for (now, line) in text.lines().enumerate() {
        let mut chars = line.chars();
        let session = chars.next().and_then(|c| sessions.get(c as usize % 4));
        for effect in network.frame(session, chars.as_str(), now as u64) {
            let mut texts: Vec<String> = effect.frames().into_iter().map(|(_, f)| f).collect();
            texts.extend(effect.reply_text());
            if let Effect::Append { seq, event, .. } = &effect {
                assert!(*seq > last_seq, "sequence went from {last_seq} to {seq}");
                last_seq = *seq;
                appended += 1;
                let text = event.encode();
                assert_eq!(
                    Some(&text),
                    serde_json::to_string(&**event).ok().as_ref(),
                    "the writer and serde disagree on a logged event"
                );
                texts.push(text);
            }
            for text in texts {
                assert!(Event::decode(&text, &roomy).is_ok(), "not an event: {text}");
            }
        }
    }
    appended
}
