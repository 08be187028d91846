// Static files through the Worker: the latency of the workspace's page and its
// files now that every request runs the Worker first (the host check and the
// body read first hold for them too), beside the assets layer serving
// them alone (the earlier `run_worker_first` list), in one sitting. Run after
// ./scripts/test or ./scripts/run has built everything:
//
//   node tests/bench/assets.mjs [rounds]
//
// Each configuration gets its own `wrangler dev` on 127.0.0.1; each round
// fetches every file once, one after another, after a warm-up round.

import { readFile, writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startEdge, testConfig } from '../support/edge.mjs';

const FILES = ['/', '/n/demo', '/pkg/styles.css', '/boot.js', '/pkg/agentnet_web.js', '/pkg/agentnet_web_bg.wasm'];
const ROUNDS = Number(process.argv[2] ?? 30);
const ASSETS_FIRST = 'run_worker_first = ["/networks/*", "/v1/*", "/registry/*", "/agents/*", "/.well-known/*"]';

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(label, config) {
  const edge = await startEdge({ config });
  try {
    const times = Object.fromEntries(FILES.map((f) => [f, []]));
    for (let round = 0; round <= ROUNDS; round += 1) {
      for (const file of FILES) {
        const start = performance.now();
        const res = await fetch(`${edge.url}${file}`);
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${label} ${file}: ${res.status}`);
        if (round > 0) times[file].push(performance.now() - start);
      }
    }
    for (const file of FILES) {
      const sorted = times[file].sort((a, b) => a - b);
      console.log(`${label.padEnd(13)} ${file.padEnd(27)} p50 ${quantile(sorted, 0.5).toFixed(2)} ms  p90 ${quantile(sorted, 0.9).toFixed(2)} ms`);
    }
  } finally {
    await edge.stop();
  }
}

const workerFirst = await testConfig();
const source = await readFile(workerFirst, 'utf8');
const assetsFirstText = source.replace(/^run_worker_first = true$/m, ASSETS_FIRST);
if (assetsFirstText === source) throw new Error('wrangler.toml no longer says run_worker_first = true');
const assetsFirst = join(workerFirst, '..', '.wrangler-bench-assets.toml');
await writeFile(assetsFirst, assetsFirstText);
try {
  for (const [label, config] of [['worker first', workerFirst], ['assets first', assetsFirst], ['worker first', workerFirst], ['assets first', assetsFirst]]) {
    await measure(label, config);
  }
} finally {
  await rm(assetsFirst, { force: true });
}
