//! The stable fuzz run, part of `cargo test`: for each target, every kept
//! input (`core/fuzz/corpus/<target>/`, `core/fuzz/crashers/<target>/`)
//! and every generated seed, then a bounded run of deterministic mutations
//! of them.
//!
//! * `AGENTNET_FUZZ_ITERATIONS` — mutated inputs per target (default
//!   [`DEFAULT_ITERATIONS`]); raise it for a longer run.
//! * `AGENTNET_FUZZ_SEED` — the PRNG seed (default 0), to explore elsewhere.
//!
//! An input that panics is written to the system's temporary folder and
//! named in the failure; copy it to `core/fuzz/crashers/<target>/` to keep
//! it as a regression.

use super::mutate::{Mutator, dictionary};
use super::seeds::Seed;
use super::{TARGETS, Target, fuzz_dir};
use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::Instant;

/// Mutated inputs per target in a plain `cargo test`.
const DEFAULT_ITERATIONS: usize = 3_000;

/// Most inputs the run keeps to mutate further (kept inputs plus mutants
/// that reached a new result).
const MAX_POOL: usize = 2_000;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().replace('_', "").parse().ok())
        .unwrap_or(default)
}

fn target(name: &str) -> Target {
    *TARGETS
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no target {name}"))
}

/// The files in `dir`, sorted by name (none when it does not exist).
fn files_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .flatten()
        .filter(|e| e.path().is_file())
        .filter_map(|e| {
            let bytes = std::fs::read(e.path()).ok()?;
            Some((e.file_name().to_string_lossy().into_owned(), bytes))
        })
        .collect();
    files.sort();
    files
}

/// Runs `input`; on a panic, writes it where a developer can keep it and
/// returns the failure.
fn run_one(target: Target, input: &[u8], origin: &str) -> Result<usize, String> {
    catch_unwind(AssertUnwindSafe(|| (target.run)(input))).map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_default();
        let path = std::env::temp_dir().join(format!(
            "agentnet-fuzz-{}-{:016x}",
            target.name,
            fingerprint(input)
        ));
        let _ = std::fs::write(&path, input);
        format!(
            "{} panicked on {origin} ({} bytes, written to {}): {message}\n\
             keep it: cp {} core/fuzz/crashers/{}/",
            target.name,
            input.len(),
            path.display(),
            path.display(),
            target.name
        )
    })
}

