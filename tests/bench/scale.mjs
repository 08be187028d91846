// Scale benchmarks of one network object through `wrangler dev` (docs/scale.md).
// Run: node tests/bench/scale.mjs [step…]  (after the edge is built)
// Steps (all by default): sustained, fanout, connected, networks, coldstart;
// with connection gateways (a network created with `gateways: {count}`,
// docs/scale.md): sustained-gw, fanout-gw, connected-gw, networks-gw.
// Sizes: SCALE_AGENTS (default 10000) connected agents, SCALE_NETWORKS
// (default 1000) networks, SCALE_COLD_EVENTS (default 1000000) stored events,
// SCALE_PER_GATEWAY (default 250) members per gateway.
// Above 8,191 agents the edge runs with the test policy max_sockets =
// SCALE_AGENTS + 1 (one network object takes 8,192 sockets by default).
// The network object's sends per broadcast are counted by the edge
// (`GET v1/__test/counters`: WebSocket messages it wrote, requests to gateways),
// read before and after the counted broadcasts and averaged over them; the
// `-gw` steps also print the requests it took from its gateways per broadcast.
// Prints figures; asserts nothing about time.
//
// The clients are bare WebSockets (tests/support/frames.mjs): pre-encoded
// frames, acks written by hand, so that one Node process can hold thousands
// of agents and the figure is the edge's, not the clients'.
//
// Where the clients connect: `wrangler dev`'s proxy (the edge's URL) costs
// its workerd about 6 file descriptors per WebSocket (two TCP ends and two
// splice pipes), so with the hard limit of open files at 20,000 it cannot
// hold 10,000; the `connected` steps therefore connect their agents straight
// to the workerd entry socket that serves the edge worker (support/edge.mjs
// `workerEntryUrl`: the same worker, objects and gateways, one descriptor per
// WebSocket). SCALE_ENTRY=1 does the same for every step; SCALE_ENTRY=0
// sends every step through the proxy. SCALE_PROFILE=1 takes a V8 CPU profile
// of the edge (support/profile.mjs) during each sustained and fan-out run
// and prints where its time went (it slows the edge: figures from a
// profiled run are not the bench's). Fan-out: SCALE_FANOUT (default
// "100:1000,1000:1000", sizes and broadcasts counted, each after 5 warm-up
// broadcasts); SCALE_SLOWEST=1 lists the slowest rounds (when the last and the
// first agent had each); SCALE_HEAP=1 follows the edge isolate's JS heap during
// the broadcasts and names the rounds its major collections fell in (and the
// bench client's own collections of 1 ms or more, with their rounds);
// SCALE_CROWD_ACK=each makes the agents ack every frame instead of as the core
// replica does. SCALE_LANES=1 puts the fan-outs' agents 16 to a shared socket,
// each in a lane (docs/wire.md, "Shared sockets"), as npm agents in one process
// share by default; their acks due at once go as one message per socket.

import { PerformanceObserver } from 'node:perf_hooks';
import WebSocket from 'ws';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createNetwork, startEdge, workerEntryUrl } from '../support/edge.mjs';
import { workerdFds, workerdRssKb } from '../support/workerd.mjs';
import { bareSocket, eventFrame, eventsOf } from '../support/frames.mjs';
import { startProfile, summarize, watchHeap } from '../support/profile.mjs';
import { ms, quantile } from './stats.mjs';

