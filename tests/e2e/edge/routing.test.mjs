// Routing and access through the edge that the other files do not cover:
// groups (managed by a master, reaching only their members), the did-verify
// policy (refused in words: levels 2–3 are not verifiable yet), a spoofed
// source (refused, connection kept), and direct and channel privacy.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';
import { expectNothingFor } from '../../support/waits.mjs';

let edge;
const agents = [];

before(async () => {
  edge = await startEdge();
});

after(async () => {
  for (const agent of agents) agent.close();
  await edge?.stop();
});

const create = (body) => createNetwork(edge.url, body);

async function connect(network, name, options = {}) {
  const agent = await Agent.connect({ url: edge.url, network, name, ...options });
  agents.push(agent);
  return agent;
}

function inbox(agent) {
  const got = [];
  agent.on('*', (event) => { if (!event.type.startsWith('network.') && !event.type.startsWith('workspace.presence')) got.push(event); });
  return got;
}

test('groups, channels and direct events reach exactly their members', async () => {
  const { id, admin_token: adminToken } = await create({ name: 'routing' });
  const boss = await connect(id, 'human:boss', { credentials: { admin_token: adminToken } });
  const [ann, bob, eve] = [await connect(id, 'agent:ann'), await connect(id, 'agent:bob'), await connect(id, 'agent:eve')];
  const [annGot, bobGot, eveGot] = [inbox(ann), inbox(bob), inbox(eve)];

  // Only a master manages groups.
  await assert.rejects(ann.send('core', 'network.group.update', { group: 'team', members: ['agent:ann'] }), { code: 'forbidden' });
  await boss.send('core', 'network.group.update', { group: 'team', members: ['agent:ann', 'agent:bob'] });
  await boss.send('group/team', 'team.note', { n: 1 });
  await boss.createChannel('pair', { members: ['human:boss', 'agent:bob'] });
  await bob.joinChannel('pair');
  await boss.send('channel/pair', 'pair.note', { n: 2 });
  await boss.send('agent:eve', 'direct.note', { n: 3 });
  await boss.send('agent:broadcast', 'all.note', { n: 4 });

  await until('everyone has the broadcast', () => [annGot, bobGot, eveGot].every((g) => g.some((e) => e.type === 'all.note')));
  const types = (got) => got.map((e) => e.type).sort();
  assert.deepEqual(types(annGot), ['all.note', 'team.note']);
  assert.deepEqual(types(bobGot), ['all.note', 'pair.note', 'team.note']);
  assert.deepEqual(types(eveGot), ['all.note', 'direct.note']);

  // A group address that does not exist is an error with a stable code.
  await assert.rejects(boss.send('group/nobody', 'team.note', {}), { code: 'unknown_target' });
});

test('did-verify networks refuse joins they cannot verify, in words', async () => {
  const { id } = await create({ name: 'dids', access: { policy: 'did-verify' } });
  await assert.rejects(
    Agent.connect({ url: edge.url, network: id, name: 'openagents:someone', reconnect: false }),
    (err) => err.code === 'access_denied' && /DID/.test(err.message),
  );
});

/** A raw event frame with a fresh random ULID. */
const event = (type, source, target, payload = {}) => JSON.stringify({
  id: `01J${Math.random().toString(36).slice(2, 12).toUpperCase().replace(/[ILOU]/g, 'X').padEnd(23, '0')}`,
  type, source, target, payload, timestamp: Date.now(),
});

/** A raw WebSocket to network `id` and the frames it receives, once open. */
async function rawSocket(id) {
  const socket = new WebSocket(`${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws`);
  const frames = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise((resolve) => socket.once('open', resolve));
  return { socket, frames };
}

test('a spoofed source is refused and the connection stays open', async () => {
  const { id } = await create({ name: 'spoof' });
  const victim = await connect(id, 'agent:victim');
  const got = inbox(victim);
  const { socket, frames } = await rawSocket(id);
  socket.send(event('network.agent.join', 'agent:mallory', 'core'));
  await until('mallory joined', () => frames.some((f) => f.type === 'network.event.ack'));
  socket.send(event('chat.message', 'agent:victim', 'agent:victim', { text: 'I am you' }));
  await until('an error comes back', () => frames.some((f) => f.type === 'network.event.error'));
  assert.equal(frames.find((f) => f.type === 'network.event.error').payload.code, 'source_mismatch');
  // Still connected: a proper event goes through.
  socket.send(event('chat.message', 'agent:mallory', 'agent:victim', { text: 'hello' }));
  await until('the victim hears mallory', () => got.some((e) => e.source === 'agent:mallory'));
  assert.ok(!got.some((e) => e.payload.text === 'I am you'));
  socket.close();
});

test('a burst of frames with a malformed one among them: the rest are acked and delivered in order', async () => {
  const { id } = await create({ name: 'burst', mods: ['persistence'] });
  const receiver = await connect(id, 'agent:receiver');
  const got = inbox(receiver);
  const { socket, frames } = await rawSocket(id);
  socket.send(event('network.agent.join', 'agent:burster', 'core'));
  await until('the burster joined', () => frames.some((f) => f.type === 'network.event.ack'));
  frames.length = 0;
  // One synchronous burst: the edge takes these frames together (one commit for the batch).
  const sent = [];
  for (let n = 0; n < 100; n += 1) {
    const frame = n === 50 ? '{"id": "01J-not-json' : event('burst.note', 'agent:burster', 'agent:receiver', { n });
    sent.push(frame);
    socket.send(frame);
  }
  await until('an answer to every frame', () => frames.filter((f) => f.type.startsWith('network.event.')).length >= 100);
  const acks = frames.filter((f) => f.type === 'network.event.ack');
  const errors = frames.filter((f) => f.type === 'network.event.error');
  assert.equal(acks.length, 99);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].payload.code, 'malformed_event');
  // Acks come in sending order with increasing seq.
  const goodIds = sent.filter((_, n) => n !== 50).map((frame) => JSON.parse(frame).id);
  assert.deepEqual(acks.map((a) => a.payload.id), goodIds);
  assert.ok(acks.every((a, i) => i === 0 || a.payload.seq > acks[i - 1].payload.seq));
  await until('the receiver has all 99', () => got.length >= 99);
  assert.deepEqual(got.map((e) => e.payload.n), [...Array(100).keys()].filter((n) => n !== 50));
  socket.close();
});

test('a member with two connections stays online until the last one closes', async () => {
  const { id } = await create({ name: 'two-sockets' });
  const watcher = await connect(id, 'agent:watcher');
  const first = await connect(id, 'agent:twin', { reconnect: false });
  const second = await connect(id, 'agent:twin', { reconnect: false, memberSecret: first.memberSecret });
  const statusOfTwin = async () => (await watcher.discover()).agents.find((a) => a.address === 'agent:twin')?.status;
  first.close();
  // The edge handles the close; the twin still has a socket and stays online.
  await expectNothingFor(500, 'the twin going offline with a socket left');
  assert.equal(await statusOfTwin(), 'online');
  second.close();
  await until('the twin to go offline', async () => (await statusOfTwin()) === 'offline', 10_000);
});
