// Masters managing a running network over HTTP (`/networks/{id}/v1/admin/…`)
// and what each change does to agents connected over WebSocket.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, statefulEdgeForFile } from '../../support/edge.mjs';
import { call } from '../../support/http.mjs';
import { until } from '../../support/process.mjs';

const edge = statefulEdgeForFile('agentnet-admin-');

/** A network and its master's HTTP session. */
async function network(body = {}) {
  const created = await createNetwork(edge.url, { name: 'admin', mods: ['persistence'], ...body });
  const credentials = { admin_token: created.admin_token, ...(body.access?.token ? { token: body.access.token } : {}) };
  const joined = await call(edge.url, 'POST', `/networks/${created.id}/v1/join`, { body: { agent_id: 'human:boss', credentials } });
  assert.equal(joined.status, 200, JSON.stringify(joined.json));
  const admin = (method, action, body) =>
    call(edge.url, method, `/networks/${created.id}/v1/admin/${action}`, { body, token: joined.json.token });
  return { id: created.id, adminToken: created.admin_token, token: joined.json.token, admin };
}

test('pause refuses connected agents\' sends with its code, resume lets them on, archive is final; the log shows who did it', async () => {
  const { id, admin, token, adminToken } = await network();
  const alice = await Agent.connect({ url: edge.url, network: id, name: 'agent:alice' });
  try {
    const refused = await call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:bob' } });
    const bobAdmin = await call(edge.url, 'POST', `/networks/${id}/v1/admin/pause`, { body: {}, token: refused.json.token });
    assert.equal(bobAdmin.status, 403);
    assert.equal(bobAdmin.json.code, 'forbidden');

    const paused = await admin('POST', 'pause', { reason: 'maintenance' });
    assert.equal(paused.status, 200, JSON.stringify(paused.json));
    assert.equal(paused.json.status, 'paused');
    await assert.rejects(alice.send('agent:boss', 'chat.message', { text: 'anyone?' }, { timeoutMs: 5000 }), { code: 'network_unavailable' });
    const profile = await call(edge.url, 'GET', `/networks/${id}/v1/profile`);
    assert.equal(profile.json.status, 'paused');

    assert.equal((await admin('POST', 'resume')).json.status, 'active');
    assert.ok((await alice.send('human:boss', 'chat.message', { text: 'back' })).seq > 0);

    // Who changed what: the admin events are in the history, from the master.
    const history = await call(edge.url, 'POST', `/networks/${id}/v1/events`, {
      token, body: { type: 'network.events.query', target: 'core', payload: { types: 'network.admin.*' } },
    });
    const changes = history.json.payload.events.map((e) => [e.event.type, e.event.source]);
    assert.deepEqual(changes, [['network.admin.pause', 'human:boss'], ['network.admin.resume', 'human:boss']]);

    // Archiving ends every member's session: alice is closed out, her rejoin is refused, and a
    // send still waiting is refused with that reason rather than left to time out.
    const connection = [];
    alice.onConnectionChange((change) => connection.push(change));
    assert.equal((await admin('POST', 'archive')).json.status, 'archived');
    await assert.rejects(alice.send('human:boss', 'chat.message', {}, { timeoutMs: 20000 }), { code: 'network_unavailable' });
    assert.ok(connection.some((c) => !c.online), JSON.stringify(connection));
    // The master's session ended too, and with the admin token nobody gets back in to undo it.
    const again = await admin('POST', 'resume');
    assert.equal(again.status, 401, JSON.stringify(again.json));
    const master = await call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'human:boss', credentials: { admin_token: adminToken } } });
    assert.equal(master.json.code, 'network_unavailable');
    const late = await call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:late' } });
    assert.equal(late.json.code, 'network_unavailable');
  } finally {
    alice.close();
  }
});

test('a banned member\'s socket closes at once and its rejoin is refused; a removed one may come back', async () => {
  const { id, admin } = await network();
  const mallory = await Agent.connect({ url: edge.url, network: id, name: 'agent:mallory', reconnect: false });
  const changes = [];
  mallory.onConnectionChange((change) => changes.push(change.online));
  const banned = await admin('POST', 'members/ban', { address: 'agent:mallory', reason: 'spam' });
  assert.equal(banned.status, 200, JSON.stringify(banned.json));
  await until('mallory\'s socket closes', () => changes.includes(false));
  await assert.rejects(Agent.connect({ url: edge.url, network: id, name: 'agent:mallory', reconnect: false }), { code: 'banned' });
  const http = await call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:mallory' } });
  assert.equal(http.status, 403);
  assert.equal(http.json.code, 'banned');

  assert.equal((await admin('POST', 'members/unban', { address: 'agent:mallory' })).status, 200);
  const back = await Agent.connect({ url: edge.url, network: id, name: 'agent:mallory', reconnect: false });
  const gone = [];
  back.onConnectionChange((change) => gone.push(change.online));
  assert.equal((await admin('POST', 'members/remove', { address: 'agent:mallory' })).status, 200);
  await until('the removed member\'s socket closes', () => gone.includes(false));
  const roster = await admin('GET', 'config');
  assert.ok(!roster.json.config.banned);
  const again = await Agent.connect({ url: edge.url, network: id, name: 'agent:mallory', reconnect: false });
  again.close();
  back.close();
  mallory.close();
});

