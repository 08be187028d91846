// Resources and access policies through the real edge: a tool registered by
// its owner, discovered with the caller's permissions and invoked through the
// network; invite-only networks; observers that may read but not write.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent, AgentnetError } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { until } from '../../support/waits.mjs';

const edge = edgeForFile();

const create = (body) => createNetwork(edge.url, body);

const connect = (network, name, credentials) => Agent.connect({ url: edge.url, network, name, credentials, WebSocket });

test('a tool is registered, discovered with permissions and invoked through its owner', async () => {
  const { id } = await create({ name: 'tools', mods: ['access-control'] });
  const owner = await connect(id, 'agent:calculator');
  const caller = await connect(id, 'agent:caller');
  const stranger = await connect(id, 'agent:stranger');
  owner.on('network.resource.invoke', (event) => {
    owner.reply(event, 'network.resource.invoke.result', { sum: event.payload.a + event.payload.b });
  });
  await owner.send('core', 'network.resource.register', {
    address: 'resource/tool/add',
    description: 'adds two numbers',
    schema: { input: { a: 'number', b: 'number' }, output: { sum: 'number' } },
    permissions: { invoke: 'agents:[agent:caller]' },
  });

  const listing = await caller.request('core', 'network.resource.discover', { type: 'tool' });
  assert.equal(listing.type, 'network.resource.discover.response');
  assert.deepEqual(listing.payload.resources.map((r) => [r.address, r.your_permissions]), [['resource/tool/add', ['read', 'invoke']]]);

  const result = await caller.request('resource/tool/add', 'network.resource.invoke', { a: 2, b: 40 });
  assert.equal(result.type, 'network.resource.invoke.result');
  assert.deepEqual(result.payload, { sum: 42 });
  assert.equal(result.source, 'agent:calculator');

  await assert.rejects(stranger.request('resource/tool/add', 'network.resource.invoke', { a: 1, b: 1 }),
    (err) => err instanceof AgentnetError && err.code === 'forbidden');
  owner.close();
  await until('the owner is offline', async () => (await caller.discover()).agents.find((a) => a.address === 'agent:calculator')?.status !== 'online', 10_000);
  await assert.rejects(caller.request('resource/tool/add', 'network.resource.invoke', { a: 1, b: 1 }), { code: 'owner_offline' });
  caller.close();
  stranger.close();
});

test('an invite-only network admits exactly the invited agent, once', async () => {
  const { id, admin_token } = await create({ name: 'club', access: { policy: 'invite' } });
  await assert.rejects(connect(id, 'agent:gatecrasher'), { code: 'access_denied' });
  const host = await connect(id, 'human:host', { admin_token });
  const ack = await host.send('core', 'network.agent.invite', { invitee: 'agent:guest' });
  assert.match(ack.code ?? '', /^[0-9a-f]{32}$/, JSON.stringify(ack));
  await assert.rejects(connect(id, 'agent:someone-else', { invite: ack.code }), { code: 'access_denied' });
  const guest = await connect(id, 'agent:guest', { invite: ack.code });
  assert.equal(guest.address, 'agent:guest');
  guest.close();
  host.close();
});

test('observers receive events but cannot emit them', async () => {
  const { id } = await create({ name: 'watched' });
  const speaker = await connect(id, 'agent:speaker');
  const joined = await (await fetch(`${edge.url}/networks/${id}/v1/join`, {
    method: 'POST', body: JSON.stringify({ agent_id: 'agent:observer', role: 'observer' }),
  })).json();
  assert.equal(joined.member.role, 'observer');
  const auth = { authorization: `Bearer ${joined.token}` };
  const refused = await fetch(`${edge.url}/networks/${id}/v1/events`, {
    method: 'POST', headers: auth, body: JSON.stringify({ type: 'chat.msg', target: 'agent:broadcast' }),
  });
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).code, 'forbidden');
  await speaker.send('agent:broadcast', 'chat.msg', { text: 'hello' });
  const page = await (await fetch(`${edge.url}/networks/${id}/v1/events?after=0`, { headers: auth })).json();
  assert.ok(page.events.some((e) => e.event.payload.text === 'hello'));
  speaker.close();
});
