// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

import type { Ack, Challenge, ErrorPayload, EventsPage, Pong, ResourceContent, ResourceList, Roster } from './payloads.js';

/**
 * Any answer from `core`, by its event type.
 */
export type Answer = Roster | ResourceList | ResourceContent | EventsPage | ErrorPayload | Ack | Challenge | Pong;
