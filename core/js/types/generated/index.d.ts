// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

export * from './access.js';
export * from './agent.js';
export * from './agent_mod.js';
export * from './answers.js';
export * from './config.js';
export * from './error.js';
export * from './event.js';
export * from './ids.js';
export * from './json.js';
export * from './membership.js';
export * from './payloads.js';
export * from './profile.js';
export * from './replica.js';
export * from './task.js';
