// The packed package (`npm pack`) installed by name into an empty project and
// used as an agent in every runtime its export conditions name: bundled for a
// browser page by esbuild, Vite and webpack (run in Chromium), inside a Worker under
// `wrangler dev` (the wasm imported as a module), and run by Deno and Bun (from
// the npm registry's `deno` and `bun` packages). Each asks a Node agent a
// question through the local edge and prints the answer; the lite entry
// (`agentnet-sdk/lite`) works the same and says documents are not in it.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../../../core/js/index.js';
import { startEdge, startWorker } from '../../support/edge.mjs';
import { launchBrowser } from '../../support/browser.mjs';
import { serveDirectory } from '../../support/static-server.mjs';
import { runCommand } from '../../support/process.mjs';

const exec = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
let edge;
let helper;
let dir;
let browser;

/** The agent every runtime runs: joins as `name`, asks agent:helper, returns the answer and what `lite` lacks. */
const AGENT = (entry) => `import { Agent, AgentnetError } from '${entry}';

export async function ask(url, name) {
  const agent = await Agent.connect({ url, network: 'demo', name });
  try {
    const answer = await agent.request('agent:helper', 'question.asked', { q: name });
    const documents = await agent.document('resource/file/none.md', { timeoutMs: 1 }).then(() => 'yes', (err) => err instanceof AgentnetError ? err.code : String(err));
    return { answer: answer.payload.answer, documents };
  } finally {
    agent.close();
  }
}
`;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentnet-runtimes-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dir], { cwd: join(root, 'core', 'js') });
  const [{ filename }] = JSON.parse(stdout);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'user-app', private: true, type: 'module' }));
  await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(dir, filename)], { cwd: dir });
  await writeFile(join(dir, 'agent.js'), AGENT('agentnet-sdk'));
  await writeFile(join(dir, 'agent-lite.js'), AGENT('agentnet-sdk/lite'));
  edge = await startEdge();
  helper = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:helper' });
  helper.on('question.asked', (event) => helper.reply(event, 'question.answered', { answer: `hello ${event.source}` }));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  helper?.close();
  await edge?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens `url` in Chromium and runs `ask(edge, name)` from the page's module `window.ask`. */
async function askInChromium(url, name) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  try {
    await page.goto(url);
    await page.waitForFunction(() => typeof window.ask === 'function', null, { timeout: 20_000 });
    const result = await page.evaluate(([edgeUrl, who]) => window.ask(edgeUrl, who), [edge.url, name]);
    assert.deepEqual(errors, []);
    return result;
  } finally {
    await page.close();
  }
}

/** The files of the package that a bundle's metafile took in, relative to the package. */
function packageInputs(metafile) {
  return Object.keys(metafile.inputs).filter((f) => f.includes('agentnet-sdk/')).map((f) => f.split('agentnet-sdk/')[1]).sort();
}

/** Serves `out`'s page.js and page-lite.js (bundled by `tool`, loaded with `scriptAttributes`)
 * and asks each page's agent in Chromium: the full core reads documents, the lite one does not. */
async function askFullAndLite(out, tool, scriptAttributes) {
  const server = await serveDirectory(out, { pages: {
    '/': `<!doctype html><title>${tool}</title><script${scriptAttributes} src="/page.js"></script>`,
    '/lite': `<!doctype html><title>${tool} lite</title><script${scriptAttributes} src="/page-lite.js"></script>`,
  } });
  try {
    assert.deepEqual(await askInChromium(`${server.url}/`, `human:${tool}`), { answer: `hello human:${tool}`, documents: 'yes' });
    assert.deepEqual(await askInChromium(`${server.url}/lite`, `human:${tool}-lite`), { answer: `hello human:${tool}-lite`, documents: 'not_supported' });
  } finally {
    await server.close();
  }
}

