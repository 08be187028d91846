// MCP servers brought into a network by the npm package (`agentnet-sdk/mcp`'s
// McpBridge and `agentnet-sdk mcp-bridge`) against a real edge (wrangler dev).
// The MCP servers are the official SDK's `McpServer`, over Streamable HTTP
// (in this process, on 127.0.0.1) and over stdio (a child process); their
// tools are called by WebSocket agents (`Agent.invoke`).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { z } from 'zod';
import { Agent } from '../../../core/js/index.js';
import { McpBridge } from '../../../core/js/mcp.js';
import { cli, edgeWithSecrets, stdioServer } from '../../support/cli-edge.mjs';
import { createNetwork } from '../../support/edge.mjs';
import { startHttpMcpServer } from '../../support/mcp-http-server.mjs';
import { processGone, startNode, until } from '../../support/process.mjs';

const setup = edgeWithSecrets('agentnet-mcp-secrets-');

function weatherTools(server) {
  server.registerTool('forecast', {
    description: 'the forecast for a city',
    inputSchema: { city: z.string() },
    outputSchema: { city: z.string(), celsius: z.number() },
  }, ({ city }) => {
    if (city === 'Atlantis') return { isError: true, content: [{ type: 'text', text: 'no forecast under the sea' }] };
    const forecast = { city, celsius: city.length };
    return { content: [{ type: 'text', text: JSON.stringify(forecast) }], structuredContent: forecast };
  });
  return {
    echo: server.registerTool('echo', { description: 'says it back', inputSchema: { text: z.string() } },
      ({ text }) => ({ content: [{ type: 'text', text }] })),
  };
}

const toolsOf = async (agent) => (await agent.discoverResources({ type: 'tool' })).map((r) => r.address).sort();

test('an MCP server over Streamable HTTP: its tools are called, refused without permission, follow list_changed and go with the bridge', async () => {
  let echo;
  const mcp = await startHttpMcpServer('weather', (server) => { ({ echo } = weatherTools(server)); });
  const { id: network } = await createNetwork(setup.edge.url, { name: 'mcp-http', mods: ['access-control'] });
  const owner = await Agent.connect({ url: setup.edge.url, network, name: 'agent:weather-bridge' });
  const alice = await Agent.connect({ url: setup.edge.url, network, name: 'agent:alice' });
  const mallory = await Agent.connect({ url: setup.edge.url, network, name: 'agent:mallory' });
  const bridge = await McpBridge.connect(owner, {
    url: mcp.url, prefix: 'weather', permissions: { read: 'network', invoke: 'agents:[agent:alice]' },
  });
  try {
    assert.deepEqual(bridge.tools.sort(), ['resource/tool/weather.echo', 'resource/tool/weather.forecast']);
    assert.equal(bridge.server.name, 'weather');

    // Described as the MCP server describes them, with the input schema it declares.
    const [forecastTool] = (await alice.discoverResources({ type: 'tool' })).filter((r) => r.address.endsWith('forecast'));
    assert.equal(forecastTool.owner, 'agent:weather-bridge');
    assert.equal(forecastTool.description, 'the forecast for a city');
    assert.deepEqual(forecastTool.schema.required, ['city']);
    assert.equal(forecastTool.schema.properties.city.type, 'string');

    // structuredContent comes back as the output; a text-only result as its text.
    assert.deepEqual(await alice.invoke('weather.forecast', { city: 'Oslo' }), { city: 'Oslo', celsius: 4 });
    assert.equal(await alice.invoke('weather.echo', { text: 'hello' }), 'hello');
    // A tool error (isError) and an input the server's schema refuses are errors with their text.
    await assert.rejects(alice.invoke('weather.forecast', { city: 'Atlantis' }), { code: 'tool_failed', message: 'no forecast under the sea' });
    // Input that does not fit the tool's schema is refused by the bridge's agent before any tools/call.
    await assert.rejects(alice.invoke('weather.forecast', { town: 'Oslo' }), { code: 'invalid_arguments', message: /required property 'city'/ });
    // The network enforces the permissions the bridging agent set.
    await assert.rejects(mallory.invoke('weather.echo', { text: 'hi' }), { code: 'forbidden' });

    // A tool added at runtime: list_changed, and the bridge registers it.
    const alerts = mcp.server.registerTool('alerts', { description: 'storm warnings', inputSchema: { region: z.string() } },
      ({ region }) => ({ content: [{ type: 'text', text: `no storms in ${region}` }] }));
    await until('weather.alerts is registered', async () => (await toolsOf(alice)).includes('resource/tool/weather.alerts'));
    assert.equal(await alice.invoke('weather.alerts', { region: 'north' }), 'no storms in north');
    // One removed at runtime is unregistered; one changed is registered anew.
    echo.remove();
    alerts.update({ description: 'storm and flood warnings' });
    await until('weather.echo is gone', async () => !(await toolsOf(alice)).includes('resource/tool/weather.echo'));
    await until('weather.alerts is described anew', async () => (await alice.read('resource/tool/weather.alerts')).description === 'storm and flood warnings');
    await assert.rejects(alice.invoke('weather.echo', { text: 'hi' }), { code: 'unknown_target' });
    assert.deepEqual(bridge.tools.sort(), ['resource/tool/weather.alerts', 'resource/tool/weather.forecast']);

    // Closing the bridge unregisters its tools.
    await bridge.close();
    assert.deepEqual(await toolsOf(alice), []);
    await assert.rejects(alice.invoke('weather.forecast', { city: 'Oslo' }), { code: 'unknown_target' });
  } finally {
    await bridge.close();
    owner.close();
    alice.close();
    mallory.close();
    await mcp.stop();
  }
});

