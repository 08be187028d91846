// `wrangler deploy --dry-run` bundles the Worker offline: the bundle check
// that a real deploy would pass (Durable Object classes, migrations, assets).
// The documents Worker (edge-documents, the keeper of the shared documents)
// and the registry Worker (edge-registry, the identity registry and the
// directory) bundle on their own. And the documented deploy, `./scripts/deploy`
// (wrangler deploy of the three Workers, whose build command is scripts/build-worker), works
// from a fresh shell: no PATH but the system's, no variable but HOME.
//
// Run it on its own, as scripts/test does: the deploy rewrites www/pkg, edge-documents/build and
// edge-registry/build, which every test edge loads, and wrangler dev restarts all of an edge's
// Workers when a file it loads is written (their objects lose their sockets and memory).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildEnv, documentsTestConfig, registryTestConfig, testConfig } from '../../support/edge.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** `wrangler deploy --dry-run` of the Worker in `folder` with `config`, bundled into `outdir`: its output. */
function dryRun(folder, config, outdir) {
  return new Promise((resolve, reject) => {
    execFile(join(root, 'node_modules', '.bin', 'wrangler'), ['deploy', '--dry-run', '--config', config, '--outdir', outdir],
      { cwd: join(root, folder), env: buildEnv() },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout + stderr)));
  });
}

test('wrangler deploy --dry-run bundles the worker and reports its size', async () => {
  const outdir = await mkdtemp(join(tmpdir(), 'agentnet-bundle-'));
  try {
    const output = await dryRun('edge-worker', await testConfig(), outdir);
    assert.match(output, /--dry-run: exiting now/);
    assert.match(output, /env\.NETWORKS \(NetworkObject\)/);
    assert.match(output, /env\.GATEWAYS \(GatewayObject\)/);
    assert.match(output, /env\.DOCUMENTS \(DocumentsObject, defined in agentnet-documents\)/);
    assert.match(output, /env\.DIRECTORY \(DirectoryObject, defined in agentnet-registry\)/);
    assert.match(output, /env\.REGISTRY \(RegistryObject, defined in agentnet-registry\)/);
    // The classes that held those rows before, kept so an upgrade can hand them over.
    assert.match(output, /env\.RETIRED_REGISTRY \(RegistryObject\)/);
    assert.match(output, /env\.RETIRED_DIRECTORY \(DirectoryObject\)/);
    const files = await readdir(outdir);
    const wasm = files.find((f) => f.endsWith('.wasm'));
    assert.ok(wasm, `no wasm in ${files}`);
    assert.ok(files.includes('shim.js'));
    let raw = 0;
    let gzip = 0;
    for (const file of files.filter((f) => !f.endsWith('.map'))) {
      const bytes = await readFile(join(outdir, file));
      raw += bytes.length;
      gzip += gzipSync(bytes, { level: 9 }).length;
    }
    console.log(`worker bundle: ${raw} bytes raw, ${gzip} bytes gzip -9 (${files.join(', ')})`);
    assert.ok(gzip < 3 * 1024 * 1024, 'Workers limit a compressed worker to 3 MiB on the free plan');
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
});

// The Workers the main one binds to, each bundled on its own with the objects it declares.
for (const { folder, what, config, bindings } of [
  { folder: 'edge-documents', what: 'the documents Worker with its one object', config: documentsTestConfig,
    bindings: [/env\.DOCUMENTS \(DocumentsObject\)/] },
  { folder: 'edge-registry', what: 'the registry Worker with its two objects', config: registryTestConfig,
    bindings: [/env\.REGISTRY \(RegistryObject\)/, /env\.DIRECTORY \(DirectoryObject\)/] },
]) {
  test(`wrangler deploy --dry-run bundles ${what}`, async () => {
    const outdir = await mkdtemp(join(tmpdir(), `agentnet-bundle-${folder}-`));
    try {
      const output = await dryRun(folder, await config(), outdir);
      assert.match(output, /--dry-run: exiting now/);
      for (const binding of bindings) assert.match(output, binding);
      const files = await readdir(outdir);
      assert.ok(files.some((f) => f.endsWith('.wasm')) && files.includes('shim.js'), files.join(', '));
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
}

test('./scripts/deploy --dry-run builds the worker and the web workspace and bundles them from a fresh shell', async () => {
  const outdir = await mkdtemp(join(tmpdir(), 'agentnet-deploy-'));
  try {
    // What `env -i` leaves: HOME, and a PATH with the system's directories and node's.
    const env = { HOME: homedir(), PATH: `${dirname(process.execPath)}:/usr/bin:/bin` };
    const output = await new Promise((resolve, reject) => {
      execFile(join(root, 'scripts', 'deploy'), ['--dry-run', '--outdir', outdir], { cwd: tmpdir(), env, timeout: 900_000, maxBuffer: 64 << 20 },
        (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout + stderr)));
    });
    assert.match(output, /\[custom build\] Running: \.\.\/scripts\/build-worker/);
    assert.match(output, /edge-worker\/build ready/);
    assert.match(output, /www\/pkg ready/);
    assert.match(output, /edge-documents\/build ready/);
    assert.match(output, /edge-registry\/build ready/);
    assert.match(output, /Read \d+ files from the assets directory/);
    assert.match(output, /env\.NETWORKS \(NetworkObject\)/);
    assert.match(output, /--dry-run: exiting now/);
    const files = await readdir(outdir);
    assert.ok(files.some((f) => f.endsWith('.wasm')) && files.includes('shim.js'), files.join(', '));
    const documents = await readdir(join(outdir, 'documents'));
    assert.ok(documents.some((f) => f.endsWith('.wasm')) && documents.includes('shim.js'), documents.join(', '));
    const registry = await readdir(join(outdir, 'registry'));
    assert.ok(registry.some((f) => f.endsWith('.wasm')) && registry.includes('shim.js'), registry.join(', '));
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
});
