// Connection gateways through the real runtime (docs/scale.md): on a network
// created with `gateways: {count}`, a socket that joins at its upgrade is
// held by its member's gateway object, and the network object sends each
// commit once per gateway. Direct and broadcast messages reach exactly their
// recipients, a private channel and a direct message stay with their
// audience on a shared gateway, acks flow back as cursors (a reconnect
// resumes with nothing lost and nothing repeated; a gateway holds them a
// moment, so a broadcast's acks cost the network a request or two), and a restart of the
// gateways or of the network object mid-stream loses nothing acknowledged.
// A socket that joins by frame and names its member (`?member=`, as npm
// agents and the workspace do) is held by that member's gateway too, which
// refuses a join as anyone placed elsewhere, closes it when it does not join
// in time, and closes it when it sends too much before joining. A request
// between the network object and a gateway that fails is sent again, and
// what was taken of it is not applied twice.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { gatewayOf as placedOn, unjoinedSocket } from '../../support/gateways.mjs';
import { until } from '../../support/process.mjs';
import { call as callAt } from '../../support/http.mjs';
import { bareSocket, eventFrame } from '../../support/frames.mjs';
import { pace, waitOut, expectNothingFor } from '../../support/waits.mjs';

let edge;
/** The networks' time to join (short, so a socket that never joins is closed within the test). */
const JOIN_DEADLINE_MS = 3_000;
// How often a gateway holding sockets wakes to reconcile (a minute by default).
const RECONCILE_MS = 1_000;

before(async () => {
  edge = await startEdge({ testHooks: true, vars: { AGENTNET_TEST_POLICY: JSON.stringify({ join_deadline_ms: JOIN_DEADLINE_MS, gateway_reconcile_ms: RECONCILE_MS }) } });
});

after(async () => {
  await edge?.stop();
});

const GATEWAYS = 3;

const gatewayOf = (address, count = GATEWAYS) => placedOn(address, count);

/** `method path` on this file's edge (`support/http.mjs`). */
const call = (method, path, options) => callAt(edge.url, method, path, options);

const counters = async (id) => (await call('GET', `/networks/${id}/v1/__test/counters`)).json;

/** A bare agent that acknowledges every delivery at once (a cumulative ack per frame). */
async function acking(id, name, options = {}) {
  const bare = await bareSocket(edge.url, id, name, { batched: true, ...options });
  bare.socket.on('message', () => {
    const seq = Math.max(0, ...bare.events.map((e) => e.metadata?.delivery?.seq ?? 0));
    if (seq && bare.socket.readyState === WebSocket.OPEN) bare.socket.send(eventFrame('network.event.ack', name, 'core', { seq }));
  });
  return bare;
}

const gatewayNetwork = (name, mods = ['persistence']) =>
  createNetwork(edge.url, { name, access: { policy: 'open' }, mods, gateways: { count: GATEWAYS } });

test('a network refuses a gateway count outside 1-1024 with a clear error', async () => {
  const res = await call('POST', '/v1/networks', { body: { name: 'bad', access: { policy: 'open' }, gateways: { count: 0 } } });
  assert.equal(res.status, 400);
  assert.equal(res.json.code, 'invalid_request');
  assert.match(res.json.message, /gateways/);
});

