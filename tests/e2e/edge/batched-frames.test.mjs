// Batched frames through the real runtime: a client that asks for them at its
// upgrade (`?frames=batch`) sends and receives several events per WebSocket
// frame; a client that does not ask keeps getting one event per frame; a
// malformed batch is refused with a clear error and the socket survives; the
// npm agent batches its bursts once the network has sent it a batch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';
import { bareSocket, eventFrame } from '../../support/frames.mjs';

const edge = edgeForFile();

const open = (name) => createNetwork(edge.url, { name, access: { policy: 'open' }, mods: ['workspace', 'persistence'] });

test('a batched frame carries a burst both ways; a client that did not ask gets one event per frame', async () => {
  const { id } = await open('batched');
  const sender = await bareSocket(edge.url, id, 'agent:batcher', { batched: true });
  const plain = await bareSocket(edge.url, id, 'agent:plain');
  const batchedReader = await bareSocket(edge.url, id, 'agent:reader', { batched: true });

  const burst = Array.from({ length: 40 }, (_, n) => eventFrame('probe.item', 'agent:batcher', 'agent:broadcast', { n }));
  sender.socket.send(`[${burst.join(',')}]`);

  const items = (bare) => bare.events.filter((e) => e.type === 'probe.item');
  await until('every item at both readers', () => items(plain).length === 40 && items(batchedReader).length === 40);
  await until('an ack for every item', () => sender.events.filter((e) => e.type === 'network.event.ack').length === 40);
  assert.deepEqual(items(plain).map((e) => e.payload.n), burst.map((_, n) => n), 'in order');
  assert.deepEqual(items(batchedReader).map((e) => e.payload.n), burst.map((_, n) => n), 'in order');
  const seqs = items(plain).map((e) => e.metadata.delivery.seq);
  assert.deepEqual(items(batchedReader).map((e) => e.metadata.delivery.seq), seqs, 'the same sequence for both formats');
  assert.ok(plain.frames.every((f) => f.startsWith('{')), 'never a batch to a client that did not ask');
  assert.ok(sender.frames.every((f) => f.startsWith('[')), 'a client that asked gets batches, its acks too');
  assert.ok(sender.frames.length < 40, `the 40 acks came in fewer frames (${sender.frames.length})`);
  const readerItemFrames = batchedReader.frames.filter((f) => f.includes('probe.item')).length;
  assert.ok(readerItemFrames < 40, `the batching reader got the burst in fewer frames (${readerItemFrames})`);

  // An older client may send a batch too: the network takes them from every socket.
  plain.socket.send(`[${eventFrame('probe.item', 'agent:plain', 'agent:reader', { n: 'a' })},${eventFrame('probe.item', 'agent:plain', 'agent:reader', { n: 'b' })}]`);
  await until('both events from the older client', () => items(batchedReader).filter((e) => typeof e.payload.n === 'string').length === 2);
  for (const bare of [sender, plain, batchedReader]) bare.socket.close();
});

test('a malformed batch gets malformed_event, and the socket and the network go on', async () => {
  const { id } = await open('batched-bad');
  const bare = await bareSocket(edge.url, id, 'agent:careless', { batched: true });
  const good = eventFrame('probe.item', 'agent:careless', 'agent:careless', { n: 1 });
  bare.socket.send(`[${good},`);
  await until('the error', () => bare.events.some((e) => e.type === 'network.event.error'));
  const error = bare.events.find((e) => e.type === 'network.event.error');
  assert.equal(error.payload.code, 'malformed_event');
  assert.equal(bare.closed, null, 'one bad frame does not close the socket');
  // In a well-formed batch, a bad element is refused alone; the others are taken.
  bare.socket.send(`[${good},{"nope":1},${eventFrame('probe.item', 'agent:careless', 'agent:careless', { n: 2 })}]`);
  await until('both good events delivered back', () => bare.events.filter((e) => e.type === 'probe.item').length === 2);
  assert.equal(bare.events.filter((e) => e.type === 'network.event.error').length, 2);
  bare.socket.close();
});

test('npm agents batch their bursts once the network has sent them a batch', async () => {
  const { id } = await open('batched-npm');
  const written = [];
  /** The `ws` class, noting each frame the agent writes. */
  class Noting extends WebSocket {
    send(data, ...rest) {
      written.push(String(data));
      return super.send(data, ...rest);
    }
  }
  const a = await Agent.connect({ url: edge.url, network: id, name: 'agent:npm-a', WebSocket: Noting });
  const b = await Agent.connect({ url: edge.url, network: id, name: 'agent:npm-b', WebSocket });
  const got = [];
  b.on('probe.item', (event) => got.push(event.payload.n));
  const sent = await Promise.all(Array.from({ length: 200 }, (_, n) => a.send('agent:npm-b', 'probe.item', { n })));
  assert.equal(sent.length, 200);
  await until('all 200 at b', () => got.length === 200);
  assert.deepEqual(got, Array.from({ length: 200 }, (_, n) => n), 'exactly once, in order');
  // A shared socket's frames start with their lane (`0:`); the batch is what follows.
  const carrying = written.filter((f) => f.includes('probe.item')).map((f) => f.replace(/^\d+:/, ''));
  assert.ok(carrying.some((f) => f.startsWith('[')), 'the burst went out batched');
  assert.ok(carrying.length < 20, `200 events in ${carrying.length} frames`);
  await a.close();
  await b.close();
});
