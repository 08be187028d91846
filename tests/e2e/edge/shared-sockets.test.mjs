// Shared sockets (`?lanes=1`, docs/wire.md): several members on one
// WebSocket, each in a lane. Through the npm package (`shareSocket: true`) and
// frame by frame, against the local edge: lanes join, talk and close on their
// own, a long burst comes in messages of at most 64 KiB, the 17th lane is
// refused (and a member past what the socket keeps across a wake), a
// malformed frame closes the socket, the lanes
// survive the object losing its memory, the socket closes with its last lane,
// and on a network with connection gateways the gateways hold them: one per
// gateway, its lanes for the members placed there.

import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { eventFrame, laneSocket as bareLanes } from '../../support/frames.mjs';
import { until } from '../../support/process.mjs';
import { call as callAt } from '../../support/http.mjs';
import { gatewayOf } from '../../support/gateways.mjs';

let edge;
/** A short join deadline, so a lane that never joins is closed within the test. */
const JOIN_DEADLINE_MS = 3_000;
before(async () => {
  edge = await startEdge({ testHooks: true, vars: { AGENTNET_TEST_POLICY: JSON.stringify({ join_deadline_ms: JOIN_DEADLINE_MS }) } });
});
after(async () => { await edge?.stop(); });

/** A `ws` class that counts the sockets it opens (each test its own class: its own pool of shared sockets). */
function countingWebSocket() {
  const counted = class extends WebSocket {
    constructor(...args) {
      super(...args);
      counted.opened += 1;
      counted.sockets.push(this);
    }
  };
  counted.opened = 0;
  counted.sockets = [];
  return counted;
}

const laneSocket = (id) => bareLanes(edge.url, id);

/** `method path` on this file's edge, and the network object's counters (test hooks). */
const call = (method, path, options) => callAt(edge.url, method, path, options);
const counters = async (id) => (await call('GET', `/networks/${id}/v1/__test/counters`)).json;

test('agents that share a socket are one connection to the edge and talk as if each had its own', async () => {
  const { id } = await createNetwork(edge.url, { name: 'shared-npm' });
  const Counting = countingWebSocket();
  const connect = (name) => Agent.connect({ url: edge.url, network: id, name, WebSocket: Counting, shareSocket: true, secretStore: false });
  const [ada, bo, cy] = await Promise.all(['agent:ada', 'agent:bo', 'agent:cy'].map(connect));
  const apart = await Agent.connect({ url: edge.url, network: id, name: 'agent:apart', WebSocket, secretStore: false });
  try {
    assert.equal(Counting.opened, 1, 'three agents, one socket');
    const heard = { bo: [], cy: [], apart: [] };
    bo.on('note.direct', (e) => heard.bo.push(e.payload.text));
    cy.on('note.all', (e) => heard.cy.push(e.payload.text));
    apart.on('note.all', (e) => heard.apart.push(e.payload.text));
    await ada.send('agent:bo', 'note.direct', { text: 'to bo' });
    await bo.send('agent:broadcast', 'note.all', { text: 'to all' });
    await until('each agent hears what is meant for it', () => heard.bo.length === 1 && heard.cy.length === 1 && heard.apart.length === 1);
    assert.deepEqual(heard, { bo: ['to bo'], cy: ['to all'], apart: ['to all'] });

    // One agent leaving its lane leaves the others connected.
    ada.close();
    await cy.send('agent:bo', 'note.direct', { text: 'still here' });
    await until('bo hears cy after ada left', () => heard.bo.length === 2);
    assert.equal(bo.online && cy.online, true);
    assert.equal(Counting.opened, 1);

    // The shared socket drops: both agents reconnect, again on one socket, and resume.
    Counting.sockets[0].terminate();
    await until('both agents are back online', () => Counting.opened === 2 && bo.online && cy.online, 15_000);
    await cy.send('agent:bo', 'note.direct', { text: 'after the drop' });
    await until('bo hears cy on the new socket', () => heard.bo.length === 3);
    assert.deepEqual(heard.bo, ['to bo', 'still here', 'after the drop']);
    assert.equal(Counting.opened, 2, 'one new socket for both');
  } finally {
    for (const agent of [ada, bo, cy, apart]) agent.close();
  }
});

