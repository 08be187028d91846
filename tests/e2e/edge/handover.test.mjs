// An upgrade from a deployment made before the registry Worker: the identity
// registry's and the directory's rows were the main Worker's (its classes
// RegistryObject and DirectoryObject, now retired). The test hooks seed those
// retired objects as such a deployment left them; the first request that
// needs the registry or the directory hands the rows to the registry Worker
// (edge-shared/src/handover/mod.rs), and nothing a user had is lost: the agent
// still holds its name and key, tokens are signed with the same key, the
// public network is still listed, and the retired objects are left empty.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, randomBytes, verify } from 'node:crypto';
import { KeyPair, register, requestToken } from '../../../core/js/index.js';
import { startEdge } from '../../support/edge.mjs';

let edge;
before(async () => { edge = await startEdge({ testHooks: true }); });
after(async () => { await edge?.stop(); });

const retired = (which, rows) => fetch(`${edge.url}/v1/__test/retired/${which}`, rows
  ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rows) }
  : {});

/** The Ed25519 public key (JWK `x`) of a 32-byte seed. */
function publicX(seed) {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  return createPublicKey(createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })).export({ format: 'jwk' }).x;
}

test('the rows a deployment kept in the main Worker move to the registry Worker on first use, and nothing is lost', async () => {
  const seed = randomBytes(32);
  const alice = KeyPair.generate();
  const registeredAt = Date.now() - 86_400_000;
  // As the registry left them: its signing seed, and one agent's record.
  const seeded = await retired('registry', {
    tables: [
      { name: 'meta', schema: 'CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
        columns: ['key', 'value'], rows: [['signing_seed', seed.toString('hex')]] },
      { name: 'agents', schema: 'CREATE TABLE agents (name TEXT PRIMARY KEY, record TEXT NOT NULL)',
        columns: ['name', 'record'],
        rows: [['alice', JSON.stringify({
          name: 'alice', aic: `10001${'A'.repeat(25)}00`, serial: 1,
          keys: [{ public_key: alice.publicKey, added_at: registeredAt }], registered_at: registeredAt,
        })]] },
    ],
  });
  assert.equal(seeded.status, 200, await seeded.text());
  // As the first directory left it: before its creator and description columns.
  const listedBefore = await retired('directory', {
    tables: [{ name: 'networks', schema: 'CREATE TABLE networks (id TEXT PRIMARY KEY, name TEXT NOT NULL, created INTEGER NOT NULL)',
      columns: ['id', 'name', 'created'], rows: [['from-before', 'From before the upgrade', registeredAt]] }],
  });
  assert.equal(listedBefore.status, 200, await listedBefore.text());
  assert.equal((await (await retired('registry')).json()).tables.length, 2, 'the retired registry holds the seeded rows');

  // The directory's first use hands its rows over: the old listing is there.
  const page = await (await fetch(`${edge.url}/v1/networks`)).json();
  assert.deepEqual(page.networks.map((n) => [n.id, n.name]), [['from-before', 'From before the upgrade']]);

  // The registry's: alice still has her name and her key, and tokens are signed with the old seed.
  const { access_token: jwt } = await requestToken({ url: edge.url, name: 'alice', key: alice, audience: 'demo' });
  const jwks = await (await fetch(`${edge.url}/.well-known/jwks.json`)).json();
  assert.equal(jwks.keys[0].x, publicX(seed), 'the JWKS is the old signing key');
  const [header, payload, signature] = jwt.split('.');
  const key = createPublicKey({ key: jwks.keys[0], format: 'jwk' });
  assert.ok(verify(null, Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')));
  await assert.rejects(register({ url: edge.url, name: 'alice', key: KeyPair.generate() }), (err) => err.code === 'already_exists');

  // The retired objects hold nothing any more, and the registry takes new agents.
  assert.deepEqual(await (await retired('registry')).json(), { tables: [] });
  assert.deepEqual(await (await retired('directory')).json(), { tables: [] });
  const bob = await register({ url: edge.url, name: 'bob', key: KeyPair.generate() });
  assert.equal(bob.address, 'openagents:bob');
});

test('a retired object is reached only through the test hooks, and refuses rows it cannot store', async () => {
  const refused = await retired('registry', {
    tables: [{ name: 'meta', schema: 'CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)',
      columns: ['key', 'value); DROP TABLE meta; --'], rows: [] }],
  });
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).code, 'handover_bad_name');
  assert.equal((await retired('nothing')).status, 404);
});
