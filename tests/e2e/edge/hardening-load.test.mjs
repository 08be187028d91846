// Resource exhaustion, end to end through wrangler dev: a long
// catch-up comes a page at a time as the member acknowledges while others keep
// talking, an SSE client that does not read is cut off (and resumes), a member's
// streams and document sessions are capped, a long type pattern queries the
// history, and a compression bomb in a document sync is refused while the
// document stays editable.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import http from 'node:http';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';
import { call as callAt } from '../../support/http.mjs';
import { expectNothingFor } from '../../support/waits.mjs';
import { eventFrame } from '../../support/frames.mjs';

// The core's bounds (agentnet_core::network::MAX_IN_FLIGHT, bindings::sse::MAX_STREAMS_PER_MEMBER).
const MAX_IN_FLIGHT = 8192;
const MAX_STREAMS_PER_MEMBER = 8;

const edge = edgeForFile();

/** `method path` on this file's edge (`support/http.mjs`). */
const call = (method, path, options) => callAt(edge.url, method, path, options);

const join = (id, agent_id, credentials) => call('POST', `/networks/${id}/v1/join`, { body: { agent_id, credentials } });
const send = (id, token, event) => call('POST', `/networks/${id}/v1/events`, { token, body: event });
const open = (name, mods = []) => createNetwork(edge.url, { name, access: { policy: 'open' }, mods });


const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

test('5,000 missed events: a resume_after 0 join gets them in order, a page at a time as it acknowledges, while others talk', { timeout: 180_000 }, async () => {
  const { id } = await open('catch-up');
  const late = await join(id, 'agent:late');
  assert.equal(late.status, 200, JSON.stringify(late.json));
  const alice = await Agent.connect({ url: edge.url, network: id, name: 'agent:alice', WebSocket });
  const carol = await Agent.connect({ url: edge.url, network: id, name: 'agent:carol', WebSocket });
  const dave = await Agent.connect({ url: edge.url, network: id, name: 'agent:dave', WebSocket });
  const TOTAL = 5000;
  let batch = [];
  for (let i = 0; i < TOTAL; i += 1) {
    batch.push(alice.send('agent:late', 'load.missed', { i }));
    if (batch.length === 500) { await Promise.all(batch); batch = []; }
  }
  await Promise.all(batch);

  // agent:late comes back on a bare WebSocket asking for everything, and acknowledges nothing yet.
  const socket = new WebSocket(`${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws`, { perMessageDeflate: false });
  const frames = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  socket.send(eventFrame('network.agent.join', 'agent:late', 'core', {
    credentials: { member_secret: late.json.member_secret }, resume: { after: 0 },
  }));
  await until('the join is answered', () => frames.length > 0);
  assert.equal(frames[0].type, 'network.event.ack', 'the join ack comes first');
  assert.equal(frames[0].payload.resume_after, 0);
  const deliveries = () => frames.filter((f) => f.metadata?.delivery);
  await until('a first page', () => deliveries().length > 0);
  await expectNothingFor(1500, 'deliveries past the in-flight cap without an ack');
  const unacknowledged = deliveries().length;
  assert.ok(unacknowledged <= MAX_IN_FLIGHT, `${unacknowledged} delivered without an ack`);

  // Now it acknowledges as a replica does; carol pings dave all along.
  const start = performance.now();
  let acked = 0;
  const ack = () => {
    const all = deliveries();
    const last = all.at(-1)?.metadata.delivery.seq;
    if (last !== undefined && last > acked) {
      acked = last;
      socket.send(eventFrame('network.event.ack', 'agent:late', 'core', { seq: last }));
    }
  };
  const acker = setInterval(ack, 5);
  const pings = [];
  dave.on('load.ping', (event) => pings.push({ ms: performance.now() - event.payload.t, caughtUp: deliveries().length }));
  const pinger = setInterval(() => carol.send('agent:dave', 'load.ping', { t: performance.now() }).catch(() => {}), 5);
  try {
    await until('all 5,000 arrive', () => deliveries().length >= TOTAL, 120_000);
  } finally {
    clearInterval(acker);
    clearInterval(pinger);
  }
  const seconds = (performance.now() - start) / 1000;
  const got = deliveries();
  assert.equal(got.length, TOTAL);
  assert.deepEqual(got.map((f) => f.payload.i), [...Array(TOTAL).keys()], 'each once, in order');
  got.forEach((f, n) => {
    if (n > 0) assert.equal(f.metadata.delivery.prev, got[n - 1].metadata.delivery.seq, `delivery ${n} chains to the one before`);
  });
  const during = pings.filter((p) => p.caughtUp > unacknowledged && p.caughtUp < TOTAL);
  assert.ok(during.length > 0, `dave heard carol while late caught up (${pings.length} pings)`);
  const ms = during.map((p) => p.ms);
  console.log(`catch-up of ${TOTAL} events in pages as acknowledged: ${seconds.toFixed(2)} s; `
    + `${during.length} pings during it, p50 ${percentile(ms, 0.5).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`);
  socket.close();
  for (const agent of [alice, carol, dave]) agent.close();
});

