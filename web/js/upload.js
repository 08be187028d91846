// Files of real size for the workspace (web/src/chat/files/attach/mod.rs decides
// which files go this way): an upload to the network's file store in parts
// (`POST /networks/{id}/v1/files`, `PUT …/parts/{n}`, `POST …/complete`,
// agentnet_core::bindings::files), with progress, that goes on after a
// dropped connection — it asks the edge what is missing and sends only
// that — and a signed link to read a stored file. Every call carries a
// session of the person's own (a join with their member secret).

import { session } from './push.js';

const sessions = new Map();

/** A session token of `me` in `network`, made once per page (again when it ends). */
async function token(network, me, secret, fresh = false) {
  const key = `${network}\n${me}`;
  if (fresh || !sessions.has(key)) sessions.set(key, session(network, me, secret));
  try {
    return await sessions.get(key);
  } catch (error) {
    sessions.delete(key);
    throw error;
  }
}

/** `fetch` with the session; a session that ended is made again once. */
async function call(network, me, secret, path, init = {}) {
  for (const fresh of [false, true]) {
    const bearer = await token(network, me, secret, fresh);
    const response = await fetch(`/networks/${network}/v1/files${path}`, {
      ...init, headers: { ...(init.headers ?? {}), authorization: `Bearer ${bearer}` },
    });
    if (response.status === 401 && !fresh) continue;
    let body = null;
    try { body = await response.json(); } catch { /* not JSON */ }
    if (response.ok) return body;
    const error = new Error(body?.message ?? `the edge answered ${response.status}`);
    // A refusal (4xx) says the same when asked again; a failure (5xx) may pass.
    error.refused = response.status < 500;
    throw error;
  }
  throw new Error('the session could not be made');
}

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How long to wait before the `attempt`-th retry: 0.5 s doubling to 8 s. */
const backoff = (attempt) => Math.min(8000, 500 * 2 ** attempt);

/** Tries `step` until it works or `tries` failures; a refusal (4xx) is not retried. */
async function persist(step, tries = 12) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (error.refused || attempt + 1 >= tries) throw error;
      await pause(backoff(attempt));
    }
  }
}

/**
 * Uploads `file` (a File or Blob) for `conversation`; `progress(sent, size)`
 * is called as parts are stored. Resolves with the attachment the message
 * names (`{resource, name, mime, size}`), rejects with a message for people.
 */
export async function uploadFile(network, me, secret, file, mime, conversation, progress) {
  const begun = await (call(network, me, secret, '', {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: file.name, mime, size: file.size, conversation }),
  }));
  const { file: id, part_bytes: partBytes } = begun;
  let missing = begun.missing;
  const sentBytes = () => file.size - missing.reduce((sum, n) => sum + Math.min(partBytes, file.size - (n - 1) * partBytes), 0);
  progress(sentBytes(), file.size);
  let failures = 0;
  while (missing.length > 0) {
    const n = missing[0];
    const part = file.slice((n - 1) * partBytes, Math.min(file.size, n * partBytes));
    try {
      const stored = await (call(network, me, secret, `/${id}/parts/${n}`, { method: 'PUT', body: part }));
      missing = stored.missing;
      failures = 0;
    } catch (error) {
      failures += 1;
      if (error.refused || failures > 12) throw error;
      await pause(backoff(failures - 1));
      // The connection dropped: when it is back, ask what arrived and go on from there.
      missing = (await persist(() => call(network, me, secret, `/${id}`))).missing;
    }
    progress(sentBytes(), file.size);
  }
  const done = await persist(() => (call(network, me, secret, `/${id}/complete`, { method: 'POST' })));
  return done.attachment;
}

/** A signed link to a stored file (`{url, expires_at}`), for a member who may read it. */
export async function fileLink(network, me, secret, id) {
  return call(network, me, secret, `/${id}/link`, { method: 'POST' });
}
