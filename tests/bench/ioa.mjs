// Benchmark: IOA's message graph through `wrangler dev` on loopback, as an
// IOA client calls it (plain HTTP with a bearer token).
// Run: node tests/bench/ioa.mjs [messages]  (after ./scripts/test or ./scripts/run has built the edge)
// Builds one space of `messages` (default 100,000) messages posted through
// `POST /spaces/{id}/messages`: 1,000 threads of equal size, each message
// answering a random earlier message of its thread (one in ten answers two:
// a DAG). Prints messages/s posted (CONCURRENT clients, each posting its
// threads in order), then p50/p99 of `direction=upstream` reads from random
// messages (every ancestor) and `direction=downstream` reads from random
// thread roots (every descendant), READS each, one at a time.

import { createNetwork, startEdge } from '../support/edge.mjs';
import { ms, quantile } from './stats.mjs';

const MESSAGES = Number(process.argv[2] ?? 100_000);
const THREADS = 1000;
const CONCURRENT = 16;
const READS = 500;
const WARMUP = 20;

const pick = (list) => list[Math.floor(Math.random() * list.length)];

const edge = await startEdge();
try {
  const { id } = await createNetwork(edge.url, { name: 'bench-ioa', mods: ['persistence'] });
  const base = `${edge.url}/networks/${id}/ioa`;
  const call = async (method, path, token, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const tokens = [];
  for (let i = 0; i < CONCURRENT; i += 1) {
    const res = await fetch(`${base}/auth/register`, { method: 'POST', body: JSON.stringify({ name: `bench-${i}`, meta: {} }) });
    const { token } = await res.json();
    await call('POST', '/spaces', token, { name: 'bench', description: 'benchmark' });
    tokens.push(token);
  }

  const perThread = Math.ceil(MESSAGES / THREADS);
  const threads = Array.from({ length: THREADS }, () => []);
  let posted = 0;
  const started = performance.now();
  await Promise.all(tokens.map(async (token, worker) => {
    for (let t = worker; t < THREADS; t += CONCURRENT) {
      const thread = threads[t];
      for (let n = 0; n < perThread && posted < MESSAGES; n += 1) {
        const parents = thread.length === 0 ? [] : [pick(thread)];
        if (thread.length > 1 && Math.random() < 0.1) {
          const other = pick(thread);
          if (!parents.includes(other)) parents.push(other);
        }
        posted += 1;
        const message = await call('POST', '/spaces/bench/messages', token, { content: { n }, refs: { messages: parents } });
        thread.push(message.id);
      }
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  console.log(`posted ${posted} messages through POST /spaces/{id}/messages with ${CONCURRENT} clients in ${seconds.toFixed(1)} s: ${Math.round(posted / seconds)} messages/s`);

  const token = tokens[0];
  const read = async (query) => {
    const begun = performance.now();
    const messages = await call('GET', `/spaces/bench/messages?${query}`, token);
    return [performance.now() - begun, messages.length];
  };
  const all = threads.flat();
  const measure = async (label, query) => {
    const times = [];
    let returned = 0;
    for (let i = 0; i < WARMUP + READS; i += 1) {
      const [time, count] = await read(query());
      if (i >= WARMUP) { times.push(time); returned += count; }
    }
    console.log(`${label}: p50 ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))} (${READS} reads, ${(returned / READS).toFixed(1)} messages each on average)`);
  };
  await measure('upstream (every ancestor) of a random message', () => `message_id=${pick(all)}&direction=upstream`);
  await measure('downstream (every descendant) of a random thread root', () => `message_id=${pick(threads)[0]}&direction=downstream`);
  await measure('the last 50 of the space (all=true&limit=50)', () => 'all=true&limit=50');
} finally {
  await edge.stop();
}
