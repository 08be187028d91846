// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

import type { Address, EventId, EventType, NetworkId, Timestamp } from './ids.js';
import type { JsonValue } from './json.js';

/**
 * One event: the only unit of communication in a network.
 *
 * Serialized in envelope order with `metadata`'s keys sorted; a network-side
 * `Enrichment` is written inside `metadata` (see `crate::event::enrichment`).
 */
export type EventEnvelope = {
  /**
   * ULID, unique within the network.
   */
  id: EventId,
  /**
   * Hierarchical type.
   */
  type: EventType,
  /**
   * Sender's address.
   */
  source: Address,
  /**
   * Recipient; never null (`agent:broadcast` for everyone, `core` for the network).
   */
  target: Address,
  /**
   * Event data.
   */
  payload: JsonValue,
  /**
   * Protocol-level metadata (`in_reply_to`, `visibility`, `refs`, …).
   */
  metadata: { [key in string]: JsonValue },
  /**
   * When it was created.
   */
  timestamp: Timestamp,
  /**
   * The network the event belongs to; filled in by the network when absent.
   */
  network?: NetworkId, };
