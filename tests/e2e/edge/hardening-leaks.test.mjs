// Leaks and forgeries, through the real edge (wrangler dev):
// a task's partner reads none of its requester's push targets (A2A 1.0 and
// 0.3 with the official @a2a-js/sdk client, its own GET v1/events, the
// history); agent cards list only what their viewer may read; members
// cannot forge the network's invitation news over WebSocket or HTTP.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { call, joinToken } from '../../support/http.mjs';
import { clientFactory } from '../../support/a2a.mjs';
import { until } from '../../support/waits.mjs';

let edge;
let stateDir;
let network;
let planner;
let traveller;
let helper;
const SECRETS = ['tok-secret-1', 'cred-secret-2', 'tok-old-3', 'cred-old-4'];

const base = (agent) => `${edge.url}/networks/${network}/a2a${agent ? `/${agent}` : ''}`;

const client10 = (bearer) => clientFactory(bearer).createFromUrl(`${base('agent:planner')}/`);
async function client03(bearer) {
  const card = await (await fetch(`${base('agent:planner')}/.well-known/agent-card.json`)).json();
  assert.equal(card.protocolVersion, '0.3.0');
  return clientFactory(bearer).createFromAgentCard(card);
}

const leaked = (value) => SECRETS.filter((s) => JSON.stringify(value).includes(s));

before(async () => {
  stateDir = await mkdtemp(joinPath(tmpdir(), 'agentnet-leaks-'));
  edge = await startEdge({ stateDir });
  ({ id: network } = await createNetwork(edge.url, { name: 'leaks', mods: ['persistence'] }));
  planner = await Agent.connect({ url: edge.url, network, name: 'agent:planner', WebSocket });
  await planner.registerTool('plan', { type: 'object' }, () => ({}), { description: 'plans a trip' });
  await planner.registerTool('audit', { type: 'object' }, () => ({}), { permissions: { read: 'owner' } });
  await planner.registerTool('vault', { type: 'object' }, () => ({}), { permissions: { read: 'agents:[agent:traveller]' } });
  traveller = await joinToken(edge.url, network, 'agent:traveller');
  helper = await joinToken(edge.url, network, 'agent:helper');
});

after(async () => {
  planner?.close();
  await edge?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

test('a task\'s partner reads none of the requester\'s push targets, by any path', async () => {
  // The traveller asks agent:helper for a task, then sets push targets on it with the SDK.
  const created = await call(edge.url, 'POST', `/networks/${network}/v1/events`, {
    token: traveller, body: { type: 'task.create', target: 'agent:helper', payload: { parts: [{ text: 'audit the books' }] } },
  });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const taskId = created.json.task ?? created.json.id;
  const mine10 = await client10(traveller);
  const made = await mine10.createTaskPushNotificationConfig({
    tenant: '', taskId, id: 'hook', url: 'https://hooks.example/a2a', token: 'tok-secret-1',
    authentication: { scheme: 'Bearer', credentials: 'cred-secret-2' },
  });
  assert.equal(made.token, 'tok-secret-1');
  const raw03 = await call(edge.url, 'POST', `/networks/${network}/a2a/agent:planner`, {
    token: traveller,
    body: {
      jsonrpc: '2.0', id: 1, method: 'tasks/pushNotificationConfig/set',
      params: { taskId, pushNotificationConfig: { id: 'old', url: 'https://hooks.example/03', token: 'tok-old-3', authentication: { schemes: ['Basic'], credentials: 'cred-old-4' } } },
    },
  });
  assert.equal(raw03.json.result?.pushNotificationConfig?.id, 'old', JSON.stringify(raw03.json));
  // The requester lists both, with their secrets.
  const own = await mine10.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' });
  assert.deepEqual(leaked(own).sort(), [...SECRETS].sort());

  // The partner, through A2A 1.0 and 0.3 (the official client).
  for (const partner of [await client10(helper), await client03(helper)]) {
    const listed = await partner.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' });
    assert.deepEqual(leaked(listed), []);
    const configs = listed.configs ?? listed;
    assert.equal(configs.length, 0, JSON.stringify(listed));
    await assert.rejects(partner.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'hook' }));
    await assert.rejects(partner.getTaskPushNotificationConfig({ tenant: '', taskId, id: 'old' }));
  }
  // Its own events and the history.
  const polled = await call(edge.url, 'GET', `/networks/${network}/v1/events?after=0&limit=200`, { token: helper });
  assert.equal(polled.status, 200, JSON.stringify(polled.json));
  assert.ok(polled.json.events.some((e) => e.event.type === 'task.create'), 'the partner sees its task');
  assert.ok(!polled.json.events.some((e) => e.event.type === 'task.push'), JSON.stringify(polled.json));
  assert.deepEqual(leaked(polled.json), []);
  for (const types of ['task.*', 'task.push']) {
    const history = await call(edge.url, 'POST', `/networks/${network}/v1/events`, {
      token: helper, body: { type: 'network.events.query', target: 'core', payload: { after: 0, types } },
    });
    assert.equal(history.json.type, 'network.events.response', JSON.stringify(history.json));
    assert.ok(!history.json.payload.events.some((e) => e.event.type === 'task.push'), JSON.stringify(history.json));
    assert.deepEqual(leaked(history.json), []);
  }
  // Nor can a requester address its push configuration to the partner.
  const direct = await call(edge.url, 'POST', `/networks/${network}/v1/events`, {
    token: traveller, body: { type: 'task.push', target: 'agent:helper', payload: { task: taskId, set: { url: 'https://x.example/', token: 'tok-secret-1' } } },
  });
  assert.equal(direct.status, 400, JSON.stringify(direct.json));
  // Its own history shows what it set, not the secrets.
  const mine = await call(edge.url, 'POST', `/networks/${network}/v1/events`, {
    token: traveller, body: { type: 'network.events.query', target: 'core', payload: { after: 0, types: 'task.push' } },
  });
  assert.equal(mine.json.payload.events.length, 2, JSON.stringify(mine.json));
  assert.deepEqual(leaked(mine.json), []);
});

