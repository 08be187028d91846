// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

/**
 * What is being asked of a resource.
 */
export type Permission = "read" | "write" | "invoke" | "admin";
