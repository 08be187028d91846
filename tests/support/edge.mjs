// Starts and stops a local edge (wrangler dev on workerd) for a test file.
// Each edge gets free ports on 127.0.0.1 and a fresh state directory, and is
// stopped (with its whole process group) when the test calls stop().

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { after, before } from 'node:test';
import { homedir, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The environment scripts/lib.sh sets up, so tests also run on their own (`node --test`). */
export function buildEnv() {
  const cache = process.env.AGENTNET_CACHE ?? join(homedir(), '.cache', 'agentnet');
  const tools = join(cache, 'tools', 'bin');
  const bin = join(root, 'node_modules', '.bin');
  return {
    ...process.env,
    // One build directory per clone, as scripts/lib.sh keys it.
    CARGO_TARGET_DIR: process.env.CARGO_TARGET_DIR
      ?? join(cache, 'target', createHash('sha256').update(root).digest('hex').slice(0, 12)),
    PATH: `${tools}:${bin}:${join(homedir(), '.cargo', 'bin')}:${process.env.PATH}`,
    WASM_BINDGEN_BIN: process.env.WASM_BINDGEN_BIN ?? join(tools, 'wasm-bindgen'),
    WASM_OPT_BIN: process.env.WASM_OPT_BIN ?? join(root, 'scripts', 'wasm-opt-cached'),
    ESBUILD_BIN: process.env.ESBUILD_BIN ?? join(bin, 'esbuild'),
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
  };
}

/**
 * One edge for a test file: started before its tests, stopped after them (its log printed when
 * AGENTNET_EDGE_LOG is set). The object returned is `startEdge(options)`'s, filled in once the
 * edge is up, so tests read `edge.url` as usual.
 */
export function edgeForFile(options) {
  const edge = {};
  before(async () => {
    Object.assign(edge, await startEdge(options));
  });
  after(async () => {
    if (process.env.AGENTNET_EDGE_LOG) console.log(edge.log?.join(''));
    await edge.stop?.();
  });
  return edge;
}

/**
 * `edgeForFile` over a state folder of its own (named for `prefix`), removed after the file's
 * tests. `edge.restart()` starts the edge again over that folder (after `edge.kill()`), filling in
 * the same object, so tests go on reading `edge.url`.
 */
export function statefulEdgeForFile(prefix, options = {}) {
  const edge = {};
  let stateDir;
  const start = async () => Object.assign(edge, await startEdge({ ...options, stateDir }));
  before(async () => {
    stateDir = await mkdtemp(join(tmpdir(), prefix));
    await start();
  });
  after(async () => {
    if (process.env.AGENTNET_EDGE_LOG) console.log(edge.log?.join(''));
    await edge.stop?.();
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  });
  edge.restart = start;
  return edge;
}

/** The hosts `startEdge({ allowLocalFetches: true })` lets the edge fetch from. */
export const LOCAL_HOSTS = 'localhost,127.0.0.1';

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url, child, log, timeoutMs, readyPath = '/networks/demo/v1/ws', readyStatus = 426) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${log.join('')}`);
    try {
      const res = await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(2000) });
      if (res.status === readyStatus) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`edge not ready after ${timeoutMs} ms:\n${log.join('')}`);
}

/**
 * `folder`'s wrangler.toml without its `[build]` table and changed by `edit`,
 * written beside it as `.wrangler-test.{pid}{suffix}.toml`: scripts/test builds
 * the Workers once, and a test edge must neither rebuild nor watch the sources
 * (a rebuild restarts the worker mid-test). wrangler dev watches its
 * configuration and reloads the worker when the file is written, so edges of
 * test files running side by side must not share one. It is removed when the
 * process exits.
 */
async function writeTestConfig(folder, suffix = '', edit = (config) => config) {
  const source = await readFile(join(root, folder, 'wrangler.toml'), 'utf8');
  const path = join(root, folder, `.wrangler-test.${process.pid}${suffix}.toml`);
  await writeFile(path, edit(source.replace(/^\[build\][^[]*/m, '')));
  process.once('exit', () => { try { unlinkSync(path); } catch { /* gone */ } });
  return path;
}

/**
 * The project's wrangler.toml for a test edge (`writeTestConfig`), one per test
 * process, written once. It runs the test build (`edge-worker/build-test`, with
 * the `test-hooks` feature: `build_edge` in scripts/lib.sh), which a deploy
 * build (`edge-worker/build`) never overwrites. The web workspace (www/) and the
 * documents and registry Workers' builds are shared with a deploy, which rewrites
 * them: scripts/test runs the deploy check (e2e/edge/deploy.test.mjs) after every
 * other file, since wrangler dev restarts an edge's Workers when a file they load is written.
 */
let testConfigPath;
export function testConfig() {
  testConfigPath ??= writeTestConfig('edge-worker', '',
    (config) => config.replace(/^main = "build\//m, 'main = "build-test/'));
  return testConfigPath;
}

/**
 * The test edge's wrangler.toml without its `[assets]` table (no workspace
 * files): for benchmarks that weigh what Miniflare's assets layer costs under
 * `wrangler dev` (tests/bench/memory.mjs, `MEMORY_ASSETS=0`). Every request then
 * goes from Miniflare's entry Worker straight to the edge's.
 */
let withoutAssetsPath;
export function testConfigWithoutAssets() {
  withoutAssetsPath ??= writeTestConfig('edge-worker', '.no-assets', (config) => config
    .replace(/^main = "build\//m, 'main = "build-test/')
    .replace(/^\[assets\][^[]*/m, ''));
  return withoutAssetsPath;
}

/**
 * The documents Worker's wrangler.toml (edge-documents/, the keeper of the
 * network objects' shared documents) for a test edge, one per test process:
 * every test edge runs it beside the main Worker in one `wrangler dev`
 * (`-c edge -c documents -c registry`), as a deploy has all three.
 */
let documentsConfigPath;
export function documentsTestConfig() {
  documentsConfigPath ??= writeTestConfig('edge-documents');
  return documentsConfigPath;
}

/**
 * The registry Worker's wrangler.toml (edge-registry/: the identity registry and
 * the directory, asked by the main Worker) for a test edge, with `vars` in its
 * `[vars]`: `wrangler dev` gives its `--var`s to the first configuration only,
 * and the creation limits, the registry's AICs and the outbound allowance are
 * this Worker's. One file per edge (each edge of a test process may have vars
 * of its own).
 */
let registryConfigs = 0;
export async function registryTestConfig(vars = {}) {
  registryConfigs += 1;
  return writeTestConfig('edge-registry', `.${registryConfigs}`, (source) => {
    let config = source;
    const added = [];
    for (const [name, value] of Object.entries(vars)) {
      const line = `${name} = ${JSON.stringify(String(value))}`;
      const existing = new RegExp(`^${name} = .*$`, 'm');
      if (existing.test(config)) config = config.replace(existing, line);
      else added.push(line);
    }
    return config.replace(/^\[vars\]$/m, ['[vars]', ...added].join('\n'));
  });
}

/**
 * Starts `wrangler dev`; resolves with `{url, stop, kill}` once the edge answers.
 * `config` is another wrangler configuration than the project's (benchmarks
 * comparing settings); `testHooks` turns on the test-only routes; `vars` adds `--var NAME:VALUE`s
 * (e.g. `AGENTNET_TEST_POLICY`, which the edge honours only with test hooks on).
 * `allowLocalFetches` lets the edge fetch from this machine on a caller's say-so
 * (`AGENTNET_OUTBOUND_ALLOW_HOSTS`: localhost, 127.0.0.1), for tests whose
 * push targets, webhooks, cards, client documents or DID documents are local
 * servers; without it the edge refuses them, as a deployment does.
 * A free port can be taken between asking for it and wrangler binding it (test
 * files start edges in parallel, and workerd binds ports of its own): when the
 * edge exits because an address is in use it is started again — on new ports,
 * or on the caller's `port` once it is free.
 */
export async function startEdge({
  timeoutMs = 300_000, stateDir, port: fixedPort, testHooks = false, vars = {}, allowLocalFetches = false, config,
  // Test files create many networks from one address; the limits' own test lowers these.
  creationsPerHour = 100_000, listingsPerCreator = 100_000,
} = {}) {
  // The npm package keeps member secrets in a file; a test's are its own, not the user's
  // (set before the first agent connects, inherited by the processes the test starts).
  process.env.AGENTNET_SECRETS ??= join(await mkdtemp(join(tmpdir(), 'agentnet-secrets-')), 'secrets.json');
  const persistTo = stateDir ?? (await mkdtemp(join(tmpdir(), 'agentnet-edge-')));
  for (let attempt = 1; ; attempt += 1) {
    const port = fixedPort ?? (await freePort());
    const inspectorPort = await freePort();
    try {
      return await launchEdge({
        timeoutMs, port, inspectorPort, persistTo, keepState: Boolean(stateDir), testHooks, config,
        vars: {
          AGENTNET_CREATIONS_PER_HOUR: creationsPerHour, AGENTNET_LISTINGS_PER_CREATOR: listingsPerCreator,
          ...(allowLocalFetches ? { AGENTNET_OUTBOUND_ALLOW_HOSTS: LOCAL_HOSTS } : {}),
          ...vars,
        },
      });
    } catch (err) {
      if (attempt >= 4 || !/Address already in use|EADDRINUSE/.test(err.message)) {
        if (!stateDir) await rm(persistTo, { recursive: true, force: true });
        throw err;
      }
      await new Promise((r) => setTimeout(r, 500 * attempt));
    }
  }
}

/**
 * Starts `wrangler dev` on another Worker project (its own wrangler.toml in
 * `cwd`), with `vars`; resolves with `{url, stop, log}` once `readyPath` answers 200.
 */
export async function startWorker({ cwd, vars = {}, readyPath = '/', timeoutMs = 120_000 }) {
  const persistTo = await mkdtemp(join(tmpdir(), 'agentnet-worker-'));
  return launchEdge({
    timeoutMs, port: await freePort(), inspectorPort: await freePort(), persistTo, keepState: false, testHooks: false, vars,
    cwd, config: join(cwd, 'wrangler.toml'), ready: [readyPath, 200],
  });
}

async function launchEdge({ timeoutMs, port, inspectorPort, persistTo, keepState, testHooks, vars, cwd, config, ready = [] }) {
  const wrangler = join(root, 'node_modules', '.bin', 'wrangler');
  const child = spawn(
    wrangler,
    ['dev', '--config', config ?? await testConfig(),
      // The edge's own Workers: the documents and registry Workers beside the main one (not for
      // another project).
      ...(cwd ? [] : ['--config', await documentsTestConfig(), '--config', await registryTestConfig(vars)]),
      '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspectorPort),
      '--persist-to', persistTo, '--show-interactive-dev-session=false',
      ...(testHooks ? ['--var', 'AGENTNET_TEST_HOOKS:1'] : []),
      ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`])],
    { cwd: cwd ?? join(root, 'edge-worker'), detached: true, stdio: ['ignore', 'pipe', 'pipe'],
      env: buildEnv() },
  );
  // Never leave an edge behind, even when the test process is interrupted.
  const reap = () => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } };
  process.once('exit', reap);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => { reap(); process.exit(130); });
  }
  const log = [];
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  const url = `http://127.0.0.1:${port}`;
  // kill -9 the whole process group, as a crash would: nothing gets to flush or close.
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      await exited;
    }
  };
  const halt = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  const stop = async () => {
    await halt();
    if (!keepState) await rm(persistTo, { recursive: true, force: true });
  };
  try {
    await waitUntilReady(url, child, log, timeoutMs, ...ready);
  } catch (err) {
    await halt();
    throw err;
  }
  return { url, port, inspectorPort, pid: child.pid, stop, kill, log, stateDir: persistTo };
}

