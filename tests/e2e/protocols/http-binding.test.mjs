// The edge's network service end to end: creating networks, the HTTP binding
// of ONM §11 beside WebSocket agents, bad input, presence and restarts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { statefulEdgeForFile } from '../../support/edge.mjs';
import { joinToken } from '../../support/http.mjs';
import { sseBlocks } from '../../support/sse.mjs';
import { until, within } from '../../support/waits.mjs';

const edge = statefulEdgeForFile('agentnet-http-');

async function call(method, path, { body, token, raw } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${edge.url}${path}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, json };
}

async function createNetwork(extra = {}) {
  const created = await call('POST', '/v1/networks', {
    body: { name: 'HTTP test', access: { policy: 'token', token: 'member-secret' }, mods: ['persistence'], public: true, ...extra },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  return created.json;
}

/** A member's join: its address and the network's member token. */
const member = (agent_id) => ({ agent_id, credentials: { token: 'member-secret' } });

test('creating a network returns its id, profile with real endpoints and an admin credential; public ones are listed', async () => {
  const created = await createNetwork();
  assert.match(created.id, /^[0-9a-f]{32}$/);
  assert.equal(created.profile.access.policy, 'token');
  assert.deepEqual(created.profile.transports.map((t) => t.type), ['http', 'websocket', 'sse', 'mcp']);
  assert.equal(created.profile.transports[3].endpoint, `${edge.url}/networks/${created.id}/mcp`);
  assert.equal(created.profile.transports[1].endpoint, `${edge.url.replace('http', 'ws')}/networks/${created.id}/v1/ws`);
  assert.match(created.admin_token, /^[0-9a-f]{64}$/);
  const profile = await call('GET', `/networks/${created.id}/v1/profile`);
  assert.equal(profile.json.name, 'HTTP test');
  const listed = await call('GET', '/v1/networks');
  assert.ok(listed.json.networks.some((n) => n.id === created.id));
  const admin = await call('POST', `/networks/${created.id}/v1/join`, { body: { agent_id: 'human:owner', credentials: { admin_token: created.admin_token } } });
  assert.equal(admin.json.member.role, 'master');
});

test('an HTTP poller and a WebSocket agent talk through the same network', async () => {
  const { id } = await createNetwork();
  const poller = await joinToken(edge.url, id, member('agent:poller'));
  const ws = await Agent.connect({ url: edge.url, network: id, name: 'agent:socket', credentials: { token: 'member-secret' }, WebSocket });
  const heard = [];
  ws.on('chat.*', (event) => heard.push(event));

  const sent = await ws.send('agent:broadcast', 'chat.msg', { text: 'from the socket' });
  const page = await call('GET', `/networks/${id}/v1/events?after=0`, { token: poller });
  assert.equal(page.status, 200);
  const texts = page.json.events.map((e) => e.event.payload.text);
  assert.deepEqual(texts, ['from the socket']);
  assert.equal(page.json.events[0].seq, sent.seq);

  const posted = await call('POST', `/networks/${id}/v1/events`, {
    token: poller, body: { type: 'chat.msg', target: 'agent:socket', payload: { text: 'from http' } },
  });
  assert.equal(posted.status, 200, JSON.stringify(posted.json));
  assert.ok(posted.json.seq > sent.seq);
  await until('the socket agent to hear the poller', () => heard.find((e) => e.payload.text === 'from http'));

  // Polling from an event id works like polling from its seq, and nothing repeats.
  const again = await call('GET', `/networks/${id}/v1/events?after=${page.json.events[0].event.id}`, { token: poller });
  assert.deepEqual(again.json.events, []);
  const roster = await call('GET', `/networks/${id}/v1/discover`, { token: poller });
  assert.deepEqual(roster.json.agents.map((a) => a.address).sort(), ['agent:poller', 'agent:socket']);
  ws.close();
});

test('bad requests get a JSON error with a stable code and the right status', async () => {
  const { id } = await createNetwork();
  const token = await joinToken(edge.url, id, member('agent:tester'));
  const cases = [
    [await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:x' } }), 403, 'access_denied'],
    [await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'channel/' } }), 400, 'invalid_address'],
    [await call('POST', `/networks/${id}/v1/join`, { raw: '{nope' }), 400, 'malformed_event'],
    [await call('POST', `/networks/${id}/v1/events`, { body: { type: 'chat.msg', target: 'agent:broadcast' } }), 401, 'not_joined'],
    [await call('POST', `/networks/${id}/v1/events`, { token: 'forged', body: { type: 'chat.msg', target: 'agent:broadcast' } }), 401, 'not_joined'],
    [await call('POST', `/networks/${id}/v1/events`, { token, body: { type: 'chat.msg', source: 'agent:someone-else', target: 'agent:broadcast' } }), 403, 'source_mismatch'],
    [await call('POST', `/networks/${id}/v1/events`, { token, body: { type: 'chat.msg', target: 'agent:nobody' } }), 404, 'unknown_target'],
    [await call('POST', `/networks/${id}/v1/events`, { token, body: { type: 'Bad Type', target: 'core' } }), 400, 'invalid_event_type'],
    [await call('POST', `/networks/${id}/v1/events`, { token, body: { type: 'network.pong', target: 'agent:tester' } }), 403, 'reserved_type'],
    [await call('POST', `/networks/${id}/v1/events`, { token, body: { type: 'chat.msg', target: 'elsewhere::agent:x' } }), 400, 'cross_network'],
    [await call('POST', `/networks/${id}/v1/events`, { token, body: { type: 'chat.msg', target: 'agent:broadcast', payload: { big: 'x'.repeat(600_000) } } }), 413, 'too_large'],
    [await call('GET', `/networks/${id}/v1/events?after=not-a-cursor`, { token }), 400, 'invalid_request'],
    [await call('DELETE', `/networks/${id}/v1/events`, { token }), 405, 'method_not_allowed'],
    [await call('GET', '/networks/ffffffff/v1/profile'), 404, 'not_found'],
    [await call('GET', '/networks/Not_Valid/v1/profile'), 400, 'invalid_network_id'],
    [await call('POST', '/v1/networks', { body: { name: 'x', access: { policy: 'token' } } }), 400, 'invalid_request'],
    [await call('POST', '/v1/networks', { body: { name: 'x', mods: ['mod/nope'] } }), 400, 'invalid_request'],
  ];
  for (const [res, status, code] of cases) {
    assert.equal(res.status, status, JSON.stringify(res.json));
    assert.equal(res.json.code, code, JSON.stringify(res.json));
    assert.equal(typeof res.json.message, 'string');
  }
  // The session still works after all of that.
  const ok = await call('POST', `/networks/${id}/v1/events`, { token, body: { type: 'chat.msg', target: 'agent:broadcast' } });
  assert.equal(ok.status, 200);
});

