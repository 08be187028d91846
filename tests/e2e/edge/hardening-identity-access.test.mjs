// Identity and access, end to end over HTTP and WebSocket: each
// attack as a hostile member or stranger would try it (no token, someone
// else's address, another network's credentials), the stable code it gets, and
// the network still serving its members afterwards.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent, KeyPair } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';
import { call as callAt, assertRefused } from '../../support/http.mjs';

const edge = edgeForFile();

/** `method path` on this file's edge (`support/http.mjs`). */
const call = (method, path, options) => callAt(edge.url, method, path, options);

const join = (id, agent_id, credentials) => call('POST', `/networks/${id}/v1/join`, { body: { agent_id, credentials } });
const send = (id, token, event) => call('POST', `/networks/${id}/v1/events`, { token, body: event });

/** An open network with the demo's mods (no access-control, no enrichment). */
async function demoLike(name) {
  return createNetwork(edge.url, { name, access: { policy: 'open' }, mods: ['workspace', 'persistence'] });
}

test('an address in use is not taken over: not the master, not over HTTP or WebSocket', async () => {
  const { id, admin_token: adminToken } = await demoLike('takeover');
  const other = await demoLike('takeover-other');
  const boss = await join(id, 'human:boss', { admin_token: adminToken });
  assert.equal(boss.status, 200, JSON.stringify(boss.json));
  assert.equal(boss.json.member.role, 'master');
  assert.match(boss.json.member_secret, /^[0-9a-f]{64}$/);
  assert.equal(boss.json.member.secret_sha256, undefined);
  const victim = await Agent.connect({ url: edge.url, network: id, name: 'agent:victim', WebSocket });

  // The attacker: no credentials, a made-up secret, another network's admin token.
  for (const [credentials, what] of [
    [undefined, 'a bare rejoin'],
    [{ member_secret: 'f'.repeat(64) }, 'a guessed secret'],
    [{ admin_token: other.admin_token }, "another network's admin token"],
  ]) {
    assertRefused(await join(id, 'human:boss', credentials), 409, 'address_in_use', `${what} as the master`);
    assertRefused(await join(id, 'agent:victim', credentials), 409, 'address_in_use', `${what} as a member`);
  }
  // …and over a WebSocket upgrade, and a join frame on a WebSocket.
  const refusal = await new Promise((resolve, reject) => {
    const ws = new WebSocket(`${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws?agent_id=agent:victim`);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode));
    ws.on('open', () => { ws.close(); reject(new Error('the upgrade joined as the victim')); });
    ws.on('error', () => {});
  });
  assert.equal(refusal, 409);
  await assert.rejects(
    Agent.connect({ url: edge.url, network: id, name: 'agent:victim', WebSocket, reconnect: false, secretStore: false }),
    { code: 'address_in_use' },
  );
  // The roster shows no secrets; the victim is still itself and still served.
  const session = (await join(id, 'agent:onlooker')).json.token;
  const roster = await send(id, session, { type: 'network.agent.discover', target: 'core', payload: {} });
  assert.doesNotMatch(JSON.stringify(roster.json), /secret/);
  assert.equal((await send(id, session, { type: 'chat.msg', target: 'agent:victim', payload: {} })).status, 200);
  // The owners come back with their secrets (the master keeps its role).
  const back = await join(id, 'human:boss', { member_secret: boss.json.member_secret });
  assert.equal(back.status, 200, JSON.stringify(back.json));
  assert.equal(back.json.member.role, 'master');
  const again = await Agent.connect({ url: edge.url, network: id, name: 'agent:victim', WebSocket, memberSecret: victim.memberSecret });
  victim.close();
  again.close();
  // Without a session, or with another network's, nothing is sent.
  assertRefused(await send(id, undefined, { type: 'chat.msg', target: 'agent:victim', payload: {} }), 401, 'not_joined', 'no session');
  const elsewhere = (await join(other.id, 'agent:stranger')).json.token;
  assertRefused(await send(id, elsewhere, { type: 'chat.msg', target: 'agent:victim', payload: {} }), 401, 'not_joined', "another network's session");
});

test('a registered key must be proven, over HTTP and by the npm agent', async () => {
  const key = KeyPair.generate();
  const { id } = await createNetwork(edge.url, { name: 'keys', access: { policy: 'open' }, keys: { 'openagents:alice': key.publicKey } });
  assertRefused(await join(id, 'openagents:alice'), 403, 'verification_failed', 'a join without the proof');
  const alice = await Agent.connect({ url: edge.url, network: id, name: 'openagents:alice', key, WebSocket });
  alice.close();
});

test('declared permissions hold without mod/access-control, and history shows only what one could have received', async () => {
  const { id } = await demoLike('permissions');
  const owner = (await join(id, 'agent:owner')).json.token;
  const guest = (await join(id, 'human:guest')).json.token;
  const registered = await send(id, owner, {
    type: 'network.resource.register', target: 'core',
    payload: { address: 'resource/file/plans.md', content: 'the secret plan', permissions: { read: 'owner', write: 'owner', admin: 'owner' } },
  });
  assert.equal(registered.status, 200, JSON.stringify(registered.json));
  await send(id, owner, { type: 'chat.msg', target: 'mod/persistence', payload: { text: 'a secret for a mod' } });
  await send(id, owner, { type: 'chat.msg', target: 'agent:broadcast', payload: { text: 'hello all' } });

  for (const [event, what] of [
    [{ type: 'network.resource.read', target: 'resource/file/plans.md', payload: {} }, 'reading'],
    [{ type: 'network.resource.update', target: 'resource/file/plans.md', payload: { content: 'defaced' } }, 'overwriting'],
    [{ type: 'network.resource.unregister', target: 'core', payload: { address: 'resource/file/plans.md' } }, 'unregistering'],
  ]) {
    assertRefused(await send(id, guest, event), 403, 'forbidden', what);
  }
  const discovered = await send(id, guest, { type: 'network.resource.discover', target: 'core', payload: {} });
  assert.doesNotMatch(JSON.stringify(discovered.json), /plans\.md/);

  const reader = await Agent.connect({ url: edge.url, network: id, name: 'human:reader', WebSocket });
  const history = await reader.history({ after: 0, limit: 100 });
  reader.close();
  const seen = JSON.stringify(history.events);
  assert.doesNotMatch(seen, /secret/);
  assert.match(seen, /hello all/);
  // The owner still reads its file.
  const read = await send(id, owner, { type: 'network.resource.read', target: 'resource/file/plans.md', payload: {} });
  assert.match(JSON.stringify(read.json), /the secret plan/);
});

