// Identity end to end against a real edge (wrangler dev): the
// registry issues an AIC, DIDs and a JWT; a `min_verification: 2` network
// admits the JWT; a `did-verify` network admits did:wba (document served by a
// local HTTP server) and did:openagents proofs at level 3; a rotated key and a
// revoked agent are refused at their next join once the network's short cache
// of the registry's answers has passed.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, KeyPair, register, requestToken, rotateKey, revoke, resolveDid } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { launchBrowser, openWorkspace } from '../../support/browser.mjs';
import { runNode } from '../../support/process.mjs';
import { fileURLToPath } from 'node:url';
import { waitOut } from '../../support/waits.mjs';
import { startDidServer } from '../../support/did-server.mjs';

const cli = fileURLToPath(new URL('../../../core/js/bin/agentnet-sdk.js', import.meta.url));

/** The networks' cache of JWKS and DID documents (core `IDENTITY_TTL_MS`), plus a margin. */
const CACHE_MS = 10_000 + 1_000;

let edge;
let browser;
let didServer;

before(async () => {
  edge = await startEdge({ allowLocalFetches: true });
  browser = await launchBrowser();
  didServer = await startDidServer();
});

after(async () => {
  await didServer?.close();
  await browser?.close();
  await edge?.stop();
});

const refusal = async (promise) => {
  try {
    const agent = await promise;
    agent.close();
  } catch (err) {
    return err.code;
  }
  return 'joined';
};

test('register, get an AIC and a JWT, and join a min_verification 2 network', async () => {
  const key = KeyPair.generate();
  // An ACS must be complete (docs/discovery.md): an incomplete one is refused with its reason.
  await assert.rejects(register({ url: edge.url, name: 'alice', key, acs: { name: 'Alice', protocolVersion: '01.00' } }),
    (err) => err.code === 'invalid_request' && err.reason === 'acs_missing_field');
  const acs = {
    active: true, lastModifiedTime: '2026-01-01T00:00:00Z', protocolVersion: '01.00', name: 'Alice', description: 'Alice', version: '1',
    provider: { organization: 'Org', url: 'https://example.com', license: 'MIT' }, securitySchemes: {}, endPoints: [],
    capabilities: { streaming: false, notification: false, messageQueue: [] }, defaultInputModes: [], defaultOutputModes: [], skills: [],
  };
  const record = await register({ url: edge.url, name: 'alice', key, acs });
  assert.equal(record.acs.aic, record.aic);
  assert.match(record.aic, /^10001[0-9A-Z]{25}[0-9]{2}$/);
  assert.equal(record.did, 'did:openagents:alice');
  assert.equal(record.address, 'openagents:alice');
  await assert.rejects(register({ url: edge.url, name: 'alice', key: KeyPair.generate() }), (err) => err.code === 'already_exists');

  const jwks = await (await fetch(`${edge.url}/.well-known/jwks.json`)).json();
  assert.equal(jwks.keys[0].alg, 'EdDSA');
  const doc = await resolveDid({ did: 'did:openagents:alice', url: edge.url });
  assert.equal(doc.id, 'did:openagents:alice');
  assert.equal(doc.service[0].type, 'OpenAgentsNetwork');

  const { id: network } = await createNetwork(edge.url, {
    name: 'level two', access: { policy: 'open', min_verification: 2, trusted_issuers: [edge.url] },
  });
  const { access_token: jwt } = await requestToken({ url: edge.url, name: 'alice', key, audience: network });
  const alice = await Agent.connect({ url: edge.url, network, name: 'openagents:alice', jwt });
  try {
    const roster = await alice.discover();
    const me = roster.agents.find((a) => a.address === 'openagents:alice');
    assert.equal(me.verification, 2);
    assert.equal(me.did, 'did:openagents:alice');
    assert.equal(await refusal(Agent.connect({ url: edge.url, network, name: 'agent:anon', reconnect: false })), 'access_denied');
    // A token for another network does not open this one.
    const { access_token: other } = await requestToken({ url: edge.url, name: 'alice', key, audience: 'elsewhere' });
    assert.equal(await refusal(Agent.connect({ url: edge.url, network, name: 'openagents:alice', jwt: other, reconnect: false })), 'verification_failed');
  } finally {
    alice.close();
  }
});

