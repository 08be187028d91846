// What an agent joins with: its replica, set up as agents use it, and the
// credentials of `Agent.connect`'s options (token, invitation, member secret,
// registry JWT, and the key or DID proofs the replica signs); what a closed
// agent holds instead of a replica; and the names it joins channels by.

import { core } from './runtime.js';
import { AgentnetError, callCore } from './errors.js';
import { stringArg } from './args.js';
import { KeyPair } from './identity.js';

function randomSeed() {
  return globalThis.crypto.getRandomValues(new Uint8Array(32));
}

/**
 * A replica for `name` in `network`, kept in memory (no rows to persist, no
 * event log: events reach handlers as they come), with the keepalive on so
 * the replica decides heartbeats, dead links and reconnection; `key` (and
 * `did`) make it answer the network's challenge.
 */
export function agentReplica(name, network, { key, did }) {
  const replica = callCore(() => new core.Replica(name, network, randomSeed()));
  replica.setPersistEffects(false);
  replica.setLogLimit(0);
  replica.setKeepalive(true);
  // Every join says whether the program takes tasks: not until it registers a handler (`onTask`).
  replica.setTakesTasks(false);
  if (key) {
    const pair = key instanceof KeyPair ? key : KeyPair.import(key);
    callCore(() => replica.setSigningKey(pair.secretKey));
    if (did !== undefined) callCore(() => replica.setDid(stringArg(did, 'did')));
  } else if (did !== undefined) {
    throw new AgentnetError('invalid_request', 'a DID proof needs the key its document lists: pass key as well');
  }
  return replica;
}

/** The join's credentials from `connect`'s options, or undefined when there are none. */
export function joinCredentials({ credentials, token, jwt, invite, memberSecret }) {
  const merged = { ...(credentials ?? {}) };
  if (token) merged.token = token;
  if (jwt !== undefined) merged.jwt = stringArg(jwt, 'jwt');
  if (invite) merged.invite = invite;
  if (memberSecret !== undefined) merged.member_secret = stringArg(memberSecret, 'memberSecret');
  return Object.keys(merged).length ? merged : undefined;
}

/** What a closed agent holds instead of its replica: every call fails with `closed`. */
export const closedReplica = new Proxy({}, {
  get(_, property) {
    if (property === 'online') return false;
    if (property === 'free') return undefined;
    throw new AgentnetError('closed', 'agent is closed');
  },
});

/** A channel name from `room` or `channel/room`. */
export function channelName(channel) {
  return String(channel).replace(/^channel\//, '');
}
