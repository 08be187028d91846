// The package as npm ships it: `npm pack`, installed into an empty directory,
// runs the README's quick start verbatim and the echo example against a local
// edge, and its TypeScript declarations type-check a user's program. Its MCP
// part (`agentnet-sdk/mcp`) loads without the MCP SDK and says to install it; once
// it is installed, the README's MCP example runs verbatim and `agentnet
// mcp-bridge` brings a stdio MCP server into a network.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, readFile, rm, writeFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { startEdge } from '../../support/edge.mjs';
import { startHttpMcpServer } from '../../support/mcp-http-server.mjs';
import { runNode, startNode } from '../../support/process.mjs';

const exec = promisify(execFile);
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const pkg = join(root, 'core', 'js');
let edge;
let dir;

/** The version of `name` in the repository's root node_modules (the one the tests pin). */
async function pinned(name) {
  return JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
}

const install = (...specs) => exec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...specs], { cwd: dir });

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentnet-pack-'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', dir], { cwd: pkg });
  const [{ filename }] = JSON.parse(stdout);
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'user-app', private: true, type: 'module' }));
  await install(join(dir, filename), `ws@${await pinned('ws')}`);
  edge = await startEdge();
});

after(async () => {
  await edge?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('the tarball holds what the package needs and nothing of the build', async () => {
  const { stdout } = await exec('npm', ['pack', '--dry-run', '--json'], { cwd: pkg });
  const files = JSON.parse(stdout)[0].files.map((f) => f.path).sort();
  for (const needed of ['index.js', 'index.d.ts', 'README.md', 'LICENSE', 'package.json', 'bin/agentnet-sdk.js', 'lib/agent.js',
    'lite.js', 'lite.d.ts', 'entry/browser.js', 'entry/browser-lite.js', 'entry/workerd.js', 'entry/workerd-lite.js',
    'entry/deno.js', 'entry/deno-lite.js', 'pkg/agentnet_js_lite.js', 'pkg/agentnet_js_lite_bg.wasm',
    'examples/echo.js', 'pkg/agentnet_js.js', 'pkg/agentnet_js_bg.wasm',
    'mcp.js', 'mcp.d.ts', 'types/answers.d.ts', 'types/agent.d.ts', 'types/llm.d.ts', 'types/generated/index.d.ts', 'types/generated/payloads.d.ts', 'lib/mcp/bridge.js', 'lib/mcp/http.js', 'lib/mcp/results.js', 'lib/mcp/sdk.js', 'lib/mcp/stdio.js']) {
    assert.ok(files.includes(needed), `${needed} is in the tarball`);
  }
  assert.ok(!files.some((f) => f.endsWith('.rs') || f.startsWith('src/') || f === 'Cargo.toml'), `no Rust sources: ${files}`);
  assert.ok((await stat(join(dir, 'node_modules', 'agentnet-sdk', 'pkg', 'agentnet_js_bg.wasm'))).size > 0);
});

test("the README's quick start runs verbatim from the installed package, and again", async () => {
  const readme = await readFile(join(pkg, 'README.md'), 'utf8');
  const quickStart = readme.split('## Quick start')[1].match(/```js\n([\s\S]*?)```/)[1];
  await writeFile(join(dir, 'quickstart.mjs'), quickStart);
  // The second run joins as the same addresses: the SDK kept their member secrets (in this test's own file).
  for (const run of [1, 2]) {
    const ran = await runNode(['quickstart.mjs'], { cwd: dir, env: { AGENTNET_URL: edge.url, AGENTNET_SECRETS: join(dir, 'secrets.json') } });
    assert.equal(ran.code, 0, `run ${run}: ${ran.stderr}`);
    assert.equal(ran.stdout.trim(), 'echo: hello', `run ${run}`);
  }
});

test('the installed echo example and CLI work against the edge', async () => {
  const installed = join(dir, 'node_modules', 'agentnet-sdk');
  const echo = await startNode([join(installed, 'examples', 'echo.js')], {
    cwd: dir, env: { AGENTNET_URL: edge.url, AGENTNET_NETWORK: 'demo', AGENTNET_NAME: 'agent:packed-echo' }, ready: /echo ready/,
  });
  try {
    const sent = await runNode([join(dir, 'node_modules', '.bin', 'agentnet-sdk'), 'send', '--url', `${edge.url}/networks/demo`,
      'agent:packed-echo', 'workspace.message.posted', '{"content":"hi"}', '--wait'], { cwd: dir, env: { AGENTNET_SECRETS: join(dir, 'secrets.json') } });
    assert.equal(sent.code, 0, sent.stderr);
    assert.equal(JSON.parse(sent.stdout).payload.content, 'echo: hi');
  } finally {
    await echo.stop();
  }
});

test('without the MCP SDK installed, agentnet-sdk and agentnet-sdk/mcp load, and MCP says what to install', async () => {
  const script = `import { Agent } from 'agentnet-sdk';
import { McpBridge } from 'agentnet-sdk/mcp';
const agent = await Agent.connect({ url: process.env.AGENTNET_URL, network: 'demo', name: 'agent:packed-no-sdk' });
try {
  await McpBridge.connect(agent, { url: 'http://127.0.0.1:9/mcp', prefix: 'x' });
} catch (err) {
  console.log(err.code, err.message);
}
agent.close();
`;
  await writeFile(join(dir, 'no-sdk.mjs'), script);
  const run = await runNode(['no-sdk.mjs'], { cwd: dir, env: { AGENTNET_URL: edge.url } });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^not_supported MCP needs the @modelcontextprotocol\/sdk package \(npm install @modelcontextprotocol\/sdk\)/);
});

test("with the MCP SDK installed, the README's MCP example runs verbatim and the CLI bridges a stdio server", async () => {
  await install(`@modelcontextprotocol/sdk@${await pinned('@modelcontextprotocol/sdk')}`);
  const mcp = await startHttpMcpServer('weather', (server) => {
    server.registerTool('forecast', { inputSchema: { city: z.string() }, outputSchema: { city: z.string(), celsius: z.number() } },
      ({ city }) => ({ content: [{ type: 'text', text: city }], structuredContent: { city, celsius: 7 } }));
  });
  try {
    const readme = await readFile(join(pkg, 'README.md'), 'utf8');
    const example = readme.split('### An MCP server\'s tools in a network')[1].match(/```js\n([\s\S]*?)```/)[1];
    await writeFile(join(dir, 'mcp-example.mjs'), example);
    const run = await runNode(['mcp-example.mjs'], { cwd: dir, env: { AGENTNET_URL: edge.url, MCP_SERVER_URL: mcp.url } });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stdout.trim().split('\n'), ["[ 'resource/tool/weather.forecast' ]", "{ celsius: 7, city: 'Oslo' }"]);
  } finally {
    await mcp.stop();
  }
  const bridge = await startNode([join(dir, 'node_modules', '.bin', 'agentnet-sdk'), 'mcp-bridge', '--url', edge.url, '--network', 'demo',
    '--name', 'agent:packed-bridge', '--prefix', 'packed', '--', process.execPath, join(root, 'tests', 'support', 'mcp-stdio-server.mjs')], {
    cwd: dir, env: { AGENTNET_SECRETS: join(dir, 'secrets.json') }, ready: /"tools"/,
  });
  try {
    assert.ok(JSON.parse(bridge.output.stdout).tools.includes('resource/tool/packed.shout'), bridge.output.stdout);
    const invoked = await runNode([join(dir, 'node_modules', '.bin', 'agentnet-sdk'), 'invoke', '--url', edge.url, '--network', 'demo',
      'packed.shout', '{"text":"packed"}'], { cwd: dir, env: { AGENTNET_SECRETS: join(dir, 'secrets.json') } });
    assert.equal(invoked.code, 0, invoked.stderr);
    assert.equal(JSON.parse(invoked.stdout), 'PACKED');
  } finally {
    await bridge.stop();
  }
});

