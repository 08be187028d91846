// What a browser or Worker downloads for each entry of the npm package:
// `agentnet-sdk` (with shared documents) and `agentnet-sdk/lite` (without).
// Bundles each browser entry with esbuild (minified, as an app would ship it)
// and prints raw and gzip -9 bytes of the JS bundle and the wasm core.
// Run after a build of core/js/pkg: node tests/bench/npm-entries.mjs

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = join(root, 'core', 'js');
const out = mkdtempSync(join(tmpdir(), 'agentnet-entries-'));
const sizes = (bytes) => [bytes.length, gzipSync(bytes, { level: 9 }).length];

try {
  console.log('entry                      js raw    js gzip   wasm raw  wasm gzip  total gzip');
  for (const [name, entry, wasm] of [['agentnet-sdk', 'browser', 'agentnet_js_bg.wasm'], ['agentnet-sdk/lite', 'browser-lite', 'agentnet_js_lite_bg.wasm']]) {
    const bundle = join(out, `${entry}.js`);
    execFileSync(join(root, 'node_modules', '.bin', 'esbuild'), [join(pkg, 'entry', `${entry}.js`), '--bundle', '--minify',
      '--format=esm', '--platform=browser', `--outfile=${bundle}`, '--log-level=warning']);
    const [jsRaw, jsGz] = sizes(readFileSync(bundle));
    const [wasmRaw, wasmGz] = sizes(readFileSync(join(pkg, 'pkg', wasm)));
    console.log(`${name.padEnd(22)} ${String(jsRaw).padStart(10)} ${String(jsGz).padStart(10)} ${String(wasmRaw).padStart(10)} ${String(wasmGz).padStart(10)} ${String(jsGz + wasmGz).padStart(11)}`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
