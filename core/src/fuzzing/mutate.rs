//! Deterministic mutations for the stable fuzz run: a seeded PRNG applies a
//! few stacked edits to a kept input — bit flips, interesting bytes and
//! numbers, insertions, deletions, duplicated ranges, splices with another
//! input, and the target's dictionary tokens — as libFuzzer's mutators do,
//! without its coverage feedback.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Longest input a mutation makes.
const MAX_LEN: usize = 64 * 1024;

/// Tokens of the text targets: JSON structure, envelope fields, address
/// prefixes and forms, event types, and the frames' connection pickers.
const TEXT_TOKENS: &[&[u8]] = &[
    b"{\"",
    b"\"}",
    b"\":",
    b"\",",
    b"\":\"",
    b"[",
    b"]",
    b"{}",
    b"[]",
    b"null",
    b"true",
    b"false",
    b"\"type\"",
    b"\"source\"",
    b"\"target\"",
    b"\"payload\"",
    b"\"metadata\"",
    b"\"id\"",
    b"\"timestamp\"",
    b"\"network\"",
    b"\"seq\":",
    b"\"sync\":",
    b"\"credentials\":",
    b"\"member_secret\":",
    b"\"resume\":",
    b"\"after\":",
    b"\"delivery\":",
    b"\"in_reply_to\":",
    b"\"visibility\":",
    b"\"refs\":",
    b"\"channel\":",
    b"\"members\":",
    b"\"content\":",
    b"\\u0000",
    b"\\ud800",
    b"\\\"",
    b"openagents:",
    b"agent:",
    b"human:",
    b"channel/",
    b"group/",
    b"mod/",
    b"resource/file/",
    b"resource/tool/",
    b"resource/context/",
    b"::",
    b"openagents://",
    b"did:",
    b"local",
    b"core",
    b"agent:broadcast",
    b"network.agent.join",
    b"network.agent.leave",
    b"workspace.message.posted",
    b"network.channel.create",
    b"network.channel.join",
    b"network.resource.register",
    b"network.resource.update",
    b"network.event.ack",
    b"network.events.query",
    b"\n0",
    b"\n1",
    b"\n2",
    b"\n3",
];

/// Tokens of Automerge's binary formats: the chunk magic, sync message
/// and chunk types, and LEB128 extremes.
const BINARY_TOKENS: &[&[u8]] = &[
    &[0x85, 0x6f, 0x4a, 0x83],
    &[0x42],
    &[0x43],
    &[0x00],
    &[0x01],
    &[0x02],
    &[0x80, 0x80, 0x80, 0x80, 0x01],
    &[0xff, 0xff, 0xff, 0xff, 0x0f],
    &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
    &[0x7f],
];

/// Numbers that sit on the edges decoders check.
const NUMBERS: &[&[u8]] = &[
    b"0",
    b"-0",
    b"-1",
    b"1e999",
    b"-1e999",
    b"0.5",
    b"9007199254740993",
    b"18446744073709551615",
    b"18446744073709551616",
    b"9223372036854775808",
];

/// Bytes that sit on the edges decoders check.
const BYTES: &[u8] = &[
    0x00, 0x01, 0x7f, 0x80, 0xc0, 0xff, b'"', b'\\', b'\n', b'{', b'}',
];

/// The dictionary of a target.
pub(super) fn dictionary(target: &str) -> &'static [&'static [u8]] {
    match target {
        "document_sync" => BINARY_TOKENS,
        _ => TEXT_TOKENS,
    }
}

/// A seeded source of mutations.
pub(super) struct Mutator {
    rng: ChaCha8Rng,
    dictionary: &'static [&'static [u8]],
}

impl Mutator {
    /// Mutations drawn from `seed`, inserting tokens from `dictionary`.
    pub fn new(seed: u64, dictionary: &'static [&'static [u8]]) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            dictionary,
        }
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }

    /// `base` with one to four stacked mutations; `other` is another kept
    /// input to splice with.
    pub fn mutate(&mut self, base: &[u8], other: &[u8]) -> Vec<u8> {
        let mut data = base.to_vec();
        for _ in 0..=self.below(4) {
            self.mutate_once(&mut data, other);
        }
        data.truncate(MAX_LEN);
        data
    }

    fn mutate_once(&mut self, data: &mut Vec<u8>, other: &[u8]) {
        let at = self.below(data.len() + 1);
        match self.below(10) {
            0 if at < data.len() => data[at] ^= 1 << self.below(8),
            1 if at < data.len() => data[at] = self.pick(BYTES).copied().unwrap_or(0),
            2 => {
                let bytes: Vec<u8> = (0..=self.below(8))
                    .map(|_| self.rng.next_u32() as u8)
                    .collect();
                data.splice(at..at, bytes);
            }
            3 if !data.is_empty() => {
                let end = (at + 1 + self.below(data.len() / 4 + 1)).min(data.len());
                data.drain(at.min(end)..end);
            }
            4 if !data.is_empty() => {
                let from = self.below(data.len());
                let end = (from + 1 + self.below(32)).min(data.len());
                let copy = data[from..end].to_vec();
                data.splice(at..at, copy);
            }
            5 => {
                let from = self.below(other.len() + 1);
                data.truncate(at);
                data.extend_from_slice(&other[from..]);
            }
            6 => {
                let token = self.pick(self.dictionary).copied().unwrap_or(b"");
                data.splice(at..at, token.iter().copied());
            }
            7 if !data.is_empty() => {
                let end = (at + 1 + self.below(8)).min(data.len());
                let token = self.pick(self.dictionary).copied().unwrap_or(b"");
                data.splice(at.min(end)..end, token.iter().copied());
            }
            8 => self.replace_number(data),
            _ => {
                let c = char::from_u32(self.rng.next_u32() % 0x11_0000).unwrap_or('\u{fffd}');
                let mut buffer = [0; 4];
                data.splice(at..at, c.encode_utf8(&mut buffer).bytes());
            }
        }
    }

    /// Replaces a run of ASCII digits (or, with none, inserts) an edge number.
    fn replace_number(&mut self, data: &mut Vec<u8>) {
        let number = self.pick(NUMBERS).copied().unwrap_or(b"0");
        let digits: Vec<usize> = (0..data.len())
            .filter(|&i| data[i].is_ascii_digit())
            .collect();
        let Some(&start) = self.pick(&digits) else {
            let at = self.below(data.len() + 1);
            data.splice(at..at, number.iter().copied());
            return;
        };
        let end = (start..data.len())
            .find(|&i| !data[i].is_ascii_digit())
            .unwrap_or(data.len());
        data.splice(start..end, number.iter().copied());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_mutations_and_they_change_the_input() {
        let base = br#"{"type":"chat.msg","seq":12}"#;
        let run = |seed| {
            let mut m = Mutator::new(seed, TEXT_TOKENS);
            (0..200)
                .map(|_| m.mutate(base, b"other"))
                .collect::<Vec<_>>()
        };
        assert_eq!(run(1), run(1));
        assert_ne!(run(1), run(2));
        let changed = run(1).iter().filter(|m| m.as_slice() != base).count();
        assert!(
            changed > 180,
            "only {changed} of 200 mutations changed the input"
        );
    }
}