/// FNV-1a of `bytes`: a stable name for a crashing input.
fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The kept inputs, the seeds, then the mutations, for one target.
fn fuzz(name: &str) {
    let target = target(name);
    let started = Instant::now();
    let corpus = files_in(&fuzz_dir().join("corpus").join(name));
    let crashers = files_in(&fuzz_dir().join("crashers").join(name));
    let seeds: Vec<Seed> = (target.seeds)();
    let kept = corpus
        .iter()
        .map(|(file, bytes)| (format!("corpus/{name}/{file}"), bytes.clone()))
        .chain(
            crashers
                .iter()
                .map(|(file, b)| (format!("crashers/{name}/{file}"), b.clone())),
        )
        .chain(
            seeds
                .iter()
                .map(|s| (format!("seed {}", s.name), s.bytes.clone())),
        );
    let mut pool: Vec<Vec<u8>> = Vec::new();
    let mut seen = BTreeSet::new();
    let mut failures = Vec::new();
    let mut accepted = 0;
    for (origin, bytes) in kept {
        match run_one(target, &bytes, &origin) {
            Ok(reach) => {
                seen.insert(reach);
                accepted += usize::from(reach > 0);
            }
            Err(failure) => failures.push(failure),
        }
        pool.push(bytes);
    }
    let kept_count = pool.len();
    let iterations = env_number("AGENTNET_FUZZ_ITERATIONS", DEFAULT_ITERATIONS as u64);
    let seed = env_number("AGENTNET_FUZZ_SEED", 0) ^ fingerprint(name.as_bytes());
    let mut mutator = Mutator::new(seed, dictionary(name));
    let mut mutants_accepted = 0;
    for n in 0..iterations {
        let base = mutator.below(pool.len());
        let other = mutator.below(pool.len());
        let input = mutator.mutate(&pool[base], &pool[other]);
        match run_one(target, &input, &format!("mutation {n} (seed {seed})")) {
            Ok(reach) => {
                mutants_accepted += usize::from(reach > 0);
                if seen.insert(reach) && pool.len() < MAX_POOL {
                    pool.push(input);
                }
            }
            Err(failure) => {
                failures.push(failure);
                break;
            }
        }
    }
    println!(
        "fuzz {name}: {kept_count} kept inputs ({} corpus, {} crashers, {} seeds; {accepted} accepted), \
         {iterations} mutations ({mutants_accepted} accepted), {} inputs in {:.2} s",
        corpus.len(),
        crashers.len(),
        seeds.len(),
        kept_count as u64 + iterations,
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn event_json_survives_its_corpus_and_mutations() {
    fuzz("event_json");
}

#[test]
fn address_survives_its_corpus_and_mutations() {
    fuzz("address");
}

#[test]
fn network_frames_survives_its_corpus_and_mutations() {
    fuzz("network_frames");
}

#[cfg(feature = "documents")]
#[test]
fn document_sync_survives_its_corpus_and_mutations() {
    fuzz("document_sync");
}

/// A seed the target no longer accepts (a conversation whose events are
/// refused, an event that no longer decodes) tests nothing: each must
/// reach what it was made for.
#[test]
fn every_seed_reaches_what_it_was_made_for() {
    for target in TARGETS {
        for seed in (target.seeds)() {
            let reach = (target.run)(&seed.bytes);
            assert!(reach > 0, "{} refuses its seed {}", target.name, seed.name);
            if let Some(expected) = seed.accepted {
                assert_eq!(reach, expected, "{} on its seed {}", target.name, seed.name);
            }
        }
    }
}

/// libFuzzer starts from the kept corpus: it must hold every seed as the
/// code makes it now.
#[test]
fn the_kept_corpus_holds_every_seed() {
    for target in TARGETS {
        let dir = fuzz_dir().join("corpus").join(target.name);
        for seed in (target.seeds)() {
            assert_eq!(
                std::fs::read(dir.join(&seed.name)).ok(),
                Some(seed.bytes),
                "core/fuzz/corpus/{}/{} is missing or stale: rewrite the seeds with \
                 `cargo run -p agentnet-core --features fuzzing,documents --example fuzz_seeds`",
                target.name,
                seed.name
            );
        }
    }
}

/// The `network_frames` seed `name`, as text.
fn conversation(name: &str) -> String {
    let seed = super::seeds::network_frames()
        .into_iter()
        .find(|s| s.name == name);
    String::from_utf8(seed.map(|s| s.bytes).unwrap_or_default()).unwrap()
}

#[test]
fn the_frames_seeds_join_send_and_leave() {
    let basic = conversation("join-send-leave.txt");
    for kind in [
        "network.agent.join",
        "workspace.message.posted",
        "network.agent.leave",
    ] {
        assert!(basic.contains(kind), "join-send-leave has no {kind}");
    }
    // Two joins, two posts and two leaves are logged (the ack and the ping are not).
    assert_eq!(super::network_frames(basic.as_bytes()), 6);
}

#[test]
fn a_member_whose_connection_dropped_catches_up_when_it_rejoins() {
    let rejoin = conversation("leave-and-rejoin.txt");
    let Some(mut network) = super::frames::FuzzNetwork::new() else {
        panic!("the fuzz network");
    };
    let bob: crate::Address = "human:bob".parse().unwrap();
    let mut to_bob = Vec::new();
    for line in rejoin.lines() {
        for effect in network.line(line) {
            to_bob.extend(
                effect
                    .frames()
                    .into_iter()
                    .filter(|(to, _)| **to == bob)
                    .map(|(_, f)| f),
            );
        }
    }
    assert!(
        rejoin.lines().any(|l| l == "1") && rejoin.lines().any(|l| l == "3"),
        "the seed has no disconnect or alarm line"
    );
    assert!(
        to_bob
            .iter()
            .any(|f| f.contains("while your link was down")),
        "bob never got what was sent while his link was down: {to_bob:?}"
    );
}