test('a long burst to agents on one socket comes in messages under V8\'s large-object size, every event in order', async () => {
  // Past 128 KiB a message's text is a large object in V8 at both ends,
  // several times slower to make; the edge cuts a socket's message at 64 KiB
  // (docs/scale.md), lanes' frames and batches alike.
  const { id } = await createNetwork(edge.url, { name: 'shared-burst' });
  const sizes = [];
  const Sized = class extends WebSocket {
    constructor(...args) {
      super(...args);
      this.on('message', (data) => sizes.push(data.length));
    }
  };
  const connect = (name) => Agent.connect({ url: edge.url, network: id, name, WebSocket: Sized, shareSocket: true, secretStore: false });
  const [ada, bo] = await Promise.all(['agent:ada', 'agent:bo'].map(connect));
  try {
    const got = [];
    bo.on('note.bulk', (e) => got.push(e.payload.n));
    const filler = 'x'.repeat(400);
    sizes.length = 0;
    const burst = 600;
    await Promise.all(Array.from({ length: burst }, (_, n) => ada.send('agent:bo', 'note.bulk', { n, filler })));
    await until('bo has every event of the burst', () => got.length === burst, 30_000);
    assert.deepEqual(got, Array.from({ length: burst }, (_, n) => n));
    const received = sizes.reduce((a, b) => a + b, 0);
    assert.ok(received > burst * filler.length, `the burst came (${received} bytes)`);
    const largest = Math.max(...sizes);
    assert.ok(largest <= 64 * 1024 + 16, `every message is under 64 KiB and a lane's prefix: the largest was ${largest} bytes`);
  } finally {
    ada.close();
    bo.close();
  }
});

test('each lane joins, is answered and closes on its own; a frame on a closed lane is dropped', async () => {
  const { id } = await createNetwork(edge.url, { name: 'shared-bare' });
  const shared = await laneSocket(id);
  shared.join(0, 'agent:zero');
  shared.join(1, 'agent:one');
  await until('each lane\'s join is acknowledged on its lane', () => shared.got(0, 'network.event.ack').length === 1 && shared.got(1, 'network.event.ack').length === 1);
  assert.equal(shared.got(0, 'network.event.ack')[0].target, 'agent:zero');
  assert.equal(shared.got(1, 'network.event.ack')[0].target, 'agent:one');
  const statuses = async () => {
    const asked = shared.got(0, 'network.agent.discover.response').length;
    shared.send(0, eventFrame('network.agent.discover', 'agent:zero', 'core', {}));
    await until('the roster', () => shared.got(0, 'network.agent.discover.response').length > asked);
    const { agents } = shared.got(0, 'network.agent.discover.response').at(-1).payload;
    return Object.fromEntries(agents.map((a) => [a.address, a.status]));
  };
  assert.deepEqual(await statuses(), { 'agent:zero': 'online', 'agent:one': 'online' });

  shared.send(0, eventFrame('probe.hello', 'agent:zero', 'agent:one', { text: 'across lanes' }));
  await until('lane 1 gets what lane 0 sent it', () => shared.got(1, 'probe.hello').length === 1);
  assert.equal(shared.got(0, 'probe.hello').length, 0, 'lane 0 does not get lane 1\'s message');

  // A lane may not speak as another lane's member.
  shared.send(1, eventFrame('probe.hello', 'agent:zero', 'agent:one', { text: 'forged' }));
  await until('the forged source is refused', () => shared.got(1, 'network.event.error').length > 0);
  assert.equal(shared.got(1, 'network.event.error')[0].payload.code, 'source_mismatch');
  assert.equal(shared.got(1, 'probe.hello').length, 1, 'nothing forged arrived');

  // The client closes lane 1: agent:one goes offline, the socket stays.
  shared.socket.send('1!1000 bye');
  await until('agent:one is offline', async () => (await statuses())['agent:one'] === 'offline');
  assert.equal((await statuses())['agent:zero'], 'online');
  const before = shared.raw.length;
  shared.send(1, eventFrame('probe.hello', 'agent:one', 'agent:zero', { text: 'after close' }));
  shared.send(0, eventFrame('probe.hello', 'agent:zero', 'agent:zero', { text: 'self' }));
  await until('lane 0 still works', () => shared.got(0, 'probe.hello').length === 1);
  assert.equal(shared.raw.slice(before).filter((f) => f.startsWith('1')).length, 0, 'nothing answered on the closed lane');
  assert.equal(shared.closed, null);

  // Closing the last lane closes the socket.
  shared.socket.send('0!1000 bye');
  await until('the socket closes with its last lane', () => shared.closed !== null);
  assert.equal(shared.closed, 1000);
  assert.equal(shared.reason, 'no lanes left');
});

