// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

import type { JsonValue } from './json.js';

/**
 * What a member says about itself.
 */
export type MemberProfile = {
  /**
   * The name people read (the address is one click away).
   */
  name?: string | null,
  /**
   * A picture: `data:image/{png,jpeg,webp,gif};base64,…`.
   */
  picture?: string | null,
  /**
   * A sentence or two for people and directories.
   */
  description?: string | null,
  /**
   * Free-form fields (IOA's node `meta`).
   */
  meta?: { [key in string]: JsonValue },
  /**
   * True when the member agrees to be listed outside the network.
   */
  listed?: boolean,
  /**
   * Whether the member takes tasks; `None` when it has not said.
   */
  tasks?: boolean | null, };
