// The npm package's shared sockets (core/js/lib/lanes.js) without an edge: how
// it places agents on carriers by what a carrier's first frame says
// (docs/wire.md, "Shared sockets"), with a WebSocket class that records what
// it is asked and lets the test answer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gatewayOf, readPlaced, sharedSockets } from '../../core/js/lib/lanes.js';

/** A WebSocket class whose sockets the test opens and answers by hand. */
function scriptedWebSocket() {
  const Scripted = class extends EventTarget {
    readyState = 0;
    sent = [];
    constructor(url) {
      super();
      this.url = new URL(url);
      Scripted.sockets.push(this);
    }
    send(frame) { if (frame !== 'ping') this.sent.push(frame); else this.pinged = true; }
    close() { this.readyState = 3; }
    /** The edge accepts the socket and says `first` (whom it carries, on an edge that takes lanes). */
    accept(first) {
      this.readyState = 1;
      this.dispatchEvent(new Event('open'));
      this.dispatchEvent(Object.assign(new Event('message'), { data: first }));
    }
  };
  Scripted.sockets = [];
  return Scripted;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test('the gateway of an address is the edge\'s (core/src/gateway/placement.rs has the same vectors)', () => {
  assert.equal(gatewayOf('agent:ann', 2), 1);
  assert.equal(gatewayOf('agent:ann', 7), 6);
  assert.equal(gatewayOf('net1::agent:ben', 1024), 527);
  assert.equal(gatewayOf('agent:ann', 1), 0);
});

test('a carrier\'s first frame reads as whom it carries', () => {
  assert.deepEqual(readPlaced('placed any'), { anyone: true });
  assert.deepEqual(readPlaced('placed 3/4'), { gateway: 3, gateways: 4 });
  assert.equal(readPlaced('0:{"type":"x"}'), null);
  assert.equal(readPlaced('placed 3'), null);
});

test('on a network with gateways, agents wait for the first carrier to say the layout, then share one carrier per gateway', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n1/v1/ws');
  const names = ['agent:a0', 'agent:a1', 'agent:a2', 'agent:a3', 'agent:a4', 'agent:a5'];
  const lanes = names.map((name) => pool.open(name));
  assert.equal(Scripted.sockets.length, 1, 'one carrier, named after the first agent, while the layout is unknown');
  const [first] = Scripted.sockets;
  assert.equal(first.url.searchParams.get('member'), names[0]);
  assert.equal(first.url.searchParams.get('lanes'), '1');

  first.accept(`placed ${gatewayOf(names[0], 2)}/2`);
  await tick();
  const byGateway = new Map();
  for (const name of names) byGateway.set(gatewayOf(name, 2), [...(byGateway.get(gatewayOf(name, 2)) ?? []), name]);
  assert.equal(byGateway.size, 2, 'the names are spread over both gateways');
  assert.equal(Scripted.sockets.length, 2, 'a second carrier for the other gateway');
  const other = Scripted.sockets[1];
  const otherGateway = 1 - gatewayOf(names[0], 2);
  assert.equal(other.url.searchParams.get('member'), byGateway.get(otherGateway)[0]);
  other.accept(`placed ${otherGateway}/2`);
  await tick();
  assert.ok(lanes.every((lane) => lane.readyState === 1), 'every lane is open');

  // Each agent's frames go on its gateway's carrier, on lanes in the order
  // they were placed: one message per carrier for this run of code, a frame per line.
  lanes.forEach((lane, i) => lane.send(`{"n":${i}}`));
  await tick();
  assert.equal(first.sent.length, 1);
  assert.equal(other.sent.length, 1);
  const linesOf = (socket) => socket.sent.flatMap((message) => message.split('\n'));
  const onFirst = linesOf(first).map((f) => JSON.parse(f.slice(f.indexOf(':') + 1)).n);
  const onOther = linesOf(other).map((f) => JSON.parse(f.slice(f.indexOf(':') + 1)).n);
  assert.deepEqual(onFirst.map((n) => names[n]), byGateway.get(gatewayOf(names[0], 2)));
  assert.deepEqual(onOther.map((n) => names[n]), byGateway.get(otherGateway));
  assert.deepEqual(linesOf(first).map((f) => f.slice(0, f.indexOf(':'))), onFirst.map((_, i) => String(i)));
});