test('a shared socket carries at most 16 lanes; a frame without a lane closes it with 4400', async () => {
  const { id } = await createNetwork(edge.url, { name: 'shared-cap' });
  const shared = await laneSocket(id);
  for (let lane = 0; lane < 17; lane += 1) shared.join(lane, `agent:cap${lane}`);
  await until('the 17th lane is refused', () => shared.closes[16] !== undefined);
  assert.equal(shared.closes[16].code, 4429);
  assert.match(shared.closes[16].reason, /^rate_limited/);
  await until('the 16 lanes joined', () => [...Array(16).keys()].every((lane) => (shared.lanes[lane]?.length ?? 0) > 0));
  assert.deepEqual(Object.keys(shared.closes), ['16'], 'no other lane was closed');

  // A broadcast reaches the socket's lanes in one message, a lane's frame per line.
  const before = shared.raw.length;
  shared.send(0, eventFrame('probe.all', 'agent:cap0', 'agent:broadcast', { text: 'to every lane' }));
  await until('the 15 other lanes hear the broadcast', () => [...Array(15).keys()].every((i) => shared.got(i + 1, 'probe.all').length === 1));
  const carrying = shared.raw.slice(before).filter((m) => m.includes('probe.all'));
  assert.equal(carrying.length, 1, `one message for the 15 lanes (${carrying.length})`);
  const lanesInIt = new Set(carrying[0].split('\n').map((line) => Number(line.slice(0, line.indexOf(':')))));
  assert.ok([...Array(15).keys()].every((i) => lanesInIt.has(i + 1)), `lanes 1 to 15 in it (${[...lanesInIt]})`);
  // And the client's lanes' frames may go as one message, a frame per line.
  shared.socket.send([1, 2].map((lane) => `${lane}:${eventFrame('probe.lines', `agent:cap${lane}`, 'agent:cap3', { lane })}`).join('\n'));
  await until('lane 3 hears both lines', () => shared.got(3, 'probe.lines').length === 2);

  shared.socket.send('{"type":"probe.hello"}');
  await until('the socket is closed', () => shared.closed !== null);
  assert.equal(shared.closed, 4400);
  assert.match(shared.reason, /^malformed_event/);
});

test('a lane that never joins is closed alone when its time runs out; the lanes outlive the object losing its memory', async () => {
  const { id } = await createNetwork(edge.url, { name: 'shared-wake' });
  const shared = await laneSocket(id);
  shared.join(0, 'agent:stays');
  shared.send(1, eventFrame('probe.hello', 'agent:nobody', 'agent:stays', {}));
  await until('lane 1 is told to join first', () => shared.got(1, 'network.event.error').some((e) => e.payload.code === 'not_joined'));

  const panicked = await fetch(`${edge.url}/networks/${id}/v1/__test/panic`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(3000) })
    .then((res) => res.status, (err) => err.name);
  assert.ok(panicked === 'TimeoutError' || panicked >= 500, `the panicking request fails (${panicked})`);

  // After the restart the socket's attachment still names lane 0's member.
  shared.send(0, eventFrame('probe.hello', 'agent:stays', 'agent:stays', { text: 'after the panic' }));
  await until('lane 0 is answered after the restart', () => shared.got(0, 'probe.hello').length === 1, 8_000);
  await until('the unjoined lane 1 times out', () => shared.closes[1] !== undefined, JOIN_DEADLINE_MS * 10);
  assert.equal(shared.closes[1].code, 4504);
  assert.equal(shared.closed, null, 'the socket and lane 0 stay');
  shared.socket.close();
});

