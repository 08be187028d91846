// Hardening, end to end against wrangler dev:
// * what a member did keeps working after the network object restarts: a
//   message posted before is edited, reacted to and deleted after, and the
//   network still refuses another member's edit;
// * a Host that is not one of the deployment's names is refused on every
//   route, static files included (DNS rebinding);
// * a stranger's body to a static path never fails other people's requests;
// * nothing crosses into JavaScript as an integer it cannot hold.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { call as callAt } from '../../support/http.mjs';

const POSTED = 'workspace.message.posted';

/** The answer to `path` on `port` sent with the raw `Host` and `Origin` headers given. */
function withHost(port, method, path, host, origin, body) {
  return new Promise((resolve, reject) => {
    const headers = { host, 'content-type': 'application/json' };
    if (origin) headers.origin = origin;
    if (body) headers['content-length'] = Buffer.byteLength(body);
    const req = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test('a message is edited, reacted to and deleted after the network restarted; a forged edit stays refused', async () => {
  const stateDir = await mkdtemp(joinPath(tmpdir(), 'agentnet-restart-'));
  let edge = await startEdge({ stateDir });
  try {
    let call = (method, path, options) => callAt(edge.url, method, path, options);
    const { id } = await createNetwork(edge.url, { name: 'restart', access: { policy: 'open' }, mods: ['workspace', 'persistence'] });
    const ann = await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'human:ann' } });
    const bob = await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:bob' } });
    assert.equal(ann.status, 200, JSON.stringify(ann.json));
    const send = (token, type, payload) => call('POST', `/networks/${id}/v1/events`, {
      token, body: { type, target: 'agent:broadcast', payload },
    });
    const posted = await send(ann.json.token, POSTED, { content: 'helo' });
    assert.equal(posted.status, 200, JSON.stringify(posted.json));
    const message = posted.json.event_id ?? posted.json.id;
    assert.ok(message, JSON.stringify(posted.json));

    // The object loses everything in memory, as after a sleep, an eviction or a deploy.
    await edge.stop();
    edge = await startEdge({ stateDir, port: edge.port });
    call = (method, path, options) => callAt(edge.url, method, path, options);

    const edited = await send(ann.json.token, 'workspace.message.edited', { message, content: 'hello' });
    assert.equal(edited.status, 200, JSON.stringify(edited.json));
    const reacted = await send(bob.json.token, 'workspace.reaction.added', { message, emoji: '👍' });
    assert.equal(reacted.status, 200, JSON.stringify(reacted.json));
    const forged = await send(bob.json.token, 'workspace.message.edited', { message, content: 'FORGED' });
    assert.equal(forged.status, 403, JSON.stringify(forged.json));
    assert.equal(forged.json.code, 'forbidden');
    assert.ok(!JSON.stringify(forged.json).includes(message), 'the refusal names no id');
    const deleted = await send(ann.json.token, 'workspace.message.deleted', { message });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.json));
    const again = await send(ann.json.token, 'workspace.message.edited', { message, content: 'back' });
    assert.equal(again.status, 404, JSON.stringify(again.json));
    assert.match(again.json.message, /deleted/);
  } finally {
    await edge.stop();
    await rm(stateDir, { recursive: true, force: true });
  }
});

test('a rebound name is refused on every route; loopback names are served', async () => {
  const edge = await startEdge();
  try {
    for (const [method, path, body] of [
      ['POST', '/networks/demo/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } })],
      ['GET', '/networks/demo/v1/members', undefined],
      ['GET', '/v1/networks', undefined],
      ['GET', '/', undefined],
      ['GET', '/n/demo', undefined],
    ]) {
      const rebound = await withHost(edge.port, method, path, 'evil.example.com', 'http://evil.example.com', body);
      assert.equal(rebound.status, 403, `${method} ${path}: ${rebound.text}`);
      assert.match(rebound.text, /does not answer for the host/);
      const sameMachine = await withHost(edge.port, method, path, `localhost:${edge.port}`, undefined, body);
      assert.notEqual(sameMachine.status, 403, `${method} ${path} on localhost: ${sameMachine.text}`);
    }
  } finally {
    await edge.stop();
  }
});

test('bodies sent to static paths never fail concurrent requests, and no integer is clamped by JavaScript', async () => {
  const edge = await startEdge();
  try {
    const call = (method, path, options) => callAt(edge.url, method, path, options);
    const { id } = await createNetwork(edge.url, { name: 'strangers', access: { policy: 'open' }, mods: ['workspace', 'persistence'] });
    const member = await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:steady' } });
    const stranger = 'x'.repeat(200 * 1024);
    const strays = [];
    const posts = [];
    for (let i = 0; i < 96; i += 1) {
      if (i % 6 === 0) {
        strays.push(fetch(`${edge.url}/__create`, { method: 'POST', body: stranger }).then((r) => r.status));
      }
      posts.push(call('POST', `/networks/${id}/v1/events`, {
        token: member.json.token, body: { type: 'channel.message', target: 'agent:broadcast', payload: { content: `n${i}` } },
      }).then((r) => r.status));
    }
    const statuses = await Promise.all(posts);
    assert.deepEqual(statuses.filter((s) => s !== 200), [], 'every member request succeeded');
    for (const status of await Promise.all(strays)) assert.ok(status >= 400 && status < 500, `stray answered ${status}`);

    // An IOA read of a space's messages walks the graph to its newest end (no upper bound).
    const created = await call('POST', `/networks/${id}/v1/events`, {
      token: member.json.token, body: { type: 'network.channel.create', target: 'core', payload: { channel: 'general' } },
    });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    await call('POST', `/networks/${id}/v1/events`, {
      token: member.json.token, body: { type: 'ioa.message', target: 'channel/general', payload: { content: { text: 'hi' } } },
    });
    const read = await call('GET', `/networks/${id}/ioa/spaces/general/messages`, { token: member.json.token });
    assert.equal(read.status, 200, JSON.stringify(read.json));
    const log = edge.log.join('');
    assert.doesNotMatch(log, /outside the JavaScript safe-integer range/);
    assert.doesNotMatch(log, /restarted mid-request/);
  } finally {
    await edge.stop();
  }
});