test('on a network without gateways every agent shares the first carrier; one that closes while it waits is never placed', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n2/v1/ws');
  const lanes = ['agent:b0', 'agent:b1', 'agent:b2'].map((name) => pool.open(name));
  const closed = [];
  lanes[2].addEventListener('close', (e) => closed.push(e.code));
  lanes[2].close(1000, 'bye');
  Scripted.sockets[0].accept('placed any');
  await tick();
  assert.equal(Scripted.sockets.length, 1);
  assert.equal(lanes[1].readyState, 1);
  assert.deepEqual(closed, [1000]);
  lanes[1].send('{}');
  await tick();
  assert.deepEqual(Scripted.sockets[0].sent, ['1:{}']);
});

test('agents waiting for the layout fail with the carrier that was to say it', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n3/v1/ws');
  const lanes = ['agent:c0', 'agent:c1'].map((name) => pool.open(name));
  const closes = lanes.map(() => []);
  lanes.forEach((lane, i) => lane.addEventListener('close', (e) => closes[i].push(e.code)));
  Scripted.sockets[0].dispatchEvent(Object.assign(new Event('close'), { code: 1006, reason: '' }));
  await tick();
  assert.deepEqual(closes, [[1006], [1006]]);
  // The next agent asks again.
  pool.open('agent:c2');
  assert.equal(Scripted.sockets.length, 2);
});

test('on an edge that takes no lanes (the heartbeat\'s pong comes first), every agent gets a socket of its own', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n4/v1/ws');
  const lanes = ['agent:d0', 'agent:d1'].map((name) => pool.open(name));
  const opened = [];
  lanes.forEach((lane, i) => lane.addEventListener('open', () => opened.push(i)));
  const [carrier] = Scripted.sockets;
  carrier.readyState = 1;
  carrier.dispatchEvent(new Event('open'));
  assert.ok(carrier.pinged, 'the carrier asks with a heartbeat');
  assert.deepEqual(opened, [], 'no lane opens before the edge says whom the socket carries');
  carrier.dispatchEvent(Object.assign(new Event('message'), { data: 'pong' }));
  assert.equal(carrier.readyState, 3, 'the carrier is closed');
  const own = Scripted.sockets.slice(1);
  assert.deepEqual(own.map((s) => [s.url.searchParams.get('member'), s.url.searchParams.get('lanes')]), [['agent:d0', null], ['agent:d1', null]]);
  for (const socket of own) { socket.readyState = 1; socket.dispatchEvent(new Event('open')); }
  assert.deepEqual(opened, [0, 1]);
  lanes[1].send('{"n":1}');
  assert.deepEqual(own[1].sent, ['{"n":1}'], 'frames go without a lane');
  const later = pool.open('agent:d2');
  assert.equal(Scripted.sockets.length, 4);
  assert.equal(later, Scripted.sockets[3], 'a later agent gets a plain socket');
});

test('the last lane\'s last frames and its close go out before its socket closes', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n5/v1/ws');
  const lane = pool.open('agent:e0');
  const [carrier] = Scripted.sockets;
  carrier.accept('placed any');
  await tick();
  lane.send('{"last":true}');
  lane.close(1000, 'bye');
  assert.deepEqual(carrier.sent, ['0:{"last":true}\n0!1000 bye']);
  assert.equal(carrier.readyState, 3);
});

test('when the agent whose socket was to say the layout leaves first, those waiting ask on a new socket', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n6/v1/ws');
  const [first, second] = ['agent:f0', 'agent:f1'].map((name) => pool.open(name));
  const closes = [];
  second.addEventListener('close', (e) => closes.push(e.code));
  first.close(1000, 'bye');
  Scripted.sockets[0].dispatchEvent(Object.assign(new Event('close'), { code: 1000, reason: 'no lanes left' }));
  await tick();
  assert.equal(Scripted.sockets.length, 2, 'a new socket for the agent still waiting');
  assert.equal(Scripted.sockets[1].url.searchParams.get('member'), 'agent:f1');
  Scripted.sockets[1].accept('placed any');
  await tick();
  assert.equal(second.readyState, 1);
  assert.deepEqual(closes, []);
});

