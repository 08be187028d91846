// Addresses, event types and events: parsing, formatting and validation by the Rust core.

import { core } from './runtime.js';
import { AgentnetError, callCore } from './errors.js';
import { jsonArg, numberArg, objectArg, stringArg, stringArgs } from './args.js';

/** The canonical form of an address (`alice` → `agent:alice`); throws `AgentnetError` (`invalid_address`). */
export function parseAddress(address) {
  return callCore(() => core.parseAddress(String(address)));
}

/** True when `address` is a valid address. */
export function isValidAddress(address) {
  try {
    parseAddress(address);
    return true;
  } catch {
    return false;
  }
}

/** The parts of an address: `{address, network, kind, name, registrar, uri, did}`. */
export function addressInfo(address) {
  return JSON.parse(callCore(() => core.addressInfo(String(address))));
}

const PREFIXES = {
  core: () => 'core',
  broadcast: () => 'agent:broadcast',
  agent: (name) => `agent:${name}`,
  human: (name) => `human:${name}`,
  channel: (name) => `channel/${name}`,
  mod: (name) => `mod/${name}`,
  group: (name) => `group/${name}`,
  tool: (name) => `resource/tool/${name}`,
  file: (name) => `resource/file/${name}`,
  context: (name) => `resource/context/${name}`,
};

/**
 * Builds a canonical address from parts: `formatAddress({kind: 'tool', name: 'calc', network: 'lab'})`
 * → `lab::resource/tool/calc`. `kind: 'registered'` takes a `registrar` (default `openagents`).
 */
export function formatAddress({ kind, name, network, registrar = 'openagents' }) {
  const entity = kind === 'registered' ? `${registrar}:${name}` : PREFIXES[kind]?.(name);
  if (entity === undefined) {
    throw new AgentnetError('invalid_address', `unknown address kind ${kind}`);
  }
  return parseAddress(network ? `${network}::${entity}` : entity);
}

/** Validates an event type such as `workspace.message.posted`; returns it or throws. */
export function parseEventType(type) {
  return callCore(() => core.parseEventType(String(type)));
}

/** True when `type` matches `pattern` (`*`, `prefix.*` or an exact type). */
export function matchesPattern(pattern, type) {
  stringArgs({ pattern, type });
  return callCore(() => core.matchesPattern(pattern, type));
}

/** Validates an event object against the protocol's rules; returns it in canonical form or throws. */
export function validateEvent(event) {
  const text = jsonArg(objectArg(event, 'event'), 'event');
  return JSON.parse(callCore(() => core.validateEvent(text)));
}

/**
 * Builds a valid event (a fresh ULID id, the timestamp, canonical addresses):
 * `createEvent({source: 'agent:a', network: 'demo', target: 'agent:b', type: 'chat.message', payload})`.
 */
export function createEvent({ source, network, target, type, payload = {}, metadata, timestamp = Date.now() }) {
  stringArgs({ source, network, target, type });
  numberArg(timestamp, 'timestamp');
  const payloadText = jsonArg(payload, 'payload');
  const metadataText = metadata ? jsonArg(metadata, 'metadata') : undefined;
  const client = callCore(() => new core.Client(source, network, globalThis.crypto.getRandomValues(new Uint8Array(32))));
  try {
    const frame = callCore(() =>
      client.event(type, target, payloadText, metadataText, timestamp),
    );
    return JSON.parse(frame);
  } finally {
    client.free();
  }
}

/**
 * The W3C trace context of an event that `event` causes: `{traceparent, tracestate?}`
 * naming `event` as parent in its trace, or `{}` when `event` is not traced. Put it in
 * `metadata` of what you send because of `event` (`reply` does this itself).
 */
export function traceCausedBy(event) {
  return JSON.parse(callCore(() => core.traceCausedBy(jsonArg(objectArg(event, 'event'), 'event'))));
}

/**
 * Runs a conformance vector (JSON text, see `core/tests/vectors/`) through the core; throws on a mismatch.
 * The full entry only: the lite core has no network engine to run it (`not_supported`).
 */
export function runConformanceVector(vector) {
  stringArg(vector, 'vector');
  if (typeof core.runConformanceVector !== 'function') {
    throw new AgentnetError('not_supported', 'conformance vectors run in agentnet-sdk, not agentnet-sdk/lite');
  }
  callCore(() => core.runConformanceVector(vector));
}
