// Discovery inside networks against a real edge (wrangler dev):
// a member asks its network `network.discovery.query` (npm
// `agent.discoverAgents`) and gets the network's own members and the
// registry's agents ranked together; members of public networks who opted in
// (`profile.listed`) appear in `/.well-known/agent-descriptions`, the
// network's own collection and the registry's capability search, each with
// an ANP description of the network's real endpoints; they leave it when they
// opt out, leave the network, or when an admin makes the network private — which also
// takes it out of `GET /v1/networks`, and making one public lists it.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, KeyPair, register, discoverAgents } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { call } from '../../support/http.mjs';
import { until } from '../../support/process.mjs';

const edge = edgeForFile();

const json = async (path) => (await fetch(`${edge.url}${path}`)).json();

const translator = {
  description: 'helps with contracts',
  meta: { skills: [{ id: 'translation', name: 'Translation', description: 'German legal text into English', tags: ['german', 'legal'] }] },
};

function acs(name, skill) {
  return {
    active: true, lastModifiedTime: '2026-01-01T00:00:00Z', protocolVersion: '01.00',
    name, description: `${name} agent`, version: '1.0.0',
    provider: { organization: 'Test Org', url: 'https://example.com', license: 'MIT' },
    securitySchemes: { oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' } },
    endPoints: [{ url: `https://agents.example.com/${name}/rpc`, transport: 'JSONRPC', security: [{ oidc: [] }] }],
    capabilities: { streaming: false, notification: false, messageQueue: [] },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: skill, name: skill, description: `does ${skill}`, version: '1.0', tags: [skill] }],
  };
}

/** Every `@id` a crawler reaches from `path`, following `next`. */
async function crawl(path, limit) {
  const seen = [];
  let url = `${edge.url}${path}?limit=${limit}`;
  for (let pages = 0; url; pages += 1) {
    assert.ok(pages < 100, 'the crawl ends');
    const page = await (await fetch(url)).json();
    assert.equal(page['@type'], 'CollectionPage');
    seen.push(...page.items.map((i) => i['@id']));
    url = page.next;
  }
  return seen;
}

/** A network and its master's HTTP admin calls. */
async function network(body) {
  const created = await createNetwork(edge.url, { name: 'discovery', ...body });
  const joined = await call(edge.url, 'POST', `/networks/${created.id}/v1/join`, {
    body: { agent_id: 'human:boss', credentials: { admin_token: created.admin_token } },
  });
  assert.equal(joined.status, 200, JSON.stringify(joined.json));
  const admin = (settings) => call(edge.url, 'POST', `/networks/${created.id}/v1/admin/settings`, { body: settings, token: joined.json.token });
  return { id: created.id, admin };
}

const memberAd = (id, address) => `${edge.url}/registry/v1/networks/${id}/members/${address}/ad.json`;
const listedNetworks = async () => (await json('/v1/networks?limit=500')).networks.map((n) => n.id);

test('a member asks its network and gets members and registered agents ranked together', async () => {
  await register({ url: edge.url, name: 'polyglot', key: KeyPair.generate(), acs: acs('polyglot', 'translation') });
  const { id } = await network({ public: true });
  const alice = await Agent.connect({ url: edge.url, network: id, name: 'agent:alice' });
  const carol = await Agent.connect({ url: edge.url, network: id, name: 'agent:carol' });
  const bob = await Agent.connect({ url: edge.url, network: id, name: 'agent:bob' });
  try {
    await alice.setProfile({ ...translator, listed: true });
    await carol.setProfile({ description: 'cooks pasta, sometimes translation of menus' });

    const found = await bob.discoverAgents({ q: 'translation' });
    assert.equal(found.registry, 'ok');
    // alice and polyglot have the skill (10 each; the tie goes to the name), carol mentions it (1).
    assert.deepEqual(found.agents.map((a) => [a.kind, a.name, a.score]), [
      ['member', 'alice', 10],
      ['registered', 'polyglot', 10],
      ['member', 'carol', 1],
    ]);
    assert.equal(found.agents[0].address, 'agent:alice');
    assert.ok(found.from_network >= 2 && found.from_registry >= 1, JSON.stringify(found));
    const wsUrl = `${edge.url.replace(/^http/, 'ws')}/networks/${id}/v1/ws`;
    assert.equal(found.agents[0].endpoints[0].url, wsUrl);

    // Filters are the registry route's: tags, and a network none of the members is in.
    const byTag = await bob.discoverAgents({ tags: ['legal'] });
    assert.deepEqual(byTag.agents.map((a) => a.name), ['alice']);
    const elsewhere = await bob.discoverAgents({ q: 'translation', network: 'elsewhere' });
    assert.ok(!elsewhere.agents.some((a) => a.kind === 'member'));
    const one = await bob.discoverAgents({ q: 'translation', limit: 1 });
    assert.equal(one.agents.length, 1);

    // A bad query is refused with a stable code, and the connection goes on.
    await assert.rejects(bob.discoverAgents({ limit: 0 }), (err) => err.code === 'invalid_request');
    await assert.rejects(bob.discoverAgents({ tags: [1] }), (err) => err.code === 'invalid_request');
    assert.equal((await bob.discoverAgents({ q: 'pasta' })).agents[0].name, 'carol');
  } finally {
    for (const agent of [alice, carol, bob]) agent.close();
  }
});

