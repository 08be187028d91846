// ANP's official Python SDK (`anp` from PyPI, pinned in scripts/lib.sh) as the
// client of a real edge (wrangler dev), in its default modes only:
//
// * ANP 1.2 DID authentication: `ANPClient` signs every request with HTTP
//   Message Signatures (RFC 9421) under a did:wba of the SDK's default `e1`
//   profile; the network takes the signature as a level-3 DID proof on the
//   HTTP binding (a did-verify network lets nobody else in), a replayed or
//   altered request is refused with the challenge. The answer hands over the
//   access token in `Authentication-Info` (ANP-02 §3.2.3), which the SDK
//   caches and sends as its bearer on the next request; an `e1_` DID whose
//   document's Data Integrity proof does not verify is refused.
// * OpenRPC: `ANPCrawler` reads a listed member's agent description, finds
//   the member's tool as an OpenRPC method, and calls it at the network's
//   JSON-RPC endpoint as the signing DID — through the network's
//   permissions, so a tool only its owner may invoke is refused.
//
// The DID documents are served by a local HTTP server; the SDK runs from the
// virtual environment scripts/lib.sh's setup_anp_python makes (ANP_PYTHON).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { call } from '../../support/http.mjs';
import { startDidServer } from '../../support/did-server.mjs';
import { runCommand, until } from '../../support/process.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const client = join(root, 'tests', 'support', 'anp_client.py');
let python;
let edge;
let didServer;
let dir;
let network;
let planner;

/** The SDK's Python, from ANP_PYTHON or made now by scripts/lib.sh (idempotent). */
async function anpPython() {
  if (process.env.ANP_PYTHON) return process.env.ANP_PYTHON;
  const made = await runCommand('bash', ['-c', `source "${root}/scripts/lib.sh" >/dev/null && setup_anp_python >&2 && printf %s "$ANP_PYTHON"`], { timeoutMs: 600_000 });
  assert.equal(made.code, 0, made.stderr);
  return made.stdout.trim();
}

/** Runs the SDK client (tests/support/anp_client.py); resolves with its JSON answer. */
async function sdk(...args) {
  const ran = await runCommand(python, [client, ...args], { timeoutMs: 60_000 });
  assert.equal(ran.code, 0, `${args[0]}: ${ran.stderr}`);
  return JSON.parse(ran.stdout.trim().split('\n').pop());
}

/** A did:wba the SDK makes (its default e1 profile), served by the document server. */
async function sdkDid(name) {
  const home = join(dir, name);
  const made = await sdk('create', home, 'localhost', String(didServer.port), name);
  didServer.documents.set(made.path, made.document);
  return { ...made, home };
}