test('channels: only the creator deletes, private ones need an invitation, listed members are invited', async () => {
  const { id } = await createNetwork(edge.url, { name: 'channels', access: { policy: 'open' }, mods: ['access-control', 'persistence'] });
  const ann = (await join(id, 'agent:ann')).json.token;
  const bob = (await join(id, 'agent:bob')).json.token;
  const eve = (await join(id, 'agent:eve')).json.token;
  assert.equal((await send(id, ann, { type: 'network.channel.create', target: 'core', payload: { channel: 'general' } })).status, 200);
  for (const channel of ['general', 'channel/general']) {
    assertRefused(await send(id, eve, { type: 'network.channel.delete', target: 'core', payload: { channel } }), 403, 'forbidden', `deleting ${channel}`);
  }
  const created = await send(id, ann, { type: 'network.channel.create', target: 'core', payload: { channel: 'board', private: true, members: ['agent:bob'] } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  assertRefused(await send(id, eve, { type: 'network.channel.join', target: 'core', payload: { channel: 'board' } }), 403, 'forbidden', 'joining a private channel');
  assert.equal((await send(id, bob, { type: 'network.channel.join', target: 'core', payload: { channel: 'board' } })).status, 200);
  await send(id, ann, { type: 'board.note', target: 'channel/board', payload: { text: 'board only' } });
  const snoop = await Agent.connect({ url: edge.url, network: id, name: 'agent:snoop', WebSocket });
  assert.deepEqual((await snoop.history({ after: 0, types: 'board.*' })).events, []);
  snoop.close();
  const forBob = await call('GET', `/networks/${id}/v1/events?after=0`, { token: bob });
  assert.ok(forBob.json.events.some((e) => e.event.payload.text === 'board only'));
  assert.equal((await send(id, ann, { type: 'network.channel.delete', target: 'core', payload: { channel: 'general' } })).status, 200);
});

test('network-owned metadata is the network\'s, and presence is only about oneself', async () => {
  const { id } = await demoLike('metadata');
  const eve = (await join(id, 'agent:eve')).json.token;
  const bob = await Agent.connect({ url: edge.url, network: id, name: 'agent:bob', WebSocket });
  const heard = [];
  bob.on('chat.*', (event) => heard.push(event));
  try {
    const forged = await send(id, eve, {
      type: 'chat.msg', target: 'agent:bob', payload: { text: 'trust me' },
      metadata: { sender: { role: 'master', verification: 3 }, received_at: 1 },
    });
    assert.equal(forged.status, 200, JSON.stringify(forged.json));
    await until('bob hears eve', () => heard.length === 1);
    assert.equal(heard[0].metadata.sender, undefined);
    assert.equal(heard[0].metadata.received_at, undefined);
    assertRefused(
      await send(id, eve, { type: 'workspace.presence.changed', target: 'agent:broadcast', payload: { address: 'agent:bob', status: 'offline' } }),
      403, 'forbidden', 'presence about another member',
    );
    const own = await send(id, eve, { type: 'workspace.presence.changed', target: 'agent:broadcast', payload: { address: 'agent:eve', status: 'away' } });
    assert.equal(own.status, 200, JSON.stringify(own.json));
    // Bob is still served.
    await send(id, eve, { type: 'chat.msg', target: 'agent:bob', payload: { text: 'still here' } });
    await until('bob hears eve again', () => heard.length === 2);
  } finally {
    bob.close();
  }
});

// Catch-up reads bound one parameter per audience, and the
// platform binds at most 100 per statement, so a member of ~98 channels could
// no longer poll, stream or join (500), and live delivery to it stopped.
test('a member of 120 channels still polls, and its catch-up arrives', async () => {
  const net = await demoLike('many-channels');
  const id = net.id;
  const busy = await join(id, 'agent:busy');
  assert.equal(busy.status, 200, JSON.stringify(busy.json));
  for (let i = 0; i < 120; i += 1) {
    const made = await send(id, busy.json.token, {
      type: 'network.channel.create', target: 'core', payload: { channel: `room-${i}` },
    });
    assert.equal(made.status, 200, JSON.stringify(made.json));
  }
  const other = await join(id, 'agent:other');
  await send(id, other.json.token, { type: 'network.channel.join', target: 'core', payload: { channel: 'room-119' } });
  const posted = await send(id, other.json.token, {
    type: 'chat.msg', target: 'channel/room-119', payload: { text: 'to a busy member' },
  });
  assert.equal(posted.status, 200, JSON.stringify(posted.json));
  const page = await call('GET', `/networks/${id}/v1/events?after=0&limit=200`, { token: busy.json.token });
  assert.equal(page.status, 200, JSON.stringify(page.json));
  const texts = page.json.events.map((e) => e.event.payload?.text).filter(Boolean);
  assert.deepEqual(texts, ['to a busy member']);
});
