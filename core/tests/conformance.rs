//! Runs every JSON conformance vector in `tests/vectors/` against the native core.
//! The npm package runs the same files through wasm.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test scaffolding: failures should be loud

use agentnet_core::host::conformance::run_vector;
use std::fs;
use std::path::Path;

#[test]
fn every_vector_passes() {
    // Cargo runs tests in the package's root. Not `env!("CARGO_MANIFEST_DIR")`: a test binary
    // built in another clone that shares the build cache would look in that clone.
    let dir = Path::new("tests/vectors");
    let mut paths: Vec<_> = fs::read_dir(dir)
        .expect("vectors directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 5,
        "expected the vector files, found {paths:?}"
    );
    let failures: Vec<String> = paths
        .iter()
        .filter_map(|path| {
            let text = fs::read_to_string(path).expect("readable vector");
            run_vector(&text)
                .err()
                .map(|e| format!("{}: {e}", path.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_wrong_expectation_is_reported() {
    let vector = r#"{"steps": [{"join": "agent:a", "expect": [{"reply": "network.event.ack"}]}]}"#;
    assert!(run_vector(vector).is_err());
}
