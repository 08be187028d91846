// Credentials, bodies and frames, against the real edge (wrangler dev):
// * a member's OAuth tokens end with its membership: removed or banned, its
//   old access token initializes no MCP session and posts nothing — also
//   after someone else joined under its name — and its refresh token is refused;
// * a DIDWba header is single use across the deployment: accepted by one
//   network, it is refused by another;
// * a request with a body the edge answers without needing it (PUT, PATCH,
//   DELETE, a body on a GET) does not restart the Worker;
// * an empty batch `[]` is a bad frame on every socket, gateways' included.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { until, pace } from '../../support/waits.mjs';
import { startDidServer } from '../../support/did-server.mjs';

let edge;
let didServer;

before(async () => {
  edge = await startEdge({ allowLocalFetches: true }); // the DIDWba tests resolve a did:wba served on 127.0.0.1
  didServer = await startDidServer();
});

after(async () => {
  await didServer?.close();
  await edge?.stop();
});

const REDIRECT = 'http://127.0.0.1:4711/callback';
const VERIFIER = randomBytes(32).toString('base64url');
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

async function call(method, path, { token, body, headers = {} } = {}) {
  const res = await fetch(`${edge.url}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, json, text, headers: res.headers };
}

/** `name` consents for an MCP client of network `id` (the consent form posted as a browser would); its tokens. */
async function oauthTokens(id, name) {
  const mcp = `${edge.url}/networks/${id}/mcp`;
  const registered = await call('POST', `/networks/${id}/oauth/register`, {
    headers: { 'content-type': 'application/json' },
    body: { redirect_uris: [REDIRECT], client_name: 'hardening', token_endpoint_auth_method: 'none' },
  });
  assert.equal(registered.status, 201, registered.text);
  const client = registered.json.client_id;
  const form = new URLSearchParams({
    response_type: 'code', client_id: client, redirect_uri: REDIRECT, state: 's',
    code_challenge: CHALLENGE, code_challenge_method: 'S256', resource: mcp, name, decision: 'allow',
  });
  const consent = await call('POST', `/networks/${id}/oauth/authorize`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString(),
  });
  assert.equal(consent.status, 303, consent.text);
  const code = new URL(consent.headers.get('location')).searchParams.get('code');
  const tokens = await call('POST', `/networks/${id}/oauth/token`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: VERIFIER, client_id: client, resource: mcp,
    }).toString(),
  });
  assert.equal(tokens.status, 200, tokens.text);
  return { client, mcp, access: tokens.json.access_token, refresh: tokens.json.refresh_token };
}

/** An MCP initialize with `token`: its HTTP status. */
async function initialize(id, token) {
  const res = await call('POST', `/networks/${id}/mcp`, {
    token,
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
    body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
  });
  return res;
}

async function refresh(id, { client, mcp, refresh: token }) {
  return call('POST', `/networks/${id}/oauth/token`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: client, resource: mcp }).toString(),
  });
}

for (const action of ['remove', 'ban']) {
  test(`a member's OAuth tokens end when a master ${action}s it, even when someone else takes its name`, async () => {
    const created = await createNetwork(edge.url, { name: `creds-${action}`, access: { policy: 'open' } });
    const id = created.id;
    const boss = await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'human:boss', credentials: { admin_token: created.admin_token } } });
    assert.equal(boss.status, 200, boss.text);
    const tokens = await oauthTokens(id, 'x');
    const before = await initialize(id, tokens.access);
    assert.equal(before.status, 200, before.text);

    const removed = await call('POST', `/networks/${id}/v1/admin/members/${action}`, { token: boss.json.token, body: { address: 'agent:x' } });
    assert.equal(removed.status, 200, removed.text);
    if (action === 'remove') {
      const newcomer = await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:x' } });
      assert.equal(newcomer.status, 200, newcomer.text);
    }
    const after = await initialize(id, tokens.access);
    assert.equal(after.status, 401, after.text);
    const posted = await call('POST', `/networks/${id}/mcp`, {
      token: tokens.access,
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'send_message', arguments: { target: 'agent:broadcast', text: 'as the newcomer' } } },
    });
    assert.equal(posted.status, 401, posted.text);
    const renewed = await refresh(id, tokens);
    assert.equal(renewed.status, 400, renewed.text);
    assert.equal(renewed.json.error, 'invalid_grant');
  });
}