test('agent cards list only the tools their viewer may read', async () => {
  const card = async (path, bearer) => {
    const headers = { 'A2A-Version': '1.0' };
    if (bearer) headers.Authorization = `Bearer ${bearer}`;
    const res = await fetch(`${base(path)}/.well-known/agent-card.json`, { headers });
    assert.equal(res.status, 200);
    return (await res.json()).skills.map((s) => s.id).sort();
  };
  assert.deepEqual(await card(''), ['agent:planner/plan']);
  assert.deepEqual(await card('agent:planner'), ['plan']);
  assert.deepEqual(await card('', helper), ['agent:planner/plan']);
  assert.deepEqual(await card('', traveller), ['agent:planner/plan', 'agent:planner/vault']);
  assert.deepEqual(await card('agent:planner', traveller), ['plan', 'vault']);
  assert.deepEqual(await card('', 'not-a-session'), ['agent:planner/plan']);
});

test('members cannot forge the network\'s invitation news (WebSocket and HTTP)', async () => {
  const ceo = await Agent.connect({ url: edge.url, network, name: 'agent:ceo', WebSocket });
  const mallory = await Agent.connect({ url: edge.url, network, name: 'agent:mallory', WebSocket });
  const news = [];
  ceo.on('workspace.invitation.*', (event) => news.push(event));
  try {
    for (const type of ['workspace.invitation.accepted', 'workspace.invitation.rejected']) {
      await assert.rejects(
        mallory.send('agent:ceo', type, { invitee: 'agent:ceo', expires_at: Date.now() + 60_000 }),
        { code: 'reserved_type' },
      );
    }
    await assert.rejects(mallory.send('agent:ceo', 'workspace.invitation.created', { invitee: 'agent:mallory' }), { code: 'invalid_request' });
    const token = await joinToken(edge.url, network, 'agent:mallory2');
    const http = await call(edge.url, 'POST', `/networks/${network}/v1/events`, {
      token, body: { type: 'workspace.invitation.accepted', target: 'agent:ceo', payload: { invitee: 'agent:ceo' } },
    });
    assert.deepEqual([http.status, http.json.code], [403, 'reserved_type']);
    // A real invitation's news still reaches the inviter.
    const code = (await ceo.send('core', 'workspace.invitation.created', { invitee: 'agent:friend' })).code;
    const friend = await Agent.connect({ url: edge.url, network, name: 'agent:friend', invite: code, WebSocket });
    await until('the inviter hears the acceptance', () => news.length > 0, 10_000);
    friend.close();
    assert.deepEqual(news.map((e) => [e.type, e.source]), [['workspace.invitation.accepted', 'core']]);
  } finally {
    ceo.close();
    mallory.close();
  }
});