const steps = new Set(process.argv.slice(2));
const wants = (step) => steps.size === 0 || steps.has(step);
const AGENTS = Number(process.env.SCALE_AGENTS ?? 10_000);
const NETWORKS = Number(process.env.SCALE_NETWORKS ?? 1_000);
const COLD_EVENTS = Number(process.env.SCALE_COLD_EVENTS ?? 1_000_000);
const PER_GATEWAY = Number(process.env.SCALE_PER_GATEWAY ?? 250);
const ENTRY = process.env.SCALE_ENTRY;
const PROFILE = process.env.SCALE_PROFILE === '1';
const HEAP = process.env.SCALE_HEAP === '1';
const ACK_EVERY = Number(process.env.SCALE_ACK_EVERY ?? 64);
const PACE = process.env.SCALE_PACE ?? 'acks';
// Fan-out sizes and broadcasts (SCALE_FANOUT="100:1000,1000:1000"): p99 is a
// tail figure, so it needs enough broadcasts to rest on more than one or two
// of them: of 1,000 it is the 10th slowest (of 200 it was the 2nd, and the
// isolate's first two major collections alone decided it; BENCHMARKS.md,
// "p99 from 1,000 broadcasts"); max and SCALE_SLOWEST=1 show what is above it.
const FANOUT = (process.env.SCALE_FANOUT ?? '100:1000,1000:1000').split(',').map((s) => s.split(':').map(Number));
// Broadcasts sent before the counted ones (see `broadcasts`).
const WARM_UP = 5;
const CROWD_ACK = process.env.SCALE_CROWD_ACK ?? 'replica';
// SCALE_LANES=1: the fan-outs' agents share sockets, 16 to a socket (lanes), as npm agents do by default.
const LANES = process.env.SCALE_LANES === '1';
const LANES_PER_SOCKET = 16;
// The core replica's ack policy (core/src/replica/types.rs ACK_EVERY, ACK_DELAY_MS).
const ACK_AFTER_DELIVERIES = 32;
const ACK_DELAY_MS = 20;

