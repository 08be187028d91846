// The identity registry of an agentnet deployment (`/registry/v1/`): register
// an `openagents:{name}` agent with its key and get its AIC and DIDs, short-lived
// tokens (verification level 2), key rotation, revocation and DID resolution.

import { core } from './runtime.js';
import { AgentnetError, callCore } from './errors.js';
import { stringArg, urlArg } from './args.js';
import { KeyPair } from './identity.js';

async function call(url, path, body) {
  const target = new URL(path, urlArg(url, 'url'));
  let response;
  try {
    response = await fetch(target, body === undefined ? {} : {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (err) {
    throw new AgentnetError('unreachable', `cannot reach ${target}: ${err.message}`, { cause: err });
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new AgentnetError(answer.code ?? 'internal', answer.message ?? `HTTP ${response.status}`);
    error.reason = answer.reason;
    throw error;
  }
  return answer;
}

function pairOf(key) {
  return key instanceof KeyPair ? key : KeyPair.import(key);
}

async function proved(url, key, action, name, detail) {
  const { nonce } = await call(url, '/registry/v1/challenge', { name });
  return { nonce, signature: key.signRegistryProof({ action, name, nonce, detail }) };
}

/**
 * Registers `openagents:{name}` with `key` at the deployment `url` (the key
 * proves itself over the registry's challenge). Resolves with the record:
 * `{name, address, aic, did, did_wba, keys, acs}`.
 */
export async function register({ url, name, key, acs }) {
  const pair = pairOf(key);
  stringArg(name, 'name');
  const proof = await proved(url, pair, 'register', name, pair.publicKey);
  return call(url, '/registry/v1/agents', { name, public_key: pair.publicKey, ...proof, ...(acs ? { acs } : {}) });
}

/** A short-lived token (EdDSA JWT) for `name` and `audience` (a network id): `{access_token, expires_in}`. */
export async function requestToken({ url, name, key, audience }) {
  stringArg(audience, 'audience');
  const proof = await proved(url, pairOf(key), 'token', name, audience);
  return call(url, '/registry/v1/token', { name, audience, ...proof });
}

/** Replaces `name`'s key by `newKey`, signed by the current `key`. */
export async function rotateKey({ url, name, key, newKey }) {
  const fresh = pairOf(newKey);
  const proof = await proved(url, pairOf(key), 'rotate', name, fresh.publicKey);
  return call(url, `/registry/v1/agents/${encodeURIComponent(name)}/rotate`, { public_key: fresh.publicKey, ...proof });
}

/** Revokes `name` (signed by its current `key`): its keys, DIDs and tokens stop verifying. */
export async function revoke({ url, name, key }) {
  const proof = await proved(url, pairOf(key), 'revoke', name, '');
  return call(url, `/registry/v1/agents/${encodeURIComponent(name)}/revoke`, proof);
}

/**
 * Publishes `acs` (an ACPs ACS document, `aic` may be left out) as the
 * capabilities of `name`, signed by its current `key`. Resolves with the record.
 */
export async function publishCapabilities({ url, name, key, acs }) {
  const detail = callCore(() => core.acsDigest(JSON.stringify(acs)));
  const proof = await proved(url, pairOf(key), 'acs', name, detail);
  return call(url, `/registry/v1/agents/${encodeURIComponent(name)}/acs`, { acs, ...proof });
}

/**
 * Searches the deployment at `url` for agents by capability: `q` (text),
 * `tags`, `mode`, `transport`, `verification`, `network`, `limit`.
 * Resolves with `{agents: [{id, name, score, endpoints, description_url, …}], total}`.
 */
export async function discoverAgents({ url, q = '', tags = [], mode, transport, verification, network, limit }) {
  const params = new URLSearchParams({ q });
  if (tags.length) params.set('tags', tags.join(','));
  for (const [k, v] of Object.entries({ mode, transport, verification, network, limit })) {
    if (v !== undefined) params.set(k, String(v));
  }
  return call(url, `/registry/v1/discover?${params}`);
}

/**
 * The DID document of `did`: `did:openagents:…` from the registry at `url`,
 * `did:wba:…` from its own URL (or the registry at `url` when given).
 */
export async function resolveDid({ did, url }) {
  stringArg(did, 'did');
  if (did.startsWith('did:openagents:') || url) {
    if (!url) throw new AgentnetError('invalid_request', 'resolving did:openagents needs the registry url');
    return call(url, `/registry/v1/did/${encodeURIComponent(did)}`);
  }
  const location = callCore(() => core.didDocumentUrl(did));
  if (!location) throw new AgentnetError('invalid_did', `${did} has no document URL`);
  return call(location, location);
}