test('esbuild bundles the browser entry without node: modules, and the page is an agent (full and lite)', async () => {
  const out = join(dir, 'esbuild');
  for (const flavour of ['', '-lite']) {
    await writeFile(join(dir, `page${flavour}.js`), `import { ask } from './agent${flavour}.js';\nwindow.ask = ask;\n`);
  }
  const built = await runCommand(bin('esbuild'), ['page.js', 'page-lite.js', '--bundle', '--format=esm', '--platform=browser',
    `--outdir=${out}`, `--metafile=${join(dir, 'meta.json')}`, '--log-level=warning'], { cwd: dir, timeoutMs: 60_000 });
  assert.equal(built.code, 0, built.stderr);
  const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
  const inputs = packageInputs(meta);
  assert.ok(inputs.includes('entry/browser.js') && inputs.includes('entry/browser-lite.js'), inputs.join(' '));
  assert.ok(!inputs.some((f) => /^(index|lite)\.js$|load-node|workerd|deno/.test(f)), `only the browser entries: ${inputs}`);
  const imports = Object.values(meta.inputs).flatMap((input) => input.imports.map((i) => i.path));
  assert.deepEqual(imports.filter((p) => p.startsWith('node:') || p === 'ws'), [], 'no node: module or ws is reachable');
  // esbuild leaves wasm-bindgen's new URL('…_bg.wasm', import.meta.url) alone: the wasm goes beside the bundle (core/js/README.md).
  for (const wasm of ['agentnet_js_bg.wasm', 'agentnet_js_lite_bg.wasm']) {
    await copyFile(join(dir, 'node_modules', 'agentnet-sdk', 'pkg', wasm), join(out, wasm));
  }
  await askFullAndLite(out, 'esbuild', ' type="module"');
});

test('Vite builds a page with the package (the wasm emitted as an asset) and the page is an agent', async () => {
  const project = join(dir, 'vite-app');
  await mkdir(project);
  await writeFile(join(project, 'index.html'), '<!doctype html><title>vite</title><script type="module" src="./main.js"></script>\n');
  await writeFile(join(project, 'main.js'), "import { ask } from '../agent.js';\nwindow.ask = ask;\n");
  const built = await runCommand(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: project, timeoutMs: 120_000 });
  assert.equal(built.code, 0, built.stdout + built.stderr);
  const assets = await readdir(join(project, 'dist', 'assets'));
  assert.ok(assets.some((f) => /^agentnet_js_bg-.*\.wasm$/.test(f)), `the wasm is an asset: ${assets}`);
  const server = await serveDirectory(join(project, 'dist'));
  try {
    assert.deepEqual(await askInChromium(`${server.url}/`, 'human:vite'), { answer: 'hello human:vite', documents: 'yes' });
  } finally {
    await server.close();
  }
});

