// A panic inside the network's wasm must not brick the object: the request
// that panicked fails, and the next ones are served from intact storage.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startEdge } from '../support/edge.mjs';

let edge;
after(async () => { await edge?.stop(); });

test('the network serves again after a wasm panic, with its history', async () => {
  edge = await startEdge({ testHooks: true });
  const join = await (await fetch(`${edge.url}/networks/demo/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'agent:survivor' }) })).json();
  const auth = { authorization: `Bearer ${join.token}` };
  const sent = await (await fetch(`${edge.url}/networks/demo/v1/events`, {
    method: 'POST', headers: auth, body: JSON.stringify({ type: 'chat.msg', target: 'agent:broadcast', payload: { n: 1 } }),
  })).json();
  // The request that panics gets no answer (or a 5xx); it must not take the object down.
  const panicked = await fetch(`${edge.url}/networks/demo/v1/__test/panic`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(3000) })
    .then((res) => res.status, (err) => err.name);
  assert.ok(panicked === 'TimeoutError' || panicked >= 500, `the panicking request fails (${panicked})`);

  const profile = await fetch(`${edge.url}/networks/demo/v1/profile`);
  assert.equal(profile.status, 200);
  const next = await fetch(`${edge.url}/networks/demo/v1/events`, {
    method: 'POST', headers: auth, body: JSON.stringify({ type: 'chat.msg', target: 'agent:broadcast', payload: { n: 2 } }),
  });
  assert.equal(next.status, 200, await next.clone().text());
  const ack = await next.json();
  assert.ok(ack.seq > (sent.seq ?? 0), 'the sequence continues from storage');
});