test('archiving a network ends every member\'s credentials, the master\'s too, after the master has its answer', async () => {
  const created = await createNetwork(edge.url, { name: 'creds-archive', access: { policy: 'open' } });
  const id = created.id;
  const boss = await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'human:boss', credentials: { admin_token: created.admin_token } } });
  assert.equal(boss.status, 200, boss.text);
  const member = await call('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:y' } });
  assert.equal(member.status, 200, member.text);
  const tokens = await oauthTokens(id, 'x');
  assert.equal((await initialize(id, tokens.access)).status, 200);
  const discover = (token) => call('GET', `/networks/${id}/v1/discover`, { token });
  assert.equal((await discover(member.json.token)).status, 200);

  const archived = await call('POST', `/networks/${id}/v1/admin/archive`, { token: boss.json.token, body: {} });
  assert.equal(archived.status, 200, archived.text);
  assert.equal(archived.json.status, 'archived');
  for (const [who, token] of [['agent:y', member.json.token], ['human:boss', boss.json.token]]) {
    const after = await discover(token);
    assert.equal(after.status, 401, `${who}: ${after.text}`);
  }
  assert.equal((await initialize(id, tokens.access)).status, 401);
  const renewed = await refresh(id, tokens);
  assert.equal(renewed.json.error, 'invalid_grant', renewed.text);
  // What the network was stays readable by anyone who may see its profile.
  const profile = await call('GET', `/networks/${id}/v1/profile`);
  assert.equal(profile.json.status, 'archived');
});

/** A signer of fresh DIDWba headers for this edge's host, with a secp256k1 did:wba served locally. */
function localDid(name) {
  const { header } = didServer.secp256k1Did(name);
  return () => header(new URL(edge.url).hostname);
}

test('a DIDWba header that joined one network is refused by another of the same deployment', async () => {
  const header = localDid('roamer');
  const a = await createNetwork(edge.url, { name: 'nonce-a', access: { policy: 'did-verify' } });
  const b = await createNetwork(edge.url, { name: 'nonce-b', access: { policy: 'did-verify' } });
  const once = header();
  const joinedA = await call('GET', `/networks/${a.id}/v1/discover`, { headers: { authorization: once } });
  assert.equal(joinedA.status, 200, joinedA.text);
  const atB = await call('GET', `/networks/${b.id}/v1/discover`, { headers: { authorization: once } });
  assert.equal(atB.status, 401, atB.text);
  assert.match(atB.headers.get('www-authenticate'), /^DIDWba error="invalid_nonce"/);
  // A fresh header still joins B.
  const fresh = await call('GET', `/networks/${b.id}/v1/discover`, { headers: { authorization: header() } });
  assert.equal(fresh.status, 200, fresh.text);
});

test('bodies the edge answers without needing are read first: the Worker does not restart', async () => {
  const { id } = await createNetwork(edge.url, { name: 'bodies', access: { policy: 'open' } });
  const big = JSON.stringify({ pad: 'x'.repeat(200 * 1024) });
  let stop = false;
  const statuses = [];
  // Another client keeps making requests meanwhile.
  const busy = (async () => {
    while (!stop) {
      statuses.push((await call('GET', `/networks/${id}/v1/profile`)).status);
    }
  })();
  const answers = [];
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    for (const path of [`/networks/${id}/v1/events`, `/networks/${id}/v1/join`, `/networks/${id}/mcp`, '/v1/networks', '/registry/v1/agents', `/networks/${id}/oauth/token`]) {
      for (const body of ['{}', big]) {
        answers.push([method, path, (await call(method, path, { body, headers: { 'content-type': 'application/json' } })).status]);
      }
    }
  }
  stop = true;
  await busy;
  for (const [method, path, status] of answers) assert.notEqual(status, 503, `${method} ${path}`);
  assert.ok(statuses.length > 0 && statuses.every((s) => s === 200), JSON.stringify(statuses));
  assert.equal((await call('GET', `/networks/${id}/v1/profile`)).status, 200);
  const log = edge.log.join('');
  assert.doesNotMatch(log, /Uncaught TypeError|Can't read from request stream|worker restarted/i);
});

/** Opens a socket; resolves with `{socket, frames, closed}` once open. */
async function open(url) {
  const socket = new WebSocket(url);
  const frames = [];
  const closed = new Promise((resolve) => socket.once('close', (code) => resolve(code)));
  socket.on('message', (data) => frames.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  return { socket, frames, closed };
}

for (const gateways of [false, true]) {
  test(`an empty batch is a bad frame on joined and unjoined sockets${gateways ? ' held by gateways' : ''}`, async () => {
    const { id } = await createNetwork(edge.url, {
      name: 'empty-batches', access: { policy: 'open' }, ...(gateways ? { gateways: { count: 2 } } : {}),
    });
    const base = `${edge.url.replace(/^http/, 'ws')}/networks/${id}/v1/ws`;
    for (const url of [`${base}?agent_id=agent:noisy`, gateways ? `${base}?member=agent:quiet` : base]) {
      const { socket, frames, closed } = await open(url);
      let code;
      closed.then((c) => { code = c; });
      for (let n = 0; n < 20 && code === undefined; n += 1) {
        socket.send('[]');
        await pace(30);
      }
      await until(`${url} closed`, () => code !== undefined);
      assert.equal(code, 4400, url);
      const errors = frames.filter((f) => f.type === 'network.event.error').map((f) => f.payload.code);
      assert.ok(errors.includes('malformed_event'), `${url}: ${JSON.stringify(errors)}`);
    }
  });
}
