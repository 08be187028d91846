// Idempotent MCP tool calls: a `tools/call` sent again with the same
// JSON-RPC request id in the same MCP session (a retry after a lost answer)
// gets the first call's result and does not invoke the tool again. The
// official TypeScript SDK (@modelcontextprotocol/sdk 1.x) makes the session
// (initialize, Mcp-Session-Id); its Client numbers requests itself and cannot
// resend one, so the same request is sent twice through the SDK's own
// StreamableHTTPClientTransport (`transport.send`), as its retry would.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { joinToken } from '../../support/http.mjs';
import { until, pace, expectNothingFor } from '../../support/waits.mjs';

const edge = edgeForFile();

/** An SDK client's session and its transport, with the answers it receives by request id. */
async function session(id, token) {
  const transport = new StreamableHTTPClientTransport(new URL(`${edge.url}/networks/${id}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'agentnet-e2e', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  const answers = new Map();
  const sdkHandler = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (typeof message.id === 'string' && message.id.startsWith('retry-')) {
      const list = answers.get(message.id) ?? [];
      list.push(message);
      answers.set(message.id, list);
      return;
    }
    sdkHandler?.(message, extra);
  };
  /** Sends `tools/call` of `name` as request `rid`; resolves with its answer. */
  const call = async (rid, name, args = {}) => {
    const before = answers.get(rid)?.length ?? 0;
    await transport.send({ jsonrpc: '2.0', id: rid, method: 'tools/call', params: { name, arguments: args } });
    await until(`an answer to ${rid}`, () => (answers.get(rid)?.length ?? 0) > before, 20_000, 20);
    return answers.get(rid)[before];
  };
  return { client, transport, call };
}

test('a tools/call retried with its request id in the same session runs the tool once', async () => {
  const { id } = await createNetwork(edge.url, { name: 'retries' });
  let runs = 0;
  const counter = await Agent.connect({ url: edge.url, network: id, name: 'agent:counter', WebSocket });
  try {
    await counter.registerTool('count', { type: 'object' }, async () => {
      runs += 1;
      await pace(300);
      return { count: runs };
    }, { description: 'counts its runs' });
    const token = await joinToken(edge.url, id, 'agent:claude');
    const { client, call } = await session(id, token);
    try {
      const first = await call('retry-1', 'count');
      assert.deepEqual(first.result.structuredContent, { count: 1 });
      // The answer was lost: the same request again is the same answer, and no second run.
      const again = await call('retry-1', 'count');
      assert.deepEqual(again.result, first.result);
      assert.equal(runs, 1);
      // Sent twice at once (a retry while the first still runs): one run, one result for both.
      const [a, b] = await Promise.all([call('retry-2', 'count'), call('retry-2', 'count')]);
      assert.deepEqual(a.result.structuredContent, { count: 2 });
      assert.deepEqual(b.result, a.result);
      assert.equal(runs, 2);
      // A built-in tool's retry does not post twice either: the counter hears one message.
      const heard = [];
      counter.on('workspace.message.posted', (event) => heard.push(event.id));
      const hello = { to: 'agent:counter', text: 'hello once' };
      const posted = await call('retry-3', 'agentnet_post', hello);
      assert.ok(posted.result && !posted.result.isError, JSON.stringify(posted));
      const reposted = await call('retry-3', 'agentnet_post', hello);
      assert.deepEqual(reposted.result, posted.result);
      await expectNothingFor(500, 'a second post of the retried message');
      assert.equal(heard.length, 1, JSON.stringify(heard));
      // Another request id is another call; the SDK's own calls are unaffected.
      const other = await client.callTool({ name: 'count', arguments: {} });
      assert.deepEqual(other.structuredContent, { count: 3 });
    } finally {
      await client.close();
    }
    // The same id in another session is another call.
    const fresh = await session(id, token);
    try {
      const elsewhere = await fresh.call('retry-1', 'count');
      assert.deepEqual(elsewhere.result.structuredContent, { count: 4 });
      assert.equal(runs, 4);
    } finally {
      await fresh.client.close();
    }
  } finally {
    counter.close();
  }
});
