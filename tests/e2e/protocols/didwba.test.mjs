// DIDWba header authentication (did:wba method spec §3) on every endpoint of
// a network, against the real edge (wrangler dev): the HTTP binding, a
// WebSocket upgrade, the MCP endpoint driven by the official MCP SDK and an
// A2A endpoint driven by the official A2A SDK. The network is `did-verify`,
// so nothing gets in without a DID proof. Each client sends a fresh DIDWba
// header first and the bearer the answer carries afterwards, as ANP clients
// do. The DID documents are served by a local HTTP server; one of them holds
// a secp256k1 key whose headers are signed here with node:crypto, as ANP's
// Python SDK signs them.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Role, TaskState } from '@a2a-js/sdk';
import {
  ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { Agent, KeyPair, createEvent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { startDidServer } from '../../support/did-server.mjs';

let edge;
let didServer;
let network;
let planner;

/** A did:wba served by the local document server, with its key. */
const localDid = (name, key) => didServer.localDid(name, key);

/**
 * A `fetch` that authenticates as ANP clients do: a fresh DIDWba header
 * until an answer carries `Authorization: Bearer …`, that bearer afterwards.
 * `seen` records which scheme each request used.
 */
function didFetch({ did, key }, seen = []) {
  let bearer;
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', bearer ?? key.didWbaHeader({ did, url: String(url) }));
    seen.push(bearer ? 'Bearer' : 'DIDWba');
    const res = await fetch(url, { ...init, headers });
    const answered = res.headers.get('authorization');
    if (answered?.startsWith('Bearer ')) bearer = answered;
    return res;
  };
}

async function roster(as) {
  const res = await fetch(`${edge.url}/networks/${network}/v1/discover`, { headers: { Authorization: as } });
  assert.equal(res.status, 200);
  const body = await res.json();
  return Object.fromEntries(body.agents.map((a) => [a.address, [a.verification, a.did]]));
}

before(async () => {
  edge = await startEdge({ allowLocalFetches: true });
  didServer = await startDidServer();
  ({ id: network } = await createNetwork(edge.url, { name: 'didwba', access: { policy: 'did-verify' } }));
  const plannerId = localDid('planner');
  planner = await Agent.connect({ url: edge.url, network, name: 'agent:planner', ...plannerId, WebSocket });
  await planner.registerTool('plan', { type: 'object' }, () => 'planned', { description: 'plans a trip' });
  planner.onTask(async (task) => `planned ${task.text} for ${task.requester ?? 'someone'}`);
});

after(async () => {
  planner?.close();
  await didServer?.close();
  await edge?.stop();
});

test('a DIDWba header stands in for the bearer on the HTTP binding; replays and strangers get the challenge', async () => {
  const ana = localDid('ana');
  const header = ana.key.didWbaHeader({ did: ana.did, url: edge.url });
  const chat = { type: 'chat.msg', target: 'agent:planner', payload: { text: 'hello' } };
  const heard = new Promise((resolve) => planner.on('chat.msg', (event) => event.source === 'agent:ana' && resolve(event)));
  const sent = await fetch(`${edge.url}/networks/${network}/v1/events`, {
    method: 'POST', headers: { Authorization: header }, body: JSON.stringify(chat),
  });
  assert.equal(sent.status, 200, await sent.clone().text());
  const bearer = sent.headers.get('authorization');
  assert.match(bearer, /^Bearer [0-9a-f]+$/);
  assert.equal((await heard).payload.text, 'hello');
  assert.deepEqual((await roster(bearer))['agent:ana'], [3, ana.did]);

  const replayed = await fetch(`${edge.url}/networks/${network}/v1/discover`, { headers: { Authorization: header } });
  assert.equal(replayed.status, 401);
  assert.match(replayed.headers.get('www-authenticate'), /^DIDWba error="invalid_nonce"/);
  // A key the document does not list.
  const forged = KeyPair.generate().didWbaHeader({ did: ana.did, url: edge.url });
  const refused = await fetch(`${edge.url}/networks/${network}/v1/discover`, { headers: { Authorization: forged } });
  assert.equal(refused.status, 401);
  assert.match(refused.headers.get('www-authenticate'), /^DIDWba error=/);
  // Without any proof the did-verify network lets nobody in.
  const plain = await fetch(`${edge.url}/networks/${network}/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'agent:plain' }) });
  assert.equal(plain.status, 403);
});

/** The HTTP status a WebSocket upgrade with `header` is refused with (`'open'` if it is not). */
async function upgradeStatus(url, header) {
  const socket = new WebSocket(url, { headers: { Authorization: header } });
  socket.on('error', () => {});
  const status = await new Promise((resolve) => {
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode));
    socket.once('open', () => resolve('open'));
  });
  socket.terminate();
  return status;
}

test('a WebSocket upgrade with a DIDWba header binds the socket to the DID', async () => {
  const ben = localDid('ben');
  const url = `${edge.url.replace(/^http/, 'ws')}/networks/${network}/v1/ws`;
  const socket = new WebSocket(url, { headers: { Authorization: ben.key.didWbaHeader({ did: ben.did, url: edge.url }) } });
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  const heard = new Promise((resolve) => planner.on('chat.msg', (event) => event.source === 'agent:ben' && resolve(event)));
  socket.send(JSON.stringify(createEvent({
    type: 'chat.msg', source: 'agent:ben', network, target: 'agent:planner', payload: { text: 'over the socket' },
  })));
  assert.equal((await heard).payload.text, 'over the socket');
  socket.close();
  // A bad header is refused at the upgrade.
  const forged = KeyPair.generate().didWbaHeader({ did: ben.did, url: edge.url });
  assert.equal(await upgradeStatus(url, forged), 401);
  // A good proof of one DID does not take another member's address.
  const squatted = await upgradeStatus(`${url}?agent_id=agent%3Aplanner`, ben.key.didWbaHeader({ did: ben.did, url: edge.url }));
  assert.ok(squatted >= 400 && squatted < 500, `taking agent:planner's address answered ${squatted}`);
  assert.equal(planner.online, true);
});

test('the official MCP SDK authenticates with DIDWba and goes on with the bearer it was given', async () => {
  const cleo = localDid('cleo');
  const schemes = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${edge.url}/networks/${network}/mcp`), { fetch: didFetch(cleo, schemes) });
  const client = new McpClient({ name: 'anp-agent', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name.endsWith('plan')), JSON.stringify(tools.map((t) => t.name)));
    const called = await client.callTool({ name: tools.find((t) => t.name.endsWith('plan')).name, arguments: {} });
    assert.equal(called.content[0].text, 'planned');
  } finally {
    await client.close();
  }
  assert.equal(schemes[0], 'DIDWba');
  assert.ok(schemes.slice(1).every((s) => s === 'Bearer'), schemes.join());
  const bearer = `Bearer ${(await (await fetch(`${edge.url}/networks/${network}/v1/join`, {
    method: 'POST', headers: { Authorization: cleo.key.didWbaHeader({ did: cleo.did, url: edge.url }) }, body: JSON.stringify({ agent_id: 'agent:cleo' }),
  })).json()).token}`;
  assert.deepEqual((await roster(bearer))['agent:cleo'], [3, cleo.did]);
});

test('the official A2A SDK sends a task with DIDWba; the card lists the scheme', async () => {
  const dan = localDid('dan');
  const card = await (await fetch(`${edge.url}/networks/${network}/a2a/agent:planner/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
  assert.equal(card.securitySchemes.didwba.httpAuthSecurityScheme.scheme, 'DIDWba');
  const schemes = [];
  const fetchImpl = didFetch(dan, schemes);
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }));
  const client = await factory.createFromUrl(`${edge.url}/networks/${network}/a2a/agent:planner/`);
  const message = (value, taskId = '') => ({
    message: {
      messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value } }], taskId, contextId: '', extensions: [], referenceTaskIds: [], metadata: undefined,
    },
  });
  const done = await client.sendMessage(message('Lisbon'));
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(done.status.message.parts[0].content.value, 'planned Lisbon for agent:dan');
  const again = await client.getTask({ id: done.id, historyLength: 0 });
  assert.equal(again.id, done.id);
  // The card answers anyone; the first JSON-RPC call proved the DID, the next used the bearer it got.
  assert.deepEqual(schemes.slice(-2), ['DIDWba', 'Bearer'], schemes.join());
});


test('secp256k1 DID keys sign DIDWba headers, as ANP clients use them', async () => {
  const kay = didServer.secp256k1Did('kay');
  const service = new URL(edge.url).hostname;
  const joined = await fetch(`${edge.url}/networks/${network}/v1/join`, {
    method: 'POST', headers: { Authorization: kay.header(service) }, body: JSON.stringify({ agent_id: 'agent:kay' }),
  });
  assert.equal(joined.status, 200, await joined.clone().text());
  const bearer = joined.headers.get('authorization');
  assert.deepEqual((await roster(bearer))['agent:kay'], [3, kay.did]);
  // Signed for another service: refused.
  const elsewhere = await fetch(`${edge.url}/networks/${network}/v1/discover`, { headers: { Authorization: kay.header('elsewhere.example') } });
  assert.equal(elsewhere.status, 401);
});
