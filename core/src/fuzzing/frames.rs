//! The network state machine's fuzz target: a sequence of frames from a few
//! connections into a network with every standard mod.
//!
//! The input is text, one frame a line; a line's first character picks the
//! connection it arrives on (its code modulo 4: 0 `agent:alice`, 1
//! `human:bob`, 2 `openagents:carol`, 3 a connection that has not joined).
//! That character alone is an event of the host: a member's connection
//! closes, or (3) a minute passes and the host's alarm runs (presence
//! timeouts, redelivery). Time starts at 0 and each line takes 1 ms.
//! [`frame_line`] writes such a line.

use crate::event::{Event, Limits};
use crate::host::MemoryHost;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::model::config::{ModConfig, NetworkConfig};
use crate::network::{Effect, Network};

/// The addresses a line's first character binds its frame to; past the end
/// (index 3) the frame comes from a connection that has not joined.
pub const SESSIONS: [&str; 3] = ["agent:alice", "human:bob", "openagents:carol"];

/// How far the clock jumps before the host's alarm runs.
const ALARM_STEP_MS: u64 = 60_000;

/// The id of the network the frames go to.
pub const NETWORK: &str = "fuzz";

/// The standard mods the network loads: all of them.
const MODS: [&str; 7] = crate::model::config::ModConfig::STANDARD_NAMES;

/// One input line: `frame` on the connection of `SESSIONS[session]`, or on
/// one that has not joined when `session` is `None`; with no frame, that
/// member's connection closing, or (`None`) the host's alarm a minute on.
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
    sessions: Vec<Address>,
    now: Timestamp,
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
            sessions: SESSIONS.iter().filter_map(|s| s.parse().ok()).collect(),
            now: Timestamp::from(0),
        })
    }

    /// The time the next line runs at.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// Runs one input line (without its line break); returns every effect
    /// the host applied, in order.
    pub fn line(&mut self, line: &str) -> Vec<Effect> {
        let mut chars = line.chars();
        let picker = chars.next();
        let session = picker.and_then(|c| self.sessions.get(c as usize % 4).cloned());
        let frame = chars.as_str();
        let effects = match (picker, session) {
            (Some(_), Some(member)) if frame.is_empty() => {
                self.network.disconnect(&member, self.now)
            }
            (Some(_), None) if frame.is_empty() => {
                self.now = self.now.plus_millis(ALARM_STEP_MS);
                self.network.on_alarm(self.now)
            }
            (_, session) => self.network.handle_frame(session.as_ref(), frame, self.now),
        };
        let applied = self.host.apply(&mut self.network, effects, self.now);
        self.now = self.now.plus_millis(1);
        applied
    }
}

/// Runs the lines through the network and its host: nothing panics, the
/// log's sequence numbers only grow, and every text a host would send or
/// store is an event serde writes the same. Returns how many events entered
/// the log.
pub fn network_frames(data: &[u8]) -> usize {
    let Ok(text) = std::str::from_utf8(data) else {
        return 0;
    };
    let Some(mut network) = FuzzNetwork::new() else {
        return 0;
    };
    let roomy = Limits {
        max_frame_bytes: usize::MAX,
        max_payload_bytes: usize::MAX,
        max_metadata_bytes: usize::MAX,
        ..Limits::default()
    };
    let mut last_seq = 0;
    let mut appended = 0;
    for line in text.lines() {
        for effect in network.line(line) {
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
