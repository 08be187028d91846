// Approvals answered from an MCP client: the official MCP TypeScript SDK
// (1.x, speaking 2025-11-25) connects as the network's master declaring the
// `elicitation` capability; an agent's `agent.approval()` reaches it as
// `elicitation/create`, and its answer is the master's decision — accepted
// and approved (with edited arguments) in a channel that names nobody,
// declined to a request sent to the master directly. A client without the
// capability is asked nothing; a second capable client still asking is
// cancelled once the approval is decided. A client that connects after an
// approval was asked is asked on the stream it opens.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { joinToken } from '../../support/http.mjs';
import { waitOut, until, within } from '../../support/waits.mjs';
import { watchingStream } from '../../support/mcp-client.mjs';

let edge;
let network;
let adminToken;

before(async () => {
  edge = await startEdge();
  ({ id: network, admin_token: adminToken } = await createNetwork(edge.url, { name: 'elicit', mods: ['workspace', 'persistence'] }));
});

after(async () => {
  await edge?.stop();
});

/** Joins as the master over HTTP; resolves with the bearer session token. */
const joinMaster = () => joinToken(edge.url, network, { agent_id: 'human:boss', credentials: { admin_token: adminToken } });

/**
 * The master's MCP client; `answer(request, extra)` answers each elicitation (the
 * requests are kept in `asked`). Resolves once its notification stream is open.
 */
async function mcpMaster(token, answer, capabilities = { elicitation: {} }) {
  const watched = watchingStream();
  const transport = new StreamableHTTPClientTransport(new URL(`${edge.url}/networks/${network}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } }, fetch: watched.fetch,
  });
  const client = new Client({ name: 'agentnet-elicitation-e2e', version: '1.0.0' }, { capabilities });
  const asked = [];
  if (capabilities.elicitation) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      asked.push(request);
      return answer(request, extra);
    });
  }
  await client.connect(transport);
  // The SDK opens its GET stream after `notifications/initialized`, and elicitations come on it.
  await within(watched.streamOpen, 10_000, 'GET stream of the master\'s client');
  return { client, asked };
}

const agent = (name) => Agent.connect({ url: edge.url, network, name, WebSocket });

test('accept + approve in the MCP client: agent.approval() resolves approved, as edited, by the master', async () => {
  const token = await joinMaster();
  const { client, asked } = await mcpMaster(token, () => ({
    action: 'accept',
    content: { decision: 'approve', arguments: '{"env": "staging", "version": "2.0.1"}', reason: 'staging first' },
  }));
  const plain = await mcpMaster(token, null, {});
  // A second capable client that leaves the question open: once the master decided in the
  // first, the network cancels it there (`notifications/cancelled` aborts the handler).
  let aborted = null;
  const open = await mcpMaster(token, (request, extra) => new Promise((resolve) => {
    extra.signal.addEventListener('abort', () => { aborted = String(extra.signal.reason); resolve({ action: 'cancel' }); });
  }));
  const deployer = await agent('agent:deployer');
  try {
    await deployer.createChannel('ops', { members: ['human:boss'] });
    const result = await deployer.approval({
      to: 'channel/ops', kind: 'tool_call', subject: 'deploy',
      summary: 'Deploy v2 to production', detail: { env: 'production', version: '2.0.1' }, expiresInMs: 60000,
    });
    assert.equal(result.decision, 'approved');
    assert.equal(result.by, 'human:boss');
    assert.equal(result.edited, true);
    assert.deepEqual(result.detail, { env: 'staging', version: '2.0.1' });
    assert.equal(result.reason, 'staging first');

    assert.equal(asked.length, 1, 'one elicitation, on the capable client');
    const { params } = asked[0];
    assert.equal(asked[0].method, 'elicitation/create');
    assert.match(params.message, /agent:deployer asks for your approval: Deploy v2 to production/);
    assert.match(params.message, /Tool call: deploy/);
    assert.match(params.message, /"env":"production"/);
    assert.equal(params.requestedSchema.type, 'object');
    assert.deepEqual(params.requestedSchema.required, ['decision']);
    assert.deepEqual(params.requestedSchema.properties.decision.oneOf.map((o) => o.const), ['approve', 'deny']);
    assert.equal(params.requestedSchema.properties.arguments.type, 'string');
    assert.equal(params.requestedSchema.properties.reason.type, 'string');
    assert.equal(plain.asked.length, 0, 'a client without the capability is asked nothing');
    assert.equal(open.asked.length, 1, 'each capable client of the master is asked');
    await until('the request cancelled in the other client', () => aborted !== null, 5000).catch(() => { /* asserted below */ });
    assert.match(aborted ?? 'not cancelled', /approval was approved/);
  } finally {
    deployer.close();
    await client.close();
    await plain.client.close();
    await open.client.close();
  }
});

test('decline in the MCP client: a request sent to the master directly is denied', async () => {
  const token = await joinMaster();
  const { client, asked } = await mcpMaster(token, () => ({ action: 'decline' }));
  const mailer = await agent('agent:mailer');
  try {
    const result = await mailer.approval({
      to: 'human:boss', kind: 'message', subject: 'channel/announce',
      summary: 'Announce the release', detail: 'v2 is out', expiresInMs: 60000,
    });
    assert.equal(result.decision, 'denied');
    assert.equal(result.by, 'human:boss');
    assert.equal(result.edited, false);
    assert.equal(result.detail, 'v2 is out');
    assert.equal(asked.length, 1);
    assert.match(asked[0].params.message, /Message to: channel\/announce/);
    assert.equal(asked[0].params.requestedSchema.properties.text.type, 'string');
  } finally {
    mailer.close();
    await client.close();
  }
});

test('a master whose MCP client was away is asked when it connects, and its answer decides', async () => {
  const token = await joinMaster();
  const releaser = await agent('agent:releaser');
  try {
    // Asked while no client of the master is connected.
    const decided = releaser.approval({
      to: 'human:boss', kind: 'message', subject: 'channel/announce',
      summary: 'Announce the late release', detail: 'v3 is out', expiresInMs: 60000,
    });
    await waitOut(500, 'the approval request stored while no client of the master is connected');
    const { client, asked } = await mcpMaster(token, () => ({ action: 'accept', content: { decision: 'approve' } }));
    try {
      const result = await decided;
      assert.equal(result.decision, 'approved');
      assert.equal(result.by, 'human:boss');
      assert.equal(asked.length, 1, 'asked once, on the stream the client opened');
      assert.match(asked[0].params.message, /agent:releaser asks for your approval: Announce the late release/);
    } finally {
      await client.close();
    }
  } finally {
    releaser.close();
  }
});
