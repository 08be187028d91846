//! The fuzz targets' bodies, shared by the libFuzzer targets in
//! `core/fuzz/fuzz_targets/` (nightly + cargo-fuzz) and the stable corpus
//! test that `cargo test` runs (`tests.rs` here): each target takes any
//! bytes, must not panic, and asserts the invariants its code promises
//! (round trips, sequence numbers only growing, answers that decode).
//!
//! Compiled only for the core's own tests and with the `fuzzing` feature
//! (which the fuzz crate enables); hidden from the documentation and no part
//! of the API a host uses.
//!
//! The kept inputs live in `core/fuzz/corpus/<target>/` (seeds made by
//! [`seeds`]) and `core/fuzz/crashers/<target>/` (every input that ever
//! crashed a target, kept as regressions).

mod conversations;
mod frames;
mod script;
pub mod seeds;
mod text;

#[cfg(feature = "documents")]
mod documents;
#[cfg(feature = "documents")]
mod sync_script;

#[cfg(test)]
mod mutate;
#[cfg(test)]
mod tests;

#[cfg(feature = "documents")]
pub use documents::document_sync;
pub use frames::{SESSIONS, frame_line, network_frames};
pub use text::{address, event_json};

/// One fuzz target: its name (the libFuzzer binary's and the corpus
/// folder's), its body, and its seeds.
#[derive(Debug, Clone, Copy)]
pub struct Target {
    /// The name of the target and of its corpus folder.
    pub name: &'static str,
    /// Runs one input; panics when an invariant breaks, and returns how
    /// much of the input the code accepted (events decoded or logged,
    /// addresses parsed, messages applied), which tells a run's reach.
    pub run: fn(&[u8]) -> usize,
    /// The seed inputs.
    pub seeds: fn() -> Vec<seeds::Seed>,
}

/// Every target this build has (`document_sync` needs the `documents`
/// feature).
pub const TARGETS: &[Target] = &[
    Target {
        name: "event_json",
        run: event_json,
        seeds: seeds::event_json,
    },
    Target {
        name: "address",
        run: address,
        seeds: seeds::address,
    },
    Target {
        name: "network_frames",
        run: network_frames,
        seeds: seeds::network_frames,
    },
    #[cfg(feature = "documents")]
    Target {
        name: "document_sync",
        run: document_sync,
        seeds: seeds::document_sync,
    },
];

/// The folder of the kept inputs: `core/fuzz`.
pub fn fuzz_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}
