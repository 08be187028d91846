// At-least-once delivery through the real edge: agents keep sending while the
// edge crashes (kill -9) and comes back; every event arrives exactly once, in order.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { startEdge } from '../../support/edge.mjs';
import { until, expectNothingFor } from '../../support/waits.mjs';

let edge;
let stateDir;

after(async () => {
  await edge?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

test('a stream survives an edge crash: nothing lost, nothing twice, order kept', async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'agentnet-reconnect-'));
  edge = await startEdge({ stateDir });
  const { port } = edge;
  const sender = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:sender', WebSocket });
  const receiver = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:receiver', WebSocket });
  const got = [];
  receiver.on('stream.item', (event) => got.push(event.payload.n));

  for (let n = 0; n < 5; n += 1) await sender.send('agent:receiver', 'stream.item', { n });
  await until('the first five items', () => got.length === 5);

  await edge.kill();
  await until('both agents to notice', () => !sender.online && !receiver.online);
  // Written while the edge is down: they wait in the sender's outbox.
  const pending = [];
  for (let n = 5; n < 10; n += 1) pending.push(sender.send('agent:receiver', 'stream.item', { n }));

  edge = await startEdge({ stateDir, port });
  const acks = await Promise.all(pending);
  assert.deepEqual(acks.map((a) => typeof a.seq), Array(5).fill('number'));
  await until('all ten items', () => got.length >= 10);
  await expectNothingFor(300, 'a duplicate');
  assert.deepEqual(got, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  sender.close();
  receiver.close();
});
