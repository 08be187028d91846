// Discovery end to end against a real edge (wrangler dev): ACS
// documents checked with stable reasons and searchable by capability; the
// ANP `/.well-known/agent-descriptions` collection walked by a crawler
// following `next`; passive registration of a description served by a local
// host; and a discovery replica built only from the DRC feed (snapshot,
// changes, 204, long poll, 410 behind a small retention window) that ends
// equal to the registry, while a webhook subscriber gets every change with
// a valid signature, retried after a refused first attempt. Members of a
// public network who opted in are crawled too. Passive registration refuses
// other schemes, credentials, private hosts (only the test host, named in
// AGENTNET_DISCOVERY_ALLOW_HOSTS, is fetched), oversized and slow documents,
// and a caller past its submissions a minute.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Agent, KeyPair, register, revoke, publishCapabilities, discoverAgents } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { pace, until } from '../../support/waits.mjs';

/** Changes the registry's feed keeps in this test (small, to fall behind it). */
const RETENTION = 5;
const SECRET = 'webhook-secret-0123456789';
/** Descriptions one caller may submit a minute in this test. */
const PER_MINUTE = 20;

let edge;
let host;
const served = new Map();
const deliveries = [];
const refusedOnce = new Set();
/** Paths the test host was asked for. */
const fetched = [];

before(async () => {
  edge = await startEdge({
    vars: {
      AGENTNET_DRC_RETENTION: String(RETENTION),
      AGENTNET_DISCOVERY_ALLOW_HOSTS: 'localhost,127.0.0.1',
      AGENTNET_DESCRIPTIONS_PER_MINUTE: String(PER_MINUTE),
    },
  });
  host = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/hook') {
        const seq = req.headers['x-drc-seq'];
        // The first attempt of every delivery is refused: each arrives again from a retry.
        if (!refusedOnce.has(seq)) {
          refusedOnce.add(seq);
          res.writeHead(503).end();
          return;
        }
        deliveries.push({ signature: req.headers['x-drc-signature'], webhook: req.headers['x-drc-webhook-id'], body });
        res.writeHead(204).end();
        return;
      }
      fetched.push(req.url);
      if (req.url === '/slow/ad.json') {
        pace(8_000).then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
        return;
      }
      const doc = served.get(req.url);
      res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(doc ?? { error: 'no such document' }));
    });
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  host?.close();
  await edge?.stop();
});

const hostUrl = () => `http://localhost:${host.address().port}`;
const api = (path, init) => fetch(`${edge.url}${path}`, init);
const post = (path, body) => api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function acs(name, { skill, description = `${name} agent`, tags = [skill] }) {
  return {
    active: true, lastModifiedTime: '2026-01-01T00:00:00Z', protocolVersion: '01.00',
    name, description, version: '1.0.0',
    provider: { countryCode: 'CN', organization: 'Test Org', url: 'https://example.com', license: 'MIT' },
    securitySchemes: { oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' } },
    endPoints: [{ url: `https://agents.example.com/${name}/rpc`, transport: 'JSONRPC', security: [{ oidc: [] }] }],
    capabilities: { streaming: false, notification: true, messageQueue: [] },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: skill, name: skill, description: `does ${skill}`, version: '1.0', tags }],
  };
}

/** Every `@id` a crawler reaches from the well-known URL, following `next`. */
async function crawl(limit) {
  const seen = [];
  let url = `${edge.url}/.well-known/agent-descriptions?limit=${limit}`;
  for (let pages = 0; url; pages += 1) {
    assert.ok(pages < 100, 'the crawl ends');
    const page = await (await fetch(url)).json();
    assert.equal(page['@type'], 'CollectionPage');
    assert.ok(page.items.length <= limit);
    seen.push(...page.items.map((i) => i['@id']));
    url = page.next;
  }
  return seen;
}

/** Parses NDJSON lines. */
const lines = (text) => text.split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** A discovery replica built only from the feed. */
class Replica {
  objects = new Map();
  seq = '0';
  resnapshots = 0;