test('did-verify admits did:wba and did:openagents proofs at level 3; rotated and revoked keys are refused', async () => {
  const { id: network } = await createNetwork(edge.url, { name: 'dids', access: { policy: 'did-verify' } });
  const port = didServer.port;
  const carolKey = KeyPair.generate();
  const carolDid = `did:wba:localhost%3A${port}:agents:carol`;
  didServer.documents.set('/agents/carol/did.json', carolKey.didDocument(carolDid));
  const carol = await Agent.connect({ url: edge.url, network, name: 'agent:carol', key: carolKey, did: carolDid });
  const bobKey = KeyPair.generate();
  await register({ url: edge.url, name: 'bob', key: bobKey });
  const bob = await Agent.connect({ url: edge.url, network, name: 'openagents:bob', key: bobKey, did: 'did:openagents:bob' });
  try {
    const roster = await carol.discover();
    const levels = Object.fromEntries(roster.agents.map((a) => [a.address, [a.verification, a.did]]));
    assert.deepEqual(levels['agent:carol'], [3, carolDid]);
    assert.deepEqual(levels['openagents:bob'], [3, 'did:openagents:bob']);
  } finally {
    carol.close();
    bob.close();
  }
  // A key the document does not list, and a plain join, are refused.
  const stranger = KeyPair.generate();
  assert.equal(await refusal(Agent.connect({ url: edge.url, network, name: 'agent:carol2', key: stranger, did: carolDid, reconnect: false })), 'verification_failed');
  assert.equal(await refusal(Agent.connect({ url: edge.url, network, name: 'agent:plain', reconnect: false })), 'access_denied');

  // Bob rotates his key; dave registers and is revoked.
  const bobNew = KeyPair.generate();
  await rotateKey({ url: edge.url, name: 'bob', key: bobKey, newKey: bobNew });
  await assert.rejects(rotateKey({ url: edge.url, name: 'bob', key: bobKey, newKey: KeyPair.generate() }), (err) => err.reason === 'bad_signature');
  const daveKey = KeyPair.generate();
  await register({ url: edge.url, name: 'dave', key: daveKey });
  const { id: tokenNet } = await createNetwork(edge.url, {
    name: 'tokens', access: { policy: 'open', min_verification: 2, trusted_issuers: [edge.url] },
  });
  const { access_token: daveJwt } = await requestToken({ url: edge.url, name: 'dave', key: daveKey, audience: tokenNet });
  const dave = await Agent.connect({ url: edge.url, network: tokenNet, name: 'openagents:dave', jwt: daveJwt });
  dave.close();
  await revoke({ url: edge.url, name: 'dave', key: daveKey });
  await waitOut(CACHE_MS, 'the edge\'s cache of keys and revocations');

  assert.equal(await refusal(Agent.connect({ url: edge.url, network, name: 'openagents:bob', key: bobKey, did: 'did:openagents:bob', reconnect: false })), 'verification_failed');
  const again = await Agent.connect({ url: edge.url, network, name: 'openagents:bob', key: bobNew, did: 'did:openagents:bob' });
  again.close();
  // Dave's token has not expired, but dave is revoked: refused at his next join.
  assert.equal(await refusal(Agent.connect({ url: edge.url, network: tokenNet, name: 'openagents:dave', jwt: daveJwt, reconnect: false })), 'verification_failed');
  const gone = await fetch(`${edge.url}/agents/dave/did.json`);
  assert.equal(gone.status, 410);
});

test('the web people panel shows each member\'s level and DID', async () => {
  const port = didServer.port;
  const key = KeyPair.generate();
  const did = `did:wba:localhost%3A${port}:agents:web-visitor`;
  didServer.documents.set('/agents/web-visitor/did.json', key.didDocument(did));
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const visitor = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:web-visitor', key, did });
  try {
    await openWorkspace(page, edge.url);
    const people = page.getByRole('complementary', { name: 'People' });
    const row = people.locator('.person[data-address="agent:web-visitor"][data-verification="3"]');
    await row.waitFor({ timeout: 10_000 });
    assert.equal((await row.locator('.badge.verified').textContent()).trim(), '✓ verified');
    assert.equal(await row.locator('.badge.verified').getAttribute('title'), 'DID (verification level 3)');
    assert.equal((await row.locator('.did').textContent()).trim(), did);
    const me = (await page.locator('.me').getAttribute('data-address')).trim();
    const mine = people.locator(`.person[data-address="${me}"]`);
    assert.equal(await mine.locator('.badge.verified').count(), 0, 'no badge, and no "unverified", on an unverified member');
    assert.equal(await mine.getAttribute('data-me'), 'true');
    assert.equal((await mine.locator('.badge.you').textContent()).trim(), 'you');
    assert.equal(await mine.locator('.did').count(), 0);
  } finally {
    visitor.close();
    await page.close();
  }
});

test('the CLI registers an agent (AIC and DIDs) and resolves its DID document', async () => {
  const registered = await runNode([cli, 'register', 'cli-agent', '--url', edge.url]);
  assert.equal(registered.code, 0, registered.stderr);
  const record = JSON.parse(registered.stdout);
  assert.match(record.aic, /^1[0-9A-Z]{29}[0-9]{2}$/);
  assert.equal(record.did, 'did:openagents:cli-agent');
  assert.match(record.did_wba, /^did:wba:.+:agents:cli-agent$/);
  assert.equal(KeyPair.import(record.secret_key).publicKey, record.public_key);
  const resolved = await runNode([cli, 'did', 'resolve', record.did, '--url', edge.url]);
  assert.equal(resolved.code, 0, resolved.stderr);
  const doc = JSON.parse(resolved.stdout);
  assert.equal(doc.id, 'did:openagents:cli-agent');
  assert.equal(doc.verificationMethod[0].publicKeyMultibase, KeyPair.import(record.secret_key).didDocument(record.did).verificationMethod[0].publicKeyMultibase);
  const again = await runNode([cli, 'register', 'cli-agent', '--url', edge.url]);
  assert.notEqual(again.code, 0);
});