/**
 * The URL of the workerd socket that serves the edge worker itself, behind
 * wrangler's proxy (Linux only; for benchmarks that hold thousands of sockets).
 *
 * `wrangler dev` runs two workerd processes: one holds `edge.url` and runs
 * wrangler's ProxyWorker, which re-fetches each request from the other, the
 * Miniflare instance with the edge worker and its objects, on a port of its
 * own (its entry socket). A WebSocket through the proxy costs the proxy's
 * workerd about 6 descriptors (its two TCP ends and two pipes), the edge's
 * workerd one; straight to the entry socket it costs the edge's workerd one
 * and the proxy nothing. The entry socket is the listening TCP socket of a
 * workerd in the edge's process group, other than `edge.port`, that answers
 * the WebSocket path with 426 as `edge.url` does.
 */
export async function workerEntryUrl(edge, probePath = '/networks/demo/v1/ws') {
  const inGroup = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (pgrp === edge.pid && cmdline.includes('workerd')) inGroup.push(pid);
    } catch { /* gone */ }
  }
  const inodes = new Set();
  for (const pid of inGroup) {
    for (const fd of await readdir(`/proc/${pid}/fd`).catch(() => [])) {
      const link = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode) inodes.add(inode);
    }
  }
  const ports = new Set();
  for (const line of (await readFile('/proc/net/tcp', 'utf8')).split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // local_address is HEXIP:HEXPORT, st 0A is LISTEN, the inode is the tenth field.
    if (fields[3] === '0A' && inodes.has(fields[9])) ports.add(parseInt(fields[1].split(':')[1], 16));
  }
  ports.delete(edge.port);
  const entries = [];
  for (const port of ports) {
    const url = `http://127.0.0.1:${port}`;
    const status = await fetch(`${url}${probePath}`, { signal: AbortSignal.timeout(2000) })
      .then((res) => res.status, () => 0);
    if (status === 426) entries.push(url);
  }
  if (entries.length !== 1) throw new Error(`expected one workerd entry socket behind ${edge.url}, found ${JSON.stringify(entries)} among ports ${[...ports]}`);
  return entries[0];
}

/**
 * Creates a network on the edge at `url` (`POST /v1/networks`); resolves with
 * the answer `{id, profile, admin_token}`, or throws with the edge's error
 * when it is not 201 Created.
 */
export async function createNetwork(url, body) {
  const res = await fetch(`${url}/v1/networks`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const created = await res.json();
  if (res.status !== 201) throw new Error(`creating a network answered ${res.status}: ${JSON.stringify(created)}`);
  return created;
}
