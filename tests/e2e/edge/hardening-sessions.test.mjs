// Sessions and sockets, end to end over HTTP, WebSocket and SSE: sessions
// expire and tokens stay out of URLs (tickets, good once, where a browser
// cannot send a header); leaving closes the member's sockets and streams;
// unauthenticated sockets are capped, must join in time, and are closed for
// frames that are no events; failed joins and challenges are throttled per
// client IP — each with its stable code, and the network still serving its
// members. The edge runs with a shortened policy (test hooks only).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent, createEvent } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';
import { call as callAt, assertRefused } from '../../support/http.mjs';
import { sseBlocks } from '../../support/sse.mjs';
import { pace, expectNothingFor } from '../../support/waits.mjs';

const POLICY = {
  session_idle_ms: 4_000,
  join_deadline_ms: 1_500,
  max_unjoined_per_peer: 4,
  bad_frames_burst: 3,
};

const edge = edgeForFile({ testHooks: true, vars: { AGENTNET_TEST_POLICY: JSON.stringify(POLICY) } });

/** A client IP of its own for each test (the edge trusts CF-Connecting-IP, as Cloudflare sets it). */
let nextIp = 1;
const freshIp = () => `198.51.100.${nextIp++}`;

/** `method path` on this file's edge (`support/http.mjs`), from the client address `ip` when given. */
function call(method, path, { ip, ...options } = {}) {
  return callAt(edge.url, method, path, { ...options, headers: ip ? { 'cf-connecting-ip': ip } : {} });
}

const join = (id, agent_id, credentials, ip) => call('POST', `/networks/${id}/v1/join`, { body: { agent_id, credentials }, ip });
const openNetwork = (name) => createNetwork(edge.url, { name, access: { policy: 'open' }, mods: ['persistence'] });

/**
 * A raw WebSocket to network `id` (`query` appended to the URL) from `ip`.
 * When the network closes a socket its close frame arrives at once, but
 * workerd ends the TCP connection of a hibernatable socket it closed only
 * later; like a browser (which gives up after about 2 s), the client does not
 * wait 30 s for it. Resolves `{ws, frames, opened, closed}`:
 * `{ws, frames, opened, closed}`; `opened` resolves true, or with the HTTP
 * status of a refused upgrade; `closed` with `{code, reason}`.
 */
function socket(id, { query = '', ip } = {}) {
  const headers = ip ? { 'cf-connecting-ip': ip } : {};
  const ws = new WebSocket(`${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws${query}`, { headers, closeTimeout: 2_000 });
  const frames = [];
  ws.on('message', (data) => frames.push(String(data)));
  ws.on('error', () => {});
  const opened = new Promise((resolve) => {
    ws.once('open', () => resolve(true));
    ws.once('unexpected-response', (_req, res) => { resolve(res.statusCode); ws.terminate(); });
  });
  const closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  return { ws, frames, opened, closed, events: () => frames.flatMap((f) => { try { return [JSON.parse(f)]; } catch { return []; } }) };
}

/**
 * An SSE stream's records as they come: `{records, done, stop}`; `done`
 * resolves once the network ends the stream, `stop()` ends it from here.
 */
function stream(response) {
  const records = [];
  const reader = response.body.getReader();
  let stopped = false;
  const stop = () => { stopped = true; return reader.cancel().catch(() => {}); };
  const chunks = async function* () {
    for (;;) {
      let next;
      try {
        next = await reader.read();
      } catch (err) {
        if (stopped) return;
        throw err;
      }
      if (next.done) return;
      yield next.value;
    }
  };
  const done = (async () => {
    const take = sseBlocks();
    for await (const chunk of chunks()) {
      for (const block of take(chunk)) {
        const name = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (name && data) records.push({ name, data: JSON.parse(data) });
      }
    }
  })();
  return { records, done, stop };
}

test('an idle session expires with session_expired, one in use lives on, and a rejoin gets a new one', async () => {
  const { id } = await openNetwork('sessions-expire');
  const first = await join(id, 'agent:poller');
  assert.equal(first.status, 200, JSON.stringify(first.json));
  assert.equal(typeof first.json.session_expires_at, 'number');
  const kept = (await join(id, 'agent:busy')).json.token;
  const beat = (token) => call('POST', `/networks/${id}/v1/heartbeat`, { token });

  // The busy member uses its session every second, past the idle limit; the poller goes quiet.
  const started = Date.now();
  while (Date.now() - started < POLICY.session_idle_ms + 1_000) {
    assert.equal((await beat(kept)).status, 200, 'a session in use stays valid');
    await pace(1_000);
  }
  assertRefused(await beat(first.json.token), 401, 'session_expired', 'an idle session');
  assertRefused(await beat(first.json.token), 401, 'not_joined', 'an expired session is forgotten');
  // The member comes back with its secret and carries on.
  const again = await join(id, 'agent:poller', { member_secret: first.json.member_secret });
  assert.equal(again.status, 200, JSON.stringify(again.json));
  assert.equal((await beat(again.json.token)).status, 200);
});

