// The built edge under `workerd serve` itself, without `wrangler dev`: for benchmarks that
// measure what the runtime holds for agentnet, apart from the development tooling that
// `wrangler dev` adds and a deployment does not have (its proxy process, Miniflare's entry
// Worker in front of every request, the inspector, the asset Workers).
//
// The configuration mirrors the three Workers' wrangler.toml files: the same Durable Object
// classes (SQLite-backed), the same bindings between the Workers, the same `[vars]`. It reaches
// workerd as `wrangler dev` gives it its own: encoded in Cap'n Proto's binary form by
// Miniflare's `serializeConfig`, on standard input (`serve --binary -`); a text configuration
// with `embed`s would make workerd hold extra copies of every module's bytes. Two bindings are
// left out, as no benchmark that uses this touches them: the R2 bucket `FILES` (Miniflare
// emulates R2 with a Worker of its own) and the asset binding's single-page fallback (`ASSETS`
// is the `www` folder served as it is). Storage goes to a scratch folder removed on `stop`.

import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serializeConfig } from 'miniflare';
import { freePort } from './edge.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const workerd = join(root, 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd');
const compatibilityDate = '2026-04-01';
/** The compatibility flags of a Worker's wrangler.toml (`compatibility_flags = [...]`), none when it has none. */
async function compatibilityFlagsOf(project) {
  const toml = await readFile(join(root, project, 'wrangler.toml'), 'utf8');
  const list = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml);
  return list ? [...list[1].matchAll(/"([^"]+)"/g)].map((flag) => flag[1]) : [];
}

const textBindings = (vars) => Object.entries(vars).map(([name, value]) => ({ name, text: String(value) }));
const sqliteClasses = (classes) => classes.map(([className, uniqueKey]) => ({ className, uniqueKey, enableSql: true }));
const objectBinding = (name, className, serviceName) => ({ name, durableObjectNamespace: { className, serviceName } });

/** The modules of a Worker built by worker-build into `folder` (`worker/shim.mjs`, `index.js`, `index_bg.wasm`). */
async function rustModules(folder) {
  return [
    { name: 'worker/shim.mjs', esModule: await readFile(join(folder, 'worker', 'shim.mjs'), 'utf8') },
    { name: 'index.js', esModule: await readFile(join(folder, 'index.js'), 'utf8') },
    { name: 'index_bg.wasm', wasm: await readFile(join(folder, 'index_bg.wasm')) },
  ];
}

/** edge-worker, edge-registry and edge-documents, as their wrangler.toml files have them. */
async function edgeServices(scratch, { edgeBuild, edgeVars, registryVars }) {
  const storage = { localDisk: 'storage' };
  return [
    { name: 'agentnet', worker: {
      modules: await rustModules(join(root, 'edge-worker', edgeBuild)), compatibilityDate, compatibilityFlags: await compatibilityFlagsOf('edge-worker'),
      durableObjectNamespaces: sqliteClasses([['NetworkObject', 'network'], ['GatewayObject', 'gateway'],
        ['DirectoryObject', 'retired-directory'], ['RegistryObject', 'retired-registry']]),
      durableObjectStorage: storage,
      bindings: [
        objectBinding('NETWORKS', 'NetworkObject'), objectBinding('GATEWAYS', 'GatewayObject'),
        objectBinding('RETIRED_DIRECTORY', 'DirectoryObject'), objectBinding('RETIRED_REGISTRY', 'RegistryObject'),
        objectBinding('DOCUMENTS', 'DocumentsObject', 'agentnet-documents'),
        objectBinding('DIRECTORY', 'DirectoryObject', 'agentnet-registry'),
        objectBinding('REGISTRY', 'RegistryObject', 'agentnet-registry'),
        { name: 'ASSETS', service: { name: 'www' } },
        ...textBindings(edgeVars),
      ],
    } },
    { name: 'agentnet-registry', worker: {
      modules: await rustModules(join(root, 'edge-registry', 'build')), compatibilityDate, compatibilityFlags: await compatibilityFlagsOf('edge-registry'),
      durableObjectNamespaces: sqliteClasses([['RegistryObject', 'registry'], ['DirectoryObject', 'directory']]),
      durableObjectStorage: storage,
      bindings: [objectBinding('REGISTRY', 'RegistryObject'), objectBinding('DIRECTORY', 'DirectoryObject'), ...textBindings(registryVars)],
    } },
    { name: 'agentnet-documents', worker: {
      modules: await rustModules(join(root, 'edge-documents', 'build')), compatibilityDate, compatibilityFlags: await compatibilityFlagsOf('edge-documents'),
      durableObjectNamespaces: sqliteClasses([['DocumentsObject', 'documents']]),
      durableObjectStorage: storage,
      bindings: [objectBinding('DOCUMENTS', 'DocumentsObject')],
    } },
    { name: 'storage', disk: { path: join(scratch, 'storage'), writable: true } },
    { name: 'www', disk: { path: join(root, 'www') } },
  ];
}