test("the TypeScript declarations type-check a user's program and catch misuse", async () => {
  const program = `import { Agent, AgentnetError, KeyPair, addressInfo, type AgentnetEvent } from 'agentnet-sdk';
const key: KeyPair = KeyPair.generate();
const agent: Agent = await Agent.connect({ url: 'http://127.0.0.1:8787', network: 'demo', name: 'openagents:me', key, secretStore: new Map<string, string>() });
agent.on<{ text: string }>('chat.*', (event: AgentnetEvent<{ text: string }>) => { const t: string = event.payload.text; void t; });
agent.on<{ content: string }>('workspace.message.posted', async (event) => { await event.reply('echo: ' + event.payload.content); });
await agent.post('channel/general', 'hi', { inReplyTo: 'x' });
await Agent.connect({ url: 'http://127.0.0.1:8787', network: 'demo', name: 'agent:nothing-kept', secretStore: false });
const sum: number = await agent.invoke<number>('calculator', { a: 1, b: 2 });
const kind: string = addressInfo('resource/tool/x').kind;
try { await agent.send('core', 'x.y'); } catch (err) { if (err instanceof AgentnetError) console.log(err.code); }
void sum; void kind;
`;
  const mcpProgram = `import { Agent } from 'agentnet-sdk';
import { McpBridge, serveNetworkOverStdio, type McpTool } from 'agentnet-sdk/mcp';
declare const agent: Agent;
const bridge: McpBridge = await McpBridge.connect(agent, {
  command: 'node', args: ['server.js'], prefix: 'local',
  permissions: (tool: McpTool) => (tool.annotations?.readOnlyHint ? { invoke: 'network' } : { invoke: 'owner' }),
  onError: (err) => console.log(err.code),
});
const tools: string[] = bridge.tools;
await McpBridge.connect(agent, { url: new URL('http://127.0.0.1:3000/mcp'), headers: { authorization: 'Bearer x' }, prefix: 'remote' });
const served = await serveNetworkOverStdio({ url: 'http://127.0.0.1:8787', network: 'demo', name: 'agent:assistant' });
const secret: string | undefined = served.memberSecret;
await served.closed;
await bridge.close();
void tools; void secret;
`;
  await writeFile(join(dir, 'app.ts'), program);
  await writeFile(join(dir, 'mcp-app.ts'), mcpProgram);
  await writeFile(join(dir, 'bad.ts'), `import { Agent } from 'agentnet-sdk';\nawait Agent.connect({ url: 'x' });\n`);
  await writeFile(join(dir, 'bad-mcp.ts'), `import { Agent } from 'agentnet-sdk';\nimport { McpBridge } from 'agentnet-sdk/mcp';\ndeclare const agent: Agent;\nawait McpBridge.connect(agent, { url: 'http://x', command: 'node', prefix: 'p' });\nawait McpBridge.connect(agent, { url: 'http://x' });\n`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'false'];
  const good = await runNode([tsc, ...flags, 'app.ts', 'mcp-app.ts'], { cwd: dir, timeoutMs: 60_000 });
  assert.equal(good.code, 0, good.stdout + good.stderr);
  const bad = await runNode([tsc, ...flags, 'bad.ts'], { cwd: dir, timeoutMs: 60_000 });
  assert.notEqual(bad.code, 0);
  assert.match(bad.stdout, /name/, 'a missing name is a type error');
  const badMcp = await runNode([tsc, ...flags, 'bad-mcp.ts'], { cwd: dir, timeoutMs: 60_000 });
  assert.match(badMcp.stdout, /bad-mcp\.ts\(4,/, 'a url and a command together are a type error');
  assert.match(badMcp.stdout, /bad-mcp\.ts\(5,.*prefix/s, 'a missing prefix is a type error');
});
