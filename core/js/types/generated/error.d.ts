// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

/**
 * Every stable error code the protocol defines.
 */
export type ErrorCode = "malformed_event" | "invalid_address" | "invalid_event_type" | "invalid_event_id" | "invalid_network_id" | "too_large" | "not_joined" | "session_expired" | "source_mismatch" | "reserved_type" | "wrong_network" | "unknown_target" | "cross_network" | "access_denied" | "forbidden" | "network_unavailable" | "not_found" | "invalid_request" | "already_exists" | "address_in_use" | "owner_offline" | "rate_limited" | "limit_reached" | "verification_failed" | "not_supported" | "timeout" | "method_not_allowed" | "upgrade_required" | "invalid_transition" | "invalid_origin" | "unknown_parent" | "unknown_recipient" | "internal" | "banned" | "rejected_by_mod" | "mod_unavailable" | "takes_no_tasks" | "invalid_search" | "storage_full";

/**
 * A protocol-level rejection: a code and a message for people.
 */
export type Rejection = {
  /**
   * Stable machine-readable code.
   */
  code: ErrorCode,
  /**
   * Explanation for people.
   */
  message: string, };