before(async () => {
  python = await anpPython();
  dir = mkdtempSync(join(tmpdir(), 'anp-sdk-'));
  edge = await startEdge({ allowLocalFetches: true });
  didServer = await startDidServer();
  const created = await createNetwork(edge.url, { name: 'anp-sdk', public: true, access: { policy: 'did-verify' } });
  network = created.id;
  const { did, key } = didServer.localDid('planner');
  planner = await Agent.connect({ url: edge.url, network, name: 'agent:planner', did, key, WebSocket });
  await planner.registerTool('plan', { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    ({ to }, event) => ({ plan: `three days in ${to}`, for: event.source }), { description: 'plans a trip' });
  await planner.registerTool('ledger', { type: 'object', properties: {} }, () => 'secret',
    { description: 'the books', permissions: { invoke: 'owner' } });
  await planner.setProfile({ description: 'plans trips', meta: { name: 'Planner' }, listed: true });
});

after(async () => {
  planner?.close();
  await didServer?.close();
  await edge?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the SDK's default client signs with HTTP Message Signatures and joins as its DID at level 3", async () => {
  const ana = await sdkDid('ana');
  assert.match(ana.did, /:agents:ana:e1_[A-Za-z0-9_-]{43}$/);
  const heard = new Promise((resolve) => planner.on('chat.msg', (event) => event.source === 'agent:ana' && resolve(event)));
  const chat = JSON.stringify({ type: 'chat.msg', target: 'agent:planner', payload: { text: 'hello from the ANP SDK' } });
  const sent = await sdk('request', ana.home, 'POST', `${edge.url}/networks/${network}/v1/events`, chat);
  assert.equal(sent.status, 200, sent.text);
  assert.equal((await heard).payload.text, 'hello from the ANP SDK');
  const discovered = await sdk('request', ana.home, 'GET', `${edge.url}/networks/${network}/v1/discover`);
  assert.equal(discovered.status, 200, discovered.text);
  const me = JSON.parse(discovered.text).agents.find((a) => a.address === 'agent:ana');
  assert.deepEqual([me?.verification, me?.did], [3, ana.did]);
  // Without a proof the did-verify network lets nobody in.
  const plain = await call(edge.url, 'POST', `/networks/${network}/v1/join`, { body: { agent_id: 'agent:plain' } });
  assert.equal(plain.status, 403);
});

test('a signed request is single use and covers its body', async () => {
  const bo = await sdkDid('bo');
  // The SDK's own signer, replayed and altered by hand (aiohttp would sign afresh).
  const signed = await sdk('request', bo.home, 'GET', `${edge.url}/networks/${network}/v1/discover`);
  assert.equal(signed.status, 200);
  const headers = await signedHeaders(bo, 'POST', `${edge.url}/networks/${network}/v1/events`, '{"type":"chat.msg","target":"agent:planner","payload":{"text":"a"}}');
  const first = await fetch(`${edge.url}/networks/${network}/v1/events`, { method: 'POST', headers, body: '{"type":"chat.msg","target":"agent:planner","payload":{"text":"a"}}' });
  assert.equal(first.status, 200, await first.clone().text());
  const replayed = await fetch(`${edge.url}/networks/${network}/v1/events`, { method: 'POST', headers, body: '{"type":"chat.msg","target":"agent:planner","payload":{"text":"a"}}' });
  assert.equal(replayed.status, 401);
  assert.match(replayed.headers.get('www-authenticate'), /^DIDWba error="invalid_nonce"/);
  assert.match(replayed.headers.get('accept-signature'), /"@method" "@target-uri" "@authority" "content-digest"/);
  const again = await signedHeaders(bo, 'POST', `${edge.url}/networks/${network}/v1/events`, '{"type":"chat.msg","target":"agent:planner","payload":{"text":"b"}}');
  const altered = await fetch(`${edge.url}/networks/${network}/v1/events`, { method: 'POST', headers: again, body: '{"type":"chat.msg","target":"agent:planner","payload":{"text":"c"}}' });
  assert.equal(altered.status, 401);
});

/** The headers the SDK's `DIDWbaAuthHeader` (default mode) makes for one request. */
async function signedHeaders(who, method, url, body) {
  const script = `
import json, sys
from anp.authentication import DIDWbaAuthHeader
auth = DIDWbaAuthHeader(sys.argv[1], sys.argv[2])
print(json.dumps(auth.get_auth_header(sys.argv[3], method=sys.argv[4], body=sys.argv[5].encode())))`;
  const ran = await runCommand(python, ['-c', script, join(who.home, 'did.json'), join(who.home, 'key-1.pem'), url, method, body]);
  assert.equal(ran.code, 0, ran.stderr);
  return { 'content-type': 'application/json', ...JSON.parse(ran.stdout) };
}

test("the SDK's crawler finds a listed member's tools over OpenRPC and calls one as its DID", async () => {
  const cleo = await sdkDid('cleo');
  const ad = `${edge.url}/registry/v1/networks/${network}/members/agent:planner/ad.json`;
  await until('the planner is listed with its tools', async () => {
    const res = await fetch(ad);
    return res.status === 200 && (await res.json()).interfaces.some((i) => i.protocol === 'openrpc');
  });
  const crawled = await sdk('crawl', cleo.home, ad, 'plan', JSON.stringify({ to: 'Lisbon' }));
  assert.deepEqual(crawled.tools.sort(), ['ledger', 'plan']);
  assert.equal(crawled.result.success, true, JSON.stringify(crawled));
  assert.deepEqual(crawled.result.result, { plan: 'three days in Lisbon', for: 'agent:cleo' });
  // The network's permissions hold: only its owner may invoke the ledger.
  const refused = await sdk('crawl', cleo.home, ad, 'ledger', '{}');
  assert.equal(refused.result.success, false);
  assert.match(refused.result.error, /-32000/);
  // The caller joined as its DID.
  const roster = await sdk('request', cleo.home, 'GET', `${edge.url}/networks/${network}/v1/discover`);
  const me = JSON.parse(roster.text).agents.find((a) => a.address === 'agent:cleo');
  assert.deepEqual([me?.verification, me?.did], [3, cleo.did]);
});

/** `access_token="…", token_type="Bearer", expires_in=N` read into an object. */
function authenticationInfo(value) {
  return Object.fromEntries([...(value ?? '').matchAll(/(\w+)=("[^"]*"|[^,\s]+)/g)].map(([, k, v]) => [k, v.replace(/^"|"$/g, '')]));
}

test('the answer carries the access token in Authentication-Info; the SDK caches it and sends it as its bearer', async () => {
  const dee = await sdkDid('dee');
  const url = `${edge.url}/networks/${network}/v1/discover`;
  // Raw: the headers a signed request is answered with.
  const res = await fetch(url, { headers: await signedHeaders(dee, 'GET', url, '') });
  assert.equal(res.status, 200, await res.clone().text());
  const info = authenticationInfo(res.headers.get('authentication-info'));
  assert.match(info.access_token ?? '', /^[0-9a-f]{32,}$/, res.headers.get('authentication-info'));
  assert.equal(info.token_type, 'Bearer');
  assert.ok(Number(info.expires_in) > 0, JSON.stringify(info));
  assert.equal(res.headers.get('authorization'), `Bearer ${info.access_token}`);
  // The SDK's client: signs the first request, caches the token from the answer, reuses it.
  const ran = await sdk('session', dee.home, url);
  assert.deepEqual(ran.statuses, [200, 200], JSON.stringify(ran));
  assert.equal(ran.sent[0], 'signature');
  const token = authenticationInfo(ran.info[0]).access_token;
  assert.ok(token, JSON.stringify(ran));
  assert.deepEqual(ran.cached, [token]);
  assert.equal(ran.sent[1], `Bearer ${token}`);
  // The bearer is the DID's session: the second answer is the roster as agent:dee.
  const again = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(again.status, 200);
  const me = (await again.json()).agents.find((a) => a.address === 'agent:dee');
  assert.deepEqual([me?.verification, me?.did], [3, dee.did]);
});

test("an e1_ DID whose document's Data Integrity proof does not verify is refused", async () => {
  const eve = await sdkDid('eve');
  // The document host adds a service after the SDK signed the document.
  const served = didServer.documents.get(eve.path);
  didServer.documents.set(eve.path, { ...served, service: [{ id: `${eve.did}#ad`, type: 'AgentDescription', serviceEndpoint: 'https://evil.example/ad.json' }] });
  const url = `${edge.url}/networks/${network}/v1/discover`;
  const refused = await fetch(url, { headers: await signedHeaders(eve, 'GET', url, '') });
  assert.equal(refused.status, 401, await refused.clone().text());
  assert.match(refused.headers.get('www-authenticate'), /^DIDWba error="invalid_document_proof"/);
  // Without its proof, no better.
  const fio = await sdkDid('fio');
  const { proof: fioProof, ...fioBare } = didServer.documents.get(fio.path);
  assert.equal(fioProof?.cryptosuite, 'eddsa-jcs-2022', 'the SDK signs an e1 document');
  didServer.documents.set(fio.path, fioBare);
  const unproved = await fetch(url, { headers: await signedHeaders(fio, 'GET', url, '') });
  assert.equal(unproved.status, 401);
  assert.match(unproved.headers.get('www-authenticate'), /^DIDWba error="invalid_document_proof"/);
  // The SDK's own client is refused too.
  const sdkRefused = await sdk('request', fio.home, 'GET', url);
  assert.equal(sdkRefused.status, 401);
});
