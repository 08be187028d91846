// The hosted agents of the Admin view (web/src/admin/hosted.rs): listing,
// adding or changing, and removing the LLM agents the network runs, over
// `/networks/{id}/v1/admin/agents` with a session of the master's own (a
// join with their member secret). The provider key goes only in the add
// request's body; the edge keeps it and never answers it back.

import { answer, session } from './push.js';

/** One session per network and member for this page, made on first use. */
const sessions = new Map();

async function call(network, me, secret, method, path, body) {
  const key = `${network} ${me}`;
  const send = async () => {
    if (!sessions.has(key)) sessions.set(key, session(network, me, secret).catch((err) => { sessions.delete(key); throw err; }));
    const init = { method, headers: { authorization: `Bearer ${await sessions.get(key)}` } };
    if (body !== undefined) {
      init.headers['content-type'] = 'application/json';
      init.body = body;
    }
    return fetch(`/networks/${network}/v1/admin/${path}`, init);
  };
  let response = await send();
  if (response.status === 401) {
    // The session ended (it expired, or the network restarted without it): a new one, once.
    sessions.delete(key);
    response = await send();
  }
  return JSON.stringify(await answer(response));
}

/** The hosted agents, as JSON text: `{agents: [{address, name, config, key}], deployment_key_var}`. */
export function listAgents(network, me, secret) {
  return call(network, me, secret, 'GET', 'agents');
}

/** Adds or changes a hosted agent; `body` is the JSON text of its configuration (and key, if given). */
export function hostAgent(network, me, secret, body) {
  return call(network, me, secret, 'POST', 'agents', body);
}

/** Removes the hosted agent at `address` (and its key). */
export function removeAgent(network, me, secret, address) {
  return call(network, me, secret, 'POST', 'agents/remove', JSON.stringify({ address }));
}
