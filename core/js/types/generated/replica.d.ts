// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

import type { Rejection } from './error.js';
import type { EventEnvelope } from './event.js';

/**
 * An event created here and not yet in the log.
 */
export type OutboxEntry = {
  /**
   * The event.
   */
  event: EventEnvelope, } & ({ "state": "pending" } | { "state": "sent" } | { "state": "rejected",
  /**
   * The network's error.
   */
  rejection: Rejection, });