  apply(change) {
    const known = this.objects.get(change.id);
    if (!known || change.version > known.version) {
      if (change.op === 'delete') this.objects.delete(change.id);
      else this.objects.set(change.id, change);
    }
  }

  async snapshot() {
    this.objects.clear();
    let res = await api('/registry/v1/snapshot?types=acs&limit=3');
    const seq = res.headers.get('x-snapshot-seq');
    assert.match(res.headers.get('x-snapshot-id'), /^snap-/);
    for (;;) {
      assert.equal(res.status, 200);
      lines(await res.text()).forEach((c) => this.apply(c));
      const next = res.headers.get('x-snapshot-next');
      if (!next) break;
      res = await api(next);
    }
    this.seq = seq;
    this.resnapshots += 1;
  }

  /** Follows the changes until 204; re-snapshots on 410. */
  async catchUp() {
    for (;;) {
      const res = await api(`/registry/v1/changes?seq=${this.seq}&limit=2`);
      if (res.status === 410) {
        assert.equal((await res.json()).reason, 'behind_retention');
        await this.snapshot();
        continue;
      }
      if (res.status === 204) {
        assert.equal(res.headers.get('x-next-seq'), this.seq);
        return;
      }
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/x-ndjson');
      const changes = lines(await res.text());
      changes.forEach((c) => this.apply(c));
      assert.equal(res.headers.get('x-next-seq'), changes.at(-1).seq);
      this.seq = res.headers.get('x-next-seq');
    }
  }
}

const agents = new Map();

test('ACS documents are checked with stable reasons, published, served and searched', async () => {
  const hook = await post('/registry/v1/webhooks', { url: `${hostUrl()}/hook`, secret: SECRET, types: ['acs'], events: ['upsert', 'delete'] });
  assert.equal(hook.status, 201);
  const { webhook_id: webhookId, status } = await hook.json();
  assert.equal(status, 'active');
  agents.set('webhook', webhookId);
  const badHook = await post('/registry/v1/webhooks', { url: `${hostUrl()}/hook`, secret: 'short' });
  assert.equal((await badHook.json()).reason, 'invalid_webhook');

  const broken = acs('broken', { skill: 'x' });
  broken.endPoints[0].transport = 'GRPC';
  await assert.rejects(register({ url: edge.url, name: 'broken', key: KeyPair.generate(), acs: broken }),
    (err) => err.code === 'invalid_request' && err.reason === 'acs_invalid_value');
  const noSkills = acs('noskills', { skill: 'x' });
  delete noSkills.skills;
  await assert.rejects(register({ url: edge.url, name: 'noskills', key: KeyPair.generate(), acs: noSkills }),
    (err) => err.reason === 'acs_missing_field' && /skills/.test(err.message));

  for (const [name, opts] of [
    ['helper', { skill: 'chat', description: 'a friendly helper that can also do translation now and then' }],
    ['polyglot', { skill: 'translation', tags: ['translation', 'language'] }],
    ['weather', { skill: 'forecast', tags: ['weather'] }],
    ['router', { skill: 'route', tags: ['travel'] }],
  ]) {
    const key = KeyPair.generate();
    const record = await register({ url: edge.url, name, key, acs: acs(name, opts) });
    assert.equal(record.acs.aic, record.aic);
    agents.set(name, { key, aic: record.aic });
  }
  const found = await discoverAgents({ url: edge.url, q: 'translation' });
  assert.deepEqual(found.agents.map((a) => a.name), ['polyglot', 'helper']);
  assert.ok(found.agents[0].score > found.agents[1].score);
  assert.equal(found.agents[0].endpoints[0].url, 'https://agents.example.com/polyglot/rpc');
  const byTag = await discoverAgents({ url: edge.url, tags: ['travel'] });
  assert.deepEqual(byTag.agents.map((a) => a.name), ['router']);
  const levelTwo = await discoverAgents({ url: edge.url, q: 'forecast', verification: 2, transport: 'JSONRPC' });
  assert.deepEqual(levelTwo.agents.map((a) => a.name), ['weather']);

  // A new ACS, signed by the agent's key, replaces the old one and is searchable at once.
  const { key, aic } = agents.get('weather');
  await assert.rejects(publishCapabilities({ url: edge.url, name: 'weather', key: KeyPair.generate(), acs: acs('weather', { skill: 'storms' }) }),
    (err) => err.reason === 'bad_signature');
  await publishCapabilities({ url: edge.url, name: 'weather', key, acs: acs('weather', { skill: 'storms' }) });
  const document = await (await api(`/registry/v1/agents/${aic}/acs`)).json();
  assert.equal(document.skills[0].id, 'storms');
  assert.equal(document.aic, aic);
  assert.deepEqual((await discoverAgents({ url: edge.url, q: 'storms' })).agents.map((a) => a.name), ['weather']);
  const ad = await (await api(`/registry/v1/agents/${aic}/ad.json`)).json();
  assert.equal(ad.protocolType, 'ANP');
  assert.match(ad.did, /^did:wba:[^:]+:agents:weather$/);
  assert.equal(ad.securityDefinitions.didwba_sc.scheme, 'didwba');
  assert.ok(ad.interfaces.some((i) => i.url === 'https://agents.example.com/weather/rpc'));
});