test('a session in a plain route\'s URL is refused; the header works, and streams and sockets take a ticket once', async () => {
  const { id } = await openNetwork('tickets');
  const reader = (await join(id, 'agent:reader')).json.token;
  const writer = (await join(id, 'agent:writer')).json.token;
  for (const path of [`/networks/${id}/v1/discover?session=${reader}`, `/networks/${id}/v1/events?session=${reader}`]) {
    assertRefused(await call('GET', path), 400, 'invalid_request', path);
  }
  assertRefused(await call('POST', `/networks/${id}/v1/heartbeat?session=${reader}`, { token: reader }), 400, 'invalid_request', 'a session in the URL beside the header');
  assert.equal((await call('GET', `/networks/${id}/v1/discover`, { token: reader })).status, 200);

  // A ticket opens an SSE stream, once.
  const ticket = async () => {
    const issued = await call('POST', `/networks/${id}/v1/ticket`, { token: reader });
    assert.equal(issued.status, 200, JSON.stringify(issued.json));
    assert.ok(issued.json.expires_at > Date.now());
    return issued.json.ticket;
  };
  assertRefused(await call('POST', `/networks/${id}/v1/ticket`), 401, 'not_joined', 'a ticket without a session');
  const forStream = await ticket();
  const opened = await fetch(`${edge.url}/networks/${id}/v1/sse?ticket=${forStream}`);
  assert.equal(opened.status, 200);
  const records = stream(opened);
  await call('POST', `/networks/${id}/v1/events`, { token: writer, body: { type: 'chat.msg', target: 'agent:reader', payload: { via: 'sse' } } });
  await until('the event on the stream', () => records.records.some((r) => r.data.payload?.via === 'sse'));
  const twice = await fetch(`${edge.url}/networks/${id}/v1/sse?ticket=${forStream}`);
  assert.equal(twice.status, 401, 'a ticket is good once');
  assert.equal((await twice.json()).code, 'not_joined');

  // …and a WebSocket, bound to the member, once.
  const forSocket = await ticket();
  const ws = socket(id, { query: `?ticket=${forSocket}` });
  assert.equal(await ws.opened, true);
  await call('POST', `/networks/${id}/v1/events`, { token: writer, body: { type: 'chat.msg', target: 'agent:reader', payload: { via: 'ws' } } });
  await until('the event on the socket', () => ws.events().some((e) => e.payload?.via === 'ws'));
  const reused = socket(id, { query: `?ticket=${forSocket}` });
  assert.equal(await reused.opened, 401, 'a ticket is good once');
  ws.ws.close();
  await records.stop();
  await records.done;
});

test('leaving closes the member\'s sockets and SSE streams with a clear reason', async () => {
  const { id } = await openNetwork('leave-closes');
  const token = (await join(id, 'agent:leaver')).json.token;
  const ticket = async () => (await call('POST', `/networks/${id}/v1/ticket`, { token })).json.ticket;
  const ws = socket(id, { query: `?ticket=${await ticket()}` });
  assert.equal(await ws.opened, true);
  const response = await fetch(`${edge.url}/networks/${id}/v1/sse?ticket=${await ticket()}`);
  assert.equal(response.status, 200);
  const sse = stream(response);
  const stayer = await Agent.connect({ url: edge.url, network: id, name: 'agent:stayer', WebSocket });

  const left = await call('POST', `/networks/${id}/v1/leave`, { token });
  assert.equal(left.status, 200, JSON.stringify(left.json));
  const closed = await ws.closed;
  assert.equal(closed.code, 4401, JSON.stringify(closed));
  assert.match(closed.reason, /^not_joined: agent:leaver left the network/);
  await sse.done;
  assert.deepEqual(sse.records.at(-1), { name: 'closed', data: { code: 'not_joined', message: 'agent:leaver left the network' } });
  assertRefused(await call('POST', `/networks/${id}/v1/heartbeat`, { token }), 401, 'not_joined', 'the session ended');
  // The network still serves the others.
  const pong = await stayer.request('core', 'network.ping', {});
  assert.equal(pong.type, 'network.pong');
  stayer.close();
});

test('a socket that never joins is closed at the deadline; one that joined stays', async () => {
  const { id } = await openNetwork('join-deadline');
  const ip = freshIp();
  const idle = socket(id, { ip });
  const joined = socket(id, { ip });
  assert.equal(await idle.opened, true);
  assert.equal(await joined.opened, true);
  const openedAt = Date.now();
  joined.ws.send(JSON.stringify(createEvent({ source: 'agent:prompt', network: id, target: 'core', type: 'network.agent.join' })));
  await until('the join ack', () => joined.events().some((e) => e.type === 'network.event.ack'));
  const closed = await idle.closed;
  assert.equal(closed.code, 4504, JSON.stringify(closed));
  assert.match(closed.reason, /^timeout: /);
  assert.ok(Date.now() - openedAt >= POLICY.join_deadline_ms - 200, 'not before the deadline');
  await expectNothingFor(POLICY.join_deadline_ms, 'the joined socket closed at the join deadline');
  assert.equal(joined.ws.readyState, WebSocket.OPEN, 'a joined socket is not timed out');
  joined.ws.send(JSON.stringify(createEvent({ source: 'agent:prompt', network: id, target: 'core', type: 'network.ping' })));
  await until('a pong', () => joined.events().some((e) => e.type === 'network.pong'));
  joined.ws.close();
});

