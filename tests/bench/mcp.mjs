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
import { ms, quantile } from './stats.mjs';

const LATENCY_CALLS = 300;
const WARMUP = 30;
const CONCURRENT = 10;
const CALLS_EACH = 100;

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
    close: () => {},
  };
}

async function latency(caller) {
  const times = [];
  for (let n = 0; n < WARMUP + LATENCY_CALLS; n += 1) {
    const started = performance.now();
    await caller.call(n);
    if (n >= WARMUP) times.push(performance.now() - started);
  }
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
}

async function throughput(callers) {
  await Promise.all(callers.map((c) => c.call(-1)));
  const started = performance.now();
  await Promise.all(callers.map(async (c) => {
    for (let n = 0; n < CALLS_EACH; n += 1) await c.call(n);
  }));
  return (callers.length * CALLS_EACH) / ((performance.now() - started) / 1000);
}

const edge = await startEdge();
try {
  const { id } = await createNetwork(edge.url, { name: 'bench-mcp', mods: [] });
  const owner = await Agent.connect({ url: edge.url, network: id, name: 'agent:echo', WebSocket });
  await owner.registerTool('echo', { type: 'object' }, (input) => input, { description: 'answers its input' });
  const results = {};
  for (const [kind, make] of [['mcp', mcpCaller], ['websocket', wsCaller]]) {
    const one = await make(edge.url, id, `agent:${kind}-latency`);
    results[kind] = await latency(one);
    await one.close();
    const many = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => make(edge.url, id, `agent:${kind}-${i}`)));
    results[kind].callsPerSecond = await throughput(many);
    await Promise.all(many.map((c) => c.close()));
  }
  const posters = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => httpPoster(edge.url, id, `agent:http-${i}`)));
  const httpRate = await throughput(posters);
  owner.close();
  console.log(`tools/call round trip to an npm agent's tool (${LATENCY_CALLS} sequential calls; ${CONCURRENT} callers x ${CALLS_EACH} calls):`);
  for (const [kind, r] of Object.entries(results)) {
    console.log(`  ${kind.padEnd(10)} p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  ${Math.round(r.callsPerSecond)} calls/s with ${CONCURRENT} concurrent callers`);
  }
  console.log(`  reference: POST /v1/events, ${Math.round(httpRate)} requests/s with ${CONCURRENT} concurrent HTTP members`);
} finally {
  await edge.stop();
}
