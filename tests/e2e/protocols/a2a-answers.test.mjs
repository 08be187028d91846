// A2A beyond tasks, driven by the official A2A JS SDK (@a2a-js/sdk) against
// the real edge (wrangler dev):
// * message answers: an npm agent (core/js Agent) whose handler is
//   `onTask(handler, {answer: 'message'})` answers a request with one
//   message, and the SDK's clients (1.0 and 0.3, blocking and streaming) get
//   a Message result, not a Task;
// * signed agent cards: every card the edge serves carries a JWS signature by
//   the deployment's key (its /.well-known/jwks.json), which the SDK's own
//   `verifyAgentCardSignature` accepts; a remote card added by a master is
//   admitted when its signature verifies (signed here by the SDK's
//   `generateAgentCardSignature`, EdDSA and ES256) and refused with
//   `verification_failed` when it does not.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import WebSocket from 'ws';
import { Role, generateAgentCardSignature, verifyAgentCardSignature } from '@a2a-js/sdk';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { joinToken } from '../../support/http.mjs';
import { clientFactory, textPart, partText } from '../../support/a2a.mjs';

let edge;
let network;
let adminToken;
let calc;
let token;
let server;
let serverUrl;
const served = new Map();

const base = (agent) => `${edge.url}/networks/${network}/a2a${agent ? `/${agent}` : ''}`;

const client10 = (agent) => clientFactory(token).createFromUrl(`${base(agent)}/`);
async function client03(agent) {
  const card = await (await fetch(`${base(agent)}/.well-known/agent-card.json`)).json();
  const { supportedInterfaces, signatures, ...v03 } = card;
  return clientFactory(token).createFromAgentCard(v03);
}

const message = (value) => ({
  message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [textPart(value)], taskId: '', contextId: '', extensions: [], referenceTaskIds: [], metadata: undefined },
});

/** The deployment's keys, as the SDK's verifier asks for them (by kid and jku). */
async function edgeKey(kid, jku) {
  assert.equal(jku, `${edge.url}/.well-known/jwks.json`);
  const { keys } = await (await fetch(jku)).json();
  const key = keys.find((k) => k.kid === kid);
  assert.ok(key, `no key ${kid} in ${jku}`);
  return key;
}

