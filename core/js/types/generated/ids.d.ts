// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

/**
 * A routable address: a scope and an entity.
 */
export type Address = string;

/**
 * A 128-bit ULID event id.
 */
export type EventId = string;

/**
 * A validated event type. The model's own types borrow their static name
 * instead of allocating one for every acknowledgement and notice.
 */
export type EventType = string;

/**
 * A validated network id.
 */
export type NetworkId = string;

/**
 * The three kinds of shared resource (ONM §8).
 */
export type ResourceKind = "tool" | "file" | "context";

/**
 * A member's role.
 */
export type Role = "master" | "member" | "observer";

/**
 * A moment: milliseconds since the Unix epoch. Written as a bare number.
 */
export type Timestamp = number;

/**
 * A verification level 0–3 (ONM §5).
 */
export type VerificationLevel = 0 | 1 | 2 | 3;
