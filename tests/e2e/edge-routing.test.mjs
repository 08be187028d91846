// Routing and access through the edge that the other files do not cover:
// groups (managed by a master, reaching only their members), the did-verify
// policy (refused in words: levels 2–3 are not verifiable yet), a spoofed
// source (refused, connection kept), and direct and channel privacy.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent } from '../../core/js/index.js';
import { createNetwork, startEdge } from '../support/edge.mjs';
import { until } from '../support/process.mjs';

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

test('a spoofed source is refused and the connection stays open', async () => {
  const { id } = await create({ name: 'spoof' });
  const victim = await connect(id, 'agent:victim');
  const got = inbox(victim);
  const socket = new WebSocket(`${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws`);
  const frames = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise((resolve) => socket.once('open', resolve));
  const event = (type, source, target, payload = {}) => JSON.stringify({
    id: `01J${Math.random().toString(36).slice(2, 12).toUpperCase().replace(/[ILOU]/g, 'X').padEnd(23, '0')}`,
    type, source, target, payload, timestamp: Date.now(),
  });
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