/** tests/bench/workerd-floor: one SQLite-backed object that holds WebSockets, as its wrangler.toml has it. */
async function floorServices(scratch) {
  return [
    { name: 'agentnet', worker: {
      modules: [{ name: 'index.js', esModule: await readFile(join(root, 'tests', 'bench', 'workerd-floor', 'index.js'), 'utf8') }],
      compatibilityDate, durableObjectNamespaces: sqliteClasses([['Room', 'room']]),
      durableObjectStorage: { localDisk: 'storage' }, bindings: [objectBinding('ROOM', 'Room')],
    } },
    { name: 'storage', disk: { path: join(scratch, 'storage'), writable: true } },
  ];
}

/**
 * Starts `workerd serve` on the built edge (`edge-worker/build-test` with `testHooks`, else
 * `edge-worker/build`; the registry and documents Workers' `build`), or on the floor Worker with
 * `floor`; resolves with `{url, pid, stop}` once it answers. `pid` leads the process group (the
 * helpers in workerd.mjs read its memory). `vars` are added to the main Worker's; `v8Flags` go to
 * V8 (for a diagnosis, such as `--trace-wasm-compilation-times`; `log` has what they print).
 */
export async function serveEdge({ testHooks = false, vars = {}, floor = false, v8Flags = [], timeoutMs = 60_000 } = {}) {
  const scratch = await mkdtemp(join(tmpdir(), 'agentnet-workerd-'));
  const port = await freePort();
  await mkdir(join(scratch, 'storage'));
  const services = floor ? await floorServices(scratch) : await edgeServices(scratch, {
    edgeBuild: testHooks ? 'build-test' : 'build',
    // edge-worker/wrangler.toml's [vars]
    edgeVars: {
      AGENTNET_OUTBOUND_ALLOW_HOSTS: '', AGENTNET_HOSTS: '*.workers.dev',
      ...(testHooks ? { AGENTNET_TEST_HOOKS: '1' } : {}), ...vars,
    },
    // edge-registry/wrangler.toml's [vars], with the test edges' creation limits (tests/support/edge.mjs)
    registryVars: {
      AGENTNET_CREATIONS_PER_HOUR: '100000', AGENTNET_LISTINGS_PER_CREATOR: '100000',
      AGENTNET_AIC_PROVIDER: '0001', AGENTNET_AIC_ENTITY: '0AGNT', AGENTNET_DRC_RETENTION: '10000',
      AGENTNET_OUTBOUND_ALLOW_HOSTS: '',
    },
  });
  const config = serializeConfig({
    services, v8Flags,
    sockets: [{ name: 'http', address: `127.0.0.1:${port}`, http: {}, service: { name: 'agentnet' } }],
  });
  const child = spawn(workerd, ['serve', '--binary', '--experimental', '-'], {
    cwd: scratch, detached: true, stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(config);
  const log = [];
  child.stdout.on('data', (d) => log.push(String(d)));
  child.stderr.on('data', (d) => log.push(String(d)));
  const reap = () => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } };
  process.once('exit', reap);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // SIGTERM lets workerd exit on its own (and flush what V8's trace flags printed).
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
      const timer = setTimeout(reap, 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(scratch, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`workerd serve exited early:\n${log.join('')}`);
    }
    try {
      const res = await fetch(`${url}/`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`workerd serve not ready after ${timeoutMs} ms:\n${log.join('')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { url, port, pid: child.pid, stop, log };
}
