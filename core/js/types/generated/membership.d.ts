// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

import type { Address, Role, Timestamp, VerificationLevel } from './ids.js';
import type { MemberProfile } from './profile.js';

/**
 * A membership record.
 */
export type MemberRecord = {
  /**
   * The member's address in this network.
   */
  address: Address,
  /**
   * Its role.
   */
  role: Role,
  /**
   * Its verified level in this network.
   */
  verification: VerificationLevel,
  /**
   * Online or offline.
   */
  status: Presence,
  /**
   * The last sign of life.
   */
  last_seen: Timestamp,
  /**
   * The DID its join proved (level 2 tokens name one, level 3 proves one).
   */
  did?: string | null,
  /**
   * What the member says about itself.
   */
  profile?: MemberProfile, };

/**
 * Whether a member is connected.
 */
export type Presence = "online" | "offline";
