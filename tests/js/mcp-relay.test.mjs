// The relay behind `agentnet-sdk mcp`, with the official SDK on both sides: an SDK
// client launches the CLI over stdio (`StdioClientTransport`), and the CLI
// joins and relays to an SDK `McpServer` served over Streamable HTTP where
// the network's endpoints would be (`/networks/{id}/v1/join` answering a
// session token, `/networks/{id}/mcp` demanding it). What the relay must keep:
// the bearer token, the session, the negotiated `MCP-Protocol-Version`,
// server notifications, JSON-RPC errors sent with an HTTP error, and the
// session's end (`DELETE`) when its client goes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { processGone, until } from '../support/process.mjs';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'core', 'js', 'bin', 'agentnet-sdk.js');
const TOKEN = 'f'.repeat(64);
let site;
let secrets;

/** Where the network's endpoints would be: a join that answers `TOKEN`, and an SDK McpServer at `/networks/demo/mcp`. */
async function startSite() {
  const seen = { joins: [], requests: [], deleted: [] };
  const mcp = new McpServer({ name: 'network-demo', version: '1.0.0' });
  mcp.registerTool('add', { description: 'adds', inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await mcp.connect(transport);
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks)) : undefined;
    const reply = (status, json) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    };
    // The CLI asks the network's profile before it joins (a network that is not there is unknown_network).
    if (req.url === '/networks/demo/v1/profile' && req.method === 'GET') return reply(200, { id: 'demo', transports: [] });
    if (req.url === '/networks/demo/v1/join' && req.method === 'POST') {
      seen.joins.push(body);
      return reply(200, { token: TOKEN, member: { address: body.agent_id }, member_secret: 's'.repeat(32) });
    }
    if (req.url !== '/networks/demo/mcp') return reply(404, { code: 'not_found', message: req.url });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return reply(401, { code: 'not_joined', message: 'no session' });
    seen.requests.push({ method: req.method, rpc: body?.method, version: req.headers['mcp-protocol-version'] });
    if (req.method === 'DELETE') seen.deleted.push(req.headers['mcp-session-id']);
    if (body?.method === 'tools/call' && body.params?.name === 'refused') {
      return reply(400, { jsonrpc: '2.0', id: body.id, error: { code: -32602, message: 'refused by the endpoint' } });
    }
    await transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    mcp, seen, url: `http://127.0.0.1:${http.address().port}`,
    stop: async () => {
      await mcp.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

before(async () => {
  secrets = await mkdtemp(join(tmpdir(), 'agentnet-mcp-relay-'));
  site = await startSite();
});

after(async () => {
  await site?.stop();
  await rm(secrets, { recursive: true, force: true });
});

test('agentnet mcp relays an SDK stdio client to the network endpoint, and ends the session when the client goes', async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'mcp', '--url', site.url, '--network', 'demo', '--name', 'agent:assistant', '--token', 'open-sesame'],
    env: { ...process.env, AGENTNET_SECRETS: join(secrets, 'secrets.json') },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'relay-test', version: '1.0.0' });
  const changes = [];
  client.setNotificationHandler(ToolListChangedNotificationSchema, (note) => { changes.push(note); });
  await client.connect(transport);
  const pid = transport.pid;
  try {
    assert.deepEqual(site.seen.joins, [{ agent_id: 'agent:assistant', credentials: { token: 'open-sesame' } }]);
    assert.equal(client.getServerVersion().name, 'network-demo', 'the endpoint answered initialize');

    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ['add']);
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    assert.deepEqual(sum.structuredContent, { sum: 5 });
    // Every request after initialize carries the negotiated revision (the newest both speak).
    const later = site.seen.requests.filter((r) => r.method === 'POST' && r.rpc !== 'initialize');
    assert.ok(later.length >= 2);
    for (const request of later) assert.equal(request.version, LATEST_PROTOCOL_VERSION, JSON.stringify(request));

    // A server notification reaches the client through the relay (the endpoint's GET stream).
    site.mcp.registerTool('multiply', { inputSchema: { a: z.number(), b: z.number() } },
      ({ a, b }) => ({ content: [{ type: 'text', text: String(a * b) }] }));
    await until('list_changed arrives', () => changes.length > 0);
    assert.deepEqual((await client.listTools()).tools.map((t) => t.name).sort(), ['add', 'multiply']);

    // A JSON-RPC error the endpoint sends with an HTTP error reaches the client as that error.
    await assert.rejects(client.callTool({ name: 'refused', arguments: {} }), { code: -32602, message: /refused by the endpoint/ });
  } finally {
    await client.close();
  }
  // The client closed stdin: the relay ended the MCP session and exited.
  await until('the session is deleted', () => site.seen.deleted.length === 1);
  await until('the relay exited', () => processGone(pid));
});
