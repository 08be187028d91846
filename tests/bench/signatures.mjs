// Benchmark: what one Ed25519 signature costs an npm agent (its join challenge, once per
// connection) through the npm core's `signChallenge`.
// Run: node tests/bench/signatures.mjs [PKG-DIR]  (after build_js_package; PKG-DIR defaults to
// core/js/pkg, or give another build's pkg to compare two builds in one sitting)
// Prints µs per signature over SIGNATURES (default 3,000) after 200 to warm up.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.resolve(process.argv[2] ?? path.join(here, '../../core/js/pkg'));
const SIGNATURES = Number(process.env.SIGNATURES ?? 3000);

const core = await import(path.join(dir, 'agentnet_js.js'));
core.initSync({ module: fs.readFileSync(path.join(dir, 'agentnet_js_bg.wasm')) });
const secret = '11'.repeat(32);
for (let i = 0; i < 200; i += 1) core.signChallenge(secret, 'bench', 'agent:a', `warm-${i}`);
const start = performance.now();
for (let i = 0; i < SIGNATURES; i += 1) core.signChallenge(secret, 'bench', 'agent:a', `nonce-${i}`);
const micros = ((performance.now() - start) * 1000) / SIGNATURES;
console.log(`${micros.toFixed(1)} µs per join-challenge signature (${SIGNATURES}, ${path.relative(process.cwd(), dir) || '.'})`);
