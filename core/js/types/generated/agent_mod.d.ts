// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

/**
 * What the network does when an agent mod is offline or late with its verdict.
 */
export type LatePolicy = "fail-open" | "fail-closed";

/**
 * How a mod takes part in the pipeline.
 */
export type ModMode = "guard" | "transform" | "observe";
