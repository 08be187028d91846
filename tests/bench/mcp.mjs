// Benchmark: a tool call through MCP to an npm agent's tool, beside the same
// call over the WebSocket protocol, on loopback through `wrangler dev`.
// Run: node tests/bench/mcp.mjs  (after ./scripts/test or ./scripts/run has built everything)
// Prints: round-trip p50/p99 of one caller calling again and again, and
// calls/s with 10 concurrent callers — for an MCP client (the official SDK,
// @modelcontextprotocol/sdk, Streamable HTTP, revision 2025-11-25) and for an
// npm agent (`agent.invoke` over its WebSocket). The tool's owner is the
// same npm agent in both; it answers at once. For reference, the rate of a
// plain HTTP request into the same network object: 10 members POSTing
// events to /v1/events (one event, no tool, per request).

import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent } from '../../core/js/index.js';
import { createNetwork, startEdge } from '../support/edge.mjs';
import { joinToken } from '../support/http.mjs';
import { callRate, ms, roundTripsAndRate } from './stats.mjs';

/** Calls timed one after another (after a warmup), then concurrent callers' calls each. */
const LOAD = { runs: 300, warmup: 30, concurrent: 10, each: 100 };

async function mcpCaller(url, network, name) {
  const token = await joinToken(url, network, name);
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/networks/${network}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name, version: '1' }, { capabilities: {} });
  await client.connect(transport);
  return {
    call: async (n) => {
      const result = await client.callTool({ name: 'echo', arguments: { n } });
      if (result.isError || result.structuredContent?.n !== n) throw new Error(`bad answer ${JSON.stringify(result)}`);
    },
    close: () => client.close(),
  };
}

async function wsCaller(url, network, name) {
  const agent = await Agent.connect({ url, network, name, WebSocket });
  return {
    call: async (n) => {
      const output = await agent.invoke('echo', { n });
      if (output?.n !== n) throw new Error(`bad answer ${JSON.stringify(output)}`);
    },
    close: () => agent.close(),
  };
}

async function httpPoster(url, network, name) {
  const token = await joinToken(url, network, name);
  return {
    call: async (n) => {
      const res = await fetch(`${url}/networks/${network}/v1/events`, {
        method: 'POST', headers: { authorization: `Bearer ${token}` },
        body: JSON.stringify({ type: 'bench.ping', target: name, payload: { n } }),
      });
      if (res.status !== 200) throw new Error(`POST /v1/events answered ${res.status}`);
      await res.text();
    },
  };
}

const edge = await startEdge();
try {
  const { id } = await createNetwork(edge.url, { name: 'bench-mcp', mods: [] });
  const owner = await Agent.connect({ url: edge.url, network: id, name: 'agent:echo', WebSocket });
  await owner.registerTool('echo', { type: 'object' }, (input) => input, { description: 'answers its input' });
  const results = {};
  for (const [kind, make] of [['mcp', mcpCaller], ['websocket', wsCaller]]) {
    results[kind] = await roundTripsAndRate((name) => make(edge.url, id, `agent:${kind}-${name}`), LOAD);
  }
  const posters = await Promise.all(Array.from({ length: LOAD.concurrent }, (_, i) => httpPoster(edge.url, id, `agent:http-${i}`)));
  const httpRate = await callRate(posters.map((p) => p.call), LOAD.each);
  owner.close();
  console.log(`tools/call round trip to an npm agent's tool (${LOAD.runs} sequential calls; ${LOAD.concurrent} callers x ${LOAD.each} calls):`);
  for (const [kind, r] of Object.entries(results)) {
    console.log(`  ${kind.padEnd(10)} p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  ${Math.round(r.perSecond)} calls/s with ${LOAD.concurrent} concurrent callers`);
  }
  console.log(`  reference: POST /v1/events, ${Math.round(httpRate)} requests/s with ${LOAD.concurrent} concurrent HTTP members`);
} finally {
  await edge.stop();
}