test('broadcasts and direct messages reach exactly their recipients; the network sends once per gateway, not per member', async () => {
  const { id } = await gatewayNetwork('gw-fanout');
  const names = Array.from({ length: 24 }, (_, i) => `agent:g${i}`);
  const agents = await Promise.all(names.map((name) => acking(id, name)));
  const spread = new Set(names.map((n) => gatewayOf(n)));
  assert.equal(spread.size, GATEWAYS, 'the agents are spread over every gateway');
  const before = await counters(id);

  agents[0].socket.send(eventFrame('probe.all', names[0], 'agent:broadcast', { text: 'to everyone' }));
  await until('everyone else has the broadcast', () => agents.slice(1).every((a) => a.events.some((e) => e.type === 'probe.all')));
  const after = await counters(id);
  const requests = after.gateway_requests - before.gateway_requests;
  assert.ok(requests <= GATEWAYS + 1, `one request per gateway for a broadcast to 23 (plus the sender's ack): ${requests}`);
  assert.equal(after.socket_messages, before.socket_messages, 'the network object wrote no socket itself');

  agents[1].socket.send(eventFrame('probe.direct', names[1], names[2], { text: 'just you' }));
  agents[3].socket.send(eventFrame('probe.all', names[3], 'agent:broadcast', { text: 'marker' }));
  await until('everyone has the marker', () => agents.filter((_, i) => i !== 3).every((a) => a.events.filter((e) => e.type === 'probe.all').length >= (a === agents[0] ? 1 : 2)));
  await until('the direct message arrived', () => agents[2].events.some((e) => e.type === 'probe.direct'));
  for (const [i, agent] of agents.entries()) {
    const all = agent.events.filter((e) => e.type === 'probe.all').map((e) => e.payload.text);
    const expected = [i === 0 ? null : 'to everyone', i === 3 ? null : 'marker'].filter(Boolean);
    assert.deepEqual(all, expected, `${names[i]} got each broadcast once, none of its own`);
    assert.equal(agent.events.filter((e) => e.type === 'probe.direct').length, i === 2 ? 1 : 0, `${names[i]} and the direct message`);
  }
  for (const agent of agents) agent.socket.close();
});

test('a gateway holds its members\' acks a moment: a broadcast\'s acks cost the network a request or two, not one each', async () => {
  const { id } = await gatewayNetwork('gw-cursors');
  // Ten readers on one gateway, acking by hand; the sender may be anywhere.
  const names = [];
  for (let i = 0; names.length < 10; i += 1) if (gatewayOf(`agent:r${i}`) === 0) names.push(`agent:r${i}`);
  const readers = await Promise.all(names.map((name) => bareSocket(edge.url, id, name, { batched: true })));
  const sender = await bareSocket(edge.url, id, 'agent:sender', { batched: true });
  sender.socket.send(eventFrame('probe.all', 'agent:sender', 'agent:broadcast', { text: 'ack me' }));
  const seqOf = (r) => r.events.find((e) => e.type === 'probe.all')?.metadata?.delivery?.seq;
  await until('every reader has the broadcast', () => readers.every(seqOf));
  const before = await counters(id);
  // The acks come 2 ms apart, as a broadcast's audience acks it: one by one
  // over a few milliseconds, each more than a local request's round trip apart.
  for (const [i, r] of readers.entries()) {
    await pace(2);
    r.socket.send(eventFrame('network.event.ack', names[i], 'core', { seq: seqOf(r) }));
  }
  await waitOut(300, 'the gateway holding the acks, then passing them on as one cursor');
  const taken = (await counters(id)).gateway_requests_in - before.gateway_requests_in;
  assert.ok(taken >= 1, 'the cursors reached the network');
  assert.ok(taken <= 4, `10 acks over about 20 ms took ${taken} requests (one each without holding them)`);
  for (const s of [sender, ...readers]) s.socket.close();
});

test('a private channel and a direct message are not seen by another member on the same gateway', async () => {
  const { id } = await gatewayNetwork('gw-private', ['access-control', 'persistence']);
  // bob and eve share a gateway; ann is the creator.
  const bob = 'agent:bob';
  let eve = 'agent:eve';
  for (let i = 0; gatewayOf(eve) !== gatewayOf(bob); i += 1) eve = `agent:eve${i}`;
  const ann = await acking(id, 'agent:ann');
  const b = await acking(id, bob);
  const e = await acking(id, eve);
  ann.socket.send(eventFrame('network.channel.create', 'agent:ann', 'core', { channel: 'board', private: true, members: [bob] }));
  await until('the channel is created', () => ann.events.some((ev) => ev.type === 'network.event.ack' || ev.type === 'network.event.response'));
  b.socket.send(eventFrame('network.channel.join', bob, 'core', { channel: 'board' }));
  e.socket.send(eventFrame('network.channel.join', eve, 'core', { channel: 'board' }));
  await until('eve is refused', () => e.events.some((ev) => ev.type === 'network.event.error'));
  assert.equal(e.events.find((ev) => ev.type === 'network.event.error').payload.code, 'forbidden');
  await until('bob joined', () => b.events.some((ev) => ev.type === 'network.event.ack' || ev.type === 'network.event.response'));
  ann.socket.send(eventFrame('board.note', 'agent:ann', 'channel/board', { text: 'board only' }));
  ann.socket.send(eventFrame('probe.direct', 'agent:ann', bob, { text: 'for bob' }));
  ann.socket.send(eventFrame('probe.all', 'agent:ann', 'agent:broadcast', { text: 'marker' }));
  await until('bob has the note and the message', () => b.events.some((ev) => ev.type === 'board.note') && b.events.some((ev) => ev.type === 'probe.direct'));
  await until('eve has the marker after them', () => e.events.some((ev) => ev.type === 'probe.all'));
  assert.deepEqual(e.events.filter((ev) => ['board.note', 'probe.direct'].includes(ev.type)), [], 'eve saw neither');
  for (const s of [ann, b, e]) s.socket.close();
});

