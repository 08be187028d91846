//! Writes every fuzz target's seeds to `core/fuzz/corpus/<target>/`:
//! `cargo run -p agentnet-core --features fuzzing,documents --example fuzz_seeds`.
//! Files already there (inputs libFuzzer kept) stay; seeds are overwritten.

use agentnet_core::fuzzing::{TARGETS, fuzz_dir};

fn main() -> std::io::Result<()> {
    for target in TARGETS {
        let dir = fuzz_dir().join("corpus").join(target.name);
        std::fs::create_dir_all(&dir)?;
        let seeds = (target.seeds)();
        for seed in &seeds {
            std::fs::write(dir.join(&seed.name), &seed.bytes)?;
        }
        println!(
            "{}: {} seeds in {}",
            target.name,
            seeds.len(),
            dir.display()
        );
    }
    Ok(())
}