test('a passively registered description is fetched, checked and listed; a crawler reaches every agent once', async () => {
  const key = KeyPair.generate();
  const port = host.address().port;
  const did = `did:wba:localhost%3A${port}:agents:outside`;
  served.set('/agents/outside/did.json', key.didDocument(did));
  served.set('/outside/ad.json', {
    protocolType: 'ANP', protocolVersion: '1.0.0', type: 'AgentDescription', url: `${hostUrl()}/outside/ad.json`,
    name: 'Outside Cartographer', did, description: 'draws maps of coastlines',
    owner: { type: 'Organization', name: 'Elsewhere', url: hostUrl() },
    securityDefinitions: { didwba_sc: { scheme: 'didwba', in: 'header', name: 'Authorization' } },
    security: 'didwba_sc', interfaces: [{ type: 'NaturalLanguageInterface', protocol: 'YAML', url: `${hostUrl()}/outside/api.yaml` }],
  });
  served.set('/unresolvable/ad.json', { protocolType: 'ANP', type: 'AgentDescription', name: 'Ghost', did: `did:wba:localhost%3A${port}:agents:ghost` });

  const missing = await post('/registry/v1/descriptions', { url: `${hostUrl()}/nothing.json` });
  assert.equal((await missing.json()).reason, 'invalid_description');
  const ghost = await post('/registry/v1/descriptions', { url: `${hostUrl()}/unresolvable/ad.json` });
  assert.equal(ghost.status, 400);
  assert.match((await ghost.json()).message, /DID does not resolve/);
  const listed = await post('/registry/v1/descriptions', { url: `${hostUrl()}/outside/ad.json` });
  assert.equal(listed.status, 201);
  assert.equal((await listed.json()).did, did);
  const maps = await discoverAgents({ url: edge.url, q: 'coastlines' });
  assert.deepEqual(maps.agents.map((a) => [a.name, a.kind, a.verification]), [['Outside Cartographer', 'submitted', 1]]);

  for (let i = 0; i < 7; i += 1) {
    await register({ url: edge.url, name: `crawled${i}`, key: KeyPair.generate() });
  }
  // A public network's member who opted in is a public agent too; one who did not is not.
  const team = await createNetwork(edge.url, { name: 'crawled team', public: true });
  const listedMember = await Agent.connect({ url: edge.url, network: team.id, name: 'agent:listed' });
  const quietMember = await Agent.connect({ url: edge.url, network: team.id, name: 'agent:quiet' });
  await listedMember.setProfile({ description: 'surveys coastlines', listed: true });
  await quietMember.setProfile({ description: 'surveys coastlines too' });
  const memberAd = `${edge.url}/registry/v1/networks/${team.id}/members/agent:listed/ad.json`;
  await until('the listed member described', async () => (await fetch(memberAd)).status === 200);
  listedMember.close();
  quietMember.close();
  const seen = await crawl(3);
  assert.equal(new Set(seen).size, seen.length, 'no agent twice');
  const aics = [...agents.values()].filter((a) => a.aic).map((a) => a.aic);
  for (const aic of aics) assert.ok(seen.includes(`${edge.url}/registry/v1/agents/${aic}/ad.json`), aic);
  assert.ok(seen.includes(`${hostUrl()}/outside/ad.json`));
  assert.ok(seen.includes(memberAd));
  assert.ok(!seen.some((u) => u.includes('agent:quiet')));
  assert.equal(seen.length, 4 + 7 + 1 + 1);
  assert.deepEqual(await crawl(1), seen, 'any page size reaches the same agents');
  for (const url of seen.filter((u) => u.startsWith(edge.url))) {
    assert.equal((await (await fetch(url)).json()).protocolType, 'ANP');
  }
});

