// Member secrets kept between runs, so an address stays the program's.
//
// An address belongs to whoever first joined as it; a later join must present
// the member secret of that first join. `Agent.connect` keeps each address's
// secret in a store — by default the runtime's (a file in Node, Bun and Deno,
// IndexedDB in a browser, none in a Worker), keyed by network URL and address —
// and presents it on the next run. `secretStore: false` keeps nothing; any
// object with `get(key)` and `set(key, secret)` (a `Map`, say) replaces it.

import { AgentnetError } from './errors.js';
import { defaultSecretStore } from './runtime.js';

/**
 * The key of `address` in the network whose socket is `socketUrl`:
 * `http://127.0.0.1:8787/networks/demo agent:echo` (the network's URL, with
 * the socket's path and query left off, then the address).
 */
export function secretKey(socketUrl, address) {
  const url = new URL(socketUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : url.protocol === 'ws:' ? 'http:' : url.protocol;
  url.pathname = url.pathname.replace(/\/v1\/ws$/, '');
  url.search = '';
  url.hash = '';
  return `${url.toString()} ${address}`;
}

/** The store `connect` uses: `option` when it is one, none for `false`, else the runtime's default. */
export async function secretStoreOf(option) {
  if (option === false || option === null) return null;
  if (option === undefined) return defaultSecretStore();
  if (typeof option?.get !== 'function' || typeof option?.set !== 'function') {
    throw new AgentnetError('invalid_argument', 'secretStore must be false or an object with get(key) and set(key, secret)');
  }
  return option;
}

/** The secret `store` keeps under `key`, or undefined (a store that fails keeps nothing). */
export async function keptSecret(store, key) {
  if (!store) return undefined;
  try {
    const secret = await store.get(key);
    return typeof secret === 'string' && secret ? secret : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps `secret` under `key` when it is new; a store that fails is skipped (the next run then needs `memberSecret`). */
export async function keepSecret(store, key, secret, kept) {
  if (!store || !secret || secret === kept) return;
  try {
    await store.set(key, secret);
  } catch {
    // Not kept: nothing else breaks.
  }
}

/** The `address_in_use` refusal said in `Agent.connect`'s terms. */
export function addressInUse(err, address, network, { presented }) {
  const why = presented
    ? 'the member secret presented (memberSecret, or the one kept in the secret store) is not its first holder\'s'
    : 'it belongs to whoever first joined as it';
  return new AgentnetError('address_in_use',
    `${address} is taken in network ${network}: ${why}. Pass that holder's agent.memberSecret as memberSecret to Agent.connect, or connect with another name`,
    { cause: err });
}

/**
 * A store over one JSON file `{key: secret}`: `read()` resolves with its text
 * (undefined when there is none), `write(text)` replaces it (owner-only).
 * Writes are chained, and each re-reads the file, so two agents of one
 * program keep both their secrets.
 */
export function jsonFileStore({ read, write, describe }) {
  let queue = Promise.resolve();
  const load = async () => {
    try {
      const kept = JSON.parse((await read()) ?? '{}');
      return kept && typeof kept === 'object' && !Array.isArray(kept) ? kept : {};
    } catch {
      return {};
    }
  };
  return {
    describe,
    async get(key) {
      await queue;
      return (await load())[key];
    },
    set(key, secret) {
      queue = queue.catch(() => {}).then(async () => write(JSON.stringify({ ...(await load()), [key]: secret }, null, 2)));
      return queue;
    },
  };
}

/** A store in IndexedDB (browsers): database `agentnet`, object store `member-secrets`. */
export function indexedDbStore(indexedDB = globalThis.indexedDB) {
  if (!indexedDB) return null;
  let opened;
  const db = () => {
    opened ??= new Promise((resolve, reject) => {
      const request = indexedDB.open('agentnet', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('member-secrets');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return opened;
  };
  const run = async (mode, act) => {
    const tx = (await db()).transaction('member-secrets', mode);
    const request = act(tx.objectStore('member-secrets'));
    return new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  };
  return {
    describe: 'IndexedDB agentnet/member-secrets',
    get: (key) => run('readonly', (store) => store.get(key)),
    set: (key, secret) => run('readwrite', (store) => store.put(secret, key)),
  };
}
