// Storage does not only grow. A network's `retention`
// bounds its history (by count and age), an offline member's undelivered
// events are dropped once their window ends, and the network keeps serving
// with what is left — all through the real edge, pruned from its alarm.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { edgeForFile, createNetwork } from '../../support/edge.mjs';
import { call } from '../../support/http.mjs';
import { until, waitOut } from '../../support/waits.mjs';

const edge = edgeForFile();

const api = (method, path, options) => call(edge.url, method, path, options);
const join = (id, agent_id) => api('POST', `/networks/${id}/v1/join`, { body: { agent_id } });
const send = (id, token, event) => api('POST', `/networks/${id}/v1/events`, { token, body: event });

test('history keeps its newest events within its cap and the network keeps serving', async () => {
  const { id } = await createNetwork(edge.url, {
    name: 'capped history', access: { policy: 'open' }, mods: ['persistence'],
    retention: { history_events: 5 }, presence_timeout_ms: 1000,
  });
  const ann = await join(id, 'agent:ann');
  assert.equal(ann.status, 200, JSON.stringify(ann.json));
  for (let n = 0; n < 20; n += 1) {
    const sent = await send(id, ann.json.token, { type: 'note.filed', target: 'agent:broadcast', payload: { n } });
    assert.equal(sent.status, 200, JSON.stringify(sent.json));
  }
  const history = async () => {
    const answer = await send(id, ann.json.token, {
      type: 'network.events.query', target: 'core', payload: { after: 0, types: 'note.*', limit: 100 },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return answer.json.payload.events.map((e) => e.event.payload.n);
  };
  // Pruning waits for the alarm (which may already have come on a slow machine): whatever is
  // kept now is the newest run, in order, and never fewer than the cap.
  const before = await history();
  assert.ok(before.length >= 5, `${before}`);
  assert.deepEqual(before, [...Array(before.length).keys()].map((k) => 20 - before.length + k));
  // Ann goes quiet: her presence times out, the alarm fires and prunes.
  const kept = await until('history pruned to its cap', async () => {
    const ns = await history();
    return ns.length <= 5 ? ns : null;
  });
  assert.deepEqual(kept, [15, 16, 17, 18, 19], 'the newest five are kept, in order');
  const more = await send(id, ann.json.token, { type: 'note.filed', target: 'agent:broadcast', payload: { n: 20 } });
  assert.equal(more.status, 200);
  assert.deepEqual((await history()).slice(-1), [20]);
});

test("an offline member's undelivered events go once their window ends; the newest stays", async () => {
  const { id } = await createNetwork(edge.url, {
    name: 'short memory', access: { policy: 'open' },
    retention: { undelivered_ms: 2000 }, presence_timeout_ms: 1000,
  });
  const ann = await join(id, 'agent:ann');
  const bob = await join(id, 'agent:bob');
  assert.equal(bob.status, 200, JSON.stringify(bob.json));
  for (let n = 0; n < 5; n += 1) {
    const sent = await send(id, ann.json.token, { type: 'chat.msg', target: 'agent:bob', payload: { n } });
    assert.equal(sent.status, 200, JSON.stringify(sent.json));
  }
  // Bob never polls: his five wait for him while their window runs (2 s
  // from the alarm that marks them, pruned at the next run a second later),
  // then go. He polls once, after: a poll acknowledges, so only one is made.
  await waitOut(5000, "bob's undelivered window (2 s from the alarm that marks them) and the prune after it");
  const res = await api('GET', `/networks/${id}/v1/events?after=0&limit=50`, { token: bob.json.token });
  assert.equal(res.status, 200, JSON.stringify(res.json));
  const left = res.json.events.filter((e) => e.event.type === 'chat.msg').map((e) => e.event.payload.n);
  assert.deepEqual(left, [4], 'only the newest is left of what bob never read');
});
