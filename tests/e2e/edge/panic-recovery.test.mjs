// Failures inside the network's object: a wasm panic must not brick it (the
// request or frame that panicked fails, the next ones are served from intact
// storage),
// and a log write that fails as a whole loses nothing that was acknowledged.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent, createEvent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';

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

test('a log batch that fails as a whole is written row by row: every acknowledged event is kept', async () => {
  edge ??= await startEdge({ testHooks: true });
  const { id } = await createNetwork(edge.url, { name: 'failing-batch', mods: ['persistence'] });
  const sender = await Agent.connect({ url: edge.url, network: id, name: 'agent:sender', WebSocket });
  const late = await Agent.connect({ url: edge.url, network: id, name: 'agent:late', WebSocket });
  const { memberSecret } = late;
  late.close();
  const hook = await fetch(`${edge.url}/networks/${id}/v1/__test/fail-next-batch`, { method: 'POST', body: '{}' });
  assert.equal(hook.status, 200, await hook.text());
  // One burst: the edge gathers these into shared batches, the first of which fails.
  const total = 200;
  const acks = await Promise.all([...Array(total).keys()].map((n) => sender.send('agent:late', 'note.kept', { n })));
  assert.equal(new Set(acks.map((a) => a.seq)).size, total, 'every event acknowledged once');
  // The log has every one: a member that was away catches up on all of them, in order.
  const got = [];
  const back = await Agent.connect({ url: edge.url, network: id, name: 'agent:late', WebSocket, memberSecret });
  back.on('note.kept', (event) => got.push(event.payload.n));
  try {
    await until('every acknowledged event', () => got.length >= total, 8_000);
    assert.deepEqual(got, [...Array(total).keys()]);
  } finally {
    sender.close();
    back.close();
  }
});

test('a panic while handling WebSocket frames does not brick the object: the same socket is served after it', async () => {
  edge ??= await startEdge({ testHooks: true });
  const { id } = await createNetwork(edge.url, { name: 'frame-panic', mods: ['persistence'] });
  const receiver = await Agent.connect({ url: edge.url, network: id, name: 'agent:receiver', WebSocket });
  const got = [];
  receiver.on('note.after', (event) => got.push(event.payload.n));
  const socket = new WebSocket(`${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws`);
  const frames = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  const frame = (type, target, payload) => {
    const event = createEvent({ source: 'agent:sender', network: id, target, type, payload });
    socket.send(JSON.stringify(event));
    return event.id;
  };
  const acked = (eventId) => frames.some((f) => f.type === 'network.event.ack' && f.payload?.id === eventId);
  try {
    const join = frame('network.agent.join', 'core', {});
    await until('the sender joined', () => acked(join), 8_000);
    socket.send('__test/panic');
    await until('the object panics', () => /deliberate panic in a frame/.test(edge.log.join('')), 8_000);
    // The object is rebuilt; the socket keeps its member (its attachment), so its next frame is handled.
    const after = frame('note.after', 'agent:receiver', { n: 1 });
    await until('the frame after the panic is acknowledged', () => acked(after), 8_000);
    await until('and delivered', () => got.includes(1), 8_000);
    assert.match(edge.log.join(''), /deliberate panic in a frame/, 'the frame did panic the object');
  } finally {
    socket.close();
    receiver.close();
  }
});