test('a member that stops heartbeating goes offline and the roster says so', async () => {
  const { id } = await createNetwork({ presence_timeout_ms: 1500 });
  const quiet = await joinToken(edge.url, id, member('agent:quiet'));
  const lively = await joinToken(edge.url, id, member('agent:lively'));
  await until('agent:quiet to go offline', async () => {
    await call('POST', `/networks/${id}/v1/heartbeat`, { token: lively });
    const roster = await call('GET', `/networks/${id}/v1/discover`, { token: lively });
    const byAddress = Object.fromEntries(roster.json.agents.map((a) => [a.address, a.status]));
    return byAddress['agent:quiet'] === 'offline' && byAddress['agent:lively'] === 'online';
  }, 15_000);
  const back = await call('POST', `/networks/${id}/v1/heartbeat`, { token: quiet });
  assert.equal(back.status, 200);
});

test('after kill -9 and a restart, history, sessions and cursors are intact', async () => {
  const { id } = await createNetwork();
  const reader = await joinToken(edge.url, id, member('agent:reader'));
  const writer = await joinToken(edge.url, id, member('agent:writer'));
  const seqs = [];
  for (let n = 0; n < 5; n += 1) {
    const res = await call('POST', `/networks/${id}/v1/events`, { token: writer, body: { type: 'chat.msg', target: 'agent:broadcast', payload: { n } } });
    seqs.push(res.json.seq);
  }
  const first = await call('GET', `/networks/${id}/v1/events?after=0&limit=2`, { token: reader });
  assert.deepEqual(first.json.events.map((e) => e.event.payload.n), [0, 1]);

  await edge.kill();
  await edge.restart();

  // The reader resumes from where its last page ended: nothing was lost in the crash.
  const resumed = await call('GET', `/networks/${id}/v1/events?after=${first.json.next_after}`, { token: reader });
  assert.equal(resumed.status, 200, JSON.stringify(resumed.json));
  assert.deepEqual(resumed.json.events.map((e) => e.event.payload.n), [2, 3, 4]);
  assert.deepEqual(resumed.json.events.map((e) => e.seq), seqs.slice(2));
  const next = await call('POST', `/networks/${id}/v1/events`, { token: writer, body: { type: 'chat.msg', target: 'agent:broadcast', payload: { n: 5 } } });
  assert.equal(next.json.seq, seqs[4] + 1, 'the sequence continues after the restart');
});

