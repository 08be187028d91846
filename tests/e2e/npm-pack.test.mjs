// The package as npm ships it: `npm pack`, installed into an empty directory,
// runs the README's quick start verbatim and the echo example against a local
// edge, and its TypeScript declarations type-check a user's program.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEdge } from '../support/edge.mjs';
import { runNode, startNode } from '../support/process.mjs';

const exec = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = join(root, 'core', 'js');
let edge;
let dir;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentnet-pack-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dir], { cwd: pkg });
  const [{ filename }] = JSON.parse(stdout);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'user-app', private: true, type: 'module' }));
  const wsVersion = JSON.parse(await readFile(join(root, 'node_modules', 'ws', 'package.json'), 'utf8')).version;
  await exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', join(dir, filename), `ws@${wsVersion}`], { cwd: dir });
  edge = await startEdge();
});

after(async () => {
  await edge?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the tarball holds what the package needs and nothing of the build', async () => {
  const { stdout } = await exec('npm', ['pack', '--dry-run', '--json'], { cwd: pkg });
  const files = JSON.parse(stdout)[0].files.map((f) => f.path).sort();
  for (const needed of ['index.js', 'index.d.ts', 'README.md', 'package.json', 'bin/agentnet.js', 'lib/agent.js',
    'examples/echo.js', 'pkg/agentnet_js.js', 'pkg/agentnet_js_bg.wasm']) {
    assert.ok(files.includes(needed), `${needed} is in the tarball`);
  }
  assert.ok(!files.some((f) => f.endsWith('.rs') || f.startsWith('src/') || f === 'Cargo.toml'), `no Rust sources: ${files}`);
  assert.ok((await stat(join(dir, 'node_modules', 'agentnet', 'pkg', 'agentnet_js_bg.wasm'))).size > 0);
});

test("the README's quick start runs verbatim from the installed package", async () => {
  const readme = await readFile(join(pkg, 'README.md'), 'utf8');
  const quickStart = readme.split('## Quick start')[1].match(/```js\n([\s\S]*?)```/)[1];
  await writeFile(join(dir, 'quickstart.mjs'), quickStart);
  const run = await runNode(['quickstart.mjs'], { cwd: dir, env: { AGENTNET_URL: edge.url } });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout.trim(), 'echo: hello');
});

test('the installed echo example and CLI work against the edge', async () => {
  const installed = join(dir, 'node_modules', 'agentnet');
  const echo = await startNode([join(installed, 'examples', 'echo.js')], {
    cwd: dir, env: { AGENTNET_URL: edge.url, AGENTNET_NETWORK: 'demo', AGENTNET_NAME: 'agent:packed-echo' }, ready: /echo ready/,
  });
  try {
    const sent = await runNode([join(dir, 'node_modules', '.bin', 'agentnet'), 'send', '--url', `${edge.url}/networks/demo`,
      'agent:packed-echo', 'chat.message', '{"text":"hi"}'], { cwd: dir });
    assert.equal(sent.code, 0, sent.stderr);
    assert.ok(JSON.parse(sent.stdout).seq > 0);
  } finally {
    await echo.stop();
  }
});

test("the TypeScript declarations type-check a user's program and catch misuse", async () => {
  const program = `import { Agent, AgentnetError, KeyPair, addressInfo, type AgentnetEvent } from 'agentnet';
const key: KeyPair = KeyPair.generate();
const agent: Agent = await Agent.connect({ url: 'http://127.0.0.1:8787', network: 'demo', name: 'openagents:me', key });
agent.on<{ text: string }>('chat.*', (event: AgentnetEvent<{ text: string }>) => { const t: string = event.payload.text; void t; });
const sum: number = await agent.invoke<number>('calculator', { a: 1, b: 2 });
const kind: string = addressInfo('resource/tool/x').kind;
try { await agent.send('core', 'x.y'); } catch (err) { if (err instanceof AgentnetError) console.log(err.code); }
void sum; void kind;
`;
  await writeFile(join(dir, 'app.ts'), program);
  await writeFile(join(dir, 'bad.ts'), `import { Agent } from 'agentnet';\nawait Agent.connect({ url: 'x' });\n`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'false'];
  const good = await runNode([tsc, ...flags, 'app.ts'], { cwd: dir, timeoutMs: 60_000 });
  assert.equal(good.code, 0, good.stdout + good.stderr);
  const bad = await runNode([tsc, ...flags, 'bad.ts'], { cwd: dir, timeoutMs: 60_000 });
  assert.notEqual(bad.code, 0);
  assert.match(bad.stdout, /name/, 'a missing name is a type error');
});
