// Who the CLI is and where it goes, settled before it joins: the default
// identity (one address, made once and kept), the member secrets kept between
// runs (the SDK's store: `AGENTNET_SECRETS`, else `agentnet/secrets.json` in
// the user's configuration folder), whether the network exists, and errors
// said in the CLI's own terms (its flags, not the SDK's options).

import { AgentnetError, resolveNetwork } from '../index.js';
import { secretKey } from '../lib/secrets.js';
import { nodeSecretStore } from '../lib/secrets-file.js';

/** The key under which the CLI keeps its default address, beside the member secrets. */
const DEFAULT_NAME = 'agentnet-sdk cli default address';

/** The kept secrets (the SDK's file store). */
export const store = await nodeSecretStore();

/**
 * The address to join as: `--as` (or `AGENTNET_NAME`), else the CLI's default
 * identity — `agent:cli-` and six random characters, made on first use and
 * kept, so every command without `--as` is the same member.
 */
export async function identity(given) {
  if (given) return given;
  const kept = await store.get(DEFAULT_NAME).catch(() => undefined);
  if (typeof kept === 'string' && kept) return kept;
  const made = `agent:cli-${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(6)), (b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('')}`;
  await store.set(DEFAULT_NAME, made).catch(() => {});
  return made;
}

/**
 * Where `where` (`{url, network}` or `{profile}`) goes, checked by asking the
 * network's profile (`GET /networks/{id}/v1/profile`) first: a network that
 * does not exist fails with `unknown_network`, an edge that does not answer
 * with `unreachable`. Resolves with `{network, socketUrl, profile}`.
 */
export async function checkedNetwork(where) {
  const resolved = where.profile ? { profile: where.profile } : await resolveNetwork(where);
  const profile = where.profile ?? profileUrl(resolved.socketUrl);
  let response;
  try {
    response = await fetch(profile);
  } catch (err) {
    throw new AgentnetError('unreachable', `cannot reach ${new URL(profile).origin}: ${err.cause?.code ?? err.message}`);
  }
  if (response.status === 404) {
    throw new AgentnetError('unknown_network', `there is no network ${resolved.network ?? profile} at ${new URL(profile).origin}`);
  }
  return where.profile ? { ...(await resolveNetwork(where)), profile } : { ...resolved, profile };
}

/** The profile URL of the network whose socket is `socketUrl`. */
function profileUrl(socketUrl) {
  return `${secretKey(socketUrl, '').trimEnd()}/v1/profile`;
}

/** `err` said in the CLI's terms: an address in use names `--secret` and `--as`. */
export function cliError(err, { name, network }) {
  if (err?.code !== 'address_in_use') return err;
  return new AgentnetError('address_in_use', `${name} is taken in network ${network}: its member secret is not the one kept here. `
    + `Pass --secret SECRET (the member secret its first holder was given) or choose another address with --as`);
}
