// Creating networks and the directory, tried as a spammer
// would — many creations from one address, many public listings, probing ids
// no network has — and what a real user still gets: a creation answered with
// its retry time, every public network reachable through the pages, and no
// storage spent on ids nobody created.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { edgeForFile } from '../../support/edge.mjs';

const edge = edgeForFile({ creationsPerHour: 5, listingsPerCreator: 2 });

const create = (body) => fetch(`${edge.url}/v1/networks`, {
  method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
});

async function allListed(limit) {
  const ids = [];
  let next = null;
  let pages = 0;
  do {
    const query = new URLSearchParams({ limit: String(limit), ...(next ? { before: next } : {}) });
    const res = await fetch(`${edge.url}/v1/networks?${query}`);
    assert.equal(res.status, 200);
    const page = await res.json();
    assert.ok(page.networks.length <= limit);
    ids.push(...page.networks.map((n) => n.id));
    next = page.next;
    pages += 1;
  } while (next && pages < 50);
  return { ids, pages };
}

/**
 * The network objects whose SQLite files (database and write-ahead log) hold
 * agentnet's tables: the schema's text is stored in the files, so a raw read
 * finds it. workerd makes a file for every object touched; what matters is
 * whether a network's tables were made in it.
 */
async function objectsWithTables() {
  const dir = join(edge.stateDir, 'v3', 'do', 'agentnet-NetworkObject');
  const objects = new Set();
  for (const name of await readdir(dir)) {
    if (name.startsWith('metadata.')) continue;
    const bytes = await readFile(join(dir, name));
    if (bytes.includes('CREATE TABLE config')) objects.add(name.split('.')[0]);
  }
  return objects;
}

test('one address creates a bounded number of networks an hour, lists a bounded number, and every listing is reachable by pages', async () => {
  const made = [];
  for (let i = 0; i < 5; i += 1) {
    const res = await create({ name: `spam ${i}`, public: i < 3, access: { policy: 'open' } });
    assert.equal(res.status, 201, `creation ${i}`);
    const body = await res.json();
    assert.match(body.id, /^[0-9a-f]{32}$/);
    made.push(body.id);
  }
  const refused = await create({ name: 'one too many', access: { policy: 'open' } });
  assert.equal(refused.status, 429);
  assert.equal((await refused.json()).code, 'rate_limited');
  const retry = Number(refused.headers.get('retry-after'));
  assert.ok(retry > 3500 && retry <= 3600, `retry-after ${retry}`);

  // Three public networks, but one creator is listed twice at most.
  const { ids, pages } = await allListed(1);
  assert.deepEqual(ids, [made[1], made[0]]);
  assert.equal(pages, 2);
  // The created-but-unlisted network still works.
  const profile = await fetch(`${edge.url}/networks/${made[2]}/v1/profile`);
  assert.equal(profile.status, 200);

  for (const bad of ['limit=0', 'limit=9999', 'before=nonsense']) {
    const res = await fetch(`${edge.url}/v1/networks?${bad}`);
    assert.equal(res.status, 400, bad);
    assert.equal((await res.json()).code, 'invalid_request', bad);
  }
});

test('requests to ids no network has are refused and make no tables', async () => {
  const demo = await fetch(`${edge.url}/networks/demo/v1/profile`);
  assert.equal(demo.status, 200);
  const before = await objectsWithTables();
  assert.ok(before.size >= 1, 'the demo network and the networks made above have tables');
  for (let i = 0; i < 20; i += 1) {
    const id = randomBytes(16).toString('hex');
    const profile = await fetch(`${edge.url}/networks/${id}/v1/profile`);
    assert.equal(profile.status, 404);
    assert.equal((await profile.json()).code, 'not_found');
    const join = await fetch(`${edge.url}/networks/${id}/v1/join`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: 'prober' }),
    });
    assert.equal(join.status, 404);
    const upgrade = await new Promise((resolve) => {
      const ws = new WebSocket(`${edge.url.replace('http', 'ws')}/networks/${id}/v1/ws?agent_id=prober`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode));
      ws.on('open', () => { ws.close(); resolve('open'); });
      ws.on('error', () => resolve('error'));
    });
    assert.equal(upgrade, 404);
  }
  assert.deepEqual(await objectsWithTables(), before);
});
