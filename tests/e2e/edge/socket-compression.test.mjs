// Per-message compression (permessage-deflate) is refused on every socket of a
// deployed edge: browsers, Node's own WebSocket (undici, Node 22 and later)
// and Python's `websockets` offer it at every upgrade, and each socket that
// takes it costs workerd about three times the memory of one that does not
// (tests/bench/memory.mjs with MEMORY_DEFLATE=1: ~307 against ~93 KiB) for
// frames that are small JSON events. edge-worker/wrangler.toml's
// `no_web_socket_compression` flag refuses it.
//
// The edge here runs under `workerd serve` with the Workers' wrangler.toml
// settings, compatibility flags included (tests/support/workerd-serve.mjs), as
// a deployment runs it: under `wrangler dev`, Miniflare's own entry Worker
// stands in front of the edge and answers the offer itself. It is the test
// build (edge-worker/build-test, the deploy build's code and the test hooks):
// the deploy build is rewritten by the deploy test, which may run beside this
// one.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createNetwork } from '../../support/edge.mjs';
import { bareSocket, eventFrame } from '../../support/frames.mjs';
import { until } from '../../support/process.mjs';
import { serveEdge } from '../../support/workerd-serve.mjs';

const edge = await serveEdge({ testHooks: true });
after(() => edge.stop());

test('a socket that offers compression gets none, and its events flow, on the network object and through a gateway', async () => {
  const networks = [
    await createNetwork(edge.url, { name: 'compression-offered', access: { policy: 'open' }, mods: ['persistence'] }),
    await createNetwork(edge.url, { name: 'compression-offered-gw', access: { policy: 'open' }, mods: ['persistence'], gateways: { count: 2 } }),
  ];
  for (const { id } of networks) {
    const writer = await bareSocket(edge.url, id, 'agent:offers-deflate', { offerDeflate: true });
    const reader = await bareSocket(edge.url, id, 'agent:reader', { offerDeflate: true });
    assert.equal(writer.socket.extensions, '', `no extension agreed on ${id}`);
    assert.equal(reader.socket.extensions, '', `no extension agreed on ${id}`);
    const text = 'a long line, '.repeat(400);
    writer.socket.send(eventFrame('probe.item', 'agent:offers-deflate', 'agent:reader', { text }));
    await until('the event at its reader', () => reader.events.some((e) => e.type === 'probe.item'));
    assert.equal(reader.events.find((e) => e.type === 'probe.item').payload.text, text);
    for (const bare of [writer, reader]) bare.socket.close();
  }
});