test('rotating the access token and the admin token: the old ones stop working, the new ones only in the master\'s answer', async () => {
  const { id, admin, adminToken } = await network({ access: { policy: 'token', token: 'first-token' }, mods: ['auth', 'persistence'] });
  const rotated = await admin('POST', 'tokens/rotate', { token: 'access' });
  assert.equal(rotated.status, 200, JSON.stringify(rotated.json));
  const fresh = rotated.json.token;
  assert.match(fresh, /^[0-9a-f]{64}$/);
  await assert.rejects(Agent.connect({ url: edge.url, network: id, name: 'agent:old', token: 'first-token', reconnect: false }), { code: 'access_denied' });
  const agent = await Agent.connect({ url: edge.url, network: id, name: 'agent:new', token: fresh });
  agent.close();

  const adminRotated = await admin('POST', 'tokens/rotate', { token: 'admin' });
  const newAdmin = adminRotated.json.token;
  const join = (admin_token) => call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'human:second', credentials: { token: fresh, admin_token } } });
  const old = await join(adminToken);
  assert.equal(old.status, 200);
  const notMaster = await call(edge.url, 'POST', `/networks/${id}/v1/admin/pause`, { token: old.json.token, body: {} });
  assert.equal(notMaster.json.code, 'forbidden');
  const master = await call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'human:third', credentials: { admin_token: newAdmin } } });
  const pause = await call(edge.url, 'POST', `/networks/${id}/v1/admin/pause`, { token: master.json.token, body: {} });
  assert.equal(pause.json.status, 'paused');
  // The log keeps that tokens were rotated, never the tokens.
  const logged = await call(edge.url, 'POST', `/networks/${id}/v1/events`, {
    token: master.json.token, body: { type: 'network.events.query', target: 'core', payload: { types: 'network.admin.token.rotate' } },
  });
  assert.equal(logged.json.payload.events.length, 2);
  assert.ok(!JSON.stringify(logged.json).includes(fresh));
});

