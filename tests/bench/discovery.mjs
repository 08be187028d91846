// Benchmark: discovery through `wrangler dev` on loopback.
// Run: node tests/bench/discovery.mjs  (after ./scripts/test or ./scripts/run has built everything)
// Registers AGENTS agents with ACS documents (16 at a time; each a challenge
// and a signed registration), then prints:
// * capability search (`GET /registry/v1/discover?q=…`) latency p50/p99 over
//   AGENTS agents, for single-term, two-term and tag-filtered queries;
// * changes/s read through the DRC feed (`GET /registry/v1/changes?seq=`,
//   1,000 a page) from seq 0 to the end, and the time of a full snapshot.

import { KeyPair } from '../../core/js/index.js';
import { startEdge } from '../support/edge.mjs';
import { ms, quantile, timeEach } from './stats.mjs';

const AGENTS = Number(process.env.AGENTS ?? 10_000);
const QUERIES = 300;
const WARMUP = 30;
const PARALLEL = 16;
const WORDS = ['translation', 'weather', 'route', 'maps', 'summary', 'code', 'search', 'image', 'audio', 'finance',
  'legal', 'medical', 'travel', 'booking', 'sports', 'news', 'music', 'math', 'chemistry', 'history'];

function acs(i) {
  const skill = WORDS[i % WORDS.length];
  const other = WORDS[(i * 7 + 3) % WORDS.length];
  return {
    active: true, lastModifiedTime: '2026-01-01T00:00:00Z', protocolVersion: '01.00',
    name: `agent ${i}`, description: `agent number ${i} helps with ${other}`, version: '1.0.0',
    provider: { organization: 'Bench', url: 'https://example.com', license: 'MIT' },
    securitySchemes: {}, endPoints: [{ url: `https://agents.example.com/${i}`, transport: i % 2 ? 'JSONRPC' : 'HTTP_JSON' }],
    capabilities: { streaming: false, notification: false, messageQueue: [] },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: `${skill}-${i % 50}`, name: `${skill} helper`, description: `does ${skill} and some ${other}`, version: '1', tags: [skill, other] }],
  };
}

async function post(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

const edge = await startEdge({ vars: { AGENTNET_DRC_RETENTION: String(AGENTS * 2) } });
try {
  const key = KeyPair.generate();
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: PARALLEL }, async () => {
    while (next < AGENTS) {
      const i = next++;
      const name = `bench${i}`;
      const { nonce } = await post(`${edge.url}/registry/v1/challenge`, { name });
      const signature = key.signRegistryProof({ action: 'register', name, nonce, detail: key.publicKey });
      await post(`${edge.url}/registry/v1/agents`, { name, public_key: key.publicKey, nonce, signature, acs: acs(i) });
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  console.log(`registered ${AGENTS} agents with ACS in ${seconds.toFixed(1)} s (${(AGENTS / seconds).toFixed(0)}/s, ${PARALLEL} at a time)`);

  const kinds = {
    'one term': (n) => `q=${WORDS[n % WORDS.length]}`,
    'two terms': (n) => `q=${WORDS[n % WORDS.length]}+${WORDS[(n + 5) % WORDS.length]}`,
    'term + tag + transport': (n) => `q=${WORDS[n % WORDS.length]}&tags=${WORDS[(n + 1) % WORDS.length]}&transport=JSONRPC`,
  };
  for (const [label, query] of Object.entries(kinds)) {
    const times = await timeEach(async (n) => {
      const res = await fetch(`${edge.url}/registry/v1/discover?${query(n)}&limit=20`);
      const body = await res.json();
      if (!Array.isArray(body.agents) || body.total < AGENTS) throw new Error(`bad answer ${JSON.stringify(body).slice(0, 200)}`);
    }, { runs: QUERIES, warmup: WARMUP });
    console.log(`search over ${AGENTS} agents, ${label}: p50 ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))} (${QUERIES} queries)`);
  }

  let seq = '0';
  let changes = 0;
  const feedStart = performance.now();
  for (;;) {
    const res = await fetch(`${edge.url}/registry/v1/changes?seq=${seq}&limit=1000`);
    if (res.status === 204) break;
    const text = await res.text();
    changes += text.split('\n').filter(Boolean).length;
    seq = res.headers.get('x-next-seq');
  }
  const feedSeconds = (performance.now() - feedStart) / 1000;
  console.log(`feed: ${changes} changes read in ${feedSeconds.toFixed(2)} s = ${(changes / feedSeconds).toFixed(0)} changes/s (1,000 a page)`);

  const snapStart = performance.now();
  let objects = 0;
  let url = `${edge.url}/registry/v1/snapshot?types=acs&limit=1000`;
  while (url) {
    const res = await fetch(url);
    objects += (await res.text()).split('\n').filter(Boolean).length;
    const next = res.headers.get('x-snapshot-next');
    url = next ? `${edge.url}${next}` : null;
  }
  console.log(`snapshot: ${objects} objects in ${((performance.now() - snapStart) / 1000).toFixed(2)} s`);
} finally {
  await edge.stop();
}