test('unjoined sockets beyond the cap are closed with rate_limited; others still connect', async () => {
  const { id } = await openNetwork('socket-cap');
  const ip = freshIp();
  const held = [];
  for (let n = 0; n < POLICY.max_unjoined_per_peer; n += 1) {
    held.push(socket(id, { ip }));
    assert.equal(await held.at(-1).opened, true);
  }
  const beyond = socket(id, { ip });
  const refused = await beyond.closed;
  assert.equal(refused.code, 4429, JSON.stringify(refused));
  assert.match(refused.reason, /^rate_limited: /);
  // Another client connects and joins; the same client joins over a held socket.
  const other = await Agent.connect({ url: edge.url, network: id, name: 'agent:other', WebSocket });
  held[0].ws.send(JSON.stringify(createEvent({ source: 'agent:held', network: id, target: 'core', type: 'network.agent.join' })));
  await until('the held socket joined', () => held[0].events().some((e) => e.type === 'network.event.ack'));
  // Joining freed a place for this client.
  const next = socket(id, { ip });
  assert.equal(await next.opened, true);
  await expectNothingFor(200, 'the admitted socket closed');
  assert.equal(next.ws.readyState, WebSocket.OPEN);
  other.close();
  for (const s of [...held, next]) s.ws.close();
});

test('frames that are no events close their socket after the allowance; members keep being served', async () => {
  const { id } = await openNetwork('bad-frames');
  const alice = await Agent.connect({ url: edge.url, network: id, name: 'agent:alice', WebSocket });
  const bob = await Agent.connect({ url: edge.url, network: id, name: 'agent:bob', WebSocket });
  const heard = [];
  bob.on('chat.*', (event) => heard.push(event));
  const noisy = socket(id, { ip: freshIp() });
  assert.equal(await noisy.opened, true);
  for (let n = 0; n <= POLICY.bad_frames_burst; n += 1) noisy.ws.send('{not json');
  const closed = await noisy.closed;
  assert.equal(closed.code, 4400, JSON.stringify(closed));
  assert.match(closed.reason, /^malformed_event: /);
  const errors = noisy.events().filter((e) => e.type === 'network.event.error');
  assert.equal(errors.length, POLICY.bad_frames_burst + 1, 'every bad frame was answered before the close');
  assert.ok(errors.every((e) => e.payload.code === 'malformed_event'));
  await alice.send('agent:bob', 'chat.msg', { text: 'still here' });
  await until('bob hears alice', () => heard.length === 1);
  alice.close();
  bob.close();
});

test('failed joins and key-proof challenges are throttled per client IP', async () => {
  const { id } = await createNetwork(edge.url, { name: 'guessing', access: { policy: 'token', token: 'right-token' } });
  const guesser = freshIp();
  let denied = 0;
  for (let n = 0; n < 16; n += 1) {
    const guess = await join(id, 'agent:guesser', { token: `guess-${n}` }, guesser);
    assertRefused(guess, 403, 'access_denied', `guess ${n}`);
    denied += 1;
  }
  assert.equal(denied, 16);
  // Used up: even the right token is not checked, over HTTP or a WebSocket.
  assertRefused(await join(id, 'agent:guesser', { token: 'right-token' }, guesser), 429, 'rate_limited', 'a join after the guesses');
  const ws = socket(id, { ip: guesser });
  assert.equal(await ws.opened, true);
  ws.ws.send(JSON.stringify(createEvent({ source: 'agent:guesser', network: id, target: 'core', type: 'network.agent.join', payload: { credentials: { token: 'right-token' } } })));
  await until('the refusal', () => ws.events().some((e) => e.type === 'network.event.error'));
  assert.equal(ws.events().find((e) => e.type === 'network.event.error').payload.code, 'rate_limited');
  // Someone else joins meanwhile.
  const honest = await join(id, 'agent:honest', { token: 'right-token' }, freshIp());
  assert.equal(honest.status, 200, JSON.stringify(honest.json));

  // Challenges: one client may ask 20 at once.
  const asker = socket(id, { ip: freshIp() });
  assert.equal(await asker.opened, true);
  for (let n = 0; n < 21; n += 1) {
    asker.ws.send(JSON.stringify(createEvent({ source: 'openagents:someone', network: id, target: 'core', type: 'network.agent.challenge' })));
  }
  await until('21 answers', () => asker.events().length >= 21);
  const answers = asker.events();
  assert.equal(answers.filter((e) => e.type === 'network.agent.challenge.response').length, 20);
  assert.equal(answers.find((e) => e.type === 'network.event.error')?.payload.code, 'rate_limited');
  ws.ws.close();
  asker.ws.close();
});