test('mods load, reconfigure and unload at runtime; analytics counts over HTTP for masters; settings and invitations', async () => {
  const { id, admin, token, adminToken } = await network({ access: { policy: 'invite' }, mods: ['auth', 'persistence'] });
  const loaded = await admin('POST', 'mods/load', { name: 'analytics' });
  assert.equal(loaded.status, 200, JSON.stringify(loaded.json));
  assert.deepEqual(loaded.json.mods, ['mod/auth', 'mod/persistence', 'mod/analytics']);
  const twice = await admin('POST', 'mods/load', { name: 'analytics' });
  assert.equal(twice.status, 409);

  // Invitations: issued, used, revoked.
  const invited = await admin('POST', 'invitations', { invitee: 'agent:guest' });
  const guest = await Agent.connect({ url: edge.url, network: id, name: 'agent:guest', invite: invited.json.code });
  await guest.send('human:boss', 'chat.message', { text: 'hi' });
  await guest.send('human:boss', 'chat.message', { text: 'again' });
  const revokedCode = (await admin('POST', 'invitations', {})).json.code;
  assert.equal((await admin('GET', 'config')).json.invitations.length, 1);
  // The Workspace's form of an invitation is logged; the inviter hears when one is used.
  const news = [];
  const inviter = await Agent.connect({ url: edge.url, network: id, name: 'human:inviter', credentials: { admin_token: adminToken } });
  inviter.on('workspace.invitation.*', (event) => news.push(event));
  const workspaceCode = (await inviter.send('core', 'workspace.invitation.created', { invitee: 'agent:friend' })).code;
  const friend = await Agent.connect({ url: edge.url, network: id, name: 'agent:friend', invite: workspaceCode });
  await until('the inviter hears of the acceptance', () => news.length === 1);
  assert.equal(news[0].type, 'workspace.invitation.accepted');
  assert.equal(news[0].payload.invitee, 'agent:friend');
  const declined = (await inviter.send('core', 'workspace.invitation.created', {})).code;
  const reject = await call(edge.url, 'POST', `/networks/${id}/v1/invitations/reject`, { body: { code: declined } });
  assert.equal(reject.status, 200, JSON.stringify(reject.json));
  await until('the inviter hears of the refusal', () => news.length === 2);
  assert.equal(news[1].type, 'workspace.invitation.rejected');
  assert.equal((await call(edge.url, 'POST', `/networks/${id}/v1/invitations/reject`, { body: { code: declined } })).status, 404);
  friend.close();
  inviter.close();
  assert.equal((await admin('POST', 'invitations/revoke', { code: revokedCode })).status, 200);
  await assert.rejects(Agent.connect({ url: edge.url, network: id, name: 'agent:late', invite: revokedCode, reconnect: false }), { code: 'access_denied' });

  const analytics = () => call(edge.url, 'GET', `/networks/${id}/v1/analytics`, { token });
  const counts = await analytics();
  assert.equal(counts.status, 200, JSON.stringify(counts.json));
  assert.equal(counts.json.by_type['chat.message'], 2);
  assert.ok(counts.json.by_source['agent:guest'] >= 2);
  assert.equal(Object.values(counts.json.by_minute).reduce((a, b) => a + b, 0), counts.json.total);
  const viewerCode = (await admin('POST', 'invitations', {})).json.code;
  const viewer = await call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:viewer', credentials: { invite: viewerCode } } });
  const notMaster = await call(edge.url, 'GET', `/networks/${id}/v1/analytics`, { token: viewer.json.token });
  assert.equal(notMaster.status, 403);

  const moved = await admin('POST', 'mods/configure', { name: 'analytics', priority: -1 });
  assert.deepEqual(moved.json.mods, ['mod/auth', 'mod/analytics', 'mod/persistence']);
  const settings = await admin('POST', 'settings', { presence_timeout_ms: 30000, public: true, name: 'Renamed' });
  assert.equal(settings.status, 200, JSON.stringify(settings.json));
  const config = (await admin('GET', 'config')).json.config;
  assert.equal(config.presence_timeout_ms, 30000);
  assert.equal(config.public, true);
  assert.equal(config.mod_priorities.analytics, -1);
  assert.equal(config.access.has_admin_token, true);
  assert.ok(!('admin_token_sha256' in config.access));
  assert.equal((await call(edge.url, 'GET', `/networks/${id}/v1/profile`)).json.name, 'Renamed');
  const bad = await admin('POST', 'settings', { presence_timeout_ms: 1 });
  assert.equal(bad.status, 400);
  // Smaller limits hold at once for connected agents.
  const limits = { max_frame_bytes: 8192, max_payload_bytes: 2048, max_metadata_bytes: 2048, max_type_len: 64 };
  assert.equal((await admin('POST', 'settings', { limits })).status, 200);
  await assert.rejects(guest.send('human:boss', 'chat.message', { text: 'x'.repeat(3000) }), { code: 'too_large' });
  assert.ok((await guest.send('human:boss', 'chat.message', { text: 'short' })).seq > 0);

  assert.equal((await admin('POST', 'mods/unload', { name: 'analytics' })).status, 200);
  assert.equal((await analytics()).status, 501);
  assert.equal((await admin('POST', 'mods/unload', { name: 'auth' })).status, 400, 'an invite network keeps mod/auth');
  assert.equal((await admin('POST', 'no-such-thing')).status, 404);
  guest.close();
});

test('a changed configuration survives the network object\'s restart', async () => {
  const { id, admin } = await network();
  await admin('POST', 'mods/load', { name: 'analytics' });
  await admin('POST', 'settings', { name: 'Kept' });
  await admin('POST', 'members/ban', { address: 'agent:gone' });
  await edge.kill();
  await edge.restart();
  const profile = await call(edge.url, 'GET', `/networks/${id}/v1/profile`);
  assert.equal(profile.json.name, 'Kept');
  assert.ok(profile.json.mods.includes('mod/analytics'));
  const refused = await call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:gone' } });
  assert.equal(refused.json.code, 'banned');
});

test('a shorter presence timeout takes a silent member offline sooner', async () => {
  const { id, admin, token } = await network();
  const quiet = await call(edge.url, 'POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:quiet' } });
  assert.equal(quiet.status, 200);
  assert.equal((await admin('POST', 'settings', { presence_timeout_ms: 5000 })).status, 200);
  const started = Date.now();
  await until('the silent member goes offline', async () => {
    // The master's own requests keep it online; the silent one goes.
    const roster = await call(edge.url, 'GET', `/networks/${id}/v1/discover`, { token });
    return roster.json.agents.find((a) => a.address === 'agent:quiet')?.status === 'offline';
  }, 20_000);
  assert.ok(Date.now() - started < 15_000, 'well before the default minute');
});