test('a member of 8 channels reads what it missed across all of them, in order, each once, page by page', { timeout: 120_000 }, async () => {
  // Its pages merge ten audiences (public, its own, 8 channels): more than one statement's worth.
  const { id } = await open('many-audiences', ['workspace', 'persistence']);
  const late = await join(id, 'agent:late');
  const alice = await join(id, 'agent:alice');
  const rooms = Array.from({ length: 8 }, (_, k) => `room-${k}`);
  for (const channel of rooms) {
    const made = await send(id, late.json.token, { type: 'network.channel.create', target: 'core', payload: { channel } });
    assert.equal(made.status, 200, JSON.stringify(made.json));
    await send(id, alice.json.token, { type: 'network.channel.join', target: 'core', payload: { channel } });
  }
  const TOTAL = 700;
  for (let i = 0; i < TOTAL; i += 1) {
    // Every ninth to late itself, the rest round the channels.
    const target = i % 9 === 8 ? 'agent:late' : `channel/${rooms[i % rooms.length]}`;
    const posted = await send(id, alice.json.token, { type: 'chat.msg', target, payload: { text: `m${i}` } });
    assert.equal(posted.status, 200, JSON.stringify(posted.json));
  }
  const texts = [];
  let after = 0;
  for (let pages = 0; pages < 20; pages += 1) {
    const page = await call('GET', `/networks/${id}/v1/events?after=${after}&limit=200`, { token: late.json.token });
    assert.equal(page.status, 200, JSON.stringify(page.json));
    texts.push(...page.json.events.map((e) => e.event.payload?.text).filter((t) => t?.startsWith('m')));
    if (page.json.next_after === after) break;
    after = page.json.next_after;
  }
  assert.deepEqual(texts, Array.from({ length: TOTAL }, (_, i) => `m${i}`), 'each once, in order');
});

/** An SSE response whose body is not read: `{records(), resume(), ended}`. */
function unreadStream(url, token, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (d) => { body += d; });
        res.on('end', () => resolve({ status: res.statusCode, body }));
        return;
      }
      res.pause();
      let text = '';
      const stream = { status: 200, ended: false, res, req };
      stream.resume = () => {
        res.on('data', (d) => { text += d; });
        res.on('end', () => { stream.ended = true; });
        res.resume();
      };
      stream.ids = () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      resolve(stream);
    });
    req.on('error', reject);
  });
}

test('an SSE client that never reads is cut off rather than held, and resumes from its last id', { timeout: 120_000 }, async () => {
  const { id } = await open('slow-reader');
  const bob = await join(id, 'agent:bob');
  const alice = await join(id, 'agent:alice');
  const url = `${edge.url}/networks/${id}/v1/sse`;
  const stream = await unreadStream(url, bob.json.token);
  assert.equal(stream.status, 200);
  // 24 MB for bob, far more than the stream holds for an unread client.
  const big = 'x'.repeat(100_000);
  const seqs = [];
  for (let n = 0; n < 240; n += 1) {
    const sent = await send(id, alice.json.token, { type: 'load.big', target: 'agent:bob', payload: { n, big } });
    assert.equal(sent.status, 200, JSON.stringify(sent.json));
    seqs.push(sent.json.seq);
  }
  stream.resume();
  await until('the stream ends', () => stream.ended, 60_000);
  const first = stream.ids();
  assert.ok(first.length < seqs.length, `cut off after ${first.length} of ${seqs.length}`);
  assert.deepEqual(first, seqs.slice(0, first.length), 'what it got is the start, in order');
  // It reconnects from its last id and gets the rest, once each.
  const again = await unreadStream(url, bob.json.token, { 'last-event-id': String(first.at(-1) ?? 0) });
  again.resume();
  await until('the rest arrives', () => again.ids().length >= seqs.length - first.length, 60_000);
  assert.deepEqual([...first, ...again.ids()], seqs);
  again.req.destroy();
  // The network still serves.
  const ok = await send(id, bob.json.token, { type: 'chat.msg', target: 'agent:alice', payload: {} });
  assert.equal(ok.status, 200);
});