test('on a network with connection gateways, the gateways hold the shared sockets: one per gateway, and the agents talk with everyone', async () => {
  const { id } = await createNetwork(edge.url, { name: 'shared-gateways', access: { policy: 'open' }, mods: ['persistence'], gateways: { count: 2 } });
  const names = ['agent:ann', 'agent:ben', 'agent:cat', 'agent:dan', 'agent:eve', 'agent:fay'];
  assert.equal(new Set(names.map((name) => gatewayOf(name, 2))).size, 2, 'the agents are spread over both gateways');
  const Counting = countingWebSocket();
  const connect = (name, shareSocket) => Agent.connect({ url: edge.url, network: id, name, WebSocket: shareSocket ? Counting : WebSocket, shareSocket, secretStore: false });
  const before = await counters(id);
  const sharing = await Promise.all(names.map((name) => connect(name, true)));
  const held = await connect('agent:held', false);
  try {
    assert.equal(Counting.opened, 2, 'six agents, one socket on each gateway');
    const heard = new Map([...names, 'agent:held'].map((name) => [name, []]));
    sharing.forEach((agent, i) => agent.on('note.n', (e) => heard.get(names[i]).push(`${e.source}: ${e.payload.text}`)));
    held.on('note.n', (e) => heard.get('agent:held').push(`${e.source}: ${e.payload.text}`));
    for (const name of names) await held.send(name, 'note.n', { text: `hi ${name}` });
    await sharing[0].send('agent:held', 'note.n', { text: 'hi held' });
    await sharing[5].send('agent:broadcast', 'note.n', { text: 'hi all' });
    await until('every message arrives', () => names.every((name) => heard.get(name).length === (name === 'agent:fay' ? 1 : 2)) && heard.get('agent:held').length === 2);
    for (const name of names.slice(0, 5)) assert.deepEqual(heard.get(name).sort(), ['agent:fay: hi all', `agent:held: hi ${name}`]);
    assert.deepEqual(heard.get('agent:held').sort(), ['agent:ann: hi held', 'agent:fay: hi all']);
    const after = await counters(id);
    assert.equal(after.socket_messages, before.socket_messages, 'the network object writes on no socket: the gateways hold them all');

    // One agent leaving keeps its neighbours; a restart of the gateways brings the lanes back.
    sharing[0].close();
    await call('POST', `/networks/${id}/v1/__test/restart-gateways`);
    await held.send('agent:ben', 'note.n', { text: 'again' });
    await held.send('agent:fay', 'note.n', { text: 'again' });
    await until('ben and fay hear after the restart (their lanes came back)', () => heard.get('agent:ben').includes('agent:held: again') && heard.get('agent:fay').includes('agent:held: again'), 30_000);
  } finally {
    for (const agent of [...sharing, held]) agent.close();
  }
});

test('a shared socket a gateway holds says which gateway; its lanes join as members placed there, outlive the isolate losing its memory, and time out on their own', async () => {
  const { id } = await createNetwork(edge.url, { name: 'shared-bare-gateways', access: { policy: 'open' }, gateways: { count: 2 } });
  const names = Array.from({ length: 12 }, (_, i) => `agent:lane${i}`);
  const first = names[0];
  const here = names.filter((name) => gatewayOf(name, 2) === gatewayOf(first, 2));
  const elsewhere = names.find((name) => gatewayOf(name, 2) !== gatewayOf(first, 2));
  const shared = await bareLanes(edge.url, id, { member: first });
  try {
    await until('the first frame says whom it carries', () => shared.raw.length > 0);
    assert.equal(shared.raw[0], `placed ${gatewayOf(first, 2)}/2`);
    shared.join(0, first);
    shared.join(1, here[1]);
    await until('both lanes are answered', () => (shared.lanes[0]?.length ?? 0) > 0 && (shared.lanes[1]?.length ?? 0) > 0);
    shared.join(2, elsewhere);
    await until('the lane of a member placed elsewhere is refused', () => shared.got(2, 'network.event.error').some((e) => e.payload.code === 'invalid_request'));
    shared.send(1, eventFrame('note.n', here[1], first, { text: 'lane to lane' }));
    await until('lane 0 hears lane 1', () => shared.got(0, 'note.n').length === 1);

    // The isolate loses its memory (the gateway's too): the carrier's attachment brings its lanes back.
    const panicked = await fetch(`${edge.url}/networks/${id}/v1/__test/panic`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(3000) })
      .then((res) => res.status, (err) => err.name);
    assert.ok(panicked === 'TimeoutError' || panicked >= 500, `the panicking request fails (${panicked})`);
    shared.send(1, eventFrame('note.n', here[1], first, { text: 'after the panic' }));
    await until('lane 0 hears lane 1 after the panic', () => shared.got(0, 'note.n').length === 2, 8_000);
    // Lane 3 opens and never joins: its time runs out alone.
    shared.send(3, eventFrame('network.agent.ping', 'agent:nobody', 'core', {}));
    await until('the unjoined lane 3 times out', () => shared.closes[3] !== undefined, JOIN_DEADLINE_MS * 10);
    assert.equal(shared.closes[3].code, 4504);
    assert.equal(shared.closed, null, 'the socket and its other lanes stay');
    shared.socket.send(`0:${eventFrame('note.n', first, here[1], { text: 'still here' })}\n0:${eventFrame('note.n', first, here[1], { text: 'in one message' })}`);
    await until('lane 1 hears lane 0, both lines of one message', () => shared.got(1, 'note.n').length === 2);
    // A frame that names no lane closes the whole socket.
    shared.socket.send('{"type":"note.n"}');
    await until('the socket is closed', () => shared.closed !== null);
    assert.equal(shared.closed, 4400);
  } finally {
    shared.socket.close();
  }
});