test('a replica built only from the DRC feed converges through pages, 204, a long poll and a 410', async () => {
  const replica = new Replica();
  await replica.snapshot();
  await replica.catchUp();

  // A long poll returns as soon as a change arrives.
  const waiting = api(`/registry/v1/changes?seq=${replica.seq}&wait=10`);
  const started = Date.now();
  await pace(500); // the change comes while the long poll waits
  await register({ url: edge.url, name: 'latecomer', key: KeyPair.generate() });
  const woke = await waiting;
  assert.equal(woke.status, 200);
  assert.ok(Date.now() - started < 9_000);
  lines(await woke.text()).forEach((c) => replica.apply(c));
  replica.seq = woke.headers.get('x-next-seq');

  // The replica is dropped for longer than the retention window: 410, then a new snapshot.
  const before = replica.resnapshots;
  const helper = agents.get('helper');
  await revoke({ url: edge.url, name: 'helper', key: helper.key });
  for (let i = 0; i < RETENTION + 2; i += 1) {
    await register({ url: edge.url, name: `late${i}`, key: KeyPair.generate() });
  }
  await replica.catchUp();
  assert.equal(replica.resnapshots, before + 1, 'fell behind the window once');
  assert.ok(!replica.objects.has(helper.aic), 'the revoked agent is gone');

  // Equal to the registry: every live agent, at its latest version.
  const truth = new Replica();
  await truth.snapshot();
  assert.deepEqual([...replica.objects.keys()].sort(), [...truth.objects.keys()].sort());
  for (const [id, change] of truth.objects) assert.equal(replica.objects.get(id).version, change.version, id);
  assert.equal(replica.objects.size, 4 - 1 + 7 + 1 + RETENTION + 2);
});

test('webhook deliveries are signed with the secret and retried after a refusal', async () => {
  const last = Number((await api('/registry/v1/snapshot?limit=1')).headers.get('x-snapshot-seq'));
  await until('a delivery of every change', () => new Set(deliveries.map((d) => JSON.parse(d.body).seq)).size >= last, 60_000, 500)
    .catch(() => { /* the assertion below says which are missing */ });
  const seqs = [...new Set(deliveries.map((d) => Number(JSON.parse(d.body).seq)))].sort((a, b) => a - b);
  assert.deepEqual(seqs, Array.from({ length: last }, (_, i) => i + 1), 'every change, each after one refusal');
  for (const d of deliveries) {
    assert.equal(d.webhook, agents.get('webhook'));
    const { t, v1 } = Object.fromEntries(d.signature.split(',').map((p) => p.split('=')));
    const expected = createHmac('sha256', SECRET).update(`${t}.${d.body}`).digest('hex');
    assert.ok(timingSafeEqual(Buffer.from(v1), Buffer.from(expected)), 'signature checks');
    const forged = createHmac('sha256', 'another-secret-0000').update(`${t}.${d.body}`).digest('hex');
    assert.notEqual(v1, forged);
  }
  assert.ok(deliveries.some((d) => JSON.parse(d.body).op === 'delete'), 'the revocation was pushed');
  const gone = await api(`/registry/v1/webhooks/${agents.get('webhook')}`, { method: 'DELETE' });
  assert.equal(gone.status, 200);
});

