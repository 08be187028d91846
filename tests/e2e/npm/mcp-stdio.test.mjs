// `agentnet-sdk mcp`: a network served over MCP stdio for clients that only
// launch local processes. The official SDK's client (`Client` over
// `StdioClientTransport`, 1.x and 2.x) launches the CLI, which joins the
// network over HTTP and relays to the network's `/networks/{id}/mcp`
// endpoint, against a real edge (wrangler dev).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransport2 } from '@modelcontextprotocol/client/stdio';
import { Agent } from '../../../core/js/index.js';
import { McpBridge } from '../../../core/js/mcp.js';
import { cli, edgeWithSecrets, stdioServer } from '../../support/cli-edge.mjs';
import { createNetwork } from '../../support/edge.mjs';
import { runNode, until } from '../../support/process.mjs';

const setup = edgeWithSecrets('agentnet-mcp-stdio-');

/** How the SDK's stdio client transports launch `agentnet-sdk mcp …` with `args`. */
const command = (args) => ({
  command: process.execPath,
  args: [cli, 'mcp', '--url', setup.edge.url, ...args],
  env: { ...process.env, AGENTNET_SECRETS: join(setup.secrets, 'secrets.json') },
  stderr: 'pipe',
});

/** An SDK client that launches `agentnet-sdk mcp …` with `args`; `onToolsChanged` hears `list_changed`. */
async function launch(args, onToolsChanged = () => {}) {
  const transport = new StdioClientTransport(command(args));
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, onToolsChanged);
  await client.connect(transport);
  return client;
}

test("an SDK client over stdio lists and calls an npm agent's tool, as the member the CLI joined as, hears new tools and is refused what it may not invoke", async () => {
  const { id: network } = await createNetwork(setup.edge.url, { name: 'mcp-stdio-cli', mods: ['access-control'] });
  const calc = await Agent.connect({ url: setup.edge.url, network, name: 'agent:calc' });
  const callers = [];
  await calc.registerTool('add', {
    type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'],
  }, ({ a, b }, event) => {
    callers.push(event.source);
    return { sum: a + b };
  }, { description: 'adds two numbers' });
  await calc.registerTool('reset', { type: 'object' }, () => 'done', { description: 'resets', permissions: { invoke: 'agents:[agent:calc]' } });
  let changed = 0;
  const client = await launch(['--network', network, '--name', 'agent:assistant'], () => { changed += 1; });
  try {
    const { tools } = await client.listTools();
    const add = tools.find((tool) => tool.description === 'adds two numbers');
    assert.ok(add, `the npm agent's tool is listed: ${JSON.stringify(tools.map((t) => t.name))}`);
    assert.deepEqual(add.inputSchema.required, ['a', 'b']);
    const result = await client.callTool({ name: add.name, arguments: { a: 2, b: 3 } });
    assert.ok(!result.isError, JSON.stringify(result));
    assert.deepEqual(result.structuredContent, { sum: 5 });
    assert.deepEqual(callers, ['agent:assistant'], 'the call is an event from the member the CLI joined as');

    // A tool registered now: list_changed comes through the relay, and the list has it.
    await calc.registerTool('negate', { type: 'object', properties: { x: { type: 'number' } } }, ({ x }) => ({ value: -x }), { description: 'negates' });
    await until('list_changed arrives', () => changed > 0);
    assert.ok((await client.listTools()).tools.some((tool) => tool.description === 'negates'));
    // A tool it may not invoke: not listed, and a call is refused by the network.
    assert.ok(!tools.some((tool) => tool.description === 'resets'));
    const refused = await client.callTool({ name: 'reset', arguments: {} });
    assert.equal(refused.isError, true);
    assert.match(refused.content[0].text, /forbidden/);
    assert.deepEqual(callers, ['agent:assistant'], 'the refused call never reached the tool');
  } finally {
    await client.close();
    calc.close();
  }
  // The CLI kept the address's member secret: the next run joins as the same member.
  const kept = JSON.parse(await readFile(join(setup.secrets, 'secrets.json'), 'utf8'));
  assert.equal(Object.keys(kept).filter((slot) => slot.includes('agent:assistant')).length, 1);
  const again = await launch(['--network', network, '--name', 'agent:assistant']);
  await again.close();
});

test('the whole loop: an SDK McpServer bridged into a network is called by an SDK client through agentnet mcp', async () => {
  const { id: network } = await createNetwork(setup.edge.url, { name: 'mcp-loop' });
  const owner = await Agent.connect({ url: setup.edge.url, network, name: 'agent:text-bridge' });
  const bridge = await McpBridge.connect(owner, { command: process.execPath, args: [stdioServer], prefix: 'text' });
  const client = await launch(['--network', network, '--name', 'agent:loop']);
  try {
    const shout = (await client.listTools()).tools.find((tool) => tool.description === 'upper-cases text');
    assert.ok(shout, 'the bridged tool is listed with its description');
    assert.deepEqual(shout.inputSchema.required, ['text']);
    const result = await client.callTool({ name: shout.name, arguments: { text: 'round trip' } });
    assert.ok(!result.isError, JSON.stringify(result));
    assert.match(result.content[0].text, /ROUND TRIP/);
  } finally {
    await client.close();
    await bridge.close();
    owner.close();
  }
});

test('SDK 2.x clients go through the relay too: the revision it negotiates, and 2026-07-28 (headers mirrored from the envelope)', async () => {
  const { id: network } = await createNetwork(setup.edge.url, { name: 'mcp-stdio-2x' });
  const calc = await Agent.connect({ url: setup.edge.url, network, name: 'agent:calc' });
  await calc.registerTool('double', { type: 'object', properties: { x: { type: 'number' } } }, ({ x }) => ({ value: 2 * x }), { description: 'doubles' });
  try {
    for (const [who, negotiation, revision] of [
      ['agent:negotiating', {}, '2025-11-25'],
      ['agent:modern', { versionNegotiation: { mode: { pin: '2026-07-28' } } }, '2026-07-28'],
    ]) {
      const client = new Client2({ name: 'stdio-test-2x', version: '1.0.0' }, { capabilities: {}, ...negotiation });
      await client.connect(new StdioClientTransport2(command(['--network', network, '--name', who])));
      try {
        assert.equal(client.getNegotiatedProtocolVersion(), revision);
        const double = (await client.listTools()).tools.find((tool) => tool.description === 'doubles');
        assert.ok(double, `${revision}: the npm agent's tool is listed`);
        const result = await client.callTool({ name: double.name, arguments: { x: 21 } });
        assert.deepEqual(result.structuredContent, { value: 42 }, `${revision}: ${JSON.stringify(result)}`);
      } finally {
        await client.close();
      }
    }
  } finally {
    calc.close();
  }
});

test('agentnet mcp refuses to start when the network refuses the join, and says why on stderr', async () => {
  const { id: network } = await createNetwork(setup.edge.url, { name: 'mcp-token', access: { policy: 'token', token: 'open-sesame' } });
  const refused = await runNode([cli, 'mcp', '--url', setup.edge.url, '--network', network, '--name', 'agent:stranger'], {
    env: { AGENTNET_SECRETS: join(setup.secrets, 'secrets.json') },
  });
  assert.equal(refused.code, 1);
  assert.equal(refused.stdout, '', 'stdout carries JSON-RPC only');
  assert.match(refused.stderr, /^agentnet-sdk: access_denied: /, refused.stderr);
  const missing = await runNode([cli, 'mcp', '--network', network], { env: { AGENTNET_URL: '' } });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /mcp needs --url/);
});