/** Runs `step`; with SCALE_PROFILE=1 prints the edge's profile of it. */
async function profiled(edge, label, step) {
  if (!PROFILE) return step();
  const stop = await startProfile(edge);
  const result = await step();
  const profile = await stop();
  console.log(`profile of ${label}:\n  ${summarize(profile).join('\n  ')}`);
  const file = `${tmpdir()}/agentnet-${label.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  console.log(`  (the whole profile: ${file}, for Chrome's DevTools)`);
  return result;
}

/** Polls `check` every 5 ms (cheap next to the edge's work) until it holds. */
async function until(check, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A network for `audience` agents; with gateways when `gateways` (one per SCALE_PER_GATEWAY agents). */
const newNetwork = async (url, name, { gateways = false, audience = 2 } = {}) => (await createNetwork(url, {
  name, access: { policy: 'open' }, mods: ['persistence'],
  ...(gateways ? { gateways: { count: Math.max(1, Math.ceil(audience / PER_GATEWAY)) } } : {}),
})).id;

/** What the network object has sent (WebSocket messages it wrote and requests to its gateways) and the requests it took from its gateways. */
async function counted(url, id) {
  const res = await fetch(`${url}/networks/${id}/v1/__test/counters`);
  const { socket_messages: sockets, gateway_requests: requests, gateway_requests_in: taken } = await res.json();
  return { sent: sockets + requests, taken };
}
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/**
 * `n` bare agents joined to `id`, in groups of 100 at a time; each counts
 * the events of `type` and acknowledges what it gets as the core's replica
 * does (`core/src/replica/types.rs`): one cumulative ack after 32
 * deliveries or 20 ms after the first unacknowledged one, whichever comes
 * first. SCALE_CROWD_ACK=each acks after every frame instead.
 *
 * One Node process holds them all, so each agent's work on a frame is kept
 * small and out of the measurement: the arrival time is taken before the
 * frame is parsed (once: bareSocket's own listener, which keeps every
 * frame, is removed), and acks due at once are written after Node has read
 * every socket that was ready (setImmediate), so one agent's ack does not
 * delay the next agent's arrival.
 */
async function crowd(url, id, n, type, batched) {
  const agents = [];
  let due = [];
  const ackFrame = (agent) => {
    clearTimeout(agent.ackTimer);
    agent.ackTimer = null;
    agent.due = false;
    agent.unacked = 0;
    return eventFrame('network.event.ack', agent.name, 'core', { seq: agent.seq });
  };
  const ack = (agent) => agent.send(ackFrame(agent));
  const flushDue = () => {
    const now = due;
    due = [];
    // The acks due at once of one shared socket's lanes go as one message, a line each (as the npm package sends them).
    const bySocket = new Map();
    for (const agent of now) {
      if (agent.lane === undefined) ack(agent);
      else bySocket.set(agent.socket, [...(bySocket.get(agent.socket) ?? []), `${agent.lane}:${ackFrame(agent)}`]);
    }
    for (const [socket, lines] of bySocket) socket.send(lines.join('\n'));
  };
  const arrived = (agent, text, at) => {
    agent.received += 1;
    let delivered = 0;
    for (const event of eventsOf(text)) {
      if (event.type === type) {
        agent.got += 1;
        agent.gotAt = at;
      }
      const seq = event.metadata?.delivery?.seq;
      if (seq) {
        agent.seq = Math.max(agent.seq, seq);
        delivered += 1;
      }
    }
    if (!delivered) return;
    agent.unacked += delivered;
    if (CROWD_ACK === 'each' || agent.unacked >= ACK_AFTER_DELIVERIES) {
      if (due.length === 0) setImmediate(flushDue);
      if (!agent.due) {
        agent.due = true;
        due.push(agent);
      }
    } else if (!agent.ackTimer) {
      agent.ackTimer = setTimeout(() => ack(agent), ACK_DELAY_MS);
    }
  };
  const fresh = (name) => ({ got: 0, received: 0, name, seq: 0, unacked: 0, ackTimer: null, due: false });
  if (LANES) {
    for (let start = 0; start < n; start += LANES_PER_SOCKET) {
      const names = Array.from({ length: Math.min(LANES_PER_SOCKET, n - start) }, (_, k) => `agent:c${start + k}`);
      agents.push(...await sharedCrowd(url, id, names, batched, fresh, arrived));
      if (n >= 2_000 && agents.length % 1_008 === 0) console.log(`  … ${agents.length} agents connected`);
    }
    return agents;
  }
  for (let start = 0; start < n; start += 100) {
    const group = await Promise.all(Array.from({ length: Math.min(100, n - start) }, async (_, k) => {
      const name = `agent:c${start + k}`;
      let agent;
      for (let attempt = 1; !agent; attempt += 1) {
        try {
          agent = await bareSocket(url, id, name, { batched });
        } catch (err) {
          if (attempt >= 3) throw new Error(`agent ${start + k} could not connect: ${err.message}`);
          await new Promise((r) => setTimeout(r, 500 * attempt));
        }
      }
      Object.assign(agent, fresh(name), { send: (frame) => agent.socket.send(frame) });
      agent.socket.removeAllListeners('message');
      agent.socket.on('message', (data) => arrived(agent, String(data), performance.now()));
      return agent;
    }));
    agents.push(...group);
    if (n >= 2_000 && agents.length % 1_000 === 0) console.log(`  … ${agents.length} agents connected`);
  }
  return agents;
}

/**
 * SCALE_LANES=1: `names` as lanes of one shared socket (`?lanes=1`, docs/wire.md
 * "Shared sockets"), joined by their first frame; each line of a message goes to
 * its lane's agent (`arrived`), timed when the message came.
 */
async function sharedCrowd(url, id, names, batched, fresh, arrived) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/networks/${id}/v1/ws?lanes=1${batched ? '&frames=batch' : ''}`, { perMessageDeflate: false });
  const agents = names.map((name, lane) => Object.assign(fresh(name), { lane, socket, joined: false, send: (frame) => socket.send(`${lane}:${frame}`) }));
  let placed = false;
  socket.on('message', (data) => {
    const at = performance.now();
    const text = String(data);
    if (!placed) { placed = text.startsWith('placed '); return; }
    for (const line of text.split('\n')) {
      const colon = line.indexOf(':');
      const agent = agents[Number(line.slice(0, colon))];
      if (!agent || colon < 0) continue;
      if (!agent.joined) { agent.joined = true; continue; }
      arrived(agent, line.slice(colon + 1), at);
    }
  });
  socket.on('close', (code) => { for (const agent of agents) agent.closed = code; });
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  await until(() => placed, 30_000);
  socket.send(agents.map((a) => `${a.lane}:${eventFrame('network.agent.join', a.name, 'core', {})}`).join('\n'));
  await until(() => agents.every((a) => a.joined), 30_000);
  return agents;
}

async function sustained(edge, batched, gateways = false) {
  const total = 100_000;
  const window = 2_000;
  const burst = 500;
  const id = await newNetwork(edge.url, `sustained-${batched}-${gateways}`, { gateways });
  const sender = await bareSocket(sockets, id, 'agent:a', { batched });
  const receiver = await bareSocket(sockets, id, 'agent:b', { batched });
  let acked = 0;
  let received = 0;
  let sent = 0;
  let unacked = 0;
  // What the window counts as done: acked by the network, or (SCALE_PACE=delivery) acked and received.
  const done = () => (PACE === 'delivery' ? Math.min(acked, received) : acked);
  const topUp = () => {
    while (sent < total && sent - done() < window) {
      const n = Math.min(burst, total - sent, window - (sent - done()));
      const frames = Array.from({ length: n }, (_, i) => eventFrame('bench.load', 'agent:a', 'agent:b', { i: sent + i }));
      sent += n;
      if (batched) sender.socket.send(`[${frames.join(',')}]`);
      else for (const frame of frames) sender.socket.send(frame);
    }
  };
  sender.onEvent = (event) => {
    if (event.type !== 'network.event.ack') return;
    acked += 1;
    if (sent - done() <= window - burst) topUp();
  };
  receiver.onEvent = (event) => {
    if (event.type !== 'bench.load') return;
    received += 1;
    unacked += 1;
    if (unacked >= ACK_EVERY) {
      unacked = 0;
      receiver.socket.send(eventFrame('network.event.ack', 'agent:b', 'core', { seq: event.metadata.delivery.seq }));
    }
    if (PACE === 'delivery' && sent - done() <= window - burst) topUp();
  };
  const start = performance.now();
  topUp();
  await until(() => acked >= total && received >= total);
  const seconds = (performance.now() - start) / 1000;
  console.log(`sustained${gateways ? ' through a gateway' : ''}, ${batched ? 'batched frames' : 'one event per frame'} (window ${window} ${PACE === 'delivery' ? 'acked and received' : 'acked'}, bursts of ${burst}): ${total} events sent, acked and received in ${seconds.toFixed(2)} s = ${Math.round(total / seconds)} events/s`);
  sender.socket.close();
  receiver.socket.close();
}

/**
 * Broadcasts `rounds` times to `n` agents and prints when the last had each;
 * `measure` wraps the broadcast rounds only (the joins before are not the fan-out's).
 */
async function fanOut(edge, n, rounds, gateways = false, to = sockets, measure = (step) => step()) {
  const id = await newNetwork(edge.url, `fanout-${n}-${gateways}`, { gateways, audience: n });
  const sender = await bareSocket(to, id, 'agent:sender', { batched: true });
  const agents = await crowd(to, id, n, 'bench.fan', true);
  await measure(() => broadcasts(edge, id, sender, agents, rounds, gateways, to));
  return { sender, agents };
}

/** The broadcast rounds of {@link fanOut}. */
async function broadcasts(edge, id, sender, agents, rounds, gateways, to) {
  const n = agents.length;
  const frames = () => agents.reduce((sum, a) => sum + a.received, 0);
  const times = [];
  const firsts = [];
  const starts = [];
  const framesPer = [];
  const heap = HEAP ? await watchHeap(edge) : null;
  const clientGcs = [];
  const gcObserver = HEAP ? new PerformanceObserver((list) => clientGcs.push(...list.getEntries())) : null;
  gcObserver?.observe({ entryTypes: ['gc'] });
  // The first broadcasts of a fresh network run cold code (V8 tiers the worker's
  // wasm up as it runs); like criterion's warm-up, they are sent but not counted.
  // The network object's sends are counted over all the counted rounds, not per
  // round: a counter read is a request into the edge's isolate (through
  // wrangler's proxy), and the rounds should hold only the broadcast and its acks.
  let countedBefore;
  for (let round = -WARM_UP; round < rounds; round += 1) {
    if (round === 0) countedBefore = await counted(edge.url, id);
    const before = frames();
    await new Promise((r) => setTimeout(r, 50));
    const start = performance.now();
    sender.socket.send(eventFrame('bench.fan', 'agent:sender', 'agent:broadcast', { round }));
    await until(() => agents.every((a) => a.got > round + WARM_UP), 120_000).catch((err) => {
      const missing = agents.filter((a) => a.got <= round + WARM_UP);
      const codes = {};
      for (const a of missing) codes[a.closed ?? 'open'] = (codes[a.closed ?? 'open'] ?? 0) + 1;
      const got = {};
      for (const a of missing) got[a.got] = (got[a.got] ?? 0) + 1;
      const names = missing.map((a) => a.name);
      throw new Error(`${err.message}: ${missing.length} of ${n} agents did not get broadcast ${round} (their sockets by close code: ${JSON.stringify(codes)}; by broadcasts received: ${JSON.stringify(got)}; ${names.slice(0, 5).join(' ')} … ${names.slice(-3).join(' ')})`);
    });
    // The receivers' acks (cursors through gateways) are not the broadcast's: let them settle first.
    const framesNow = frames();
    await new Promise((r) => setTimeout(r, 20));
    if (round < 0) continue;
    // When the last agent had it (recorded as it arrived, not when the poll above noticed).
    times.push(agents.reduce((last, a) => Math.max(last, a.gotAt), 0) - start);
    firsts.push(agents.reduce((first, a) => Math.min(first, a.gotAt), Infinity) - start);
    starts.push(start);
    framesPer.push(framesNow - before);
  }
  const countedAfter = await counted(edge.url, id);
  const sendsPerBroadcast = (countedAfter.sent - countedBefore.sent) / rounds;
  const takenPerBroadcast = (countedAfter.taken - countedBefore.taken) / rounds;
  if (gcObserver) {
    gcObserver.disconnect();
    const slow = clientGcs.filter((e) => e.duration >= 1);
    const hitBy = (e) => times.findIndex((t, i) => e.startTime + e.duration >= starts[i] && e.startTime <= starts[i] + t);
    console.log(`the bench client's own collections: ${clientGcs.length} (${slow.length} of 1 ms or more: ${slow.map((e) => `${e.duration.toFixed(1)} ms kind ${e.detail?.kind}${hitBy(e) >= 0 ? ` in #${hitBy(e)}` : ''}`).join(', ') || 'none'})`);
  }
  if (heap) {
    const { samples, majors } = await heap();
    const seconds = (samples.at(-1)[0] - samples[0][0]) / 1000;
    const allocated = samples.slice(1).reduce((sum, [, used], i) => sum + Math.max(0, used - samples[i][1]), 0);
    // A round was hit when a collection was seen while its broadcast was on its way (the heap is read every 10 ms).
    const hit = majors.map(({ at }) => times.findIndex((t, i) => at >= performance.timeOrigin + starts[i] && at <= performance.timeOrigin + starts[i] + t + 10));
    console.log(`the edge's JS heap during the broadcasts: allocated ${(allocated / seconds / 1e6).toFixed(2)} MB/s (the sum of its rises); ${majors.length} major collections (${majors.map(({ before, after }) => `${(before / 1e6).toFixed(1)}→${(after / 1e6).toFixed(1)} MB`).join(', ')}); rounds they fell in: ${hit.filter((i) => i >= 0).map((i) => `#${i} ${times[i].toFixed(1)} ms`).join(', ') || 'none'}`);
  }
  if (process.env.SCALE_SLOWEST) {
    const slowest = times.map((t, i) => [i, t]).sort((a, b) => b[1] - a[1]).slice(0, 12);
    console.log('slowest rounds (last agent / first agent, ms):', slowest.map(([i, t]) => `#${i} ${t.toFixed(1)}/${firsts[i].toFixed(1)}`).join(' '));
  }
  const how = `${gateways ? `through ${Math.max(1, Math.ceil(n / PER_GATEWAY))} gateways` : 'one object'}${LANES ? `, ${LANES_PER_SOCKET} agents to a socket` : ''}`;
  const via = to === edge.url ? 'through wrangler\'s proxy' : 'straight to workerd\'s entry socket';
  console.log(`fan-out to ${n} agents, ${how}, clients ${via} (${rounds} broadcasts after ${WARM_UP} not counted): p50 ${ms(quantile(times, 0.5))}, p90 ${ms(quantile(times, 0.9))}, p99 ${ms(quantile(times, 0.99))}, max ${ms(Math.max(...times))} (the first agent had it after p50 ${ms(quantile(firsts, 0.5))}); frames received per broadcast ${quantile(framesPer, 0.5)}; the network object's sends per broadcast (socket messages + gateway requests, with the sender's ack, averaged over the broadcasts): ${sendsPerBroadcast.toFixed(2)}${gateways ? `; requests it took from its gateways per broadcast (frames and cursors): ${takenPerBroadcast.toFixed(2)}` : ''} [load ${load()}]`);
}

// One network object holds at most 8,192 sockets (core MAX_SOCKETS); the `connected` step's
// object is allowed its AGENTS agents and sender (test policy, honoured with test hooks on).
const MAX_SOCKETS = 8_192;
const policy = AGENTS + 1 > MAX_SOCKETS ? { max_sockets: AGENTS + 1 } : undefined;
if (policy) console.log(`test policy: max_sockets ${policy.max_sockets} (the default is ${MAX_SOCKETS})`);
const edge = await startEdge({ testHooks: true, vars: policy ? { AGENTNET_TEST_POLICY: JSON.stringify(policy) } : {} });
// Where the agents' WebSockets connect: the `connected` steps' and, with SCALE_ENTRY=1, every step's.
let entry;
let sockets;
try {
  entry = ENTRY === '0' ? edge.url : await workerEntryUrl(edge);
  sockets = ENTRY === '1' ? entry : edge.url;
  if (wants('sustained')) {
    await profiled(edge, 'sustained, one event per frame', () => sustained(edge, false));
    await profiled(edge, 'sustained, batched', () => sustained(edge, true));
  }
  if (wants('sustained-gw')) {
    await profiled(edge, 'sustained through a gateway, one event per frame', () => sustained(edge, false, true));
    await profiled(edge, 'sustained through a gateway, batched', () => sustained(edge, true, true));
  }
  for (const gateways of [false, true]) {
    if (!wants(gateways ? 'fanout-gw' : 'fanout')) continue;
    for (const [n, rounds] of FANOUT) {
      const label = `fan-out to ${n}${gateways ? ' through gateways' : ''} (the broadcasts)`;
      const { sender, agents } = await fanOut(edge, n, rounds, gateways, sockets, (step) => profiled(edge, label, step));
      for (const a of [sender, ...agents]) a.socket.close();
      await new Promise((r) => setTimeout(r, 2000));
    }
  }
  for (const gateways of [false, true]) {
    if (!wants(gateways ? 'connected-gw' : 'connected')) continue;
    await new Promise((r) => setTimeout(r, 1000));
    const before = workerdRssKb(edge.pid);
    const fdsBefore = workerdFds(edge.pid);
    const start = performance.now();
    const { sender, agents } = await fanOut(edge, AGENTS, 10, gateways, entry);
    console.log(`${AGENTS} agents connected and joined in ${((performance.now() - start) / 1000).toFixed(1)} s (with the broadcasts)`);
    await new Promise((r) => setTimeout(r, 2000));
    const after = workerdRssKb(edge.pid);
    const fdsAfter = workerdFds(edge.pid);
    console.log(`workerd resident memory: ${(before / 1024).toFixed(1)} MiB before, ${(after / 1024).toFixed(1)} MiB with ${AGENTS} connected = ${((after - before) / AGENTS).toFixed(1)} KiB per connected agent [load ${load()}]`);
    const perAgent = fdsAfter.map((n, i) => ((n - (fdsBefore[i] ?? 0)) / (AGENTS + 1)).toFixed(2));
    console.log(`workerd open file descriptors per process: ${fdsBefore.join(', ')} before, ${fdsAfter.join(', ')} with ${AGENTS + 1} sockets = ${perAgent.join(', ')} per socket`);
    for (const a of [sender, ...agents]) a.socket.close();
    await new Promise((r) => setTimeout(r, 5000));
  }
  for (const gateways of [false, true]) {
    if (!wants(gateways ? 'networks-gw' : 'networks')) continue;
    const before = workerdRssKb(edge.pid);
    const ids = [];
    for (let i = 0; i < NETWORKS; i += 1) ids.push(await newNetwork(edge.url, `many-${i}-${gateways}`, { gateways }));
    const pairs = [];
    for (let i = 0; i < ids.length; i += 50) {
      pairs.push(...await Promise.all(ids.slice(i, i + 50).map(async (id) => ({
        a: await bareSocket(sockets, id, 'agent:a', { batched: true }),
        b: await bareSocket(sockets, id, 'agent:b', { batched: true }),
      }))));
    }
    const each = 100;
    let received = 0;
    for (const { b } of pairs) b.onEvent = (e) => { if (e.type === 'bench.many') received += 1; };
    const start = performance.now();
    for (const { a } of pairs) {
      a.socket.send(`[${Array.from({ length: each }, (_, i) => eventFrame('bench.many', 'agent:a', 'agent:b', { i })).join(',')}]`);
    }
    await until(() => received >= pairs.length * each);
    const seconds = (performance.now() - start) / 1000;
    const after = workerdRssKb(edge.pid);
    console.log(`${pairs.length} networks${gateways ? ' (each with a gateway)' : ''} with 2 agents each, ${each} events per network: ${Math.round((pairs.length * each) / seconds)} events/s in total; workerd memory ${(before / 1024).toFixed(1)} → ${(after / 1024).toFixed(1)} MiB (${((after - before) / pairs.length).toFixed(0)} KiB per active network) [load ${load()}]`);
    for (const { a, b } of pairs) { a.socket.close(); b.socket.close(); }
  }
} catch (err) {
  console.log(`failed: ${err.message}\nthe edge's last output:\n${edge.log.join('').slice(-3000)}`);
  process.exitCode = 1;
} finally {
  await edge.stop();
}

if (wants('coldstart')) {
  // A network with COLD_EVENTS stored events; then workerd restarts on the same
  // state and the first frame to the network (a join) is answered.
  const cold = await startEdge({ stateDir: (await import('node:fs')).mkdtempSync('/tmp/agentnet-cold-') });
  let id;
  try {
    id = await newNetwork(cold.url, 'cold');
    const writer = await bareSocket(cold.url, id, 'agent:writer', { batched: true });
    let acked = 0;
    writer.onEvent = (e) => { if (e.type === 'network.event.ack') acked += 1; };
    const start = performance.now();
    for (let sent = 0; sent < COLD_EVENTS; sent += 1000) {
      writer.socket.send(`[${Array.from({ length: 1000 }, (_, i) => eventFrame('bench.cold', 'agent:writer', 'agent:writer', { i: sent + i })).join(',')}]`);
      await until(() => acked >= Math.max(0, sent - 20_000));
    }
    await until(() => acked >= COLD_EVENTS, 3_600_000);
    console.log(`stored ${COLD_EVENTS} events in ${((performance.now() - start) / 1000).toFixed(1)} s`);
    writer.socket.close();
  } finally {
    await cold.stop();
  }
  const again = await startEdge({ stateDir: cold.stateDir });
  try {
    const start = performance.now();
    const reader = await bareSocket(again.url, id, 'agent:reader', { batched: true });
    const first = performance.now() - start;
    console.log(`cold start with ${COLD_EVENTS} stored events: the first frame (a join at the upgrade) answered in ${ms(first)} after workerd restarted`);
    reader.socket.close();
  } finally {
    await again.stop();
  }
}
