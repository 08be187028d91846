// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

/**
 * Who may join.
 */
export type AccessPolicy = "open" | "token" | "invite" | "did-verify";

/**
 * Delivery guarantee (ONM §6).
 */
export type DeliveryMode = "at-least-once" | "at-most-once";

/**
 * Lifecycle status of a network.
 *
 * * `active` — everything works;
 * * `paused` — members may join, ping, discover and query, but no other
 *   event is accepted (`network_unavailable`);
 * * `archived` — read-only history: no joins, only ping, discover and query.
 */
export type NetworkStatus = "active" | "paused" | "archived";