test("a member's streams are capped: the one past the cap is refused with limit_reached", async () => {
  const { id } = await open('streams');
  const bob = await join(id, 'agent:bob');
  const other = await join(id, 'agent:other');
  const url = `${edge.url}/networks/${id}/v1/sse`;
  const streams = [];
  for (let n = 0; n < MAX_STREAMS_PER_MEMBER; n += 1) {
    const stream = await unreadStream(url, bob.json.token);
    assert.equal(stream.status, 200, `stream ${n + 1}: ${stream.body}`);
    streams.push(stream);
  }
  for (const n of [MAX_STREAMS_PER_MEMBER + 1, MAX_STREAMS_PER_MEMBER + 2]) {
    const refused = await unreadStream(url, bob.json.token);
    assert.equal(refused.status, 429, `stream ${n}`);
    assert.equal(JSON.parse(refused.body).code, 'limit_reached');
  }
  // Another member is not held up by bob's streams.
  const theirs = await unreadStream(url, other.json.token);
  assert.equal(theirs.status, 200);
  for (const stream of [...streams, theirs]) stream.req.destroy();
});

test('a history query with a type pattern over 50 bytes is answered', async () => {
  const { id } = await open('long-pattern', ['persistence']);
  const ann = await join(id, 'agent:ann');
  const prefix = `acme.${'department'.repeat(6)}.reports`;
  assert.ok(prefix.length > 50);
  for (const type of [`${prefix}.filed`, `${prefix}.amended`, 'acme.other.filed']) {
    const sent = await send(id, ann.json.token, { type, target: 'agent:broadcast', payload: {} });
    assert.equal(sent.status, 200, JSON.stringify(sent.json));
  }
  const answer = await send(id, ann.json.token, {
    type: 'network.events.query', target: 'core', payload: { after: 0, types: `${prefix}.*` },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  const types = answer.json.payload.events.map((e) => e.event.type);
  assert.deepEqual(types, [`${prefix}.filed`, `${prefix}.amended`]);
});

/** An Automerge sync message (v1) carrying one compressed change chunk that inflates to `bytes` zeros. */
function bombMessage(bytes) {
  const deflated = deflateRawSync(Buffer.alloc(bytes), { level: 9 });
  const uleb = (n) => {
    const out = [];
    do { let b = n & 0x7f; n = Math.floor(n / 128); if (n > 0) b |= 0x80; out.push(b); } while (n > 0);
    return out;
  };
  const chunk = Buffer.concat([Buffer.from([0x85, 0x6f, 0x4a, 0x83, 0, 0, 0, 0, 2, ...uleb(deflated.length)]), deflated]);
  // type 0x42; no heads, needs or haves; one change.
  return Buffer.concat([Buffer.from([0x42, 0, 0, 0, 1, ...uleb(chunk.length)]), chunk]).toString('base64');
}

test('a compression bomb in a document sync is refused, and the document stays editable', { timeout: 60_000 }, async () => {
  const { id } = await open('bomb');
  const owner = await join(id, 'agent:owner');
  const file = 'resource/file/plan.md';
  const registered = await send(id, owner.json.token, {
    type: 'network.resource.register', target: 'core', payload: { address: file, content: 'draft' },
  });
  assert.equal(registered.status, 200, JSON.stringify(registered.json));
  const payload = { sync: bombMessage(256 * 1024 * 1024), session: 'bomb' };
  assert.ok(payload.sync.length < 512 * 1024, `${payload.sync.length} bytes of base64`);
  // The documents' keeper (the documents Worker) refuses it; the refusal answers the sync.
  const writer = await Agent.connect({ url: edge.url, network: id, name: 'agent:owner', WebSocket, memberSecret: owner.json.member_secret });
  const reader = await Agent.connect({ url: edge.url, network: id, name: 'agent:reader', WebSocket });
  try {
    await assert.rejects(writer.request(file, 'network.resource.update', payload),
      (err) => { assert.equal(err.code, 'too_large', String(err)); return true; });
    // The owner edits the document; another member reads the edit.
    const doc = await writer.document(file);
    assert.equal(doc.text, 'draft');
    const theirs = await reader.document(file);
    doc.insert(5, ' two');
    await until('the reader sees the edit', () => theirs.text === 'draft two');
  } finally {
    writer.close();
    reader.close();
  }
});