/** Reads SSE records from a fetch response until `count` records with an id arrived. */
async function readRecords(response, count, timeoutMs = 10_000) {
  const reader = response.body.getReader();
  const take = sseBlocks();
  const records = [];
  const deadline = Date.now() + timeoutMs;
  while (records.length < count) {
    const { value, done } = await within(reader.read(), Math.max(0, deadline - Date.now()), 'SSE record');
    if (done) break;
    for (const block of take(value)) {
      const id = /^id: (\d+)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (id && data) records.push({ id: Number(id), event: JSON.parse(data) });
    }
  }
  await reader.cancel();
  return records;
}

test('an SSE reader follows the network and resumes with Last-Event-ID', async () => {
  const { id } = await createNetwork();
  const session = await joinToken(edge.url, id, member('agent:reader'));
  const writer = await Agent.connect({ url: edge.url, network: id, name: 'agent:writer', credentials: { token: 'member-secret' }, WebSocket });
  const first = await fetch(`${edge.url}/networks/${id}/v1/sse?session=${session}`);
  assert.equal(first.status, 200);
  assert.match(first.headers.get('content-type'), /text\/event-stream/);
  const seqs = [];
  for (let n = 0; n < 3; n += 1) seqs.push((await writer.send('agent:broadcast', 'chat.msg', { n })).seq);
  const live = await readRecords(first, 3);
  assert.deepEqual(live.map((r) => r.id), seqs);
  assert.deepEqual(live.map((r) => r.event.payload.n), [0, 1, 2]);

  // Two more while the reader is away; it comes back with the last id it saw.
  for (let n = 3; n < 5; n += 1) seqs.push((await writer.send('agent:broadcast', 'chat.msg', { n })).seq);
  const again = await fetch(`${edge.url}/networks/${id}/v1/sse`, {
    headers: { authorization: `Bearer ${session}`, 'last-event-id': String(live[2].id) },
  });
  const resumed = await readRecords(again, 2);
  assert.deepEqual(resumed.map((r) => r.event.payload.n), [3, 4]);
  assert.deepEqual(resumed.map((r) => r.id), seqs.slice(3));
  const refused = await fetch(`${edge.url}/networks/${id}/v1/sse`);
  assert.equal(refused.status, 401);
  writer.close();
});

test('a WebSocket can authenticate at the upgrade, answers ping with pong and receives as its member', async () => {
  const { id } = await createNetwork();
  const base = `${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws`;
  const refused = await new Promise((resolve) => {
    const ws = new WebSocket(`${base}?agent_id=agent:raw&token=wrong-token`);
    ws.on('unexpected-response', (_req, res) => { resolve(res.statusCode); ws.terminate(); });
    ws.on('open', () => { resolve('opened'); ws.close(); });
    ws.on('error', () => {});
  });
  assert.equal(refused, 403);

  const ws = new WebSocket(`${base}?agent_id=${encodeURIComponent('agent:raw')}&token=member-secret`);
  const frames = [];
  ws.on('message', (data) => frames.push(String(data)));
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  ws.send('ping');
  await until('pong', () => frames.includes('pong'));
  const writer = await joinToken(edge.url, id, member('agent:writer'));
  await call('POST', `/networks/${id}/v1/events`, { token: writer, body: { type: 'chat.msg', target: 'agent:raw', payload: { hi: 1 } } });
  const delivered = await until('the event on the raw socket', () => frames.map((f) => { try { return JSON.parse(f); } catch { return null; } })
    .find((e) => e?.type === 'chat.msg'));
  assert.equal(delivered.target, 'agent:raw');
  assert.equal(typeof delivered.metadata.delivery.seq, 'number');
  ws.close();
});