test('a message for several lanes: one lane\'s answers go out before the next lane\'s frames are handed over, each lane\'s in order', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n7/v1/ws');
  const [sender, receiver] = ['agent:g0', 'agent:g1'].map((name) => pool.open(name));
  const [carrier] = Scripted.sockets;
  carrier.accept('placed any');
  await tick();
  // The sender answers its acks after a promise resolves, as an agent's next events do.
  sender.addEventListener('message', (e) => Promise.resolve().then(() => sender.send(`{"after":"${e.data}"}`)));
  const seen = [];
  receiver.addEventListener('message', (e) => seen.push([e.data, carrier.sent.length]));
  // A message that names no lane is dropped (and breaks nothing).
  carrier.dispatchEvent(Object.assign(new Event('message'), { data: 'no lane here' }));
  carrier.dispatchEvent(Object.assign(new Event('message'), { data: '0:ack1\n0:ack2\n1:d1\n1:d2' }));
  carrier.dispatchEvent(Object.assign(new Event('message'), { data: '1:d3' }));
  assert.deepEqual(seen, [], 'the receiver\'s frames wait for the sender\'s answers');
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  await tick();
  assert.deepEqual(carrier.sent[0], '0:{"after":"ack1"}\n0:{"after":"ack2"}', 'the sender\'s answers went first, as one message');
  assert.deepEqual(seen, [['d1', 1], ['d2', 1], ['d3', 1]], 'then the receiver\'s frames, in order');
});

test('frames that came before the socket closed reach their lanes before the close', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n8/v1/ws');
  const lanes = ['agent:h0', 'agent:h1'].map((name) => pool.open(name));
  const [carrier] = Scripted.sockets;
  carrier.accept('placed any');
  await tick();
  const seen = [];
  lanes.forEach((lane, i) => {
    lane.addEventListener('message', (e) => seen.push(`${i} ${e.data}`));
    lane.addEventListener('close', (e) => seen.push(`${i} closed ${e.code}`));
  });
  carrier.dispatchEvent(Object.assign(new Event('message'), { data: '0:a\n1:b\n1!4401 not_joined: join first' }));
  carrier.dispatchEvent(Object.assign(new Event('close'), { code: 1000, reason: 'no lanes left' }));
  await tick();
  assert.deepEqual(seen, ['0 a', '1 b', '1 closed 4401', '0 closed 1000'], 'lane 1 had its frame and its own close');
});

test('a carrier takes agents while what the edge keeps of their addresses fits, and none after the edge refuses one as full', async () => {
  const Scripted = scriptedWebSocket();
  const pool = sharedSockets(Scripted, 'ws://edge.test/networks/n9/v1/ws');
  const long = (n) => `agent:${'x'.repeat(114)}${String(n).padStart(2, '0')}`;
  // Sixteen short addresses share one carrier.
  const short = Array.from({ length: 16 }, (_, n) => pool.open(`agent:s${n}`));
  Scripted.sockets[0].accept('placed any');
  await tick();
  assert.equal(Scripted.sockets.length, 1);
  // Sixteen 122-byte addresses do not fit 1,600 bytes: eight a carrier.
  const pool2 = sharedSockets(Scripted, 'ws://edge.test/networks/n10/v1/ws');
  const longLanes = Array.from({ length: 16 }, (_, n) => pool2.open(long(n)));
  Scripted.sockets[1].accept('placed any');
  await tick();
  assert.equal(Scripted.sockets.length, 3, 'two carriers for sixteen long addresses');
  Scripted.sockets[2].accept('placed any');
  await tick();
  assert.deepEqual(longLanes.map((lane) => lane.readyState), longLanes.map(() => 1));
  // The edge refuses lane 1 of the first as full: the next agent goes to the
  // second, though the first has room by count and by bytes now.
  const ended = [];
  longLanes[1].addEventListener('close', (e) => ended.push(e.code));
  Scripted.sockets[1].dispatchEvent(Object.assign(new Event('message'), { data: '1!4429 rate_limited: this connection carries as many members as it can; open another' }));
  await tick();
  assert.deepEqual(ended, [4429]);
  const next = pool2.open('agent:short');
  await tick();
  assert.equal(Scripted.sockets.length, 3, 'no new carrier');
  next.send('{}');
  await tick();
  assert.deepEqual(Scripted.sockets[2].sent, ['8:{}'], 'the second carrier takes it, as its ninth lane');
  assert.deepEqual(Scripted.sockets[1].sent, []);
  for (const lane of [...short, ...longLanes]) lane.close();
});