/** `n` direct events to `to` over HTTP from `from` (a member with a session token), numbered from `start`. */
async function sendMany(id, token, to, start, n) {
  for (let k = start; k < start + n; k += 1) {
    const res = await call('POST', `/networks/${id}/v1/events`, { token, body: { type: 'probe.item', target: to, payload: { n: k } } });
    assert.equal(res.status, 200, JSON.stringify(res.json));
  }
}

const items = (bare) => bare.events.filter((e) => e.type === 'probe.item');

test('acks flow back as cursors: a reconnect resumes after the last ack, nothing lost, nothing repeated', async () => {
  const { id } = await gatewayNetwork('gw-resume');
  const sender = (await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:sender' } })).json.token;
  // The reader returns with its session (an address with a secret is not rejoined bare).
  const session = (await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:reader' } })).json.token;
  const reader = await acking(id, 'agent:reader', { session });
  await sendMany(id, sender, 'agent:reader', 0, 10);
  await until('the first ten', () => items(reader).length === 10);
  // The acks reach the network (a cursor from the gateway) before the socket goes.
  await waitOut(300, 'the gateway passing the held acks on as a cursor');
  reader.socket.close();
  await until('closed', () => reader.closed !== null);
  await sendMany(id, sender, 'agent:reader', 10, 10);
  const again = await acking(id, 'agent:reader', { session });
  await until('the ten sent while away', () => items(again).length >= 10);
  await expectNothingFor(300, 'an item delivered again');
  assert.deepEqual(items(again).map((e) => e.payload.n), Array.from({ length: 10 }, (_, k) => 10 + k), 'exactly what was not acknowledged, in order, once');
  again.socket.close();
});

/**
 * A reader that reconnects whenever its socket closes, keeping every event it
 * got; a sender over HTTP sends `total` items while `restart` happens midway.
 */
async function throughRestart(name, restart) {
  const { id } = await gatewayNetwork(name);
  const sender = (await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:sender' } })).json.token;
  const session = (await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:reader' } })).json.token;
  const got = [];
  const closes = [];
  let current;
  let stopped = false;
  const connect = async () => {
    for (;;) {
      try {
        current = await acking(id, 'agent:reader', { session, onEvent: (e) => e.type === 'probe.item' && got.push(e) });
        current.socket.on('close', (code) => {
          closes.push(code);
          if (!stopped) pace(50).then(connect);
        });
        return;
      } catch {
        await pace(100); // the reader's backoff before it tries again
      }
    }
  };
  await connect();
  const total = 40;
  await sendMany(id, sender, 'agent:reader', 0, total / 2);
  await until('the first half', () => new Set(got.map((e) => e.payload.n)).size >= total / 4);
  const res = await call('POST', `/networks/${id}/v1/__test/${restart}`);
  assert.equal(res.status, 200, JSON.stringify(res.json));
  await sendMany(id, sender, 'agent:reader', total / 2, total / 2);
  await until('every item, after the restart', () => new Set(got.map((e) => e.payload.n)).size === total, 60_000);
  stopped = true;
  current.socket.close();
  assert.ok(closes.length >= 1, 'the restart closed the reader\'s socket');
  // At least once: an item delivered but not yet acknowledged may come again, as the same logged event.
  const seqOf = new Map();
  for (const event of got) {
    const seq = event.metadata.delivery.seq;
    assert.equal(seqOf.get(event.payload.n) ?? seq, seq, `item ${event.payload.n} again is the same logged event`);
    seqOf.set(event.payload.n, seq);
  }
  const seqs = [...seqOf.values()].sort((a, b) => a - b);
  assert.equal(new Set(seqs).size, total, 'every item once in the log');
  return closes;
}

test('a restart of the gateways mid-stream: sockets close, readers resume, nothing is lost', async () => {
  const closes = await throughRestart('gw-restart', 'restart-gateways');
  assert.ok(closes.includes(1012), `closed as a restart (${closes})`);
});

test('a restart of the network object towards its gateways mid-stream: readers resume, nothing is lost', async () => {
  const closes = await throughRestart('gw-net-restart', 'restart-sequencer');
  assert.ok(closes.some((c) => c >= 4000), `closed with the network's code (${closes})`);
});

test('npm agents join by frame on their own gateways; the network object writes no socket itself', async () => {
  const { id } = await gatewayNetwork('gw-npm');
  const bare = await acking(id, 'agent:bare');
  const names = Array.from({ length: 6 }, (_, i) => `agent:npm${i}`);
  assert.ok(new Set(names.map((n) => gatewayOf(n))).size > 1, 'the npm agents are spread over gateways');
  const agents = await Promise.all(names.map((name) => Agent.connect({ url: edge.url, network: id, name, WebSocket })));
  const heard = names.map(() => []);
  agents.forEach((agent, i) => agent.on('probe.*', (event) => heard[i].push(event)));
  const before = await counters(id);

  bare.socket.send(eventFrame('probe.all', 'agent:bare', 'agent:broadcast', { text: 'to everyone' }));
  await until('every npm agent hears the broadcast', () => heard.every((h) => h.length === 1));
  await agents[0].send('agent:bare', 'probe.reply', { text: 'hi bare' });
  await until('the gateway member hears the npm agent', () => bare.events.some((e) => e.type === 'probe.reply'));
  const after = await counters(id);
  assert.equal(after.socket_messages, before.socket_messages, 'no npm agent is held by the network object');
  assert.ok(after.gateway_requests > before.gateway_requests);
  for (const agent of agents) agent.close();
  bare.socket.close();
});

test('a gateway its network object does not answer for seconds closes the socket it could not serve; the npm agent comes back and is heard', { timeout: 120_000 }, async () => {
  const { id } = await gatewayNetwork('gw-unanswered');
  const listener = await acking(id, 'agent:listener');
  const talker = await Agent.connect({ url: edge.url, network: id, name: 'agent:talker', WebSocket });
  await talker.send('agent:listener', 'probe.early', { text: 'before' });
  await until('the listener hears the talker', () => listener.events.some((e) => e.type === 'probe.early'));
  // For 15 s the object answers its gateways with 503: the talker's gateway tries its request
  // for about 12 s, gives it up and closes the talker's socket; the agent connects again, its
  // join goes through once the object answers, and it sends what was not acknowledged.
  const refused = await call('POST', `/networks/${id}/v1/__test/refuse-gateway-requests`);
  assert.equal(refused.status, 200);
  const late = talker.send('agent:listener', 'probe.late', { text: 'after' });
  await until('the listener hears what was sent while the network did not answer', () => listener.events.some((e) => e.type === 'probe.late'), 60_000);
  await late;
  assert.equal(listener.events.filter((e) => e.type === 'probe.late').length, 1, 'heard once');
  talker.close();
  listener.socket.close();
});

test('answers from the gateways lost for a while: the network sends its requests again, each delivery and ack arrives once, and no socket is closed', async () => {
  const { id } = await gatewayNetwork('gw-lost-answers');
  const hearer = await acking(id, 'agent:hearer');
  const speaker = await acking(id, 'agent:speaker');
  speaker.socket.send(eventFrame('probe.before', 'agent:speaker', 'agent:hearer', {}));
  await until('the hearer hears the speaker', () => hearer.events.some((e) => e.type === 'probe.before'));
  const acksBefore = speaker.events.filter((e) => e.type === 'network.event.ack').length;
  // For 2 s each gateway takes the object's requests and answers 503: the object sends each
  // again (for up to about 12 s) until one is answered; the gateway skips what it took before.
  const lost = await call('POST', `/networks/${id}/v1/__test/lose-gateway-answers`);
  assert.equal(lost.status, 200);
  for (const n of [1, 2, 3]) speaker.socket.send(eventFrame('probe.lost', 'agent:speaker', 'agent:hearer', { n }));
  await until('the hearer hears all three', () => hearer.events.filter((e) => e.type === 'probe.lost').length >= 3, 30_000);
  await expectNothingFor(4_000, 'a second copy, once the answers come again');
  assert.deepEqual(hearer.events.filter((e) => e.type === 'probe.lost').map((e) => e.payload.n), [1, 2, 3], 'each heard once');
  const acks = speaker.events.filter((e) => e.type === 'network.event.ack').length - acksBefore;
  assert.equal(acks, 3, 'each acknowledged once');
  assert.deepEqual([hearer.closed, speaker.closed], [null, null], 'no socket closed: the network did not start over');
  hearer.socket.close();
  speaker.socket.close();
});

/** A socket to network `id` that has not joined yet, naming `member` (`?member=`) when given. */
const unjoined = (id, member) => unjoinedSocket(edge.url, id, member);

test('a socket that names one member and joins as one placed on another gateway is refused; as the named member it joins', async () => {
  const { id } = await gatewayNetwork('gw-hint');
  const named = 'agent:named';
  const elsewhere = ['agent:other0', 'agent:other1', 'agent:other2', 'agent:other3'].find((a) => gatewayOf(a) !== gatewayOf(named));
  const friend = await acking(id, 'agent:friend');
  const socket = await unjoined(id, named);
  socket.socket.send(eventFrame('network.agent.join', elsewhere, 'core', {}));
  await until('the join is refused', () => socket.events.some((e) => e.type === 'network.event.error'));
  const refusal = socket.events.find((e) => e.type === 'network.event.error');
  assert.equal(refusal.payload.code, 'invalid_request');
  assert.match(refusal.payload.message, /member=/);
  friend.socket.send(eventFrame('probe.hello', 'agent:friend', elsewhere, {}));
  const missing = await until(`${elsewhere} is no member`, () => friend.events.find((e) => e.type === 'network.event.error'));
  assert.equal(missing.payload.code, 'unknown_target');

  socket.socket.send(eventFrame('network.agent.join', named, 'core', {}));
  friend.socket.send(eventFrame('probe.hello', 'agent:friend', named, { text: 'found you' }));
  await until('the named member gets its message on this socket', () => socket.events.some((e) => e.type === 'probe.hello'));
  assert.equal(socket.closed, null);
  socket.socket.close();
  friend.socket.close();
});

test('a socket on a gateway that never joins is closed when its time runs out; one that keeps sending unjoined is closed at once', async () => {
  const { id } = await gatewayNetwork('gw-unjoined');
  const idle = await unjoined(id, 'agent:idle');
  const noisy = await unjoined(id, 'agent:noisy');
  for (let i = 0; i < 12; i += 1) noisy.socket.send(eventFrame('chat.msg', 'agent:noisy', 'agent:broadcast', { i }));
  await until('the noisy socket is closed', () => noisy.closed !== null);
  assert.equal(noisy.closed, 4401, noisy.reason);
  assert.match(noisy.reason, /^not_joined/);
  assert.equal(idle.closed, null, 'the idle one still has time');
  await until('the idle socket is closed', () => idle.closed !== null, JOIN_DEADLINE_MS * 10);
  assert.equal(idle.closed, 4504, idle.reason);
  assert.match(idle.reason, /^timeout/);
});

test('an upgrade naming something that is not an address is refused with invalid_address', async () => {
  const { id } = await gatewayNetwork('gw-bad-hint');
  const socket = new WebSocket(`${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws?member=not%20an%20address`);
  const status = await new Promise((resolve) => {
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => resolve({ code: res.statusCode, body: JSON.parse(body) }));
    });
    socket.once('open', () => resolve({ code: 101 }));
  });
  assert.equal(status.code, 400);
  assert.equal(status.body.code, 'invalid_address');
});

test('an older client that names no member stays on the network object and talks with gateway members', async () => {
  const { id } = await gatewayNetwork('gw-old-client');
  const bare = await acking(id, 'agent:bare');
  const { socket: old, events } = await unjoined(id);
  old.send(eventFrame('network.agent.join', 'agent:old', 'core', {}));
  await until('the old client joined', () => events.some((e) => e.type === 'network.event.ack'));
  const before = await counters(id);
  bare.socket.send(eventFrame('probe.hello', 'agent:bare', 'agent:old', { text: 'hi old' }));
  await until('the old client hears the gateway member', () => events.some((e) => e.type === 'probe.hello'));
  assert.ok((await counters(id)).socket_messages > before.socket_messages, 'the network object wrote it itself');
  old.send(eventFrame('probe.reply', 'agent:old', 'agent:bare', { text: 'hi bare' }));
  await until('the gateway member hears the old client', () => bare.events.some((e) => e.type === 'probe.reply'));
  old.close();
  bare.socket.close();
});

test('a gateway the platform resets without a word: the members it held go offline, and they come back', async () => {
  const { id } = await gatewayNetwork('gw-reset');
  // The observer reads the roster over HTTP: it outlives the gateways.
  const observer = await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:observer' } });
  assert.equal(observer.status, 200);
  const statusOf = async () => {
    const roster = await call('GET', `/networks/${id}/v1/discover`, { token: observer.json.token });
    return new Map(roster.json.agents.map((a) => [a.address, a.status]));
  };
  const names = Array.from({ length: 6 }, (_, i) => `agent:r${i}`);
  const sessions = await Promise.all(names.map(async (name) => (await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: name } })).json.token));
  const members = await Promise.all(names.map((name, i) => acking(id, name, { session: sessions[i] })));
  await until('every member is online', async () => { const s = await statusOf(); return names.every((n) => s.get(n) === 'online'); });

  // Nothing reaches the reset gateways afterwards (the closes of the sockets they
  // forgot are no news): their alarm wakes them, and they report from storage.
  const reset = await call('POST', `/networks/${id}/v1/__test/reset-gateways`);
  assert.equal(reset.status, 200);
  await until('every member a gateway held is offline', async () => {
    const s = await statusOf();
    return names.every((n) => s.get(n) === 'offline');
  }, 60_000);
  assert.equal((await statusOf()).get('agent:observer'), 'online');

  for (const m of members) m.socket.terminate();
  // They reconnect to the same gateways and are reachable again.
  const back = await Promise.all(names.map((name, i) => acking(id, name, { session: sessions[i] })));
  await until('every member is online again', async () => { const s = await statusOf(); return names.every((n) => s.get(n) === 'online'); });
  back[0].socket.send(eventFrame('probe.back', names[0], 'agent:broadcast', {}));
  await until('every member hears the others again', () => back.slice(1).every((m) => m.events.some((e) => e.type === 'probe.back')));
  for (const m of back) m.socket.close();
});

