// Type declarations of agentnet-sdk: the network's answers as the Agent's
// methods give them.
//
// The answers' payloads themselves (Roster, ResourceList, ResourceContent,
// EventsPage, ErrorPayload, Ack, Challenge, Pong, NetworkProfile, the member
// records and the enumerations they use) are generated from the core's Rust
// types into ./generated/; `tests/js/types.test.mjs` checks real answers
// against them.

import type { Ack } from './generated/index.js';

/** What `send` returns: the ack to come, with the sent event's `id` known at once. */
export type Sent = Promise<Ack> & { readonly id: string };