/** Runs `body` with a network named `name` where `agent:text-bridge` bridges the stdio server
 * under the prefix `text` and `agent:bob` calls its tools; closes all three after. */
async function withTextBridge(name, body) {
  const { id: network } = await createNetwork(setup.edge.url, { name });
  const owner = await Agent.connect({ url: setup.edge.url, network, name: 'agent:text-bridge' });
  const bob = await Agent.connect({ url: setup.edge.url, network, name: 'agent:bob' });
  const bridge = await McpBridge.connect(owner, { command: process.execPath, args: [stdioServer], prefix: 'text' });
  try {
    await body(bridge, bob);
  } finally {
    await bridge.close();
    owner.close();
    bob.close();
  }
}

test('an MCP server over stdio: its tools are called, and when it exits its tools are gone', () =>
  withTextBridge('mcp-stdio', async (bridge, bob) => {
    assert.deepEqual(bridge.tools.sort(), ['resource/tool/text.quit', 'resource/tool/text.shout', 'resource/tool/text.whoami']);
    assert.equal(await bob.invoke('text.shout', { text: 'quiet' }), 'QUIET');
    const { pid } = await bob.invoke('text.whoami');
    assert.ok(Number.isInteger(pid) && pid !== process.pid, 'the tool ran in the server process');

    // The server exits on its own: the bridge closes and unregisters its tools.
    assert.equal(await bob.invoke('text.quit'), 'bye');
    await bridge.closed;
    assert.deepEqual(await toolsOf(bob), []);
    await until('the server process ended', () => processGone(pid));
  }));

test('closing a stdio bridge ends the server process', () =>
  withTextBridge('mcp-stdio-close', async (bridge, bob) => {
    const { pid } = await bob.invoke('text.whoami');
    await bridge.close();
    assert.deepEqual(await toolsOf(bob), []);
    await until('the server process ended', () => processGone(pid));
  }));

test('agentnet mcp-bridge brings a stdio MCP server into a network until it is stopped', async () => {
  const { id: network } = await createNetwork(setup.edge.url, { name: 'mcp-cli-bridge', mods: ['access-control'] });
  const carol = await Agent.connect({ url: setup.edge.url, network, name: 'agent:carol' });
  const dave = await Agent.connect({ url: setup.edge.url, network, name: 'agent:dave' });
  const bridge = await startNode([cli, 'mcp-bridge', '--url', setup.edge.url, '--network', network, '--name', 'agent:cli-bridge',
    '--prefix', 'txt', '--permissions', '{"invoke":"agents:[agent:carol]"}', '--', process.execPath, stdioServer], {
    env: { AGENTNET_SECRETS: join(setup.secrets, 'secrets.json') }, ready: /"tools"/,
  });
  try {
    const { tools } = JSON.parse(bridge.output.stdout.split('\n')[0]);
    assert.deepEqual(tools.sort(), ['resource/tool/txt.quit', 'resource/tool/txt.shout', 'resource/tool/txt.whoami']);
    assert.equal(await carol.invoke('txt.shout', { text: 'cli' }), 'CLI');
    await assert.rejects(dave.invoke('txt.shout', { text: 'cli' }), { code: 'forbidden' });
    await bridge.stop();
    assert.equal(bridge.child.exitCode, 0, bridge.output.stderr);
    assert.deepEqual(await toolsOf(carol), []);
  } finally {
    await bridge.stop();
  }
  // When the server goes away, the command unregisters its tools and fails.
  const again = await startNode([cli, 'mcp-bridge', '--url', setup.edge.url, '--network', network, '--name', 'agent:cli-bridge',
    '--prefix', 'txt', '--', process.execPath, stdioServer], { env: { AGENTNET_SECRETS: join(setup.secrets, 'secrets.json') }, ready: /"tools"/ });
  try {
    assert.equal(await carol.invoke('txt.quit'), 'bye');
    await until('the command exits', () => again.child.exitCode !== null);
    assert.equal(again.child.exitCode, 1);
    assert.match(again.output.stderr, /closed: the MCP server closed the connection/);
    assert.deepEqual(await toolsOf(carol), []);
  } finally {
    await again.stop();
    carol.close();
    dave.close();
  }
});
