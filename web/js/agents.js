// The hosted agents of the Admin view (web/src/admin/hosted.rs): listing,
// adding or changing, and removing the LLM agents the network runs, over
// `/networks/{id}/v1/admin/agents` with a session of the master's own (a
// join with their member secret). The provider key goes only in the add
// request's body; the edge keeps it and never answers it back.

async function answer(response) {
  let body = null;
  try { body = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) throw new Error(body?.message ?? `the edge answered ${response.status}`);
  return body;
}

async function session(network, me, secret) {
  const joined = await answer(await fetch(`/networks/${network}/v1/join`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: me, credentials: { member_secret: secret } }),
  }));
  return joined.token;
}

async function call(network, me, secret, method, path, body) {
  const token = await session(network, me, secret);
  const init = { method, headers: { authorization: `Bearer ${token}` } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = body;
  }
  return JSON.stringify(await answer(await fetch(`/networks/${network}/v1/admin/${path}`, init)));
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
