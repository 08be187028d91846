// The limits on unjoined sockets hold across a network's gateways
// (docs/scale.md): a client that names members placed on different gateways
// (`?member=`) gets no more unjoined sockets than it would on the network
// object itself. Each counts from its upgrade until it joins, closes or runs
// out of time, and the count survives the object losing its memory. A
// shared socket's lanes, which its gateway opens, count the same way, and a
// lane past the limit is refused alone. A member whose socket closed before
// its join was answered goes offline all the same.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { gatewayOf as placedOn, unjoinedSocket } from '../../support/gateways.mjs';
import { until } from '../../support/process.mjs';
import { eventFrame, laneSocket } from '../../support/frames.mjs';
import { expectNothingFor } from '../../support/waits.mjs';

const PER_PEER = 3;
const GATEWAYS = 3;
/**
 * Long enough that no socket here runs out of time unless the test waits for it: every step
 * before the deadline's own needs the first sockets still counting, and those take 4-5 s alone
 * (the panic's request is given 3 s), more beside other tests. (Twice in full runs the join
 * after the panic went unanswered for 20 s; the gateway then gave up on a network object that
 * was starting again after 4 tries in under half a second: it tries for about 12 s now.)
 */
const JOIN_DEADLINE_MS = 12_000;
let edge;

before(async () => {
  const policy = { max_unjoined_per_peer: PER_PEER, join_deadline_ms: JOIN_DEADLINE_MS };
  edge = await startEdge({ testHooks: true, vars: { AGENTNET_TEST_POLICY: JSON.stringify(policy) } });
});

after(async () => {
  await edge?.stop();
});

const gatewayOf = (address, count = GATEWAYS) => placedOn(address, count);

/** `count` addresses, placed on the gateways in turn. */
function spread(prefix, count) {
  const names = [];
  for (let i = 0; names.length < count; i += 1) {
    const name = `agent:${prefix}${i}`;
    if (gatewayOf(name) === names.length % GATEWAYS) names.push(name);
  }
  return names;
}

const unjoined = (id, member) => unjoinedSocket(edge.url, id, member);

/** True when one more unjoined socket from here is refused (closed at once with rate_limited). */
async function refused(id, member) {
  const probe = await unjoined(id, member);
  // A refused socket is accepted only to be closed (browsers see only close codes).
  await until('the probe is answered', () => probe.closed !== null || probe.socket.readyState === WebSocket.OPEN);
  await expectNothingFor(300, 'the admitted probe closed');
  if (probe.closed === null) {
    probe.socket.close();
    return false;
  }
  assert.equal(probe.closed, 4429, probe.reason);
  assert.match(probe.reason, /^rate_limited: too many connections from here/);
  return true;
}

test('unjoined sockets spread over gateways share one client\'s limit; a join, a close or the deadline frees a place', async () => {
  try {
    await shareOneLimit();
  } catch (err) {
    // What the edge logged says what closed a socket that should have stayed open.
    console.log(`the edge's log:\n${edge.log.join('').slice(-8000)}`);
    throw err;
  }
});

async function shareOneLimit() {
  const { id } = await createNetwork(edge.url, { name: 'gw-limits', access: { policy: 'open' }, mods: ['persistence'], gateways: { count: GATEWAYS } });
  const names = spread('u', PER_PEER + 2);
  // One unjoined socket on each gateway: this client's share.
  const held = [];
  for (const name of names.slice(0, PER_PEER)) held.push(await unjoined(id, name));
  assert.deepEqual(held.map((s) => s.closed && `${s.closed} ${s.reason}`), [null, null, null], 'this client\'s first sockets stay open');
  assert.equal(await refused(id, names[PER_PEER]), true, 'a fourth unjoined socket is refused, on any gateway');

  // The share survives the object losing its memory (a panic: a fresh instance restores from storage).
  const panicked = await fetch(`${edge.url}/networks/${id}/v1/__test/panic`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(3000) })
    .then((r) => r.status, (err) => err.name);
  assert.ok(panicked === 'TimeoutError' || panicked >= 500, `the panicking request fails (${panicked})`);
  assert.equal(await refused(id, names[PER_PEER]), true, 'still refused after the object restored itself');

  // A socket that joins frees its place.
  assert.equal(held[0].closed, null, 'the first socket is still open to join');
  held[0].socket.send(eventFrame('network.agent.join', names[0], 'core', {}));
  await until('the join is answered', () => held[0].events.length > 0 || held[0].closed !== null);
  assert.equal(held[0].closed, null, `the joining socket was closed instead: ${held[0].reason}`);
  const fourth = await until('a fourth unjoined socket is admitted once one joined', async () => {
    const probe = await unjoined(id, names[PER_PEER]);
    await expectNothingFor(300, 'the probe closed as refused');
    if (probe.closed === null) return probe;
    return null;
  });
  assert.equal(await refused(id, names[PER_PEER + 1]), true, 'and the share is full again');

  // A socket its client closes frees its place (its gateway tells the network).
  held[1].socket.close();
  const fifth = await until('an unjoined socket is admitted once one closed', async () => {
    const probe = await unjoined(id, names[PER_PEER + 1]);
    await expectNothingFor(300, 'the probe closed as refused');
    return probe.closed === null ? probe : null;
  });

  // Sockets that never join are closed at their deadline, and free their places.
  await until('the unjoined sockets run out of time', () => [held[2], fourth, fifth].every((s) => s.closed !== null), JOIN_DEADLINE_MS * 4);
  assert.deepEqual([held[2], fourth, fifth].map((s) => s.closed), [4504, 4504, 4504]);
  const again = [];
  for (const name of names.slice(0, PER_PEER)) again.push(await unjoined(id, `${name}x`));
  await expectNothingFor(300, 'the new sockets closed as refused');
  assert.ok(again.every((s) => s.closed === null), 'a full share again after the deadline');
  for (const s of [...again, held[0]]) s.socket.close();
}