/** A long address (about 120 bytes) for lane `n`. */
const longName = (n) => `agent:${'long-name-'.repeat(11)}${String(n).padStart(3, '0')}`;

/**
 * Joins `names` on `shared`'s lanes 0, 1, … one at a time; returns the lanes
 * whose join was acknowledged and the closes of those refused.
 */
async function joinEach(shared, names) {
  const joined = [];
  const refused = [];
  for (const [lane, name] of names.entries()) {
    shared.join(lane, name);
    await until(`lane ${lane}'s join is answered`, () => shared.got(lane, 'network.event.ack').length > 0 || shared.closes[lane] !== undefined);
    // A refusal comes after the join's acknowledgement, in the same burst.
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (shared.closes[lane]) refused.push({ lane, ...shared.closes[lane] });
    else joined.push(lane);
  }
  return { joined, refused };
}

/** Each of `lanes` on `shared` says hello to itself and hears it (its member is still bound). */
async function eachHearsItself(shared, lanes, names, text) {
  for (const lane of lanes) {
    const heard = shared.got(lane, 'note.self').length;
    shared.send(lane, eventFrame('note.self', names[lane], names[lane], { text }));
    await until(`lane ${lane} hears itself (${text})`, () => shared.got(lane, 'note.self').length > heard, 8_000);
  }
}

const panic = (id) => fetch(`${edge.url}/networks/${id}/v1/__test/panic`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(3000) })
  .then((res) => res.status, (err) => err.name);

/**
 * Joins `names` on `shared` one lane at a time: the first lanes join, the
 * rest are refused as a full socket's (4429); each member it took still
 * hears itself after network `id` loses its memory.
 */
async function keepsWhatItCan(shared, names, id) {
  const { joined, refused } = await joinEach(shared, names);
  assert.ok(joined.length >= 8 && refused.length >= 1, `some joined (${joined}), the rest refused (${refused.map((r) => r.lane)})`);
  assert.deepEqual(joined, names.slice(0, joined.length).map((_, lane) => lane), 'the first lanes joined');
  for (const close of refused) assert.equal(close.code, 4429, `lane ${close.lane} is refused as a full socket's: ${close.reason}`);
  await eachHearsItself(shared, joined, names, 'before');
  const panicked = await panic(id);
  assert.ok(panicked === 'TimeoutError' || panicked >= 500, `the panicking request fails (${panicked})`);
  await eachHearsItself(shared, joined, names, 'after the panic');
}

test('a shared socket takes only the members it can keep across a wake: one with a long address past that is refused as a 17th lane, and npm agents with long names spread over sockets', async () => {
  // workerd keeps 2,048 bytes with a socket; sixteen 120-byte addresses do not fit.
  const { id } = await createNetwork(edge.url, { name: 'shared-long', access: { policy: 'open' } });
  const names = Array.from({ length: 16 }, (_, n) => longName(n));
  const shared = await laneSocket(id);
  try {
    await keepsWhatItCan(shared, names, id);
  } finally {
    shared.socket.close();
  }

  // The npm agent puts agents with long names on as many sockets as they need, and they all talk.
  const Counting = countingWebSocket();
  const agents = await Promise.all(names.map((name) => Agent.connect({ url: edge.url, network: id, name: name.replace('long-name', 'npm-agent'), WebSocket: Counting, shareSocket: true, secretStore: false })));
  try {
    assert.ok(Counting.opened >= 2, `${Counting.opened} sockets for 16 long names`);
    const last = agents.at(-1);
    let heard = 0;
    last.on('note.direct', () => { heard += 1; });
    await Promise.all(agents.slice(0, -1).map((agent) => agent.send(last.address, 'note.direct', { text: 'hi' })));
    await until('the last agent hears all the others', () => heard === agents.length - 1);
    assert.ok(agents.every((agent) => agent.online));
  } finally {
    for (const agent of agents) agent.close();
  }
});

test('a gateway\'s shared socket also takes only the members it can keep: a long address past that is refused, the others outlive the isolate losing its memory', async () => {
  const { id } = await createNetwork(edge.url, { name: 'shared-long-gateways', access: { policy: 'open' }, gateways: { count: 2 } });
  const candidates = Array.from({ length: 64 }, (_, n) => longName(n));
  const names = candidates.filter((name) => gatewayOf(name, 2) === gatewayOf(candidates[0], 2)).slice(0, 16);
  assert.equal(names.length, 16);
  const shared = await bareLanes(edge.url, id, { member: names[0] });
  try {
    await until('the first frame says whom it carries', () => shared.raw.length > 0);
    await keepsWhatItCan(shared, names, id);
  } finally {
    shared.socket.close();
  }
});