before(async () => {
  edge = await startEdge({ allowLocalFetches: true });
  ({ id: network, admin_token: adminToken } = await createNetwork(edge.url, { name: 'A2A answers' }));
  calc = await Agent.connect({ url: edge.url, network, name: 'agent:calc', WebSocket });
  await calc.registerTool('add', { type: 'object' }, () => ({}), { description: 'adds numbers' });
  calc.onTask(async (task) => `sum of ${task.text}: 4`, { answer: 'message' });
  token = await joinToken(edge.url, network, { agent_id: 'agent:asker' });
  server = createServer((req, res) => {
    const body = served.get(req.url);
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${server.address().port}`;
});

after(async () => {
  calc?.close();
  await edge?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

test('a member answers a request with one message: the SDK gets a Message in 1.0 and 0.3', async () => {
  const client = await client10('agent:calc');
  const answered = await client.sendMessage(message('2+2'));
  assert.equal(answered.role, Role.ROLE_AGENT, JSON.stringify(answered));
  assert.equal(partText(answered.parts[0]), 'sum of 2+2: 4');
  assert.equal(answered.taskId, '', 'a message answer names no task');
  assert.ok(!('status' in answered), 'not a Task');
  const old = await client03('agent:calc');
  const answered03 = await old.sendMessage(message('1+3'));
  assert.equal(answered03.role, Role.ROLE_AGENT, JSON.stringify(answered03));
  assert.equal(partText(answered03.parts[0]), 'sum of 1+3: 4');
  // Raw 0.3: the result is a message (kind), not a task.
  const raw = await fetch(base('agent:calc'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'A2A-Version': '0.3', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { kind: 'message', messageId: 'raw-1', role: 'user', parts: [{ kind: 'text', text: '0+4' }] } } }),
  }).then((r) => r.json());
  assert.equal(raw.result.kind, 'message', JSON.stringify(raw));
  assert.equal(raw.result.role, 'agent');
});

test('streamed, the answer is one Message event and the stream ends', async () => {
  const client = await client10('agent:calc');
  const events = [];
  for await (const event of client.sendMessageStream(message('3+1'))) events.push(event);
  assert.equal(events.length, 1, JSON.stringify(events));
  assert.equal(events[0].payload.$case, 'message');
  assert.equal(partText(events[0].payload.value.parts[0]), 'sum of 3+1: 4');
  const old = await client03('agent:calc');
  const events03 = [];
  for await (const event of old.sendMessageStream(message('4+0'))) events03.push(event);
  assert.equal(events03.length, 1, JSON.stringify(events03));
  assert.equal(events03[0].payload.$case, 'message');
});

test('every card the edge serves is signed with the deployment key; the SDK verifies it', async () => {
  const verify = verifyAgentCardSignature(edgeKey);
  for (const [path, headers] of [
    [`${base('agent:calc')}/.well-known/agent-card.json`, { 'A2A-Version': '1.0' }],
    [`${base('agent:calc')}/.well-known/agent-card.json`, {}],
    [`${base()}/.well-known/agent-card.json`, {}],
    [`${base('agent:calc')}/.well-known/agent.json`, {}],
  ]) {
    const card = await (await fetch(path, { headers })).json();
    assert.equal(card.signatures?.length, 1, `${path}: ${JSON.stringify(card)}`);
    const header = JSON.parse(Buffer.from(card.signatures[0].protected, 'base64url').toString());
    assert.equal(header.alg, 'EdDSA');
    assert.equal(header.typ, 'JOSE');
    await verify(card);
    // A changed card no longer verifies.
    await assert.rejects(verify({ ...card, description: 'something else' }), /No valid signatures/);
  }
  // Verified as fetched, as §8.4.3 says. (The SDK client's `getAgentCard(_,
  // verify)` checks the card it keeps, converted to the JSON Schema shape
  // whose security schemes the SDK's own canonicalization then drops: it
  // cannot verify any card that has security schemes, whoever signed it.)
});

test('a remote card is admitted when its signature verifies, refused with verification_failed when not', async () => {
  const master = await joinToken(edge.url, network, { agent_id: 'agent:boss', credentials: { admin_token: adminToken } });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'remote-1', alg: 'EdDSA', use: 'sig' };
  served.set('/jwks.json', { keys: [jwk] });
  const card = (name) => ({
    name, description: 'forecasts', version: '1.0.0',
    supportedInterfaces: [{ url: `${serverUrl}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'forecast', name: 'forecast', description: 'weather', tags: ['weather'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    securitySchemes: {}, securityRequirements: [],
  });
  const sign = generateAgentCardSignature(privateKey, { alg: 'EdDSA', typ: 'JOSE', kid: 'remote-1', jku: `${serverUrl}/jwks.json` });
  served.set('/good.json', await sign(card('Signed Bot')));
  const tampered = await sign(card('Tampered Bot'));
  served.set('/bad.json', { ...tampered, description: 'changed after signing' });
  const add = (path) => fetch(`${base()}/remotes`, {
    method: 'POST', headers: { Authorization: `Bearer ${master}` }, body: JSON.stringify({ card_url: `${serverUrl}${path}` }),
  });
  const good = await add('/good.json');
  const goodBody = await good.json();
  assert.equal(good.status, 201, JSON.stringify(goodBody));
  assert.equal(goodBody.address, 'agent:signed-bot');
  const bad = await add('/bad.json');
  const badBody = await bad.json();
  assert.equal(bad.status, 502, JSON.stringify(badBody));
  assert.match(JSON.stringify(badBody), /verification_failed/);
  // A signature whose keys cannot be fetched does not verify either.
  served.set('/nokeys.json', await generateAgentCardSignature(privateKey, { alg: 'EdDSA', typ: 'JOSE', kid: 'remote-1', jku: `${serverUrl}/missing-jwks.json` })(card('Keyless Bot')));
  const keyless = await add('/nokeys.json');
  assert.equal(keyless.status, 502);
  assert.match(JSON.stringify(await keyless.json()), /verification_failed/);
  // ES256 (P-256), what most JOSE signers use: admitted when it verifies, refused when tampered.
  const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  served.set('/jwks-es256.json', { keys: [{ ...p256.publicKey.export({ format: 'jwk' }), kid: 'remote-es256', alg: 'ES256', use: 'sig' }] });
  const signEs256 = generateAgentCardSignature(p256.privateKey, { alg: 'ES256', typ: 'JOSE', kid: 'remote-es256', jku: `${serverUrl}/jwks-es256.json` });
  served.set('/es256.json', await signEs256(card('Curve Bot')));
  const es256 = await add('/es256.json');
  const es256Body = await es256.json();
  assert.equal(es256.status, 201, JSON.stringify(es256Body));
  assert.equal(es256Body.address, 'agent:curve-bot');
  served.set('/es256-bad.json', { ...(await signEs256(card('Bent Bot'))), description: 'changed after signing' });
  const es256Bad = await add('/es256-bad.json');
  assert.equal(es256Bad.status, 502);
  assert.match(JSON.stringify(await es256Bad.json()), /verification_failed/);
});
