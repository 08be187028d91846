// The network's answers, read through the core's typed payloads: what the
// Agent's discover, discoverResources, read and history resolve with has
// exactly the shape the core defines (and index.d.ts declares).

import { core } from './runtime.js';
import { callCore } from './errors.js';
import { jsonArg } from './args.js';

/**
 * The payload of an answer event from `core` (`network.agent.discover.response`,
 * `network.resource.discover.response`, `network.resource.read.response`,
 * `network.events.response`, `network.event.ack`, `network.event.error`,
 * `network.agent.challenge.response`, `network.pong`), checked and in its typed
 * shape; throws `AgentnetError` (`malformed_event`) when it is not one.
 */
export function readAnswer(event) {
  const text = typeof event === 'string' ? event : jsonArg(event, 'event');
  return JSON.parse(callCore(() => core.readAnswer(text)));
}

/** A network profile (`GET /v1/profile`), checked and in its typed shape; throws `malformed_event`. */
export function readProfile(profile) {
  const text = typeof profile === 'string' ? profile : jsonArg(profile, 'profile');
  return JSON.parse(callCore(() => core.readProfile(text)));
}
