// `agentnet-sdk/mcp` without a network: the MCP SDK stays out of the default
// import path (and out of `agentnet-sdk/mcp` until a bridge or relay runs), a
// missing SDK is a clear error, MCP tool results map to invocation outputs
// and errors, and the relay mirrors a 2026-07-28 request's envelope in headers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AgentnetError } from '../../core/js/index.js';
import { bridgedToolName, invocationError, invocationOutput, toolArguments, toolRegistration } from '../../core/js/lib/mcp/results.js';
import { headerValue, mirroredHeaders } from '../../core/js/lib/mcp/http.js';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'core', 'js');

/** Module hooks that refuse to resolve the MCP SDK (`@modelcontextprotocol/…`), as if it were not installed. */
const WITHOUT_SDK = `
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('@modelcontextprotocol/')) throw new Error('blocked by the test: ' + specifier);
  return next(specifier, context);
}`;

/** Runs `code` (an ES module) in a Node process where the SDK cannot be resolved; resolves with its parsed stdout. */
function runWithoutSdk(code) {
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(WITHOUT_SDK)}`)});`;
  const result = spawnSync(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', code], {
    encoding: 'utf8', timeout: 30_000,
  });
  assert.equal(result.status, 0, result.stderr);
  return JSON.parse(result.stdout);
}

test("import('agentnet-sdk') and import('agentnet-sdk/mcp') do not load the MCP SDK; using MCP without it is not_supported", () => {
  const index = pathToFileURL(join(pkg, 'index.js')).href;
  const mcp = pathToFileURL(join(pkg, 'mcp.js')).href;
  const seen = runWithoutSdk(`
    const agentnet = await import(${JSON.stringify(index)});
    const { McpBridge, serveNetworkOverStdio } = await import(${JSON.stringify(mcp)});
    const agent = { registerTool() {}, unregisterTool() {} };
    const outcome = (promise) => promise.then(() => ({ ok: true }), (err) => ({ code: err.code, message: err.message }));
    console.log(JSON.stringify({
      agent: typeof agentnet.Agent,
      bridge: await outcome(McpBridge.connect(agent, { url: 'http://127.0.0.1:9/mcp', prefix: 'x' })),
      stdio: await outcome(serveNetworkOverStdio({ url: 'http://127.0.0.1:9', network: 'demo', name: 'agent:x' })),
    }));
  `);
  assert.equal(seen.agent, 'function', 'agentnet loads without the SDK');
  for (const use of [seen.bridge, seen.stdio]) {
    assert.equal(use.code, 'not_supported');
    assert.match(use.message, /npm install @modelcontextprotocol\/sdk/);
  }
});

test('an MCP result becomes the invocation output: structured content, else text, else the content blocks', () => {
  assert.deepEqual(invocationOutput({ content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } }), { a: 1 });
  assert.equal(invocationOutput({ content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }), 'one\ntwo');
  const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
  assert.deepEqual(invocationOutput({ content: [{ type: 'text', text: 'a chart' }, image] }), { content: [{ type: 'text', text: 'a chart' }, image] });
  assert.deepEqual(invocationOutput({ content: [] }), { content: [] });
  assert.equal(invocationOutput({ content: [], structuredContent: 0 }), 0);
});

test('an MCP tool error or a failed call becomes an AgentnetError with a stable code', () => {
  assert.throws(() => invocationOutput({ isError: true, content: [{ type: 'text', text: 'disk full' }] }),
    (err) => err instanceof AgentnetError && err.code === 'tool_failed' && err.message === 'disk full');
  assert.throws(() => invocationOutput({ isError: true, content: [] }), { code: 'tool_failed', message: 'the MCP tool failed' });
  // The SDK's McpError codes (JSON-RPC error codes).
  const rpc = (code, message) => Object.assign(new Error(message), { code });
  assert.equal(invocationError(rpc(-32001, 'Request timed out')).code, 'timeout');
  assert.equal(invocationError(rpc(-32000, 'Connection closed')).code, 'owner_offline');
  assert.equal(invocationError(rpc(-32602, 'Invalid params')).code, 'invalid_request');
  assert.equal(invocationError(rpc(-32601, 'Method not found')).code, 'not_supported');
  assert.equal(invocationError(new Error('socket hang up')).code, 'tool_failed');
  assert.equal(invocationError(rpc(-32602, 'Invalid params')).message, 'Invalid params');
});

test('MCP tools are named {prefix}.{name} when that makes a tool address, and take object input', () => {
  assert.equal(bridgedToolName('weather', 'get_forecast'), 'weather.get_forecast');
  assert.throws(() => bridgedToolName('weather', 'has space'), { code: 'invalid_address' });
  assert.throws(() => bridgedToolName('weather', 'a/b'), { code: 'invalid_address' });
  assert.throws(() => bridgedToolName('weather', 'x'.repeat(128)), { code: 'invalid_address' });
  assert.throws(() => bridgedToolName('weather', 42), { code: 'invalid_argument' });
  assert.deepEqual(toolRegistration({ name: 'f', title: 'Forecast', inputSchema: { type: 'object', required: ['city'] } }),
    { description: 'Forecast', schema: { type: 'object', required: ['city'] } });
  assert.deepEqual(toolArguments(undefined), {});
  assert.deepEqual(toolArguments({ city: 'Oslo' }), { city: 'Oslo' });
  assert.throws(() => toolArguments('Oslo'), { code: 'invalid_request' });
  assert.throws(() => toolArguments([1]), { code: 'invalid_request' });
});

test('a 2026-07-28 request is mirrored in headers (plain ASCII or base64), and nothing else is', () => {
  const meta = { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } };
  assert.deepEqual(mirroredHeaders({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { ...meta, name: 'add', arguments: {} } }),
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' });
  assert.deepEqual(mirroredHeaders({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { ...meta, uri: 'openagents://demo/resource/file/ä.md' } }),
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'resources/read', 'mcp-name': `=?base64?${Buffer.from('openagents://demo/resource/file/ä.md').toString('base64')}?=` });
  assert.deepEqual(mirroredHeaders({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: meta }),
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
  // Legacy requests (no envelope), notifications and answers get none.
  assert.deepEqual(mirroredHeaders({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'add' } }), {});
  assert.deepEqual(mirroredHeaders({ jsonrpc: '2.0', method: 'notifications/initialized', params: meta }), {});
  assert.deepEqual(mirroredHeaders({ jsonrpc: '2.0', id: 5, result: {} }), {});
  assert.deepEqual(mirroredHeaders(undefined), {});
  for (const plain of ['add', 'with space', 'a\tb']) assert.equal(headerValue(plain), plain);
  for (const encoded of ['', ' padded', 'naïve', 'line\nbreak', '=?base64?eA==?=']) {
    const value = headerValue(encoded);
    assert.match(value, /^=\?base64\?[A-Za-z0-9+/=]*\?=$/);
    assert.equal(Buffer.from(value.slice(9, -2), 'base64').toString('utf8'), encoded);
  }
});