test('passive registration refuses other schemes, credentials, private hosts, large and slow documents', async () => {
  const port = host.address().port;
  const refusal = async (url) => {
    const res = await post('/registry/v1/descriptions', { url });
    return [res.status, (await res.json()).reason];
  };
  const before = fetched.length;
  assert.deepEqual(await refusal('ftp://example.com/ad.json'), [400, 'url_scheme_refused']);
  assert.deepEqual(await refusal('file:///etc/passwd'), [400, 'url_scheme_refused']);
  assert.deepEqual(await refusal(`http://user:secret@localhost:${port}/outside/ad.json`), [400, 'url_credentials_refused']);
  for (const url of [
    `http://127.0.0.2:${port}/outside/ad.json`,
    `http://0x7f000002:${port}/outside/ad.json`, // 127.0.0.2, hex: only 127.0.0.1 is allowed here
    `http://[::1]:${port}/outside/ad.json`,
    'http://10.0.0.1/ad.json',
    'http://169.254.169.254/latest/meta-data',
  ]) {
    assert.deepEqual(await refusal(url), [400, 'url_private_address'], url);
  }
  assert.equal(fetched.length, before, 'nothing refused by its URL was fetched');

  served.set('/large/ad.json', { protocolType: 'ANP', type: 'AgentDescription', name: 'Large', padding: 'x'.repeat(100_000) });
  assert.deepEqual(await refusal(`${hostUrl()}/large/ad.json`), [502, 'description_too_large']);
  const started = Date.now();
  assert.deepEqual(await refusal(`${hostUrl()}/slow/ad.json`), [502, 'fetch_failed']);
  assert.ok(Date.now() - started < 7_500, 'the fetch was cut at its time limit');
  // A description whose DID names a private host: its DID document is not fetched.
  served.set('/inward/ad.json', { protocolType: 'ANP', type: 'AgentDescription', name: 'Inward', did: 'did:wba:intranet.internal:agents:x' });
  assert.deepEqual(await refusal(`${hostUrl()}/inward/ad.json`), [400, 'url_private_address']);
  // The edge is fine: a good description is still listed.
  assert.equal((await discoverAgents({ url: edge.url, q: 'coastlines' })).agents[0].name, 'Outside Cartographer');
});

test('a caller past its submissions a minute is refused with rate_limited and a retry-after', async () => {
  let limited;
  for (let i = 0; i <= PER_MINUTE && !limited; i += 1) {
    const res = await post('/registry/v1/descriptions', { url: `${hostUrl()}/nothing-${i}.json` });
    if (res.status === 429) limited = res;
    else assert.equal((await res.json()).reason, 'invalid_description');
  }
  assert.ok(limited, `refused within ${PER_MINUTE + 1} submissions`);
  const body = await limited.json();
  assert.equal(body.code, 'rate_limited');
  assert.equal(body.reason, 'rate_limited');
  const retryAfter = Number(limited.headers.get('retry-after'));
  assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`);
  const asked = fetched.length;
  const again = await post('/registry/v1/descriptions', { url: `${hostUrl()}/outside/ad.json` });
  assert.equal(again.status, 429);
  assert.equal(fetched.length, asked, 'a limited submission fetches nothing');
  // Other routes of the registry still answer.
  assert.equal((await api('/.well-known/agent-descriptions?limit=1')).status, 200);
});