test('a quiet member held by a gateway stays online past the presence timeout while its socket is open', async () => {
  const { id } = await createNetwork(edge.url, {
    name: 'gw-quiet', access: { policy: 'open' }, mods: ['persistence'], presence_timeout_ms: 2_000, gateways: { count: GATEWAYS },
  });
  // Joined at the upgrade (an `Open` with its member) and by frame (a `Bind`): both only ack.
  const names = ['agent:q0', 'agent:q1', 'agent:q2', 'agent:q3'];
  const atUpgrade = await Promise.all(names.map((name) => acking(id, name)));
  const byFrame = await unjoined(id, 'agent:qf');
  byFrame.socket.send(eventFrame('network.agent.join', 'agent:qf', 'core', {}));
  await until('the frame join is accepted', () => byFrame.events.some((e) => e.type === 'network.event.ack'));
  const sender = await acking(id, 'agent:sender');
  await waitOut(5_000, 'several of the gateways\' reconcile rounds (RECONCILE_MS) while the members stay quiet');
  sender.socket.send(eventFrame('probe.late', 'agent:sender', 'agent:broadcast', {}));
  await until('every quiet member still gets broadcasts', () =>
    [...atUpgrade, byFrame].every((m) => m.events.some((e) => e.type === 'probe.late')));
  for (const m of [...atUpgrade, byFrame, sender]) m.socket.close();
});
