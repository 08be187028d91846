// Outbound fetches on someone else's say-so (docs/outbound.md), through the real
// edge (wrangler dev) with no allow-list — as a deployment runs: a push
// target, a DRC webhook, an OAuth client ID metadata document and a passive
// registration that name this machine, in the spellings a URL parser reads
// as loopback (decimal, hex, percent-encoded, full-width digits, ideographic
// full stops, a tab in the host, IPv6 forms), are refused with a stable
// reason, and the local listener they name receives nothing.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { joinToken } from '../../support/http.mjs';
import { expectNothingFor } from '../../support/waits.mjs';

let edge;
let listener;
const received = [];

before(async () => {
  listener = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise((resolve) => listener.listen(0, '127.0.0.1', resolve));
  // No allow-list (AGENTNET_OUTBOUND_ALLOW_HOSTS): the edge fetches public hosts only.
  edge = await startEdge({ vars: { AGENTNET_DESCRIPTIONS_PER_MINUTE: '1000' } });
});

after(async () => {
  await edge?.stop();
  listener?.close();
});

/** The listener's port in every spelling of loopback the issue names, and more. */
function loopbackSpellings(scheme, path) {
  const port = listener.address().port;
  const fullWidth = (text) => text.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)));
  return [
    `${scheme}://127.0.0.1:${port}${path}`,
    `${scheme}://localhost:${port}${path}`,
    `${scheme}://2130706433:${port}${path}`,
    `${scheme}://0x7f.0.0.1:${port}${path}`,
    `${scheme}://0177.0.0.1:${port}${path}`,
    `${scheme}://127.1:${port}${path}`,
    `${scheme}://127.0.0.%31:${port}${path}`,
    `${scheme}://${fullWidth('127')}.${fullWidth('0')}.${fullWidth('0')}.${fullWidth('1')}:${port}${path}`,
    `${scheme}://127\u30020\u30020\u30021:${port}${path}`,
    `${scheme}://[::1]:${port}${path}`,
    `${scheme}://[::ffff:127.0.0.1]:${port}${path}`,
    `${scheme}://api.localhost:${port}${path}`,
  ];
}

/** Gives a refused fetch time to reach the listener anyway, then checks that nothing did. */
async function nothingReceived(what) {
  await expectNothingFor(1500, `${what}: a request to the local listener`);
  assert.deepEqual(received, [], `${what}: the local listener received nothing`);
}

async function rpc(id, agent, bearer, method, params) {
  const res = await fetch(`${edge.url}/networks/${id}/a2a/${agent}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return res.json();
}

test('an A2A push target on this machine is refused in every spelling, and nothing is sent to it', async () => {
  const { id } = await createNetwork(edge.url, { name: 'Push hardening' });
  const alice = await joinToken(edge.url, id, 'agent:alice');
  const bob = await joinToken(edge.url, id, 'agent:bob');
  const sent = await rpc(id, 'agent:bob', alice, 'SendMessage', {
    message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text: 'go' }] },
    configuration: { returnImmediately: true },
  });
  const task = sent.result?.task?.id;
  assert.ok(task, JSON.stringify(sent));
  for (const url of loopbackSpellings('http', '/hook')) {
    const answer = await rpc(id, 'agent:bob', alice, 'CreateTaskPushNotificationConfig', {
      taskId: task, id: 'hook', url, authentication: { scheme: 'Bearer', credentials: 'x' },
    });
    assert.equal(answer.error?.code, -32602, `${url}: ${JSON.stringify(answer)}`);
    assert.match(answer.error.message, /url_private_address|url_invalid/, url);
  }
  // A change of the task would queue a notification per target: there is none.
  const update = await fetch(`${edge.url}/networks/${id}/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bob}` },
    body: JSON.stringify({ type: 'task.update', target: 'agent:alice', payload: { task, state: 'working' } }),
  });
  assert.ok(update.status < 300, await update.text());
  await nothingReceived('push');
});

test('a DRC webhook to this machine is refused, so no registry change is posted there', async () => {
  for (const url of loopbackSpellings('http', '/hook')) {
    const res = await fetch(`${edge.url}/registry/v1/webhooks`, {
      method: 'POST', body: JSON.stringify({ url, secret: 'webhook-secret-0123456789' }),
    });
    const body = await res.json();
    assert.equal(res.status, 400, `${url}: ${JSON.stringify(body)}`);
    assert.match(body.reason, /^(url_private_address|url_invalid)$/, url);
  }
  await nothingReceived('webhook');
});

test('an OAuth client_id document on this machine is refused before any connection, with no port-scan oracle', async () => {
  const { id } = await createNetwork(edge.url, { name: 'CIMD hardening' });
  const pages = [];
  for (const clientId of loopbackSpellings('https', '/c.json')) {
    const url = new URL(`${edge.url}/networks/${id}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code', client_id: clientId, redirect_uri: 'http://127.0.0.1:1/cb',
      code_challenge: 'a'.repeat(43), code_challenge_method: 'S256',
    })) url.searchParams.set(k, v);
    const res = await fetch(url);
    const page = await res.text();
    assert.equal(res.status, 400, clientId);
    assert.match(page, /url_private_address|url_invalid/, clientId);
    pages.push(page.replace(clientId, ''));
  }
  // The listener's open port and a closed one are answered alike.
  const closed = `https://127.0.0.1:1/c.json`;
  const url = new URL(`${edge.url}/networks/${id}/oauth/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', closed);
  const page = await (await fetch(url)).text();
  assert.match(page, /url_private_address/);
  assert.doesNotMatch(page, /refused|ECONNREFUSED|timed out|reset/i);
  await nothingReceived('client metadata document');
});

test('passive registration of a description on this machine is refused in every spelling', async () => {
  const spellings = [...loopbackSpellings('http', '/ad.json'), `http://127.0.0\t.1:${listener.address().port}/ad.json`];
  for (const url of spellings) {
    const res = await fetch(`${edge.url}/registry/v1/descriptions`, {
      method: 'POST', body: JSON.stringify({ url }),
    });
    const body = await res.json();
    assert.equal(res.status, 400, `${JSON.stringify(url)}: ${JSON.stringify(body)}`);
    assert.match(body.reason, /^(url_private_address|url_invalid)$/, url);
  }
  await nothingReceived('passive registration');
});
