// Benchmark: joins per second at each verification level, on loopback
// through `wrangler dev`, over HTTP (`POST v1/join`, one join per request).
// Run: node tests/bench/identity.mjs  (after ./scripts/test or build_edge + build_js_package)
// Prints joins/s with CONCURRENT joiners for: level 0 (no credentials);
// level 2 (a registry JWT, JWKS cached after the first join); level 3 by a
// DIDWba header whose did:wba document is cached (one DID, fresh nonces) and
// not cached (a new DID every join: each join resolves its document over
// HTTP from a local server); level 3 by did:openagents (resolved by the
// deployment's own registry object, cached). Distinct addresses every join.

import { createServer } from 'node:http';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { KeyPair, register, requestToken } from '../../core/js/index.js';
import { createNetwork, startEdge } from '../support/edge.mjs';

const JOINS = Number(process.env.JOINS ?? 200);
const CONCURRENT = Number(process.env.CONCURRENT ?? 8);

/** DIDWba header (v0.1 `service` form): Ed25519 over SHA-256 of the JCS object (all strings, so sorted JSON). */
function didwba(key, did, service) {
  const nonce = createHash('sha256').update(String(Math.random())).digest('hex').slice(0, 32);
  const timestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const data = { did, nonce, service, timestamp };
  const digest = createHash('sha256').update(JSON.stringify(data)).digest();
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(key.export().secretKey, 'hex')]);
  const signature = sign(null, digest, createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).toString('base64url');
  return `DIDWba did="${did}", nonce="${nonce}", timestamp="${timestamp}", verification_method="key-1", signature="${signature}"`;
}

async function rate(label, url, network, makeJoin) {
  let next = 0;
  let failed = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, async () => {
    while (next < JOINS) {
      const i = next++;
      const { body, headers } = makeJoin(i);
      const res = await fetch(`${url}/networks/${network}/v1/join`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (res.status !== 200) {
        failed += 1;
        if (failed === 1) console.error(label, res.status, await res.text());
      } else await res.arrayBuffer();
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  console.log(`${label}: ${(JOINS / seconds).toFixed(0)} joins/s (${JOINS} joins, ${CONCURRENT} at once${failed ? `, ${failed} FAILED` : ''})`);
}

// The edge fetches the did:wba documents from this loopback server, and the JWKS from itself.
const edge = await startEdge({ allowLocalFetches: true });
const documents = new Map();
const server = createServer((req, res) => {
  const doc = documents.get(req.url);
  res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify(doc ?? {}));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
try {
  const port = server.address().port;
  const access = { policy: 'open', trusted_issuers: [edge.url] };
  const { id: network } = await createNetwork(edge.url, { name: 'bench', access });
  const key = KeyPair.generate();
  await register({ url: edge.url, name: 'bench', key });
  const { access_token: jwt } = await requestToken({ url: edge.url, name: 'bench', key, audience: network });
  const cachedDid = `did:wba:localhost%3A${port}:agents:cached`;
  documents.set('/agents/cached/did.json', key.didDocument(cachedDid));
  for (let i = 0; i < JOINS; i += 1) {
    documents.set(`/agents/u${i}/did.json`, key.didDocument(`did:wba:localhost%3A${port}:agents:u${i}`));
  }
  const run = (label, make) => rate(label, edge.url, network, make);
  await run('level 0 (warm-up)', (i) => ({ body: { agent_id: `agent:w${i}` } }));
  await run('level 0', (i) => ({ body: { agent_id: `agent:a${i}` } }));
  // Level 2 as one registered agent: each join rejoins openagents:bench with the token.
  await run('level 2 (JWT)', () => ({ body: { agent_id: 'openagents:bench', credentials: { jwt } } }));
  await run('level 3 (did:wba header, document cached)', (i) => ({
    body: { agent_id: `agent:c${i}` }, headers: { authorization: didwba(key, cachedDid, '127.0.0.1') },
  }));
  await run('level 3 (did:wba header, document not cached)', (i) => ({
    body: { agent_id: `agent:u${i}` },
    headers: { authorization: didwba(key, `did:wba:localhost%3A${port}:agents:u${i}`, '127.0.0.1') },
  }));
  await run('level 3 (did:openagents header, registry object, cached)', () => ({
    body: { agent_id: 'openagents:bench' }, headers: { authorization: didwba(key, 'did:openagents:bench', '127.0.0.1') },
  }));
} finally {
  server.close();
  await edge.stop();
}