test('webpack bundles the browser entry (no node: module, the wasm emitted as an asset) and the page is an agent (full and lite)', async () => {
  const out = join(dir, 'webpack');
  for (const flavour of ['', '-lite']) {
    await writeFile(join(dir, `webpack-page${flavour}.js`), `import { ask } from './agent${flavour}.js';\nwindow.ask = ask;\n`);
  }
  // webpack's own API with its defaults for a browser target: the `browser` export condition,
  // top-level await, and `new URL('…_bg.wasm', import.meta.url)` emitted as an asset.
  await writeFile(join(dir, 'webpack-build.cjs'), `const webpack = require(${JSON.stringify(join(root, 'node_modules', 'webpack'))});
webpack({
  mode: 'production', target: 'web', context: __dirname, performance: { hints: false },
  entry: { page: './webpack-page.js', 'page-lite': './webpack-page-lite.js' },
  output: { path: ${JSON.stringify(out)}, filename: '[name].js', publicPath: '/' },
}, (err, stats) => {
  if (err || stats.hasErrors()) {
    console.error(err ?? JSON.stringify(stats.toJson({ all: false, errors: true }).errors, null, 1));
    process.exit(1);
  }
  const info = stats.toJson({ all: false, assets: true, modules: true, nestedModules: true });
  const names = (modules) => modules.flatMap((m) => [m.name, ...names(m.modules ?? [])]);
  console.log(JSON.stringify({ assets: info.assets.map((a) => a.name), modules: names(info.modules).filter(Boolean) }));
});
`);
  const built = await runCommand(process.execPath, ['webpack-build.cjs'], { cwd: dir, timeoutMs: 120_000 });
  assert.equal(built.code, 0, built.stdout + built.stderr);
  const { assets, modules } = JSON.parse(built.stdout.trim().split('\n').at(-1));
  assert.equal(assets.filter((a) => a.endsWith('.wasm')).length, 2, `both cores are assets: ${assets}`);
  const taken = modules.filter((m) => m.includes('agentnet-sdk/')).map((m) => m.split('agentnet-sdk/')[1]);
  assert.ok(taken.includes('entry/browser.js') && taken.includes('entry/browser-lite.js'), taken.join(' '));
  assert.ok(!taken.some((f) => /^(index|lite)\.js$|load-node|workerd|deno/.test(f)), `only the browser entries: ${taken}`);
  assert.deepEqual(modules.filter((m) => /^(node:|ws\b)|node_modules\/ws\//.test(m)), [], 'no node: module or ws is bundled');
  await askFullAndLite(out, 'webpack', '');
});

/** Writes a Worker project whose fetch handler runs agent`flavour`.js's `ask` as `name`, and starts it under wrangler dev. */
async function startAgentWorker(flavour, name) {
  const project = join(dir, `worker${flavour}`);
  await mkdir(project);
  await writeFile(join(project, 'wrangler.toml'), `name = "agentnet-sdk-worker"\nmain = "worker.js"\ncompatibility_date = "2026-04-01"\n`);
  await writeFile(join(project, 'worker.js'), `import { ask } from '../agent${flavour}.js';

export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname !== '/ask') return new Response('ready');
    return Response.json(await ask(env.EDGE_URL, '${name}'));
  },
};
`);
  return startWorker({ cwd: project, vars: { EDGE_URL: edge.url } });
}

test('a Worker under wrangler dev imports the package (wasm as a module) and is an agent of the edge (full and lite)', async () => {
  for (const [flavour, name, documents] of [['', 'agent:worker', 'yes'], ['-lite', 'agent:worker-lite', 'not_supported']]) {
    const worker = await startAgentWorker(flavour, name);
    try {
      const res = await fetch(`${worker.url}/ask`);
      assert.equal(res.status, 200, `${await res.clone().text()}\n${worker.log.join('')}`);
      assert.deepEqual(await res.json(), { answer: `hello ${name}`, documents });
    } finally {
      await worker.stop();
    }
  }
});

/** Runs a script with `runtime` (deno or bun, from the root node_modules) in the project; returns what it printed as JSON. */
async function runIn(runtime, args, flavour, name) {
  const script = `${runtime}${flavour}.js`;
  await writeFile(join(dir, script), `import { ask } from './agent${flavour}.js';
const entry = import.meta.resolve('agentnet-sdk${flavour.replace('-', '/')}').split('agentnet-sdk/')[1];
console.log(JSON.stringify({ entry, ...(await ask(${JSON.stringify(edge.url)}, '${name}')) }));
`);
  const run = await runCommand(bin(runtime), [...args, script], {
    cwd: dir, timeoutMs: 60_000, env: { DENO_DIR: join(dir, '.deno'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
  assert.equal(run.code, 0, run.stdout + run.stderr);
  return JSON.parse(run.stdout);
}

test('Deno runs the installed package from its deno entries', async () => {
  const args = ['run', '--allow-net', '--allow-read', '--allow-env'];
  assert.deepEqual(await runIn('deno', args, '', 'agent:deno'), { entry: 'entry/deno.js', answer: 'hello agent:deno', documents: 'yes' });
  assert.deepEqual(await runIn('deno', args, '-lite', 'agent:deno-lite'),
    { entry: 'entry/deno-lite.js', answer: 'hello agent:deno-lite', documents: 'not_supported' });
});

test('Bun runs the installed package from its bun (Node) entries', async () => {
  assert.deepEqual(await runIn('bun', ['run'], '', 'agent:bun'), { entry: 'index.js', answer: 'hello agent:bun', documents: 'yes' });
  assert.deepEqual(await runIn('bun', ['run'], '-lite', 'agent:bun-lite'), { entry: 'lite.js', answer: 'hello agent:bun-lite', documents: 'not_supported' });
});
