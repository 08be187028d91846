// The JSON conformance vectors of core/tests/vectors, run through the npm
// package's wasm core: Rust and JS are held to the same cases.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConformanceVector, AgentnetError } from '../../core/js/index.js';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'core', 'tests', 'vectors');
const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();

test('the vector directory is not empty', () => {
  assert.ok(files.length >= 5, `found ${files}`);
});

for (const file of files) {
  test(`vector ${file}`, async () => {
    runConformanceVector(await readFile(join(dir, file), 'utf8'));
  });
}

test('a wrong expectation fails with a coded error', () => {
  const vector = JSON.stringify({ steps: [{ join: 'agent:a', expect: [{ reply: 'network.event.ack' }] }] });
  assert.throws(() => runConformanceVector(vector), (err) => err instanceof AgentnetError && err.code === 'conformance_failed');
});