test('the lanes of a shared socket a gateway holds count toward the same limit: past it a lane is refused alone, and a join frees a place', async () => {
  const { id } = await createNetwork(edge.url, { name: 'gw-lane-limits', access: { policy: 'open' }, gateways: { count: GATEWAYS } });
  const first = 'agent:carrier0';
  const shared = await laneSocket(edge.url, id, { member: first });
  try {
    await until('the first frame says whom it carries', () => shared.raw.length > 0);
    assert.equal(shared.raw[0], `placed ${gatewayOf(first)}/${GATEWAYS}`);
    // The socket counts as one unjoined (lane 0); lanes 1 and 2 fill this client's share.
    const ping = eventFrame('network.agent.ping', 'agent:nobody', 'core', {});
    for (const lane of [1, 2]) shared.send(lane, ping);
    // Lane 3 opens with a join as a member placed here: refused, its join binds no one.
    const sameGateway = Array.from({ length: 64 }, (_, i) => `agent:carried${i}`).find((name) => gatewayOf(name) === gatewayOf(first));
    shared.send(3, eventFrame('network.agent.join', sameGateway, 'core', {}));
    shared.send(4, ping);
    await until('lanes 3 and 4 are refused', () => shared.closes[3] !== undefined && shared.closes[4] !== undefined);
    for (const lane of [3, 4]) {
      assert.equal(shared.closes[lane].code, 4429);
      assert.match(shared.closes[lane].reason, /^rate_limited: too many connections from here/);
    }
    await expectNothingFor(300, 'another lane closed');
    assert.deepEqual(Object.keys(shared.closes), ['3', '4'], 'lanes 1 and 2 stay open');
    assert.equal(shared.closed, null, 'the socket stays open');
    // The refused lane's join bound no one: lane 1 may join as that member.
    const heard = shared.lanes[1]?.length ?? 0;
    shared.join(1, sameGateway);
    await until('lane 1 is answered', () => (shared.lanes[1]?.length ?? 0) > heard);
    const taken = shared.got(1, 'network.event.error').filter((e) => e.payload.code === 'address_in_use');
    assert.deepEqual(taken, [], 'the member was free to join');

    // Lane 0 joins (as the member the socket named): with lane 1 joined too, places are free for two more lanes.
    shared.join(0, first);
    await until('lane 0 is answered', () => (shared.lanes[0]?.length ?? 0) > 0);
    for (const lane of [5, 6, 7]) shared.send(lane, ping);
    await until('lane 7 is refused', () => shared.closes[7] !== undefined);
    assert.equal(shared.closes[7].code, 4429);
    assert.equal(shared.closes[5], undefined, 'lane 5 took the place lane 1 freed');
    assert.equal(shared.closes[6], undefined, 'lane 6 took the place lane 0 freed');
  } finally {
    shared.socket.close();
  }
});

test('members whose sockets close right after their joins go offline, though a close may reach the gateway before the join\'s answer', async () => {
  const { id } = await createNetwork(edge.url, { name: 'gw-gone-early', access: { policy: 'open' }, gateways: { count: GATEWAYS } });
  const names = spread('early', 6);
  const watcher = await unjoined(id, 'agent:watcher');
  watcher.socket.send(eventFrame('network.agent.join', 'agent:watcher', 'core', {}));
  await until('the watcher joined', () => watcher.events.some((e) => e.type === 'network.event.ack'));
  const statusOf = async () => {
    const asked = watcher.events.filter((e) => e.type === 'network.agent.discover.response').length;
    watcher.socket.send(eventFrame('network.agent.discover', 'agent:watcher', 'core', {}));
    await until('the roster', () => watcher.events.filter((e) => e.type === 'network.agent.discover.response').length > asked);
    const { agents } = watcher.events.filter((e) => e.type === 'network.agent.discover.response').at(-1).payload;
    return new Map(agents.map((a) => [a.address, a.status]));
  };
  // Each joins and drops its socket at once: the gateway sees the close
  // while the join is on its way to the network object.
  await Promise.all(names.map(async (name) => {
    const gone = await unjoined(id, name);
    gone.socket.send(eventFrame('network.agent.join', name, 'core', {}));
    gone.socket.terminate();
  }));
  // (A join the socket's drop overtook never arrives: that member never joined.)
  await until('those that joined are offline again', async () => {
    const roster = await statusOf();
    const joined = names.filter((name) => roster.has(name));
    return joined.length > 0 && joined.every((name) => roster.get(name) === 'offline');
  }, 15_000);
  assert.equal((await statusOf()).get('agent:watcher'), 'online');
  watcher.socket.close();
});
