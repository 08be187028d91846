// A connection that dies without closing (a NAT that forgot the flow, a
// proxy that stopped forwarding): the agent's replica sends a heartbeat
// after a silence, notices that nothing answers, drops the socket and
// reconnects, then receives what it missed. Here a TCP proxy between the
// agent and the edge stops forwarding and leaves both sockets open.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, connect } from 'node:net';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { startEdge } from '../../support/edge.mjs';
import { until } from '../../support/waits.mjs';

/** The replica's default keepalive: a heartbeat after 15 s of silence, dead 10 s later. */
const HEARTBEAT_AFTER_MS = 15_000;
const HEARTBEAT_TIMEOUT_MS = 10_000;

let edge;
let proxy;

after(async () => {
  proxy?.close();
  await edge?.stop();
});

/**
 * A TCP proxy to `port`. `stall()` makes every connection open now swallow
 * what it carries, both ways, without closing either side; later connections
 * pass normally.
 */
function startProxy(port) {
  const pairs = new Set();
  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    const pair = { client, upstream, stalled: false };
    pairs.add(pair);
    client.on('data', (chunk) => { if (!pair.stalled) upstream.write(chunk); });
    upstream.on('data', (chunk) => { if (!pair.stalled) client.write(chunk); });
    const end = () => { pairs.delete(pair); client.destroy(); upstream.destroy(); };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}`,
      stall() {
        for (const pair of pairs) pair.stalled = true;
        return pairs.size;
      },
      close() {
        for (const pair of pairs) { pair.client.destroy(); pair.upstream.destroy(); }
        server.close();
      },
    }));
  });
}

test('an agent notices a half-open socket within its heartbeat timeout, reconnects and catches up', async () => {
  edge = await startEdge();
  proxy = await startProxy(edge.port);
  const agent = await Agent.connect({ url: proxy.url, network: 'demo', name: 'agent:behind-proxy', WebSocket });
  const other = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:direct', WebSocket });
  const got = [];
  agent.on('probe.item', (event) => got.push(event.payload.n));
  const changes = [];
  agent.onConnectionChange((change) => changes.push({ ...change, at: Date.now() }));

  await other.send('agent:behind-proxy', 'probe.item', { n: 1 });
  await until('the first item through the proxy', () => got.length === 1);

  const stalledAt = Date.now();
  assert.equal(proxy.stall(), 1, 'the agent has one connection through the proxy');
  // Sent into the dead link's other end: the network queues it for the agent.
  await other.send('agent:behind-proxy', 'probe.item', { n: 2 });
  assert.ok(agent.online, 'nothing closed: the agent cannot know yet');

  const limit = HEARTBEAT_AFTER_MS + HEARTBEAT_TIMEOUT_MS;
  await until('the agent to give the silent link up', () => changes.some((c) => !c.online), limit + 3_000);
  const noticed = changes.find((c) => !c.online).at - stalledAt;
  assert.ok(noticed <= limit + 1_000, `noticed after ${noticed} ms, within the heartbeat timeout (${limit} ms)`);

  await until('the agent to be back', () => agent.online, 15_000);
  await until('the item sent while the link was dead', () => got.length === 2, 10_000);
  assert.deepEqual(got, [1, 2], 'once each, in order');
  // And it sends again through its new connection.
  const ack = await agent.send('agent:direct', 'probe.item', { n: 3 }, { timeoutMs: 10_000 });
  assert.equal(typeof ack.seq, 'number');
  agent.close();
  other.close();
});