test('listed members of public networks are described, crawled once, searchable, and unlisted when they opt out', async () => {
  const open = await network({ public: true });
  const closed = await network({ public: false });
  const dana = await Agent.connect({ url: edge.url, network: open.id, name: 'agent:dana' });
  const erin = await Agent.connect({ url: edge.url, network: open.id, name: 'agent:erin' });
  const hidden = await Agent.connect({ url: edge.url, network: closed.id, name: 'agent:hidden' });
  try {
    await dana.setProfile({ ...translator, meta: { ...translator.meta, name: 'Dana' }, listed: true });
    await erin.setProfile({ description: 'not listed', meta: translator.meta });
    await hidden.setProfile({ ...translator, listed: true });
    for (let i = 0; i < 5; i += 1) await register({ url: edge.url, name: `crawl${i}`, key: KeyPair.generate() });

    const danaAd = memberAd(open.id, 'agent:dana');
    const perNetwork = `/networks/${open.id}/.well-known/agent-descriptions`;
    await until('dana in her network\'s collection', async () => (await crawl(perNetwork, 10)).includes(danaAd));
    assert.deepEqual(await crawl(perNetwork, 1), [danaAd], 'erin did not opt in');
    assert.deepEqual(await crawl(`/networks/${closed.id}/.well-known/agent-descriptions`, 10), [], 'a private network lists nobody');

    // A crawler of the deployment's collection reaches every public agent exactly once.
    for (const limit of [1, 3, 500]) {
      const seen = await crawl('/.well-known/agent-descriptions', limit);
      assert.equal(new Set(seen).size, seen.length, `no agent twice (limit ${limit})`);
      assert.ok(seen.includes(danaAd));
      assert.ok(!seen.some((u) => u.includes('agent:erin') || u.includes('agent:hidden')));
      assert.equal(seen.length, (await crawl('/.well-known/agent-descriptions', 500)).length);
    }
    const ad = await json(`/registry/v1/networks/${open.id}/members/agent:dana/ad.json`);
    assert.equal(ad.protocolType, 'ANP');
    assert.equal(ad.name, 'Dana');
    assert.equal(ad.url, danaAd);
    assert.equal(ad.securityDefinitions.didwba_sc.scheme, 'didwba');
    const urls = ad.interfaces.map((i) => i.url);
    assert.ok(urls.includes(`${edge.url.replace(/^http/, 'ws')}/networks/${open.id}/v1/ws`));
    assert.ok(urls.includes(`${edge.url}/networks/${open.id}/mcp`));
    // The endpoints are real: the network's HTTP profile answers.
    assert.equal((await fetch(`${edge.url}/networks/${open.id}/v1/profile`)).status, 200);

    const search = await discoverAgents({ url: edge.url, q: 'translation', tags: ['german'] });
    const member = search.agents.find((a) => a.kind === 'member');
    assert.equal(member?.address, 'agent:dana', JSON.stringify(search.agents));
    assert.equal(member.description_url, danaAd);
    assert.deepEqual((await discoverAgents({ url: edge.url, network: open.id })).agents.map((a) => a.name), ['Dana']);

    // Opting out takes her out of the collection and the search.
    await dana.setProfile({ ...translator, listed: false });
    await until('dana unlisted', async () => !(await crawl('/.well-known/agent-descriptions', 500)).includes(danaAd));
    assert.equal((await fetch(danaAd)).status, 404);
    assert.ok(!(await discoverAgents({ url: edge.url, q: 'german' })).agents.some((a) => a.address === 'agent:dana'));
    // Opting in again lists her again.
    await dana.setProfile({ ...translator, listed: true });
    await until('dana listed again', async () => (await fetch(danaAd)).status === 200);
    // Leaving the network leaves its listing too.
    await dana.leave();
    await until('dana unlisted after leaving', async () => (await fetch(danaAd)).status === 404);
    assert.ok(!(await crawl(perNetwork, 10)).includes(danaAd));
  } finally {
    for (const agent of [dana, erin, hidden]) agent.close();
  }
});

test('an admin changing `public` updates the network directory and the agent descriptions', async () => {
  const team = await network({ public: false });
  const frank = await Agent.connect({ url: edge.url, network: team.id, name: 'agent:frank' });
  try {
    await frank.setProfile({ description: 'maps coastlines', listed: true });
    const frankAd = memberAd(team.id, 'agent:frank');
    assert.ok(!(await listedNetworks()).includes(team.id));
    assert.equal((await fetch(frankAd)).status, 404);

    assert.equal((await team.admin({ public: true, name: 'Team Maps' })).status, 200);
    await until('the network listed', async () => (await listedNetworks()).includes(team.id));
    const listing = (await json('/v1/networks?limit=500')).networks.find((n) => n.id === team.id);
    assert.equal(listing.name, 'Team Maps');
    await until('frank described', async () => (await fetch(frankAd)).status === 200);
    assert.ok((await crawl('/.well-known/agent-descriptions', 2)).includes(frankAd));

    assert.equal((await team.admin({ public: false })).status, 200);
    await until('the network unlisted', async () => !(await listedNetworks()).includes(team.id));
    await until('frank no longer described', async () => (await fetch(frankAd)).status === 404);
    assert.ok(!(await crawl('/.well-known/agent-descriptions', 500)).includes(frankAd));
    assert.ok(!(await discoverAgents({ url: edge.url, q: 'coastlines' })).agents.some((a) => a.kind === 'member'));
    // The one who asks is never among the answers.
    assert.equal((await frank.discoverAgents({ q: 'coastlines' })).agents.length, 0);
  } finally {
    frank.close();
  }
});
