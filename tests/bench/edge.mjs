// Benchmarks of the edge on loopback through `wrangler dev` (workerd).
// Run: node tests/bench/edge.mjs  (after ./scripts/test or ./scripts/run has built everything)
// Prints: direct latency p50/p99, sustained events/s (npm agents, then lean
// WebSocket clients), fan-out to 20 and 100 agents, catch-up of 10,000
// missed events, workerd memory with 20 idle agents. EDGE_SHARE=0: the npm
// agents with sockets of their own.

import WebSocket from 'ws';
import { Agent } from '../../core/js/index.js';
import { sendFrame } from '../../core/js/lib/connect.js';
import { createNetwork, startEdge } from '../support/edge.mjs';
import { eventFrame } from '../support/frames.mjs';
import { workerdMemoryKb, workerdRssKb } from '../support/workerd.mjs';
import { ms, quantile } from './stats.mjs';

// The sustained steps send SUSTAINED_EVENTS events (several seconds, so that
// neither ramp-up nor one slow moment of this machine decides the figure),
// keeping up to WINDOW in flight and sending REFILL more whenever that many
// have been acknowledged.
const SUSTAINED_EVENTS = 50000;
const WINDOW = 400;
const REFILL = 200;

/**
 * Sends `total` events with `send(i)`, keeping up to WINDOW of them
 * unacknowledged: `start()` sends the first WINDOW, and each `acked()` (call it
 * once per ack; it returns how many so far) sends REFILL more once that many
 * have come back.
 */
function windowed(total, send) {
  let sent = 0;
  let acked = 0;
  const topUp = () => {
    for (let burst = Math.min(total - sent, WINDOW - (sent - acked)); burst > 0; burst -= 1) {
      send(sent);
      sent += 1;
    }
  };
  return {
    start: topUp,
    acked() {
      acked += 1;
      if (sent < total && sent - acked <= WINDOW - REFILL) topUp();
      return acked;
    },
  };
}
// The npm agents share sockets (lanes, 16 to a socket), as they do by default;
// EDGE_SHARE=0 gives each a socket of its own (`shareSocket: false`).
const SHARE = process.env.EDGE_SHARE !== '0';
const connect = (url, network, name) => Agent.connect({ url, network, name, WebSocket, shareSocket: SHARE });

async function newNetwork(url, name) {
  return (await createNetwork(url, { name, mods: ['persistence'] })).id;
}

// What `waitFor` re-checks; the handlers call `changed()` after each update it may wait on.
let recheck = null;
const changed = () => recheck?.();

/**
 * Resolves once `check()` holds. It is re-checked when a handler calls
 * `changed()`, not polled: a polling loop would take CPU from the edge on
 * this machine's two cores while it is being measured.
 */
function waitFor(check, timeoutMs = 60_000) {
  return new Promise((resolve, reject) => {
    if (check()) { resolve(); return; }
    const timer = setTimeout(() => { recheck = null; reject(new Error('timeout')); }, timeoutMs);
    recheck = () => {
      if (!check()) return;
      recheck = null;
      clearTimeout(timer);
      resolve();
    };
  });
}

/** A bare WebSocket joined to network `id` as `name`; set `onFrame` to see its frames. */
async function leanSocket(url, id, name) {
  const socket = new WebSocket(`${url.replace('http', 'ws')}/networks/${id}/v1/ws`, { perMessageDeflate: false });
  const lean = { socket, onFrame: null };
  let joined = false;
  socket.on('message', (data) => {
    const frame = String(data);
    if (!joined) { joined = frame.includes('"network.event.ack"'); changed(); return; }
    lean.onFrame?.(frame);
  });
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  socket.send(eventFrame('network.agent.join', name, 'core', {}));
  await waitFor(() => joined);
  return lean;
}

const edge = await startEdge();
try {
  const results = {};

  // 1. Direct latency between two WebSocket agents (same clock: one process).
  {
    const id = await newNetwork(edge.url, 'latency');
    const a = await connect(edge.url, id, 'agent:a');
    const b = await connect(edge.url, id, 'agent:b');
    let received = 0;
    const latencies = [];
    b.on('bench.ping', (e) => { latencies.push(performance.now() - e.payload.t); received += 1; changed(); });
    for (let i = 0; i < 1000; i += 1) {
      const target = received + 1;
      a.send('agent:b', 'bench.ping', { t: performance.now() }).catch(() => {});
      await waitFor(() => received >= target);
    }
    const warm = latencies.slice(100);
    results.latency = { p50: quantile(warm, 0.5), p99: quantile(warm, 0.99) };
    console.log(`direct latency (900 events after 100 warm-up): p50 ${ms(results.latency.p50)}, p99 ${ms(results.latency.p99)}`);
    a.close(); b.close();
  }

  // 2. Sustained throughput: SUSTAINED_EVENTS events, persistence on, a window of
  // WINDOW in flight topped up in bursts of REFILL as acks come back.
  {
    const id = await newNetwork(edge.url, 'throughput');
    const a = await connect(edge.url, id, 'agent:a');
    const b = await connect(edge.url, id, 'agent:b');
    const total = SUSTAINED_EVENTS;
    let received = 0;
    b.on('bench.load', () => { received += 1; changed(); });
    const start = performance.now();
    await new Promise((resolve, reject) => {
      const pipe = windowed(total, (i) => a.send('agent:b', 'bench.load', { i }).then(() => {
        if (pipe.acked() === total) resolve();
      }, reject));
      pipe.start();
    });
    await waitFor(() => received >= total);
    const seconds = (performance.now() - start) / 1000;
    results.throughput = total / seconds;
    console.log(`sustained (window ${WINDOW}): ${total} events sent, acked and received in ${seconds.toFixed(2)} s = ${Math.round(results.throughput)} events/s`);
    a.close(); b.close();
  }

  // 3. Fan-out: a broadcast until every one of N agents has it.
  for (const n of [20, 100]) {
    const id = await newNetwork(edge.url, `fanout-${n}`);
    const sender = await connect(edge.url, id, 'agent:sender');
    const agents = [];
    let got = 0;
    for (let i = 0; i < n; i += 1) {
      const agent = await connect(edge.url, id, `agent:r${i}`);
      agent.on('bench.fan', () => { got += 1; changed(); });
      agents.push(agent);
    }
    const times = [];
    for (let round = 0; round < 50; round += 1) {
      const target = got + n;
      const start = performance.now();
      sender.send('agent:broadcast', 'bench.fan', { round }).catch(() => {});
      await waitFor(() => got >= target);
      times.push(performance.now() - start);
    }
    results[`fanout${n}`] = { p50: quantile(times, 0.5), p99: quantile(times, 0.99) };
    console.log(`fan-out to ${n} agents (50 broadcasts): p50 ${ms(results[`fanout${n}`].p50)}, p99 ${ms(results[`fanout${n}`].p99)}`);
    if (n === 20) {
      await new Promise((r) => setTimeout(r, 1000));
      results.memory = workerdRssKb(edge.pid);
      const { worker } = workerdMemoryKb(edge.pid);
      console.log(`workerd resident memory with 21 connected idle agents: ${(results.memory / 1024).toFixed(1)} MiB (the Worker's own process: ${(worker.rss / 1024).toFixed(1)} MiB, without wrangler's proxy)`);
    }
    for (const agent of [sender, ...agents]) agent.close();
  }

  // 4. Catch-up: 10,000 events sent while the receiver was away.
  {
    const id = await newNetwork(edge.url, 'catch-up');
    const a = await connect(edge.url, id, 'agent:a');
    const first = await connect(edge.url, id, 'agent:late');
    first.close();
    await new Promise((r) => setTimeout(r, 200));
    let batch = [];
    for (let i = 0; i < 10000; i += 1) {
      batch.push(a.send('agent:late', 'bench.missed', { i }));
      if (batch.length === 500) { await Promise.all(batch); batch = []; }
    }
    await Promise.all(batch);
    let got = 0;
    const start = performance.now();
    const late = await Agent.connect({
      url: edge.url, network: id, name: 'agent:late', WebSocket, memberSecret: first.memberSecret, shareSocket: SHARE,
    });
    late.on('bench.missed', () => { got += 1; changed(); });
    await waitFor(() => got >= 10000, 120_000);
    results.catchUp = performance.now() - start;
    console.log(`catch-up of 10,000 missed events: ${ms(results.catchUp)}`);
    a.close(); late.close();
  }

  // 5. The sustained load of step 2 from two lean WebSocket clients:
  // pre-encoded frames in the same window (each burst one write, as the npm agent
  // sends), and a receiver that acknowledges every 32 deliveries as the npm agent
  // does. The figure is the network's own capacity, not the cost of two full
  // agents sharing its two cores.
  {
    const id = await newNetwork(edge.url, 'capacity');
    const sender = await leanSocket(edge.url, id, 'agent:a');
    const receiver = await leanSocket(edge.url, id, 'agent:b');
    const total = SUSTAINED_EVENTS;
    let received = 0;
    let unacked = 0;
    receiver.onFrame = (frame) => {
      if (!frame.includes('"bench.load"')) return;
      received += 1;
      changed();
      unacked += 1;
      if (unacked === 32 || received === total) {
        unacked = 0;
        const { seq } = JSON.parse(frame).metadata.delivery;
        receiver.socket.send(eventFrame('network.event.ack', 'agent:b', 'core', { seq }));
      }
    };
    const frames = Array.from({ length: total }, (_, i) => eventFrame('bench.load', 'agent:a', 'agent:b', { i }));
    const pipe = windowed(total, (i) => sendFrame(sender.socket, frames[i]));
    let acked = 0;
    sender.onFrame = (frame) => {
      if (frame.includes('"network.event.ack"')) { acked = pipe.acked(); changed(); }
    };
    const start = performance.now();
    pipe.start();
    await waitFor(() => acked >= total && received >= total);
    const seconds = (performance.now() - start) / 1000;
    results.capacity = total / seconds;
    console.log(`sustained, lean clients (window ${WINDOW}): ${total} events sent, acked and received in ${seconds.toFixed(2)} s = ${Math.round(results.capacity)} events/s`);
    sender.socket.close(); receiver.socket.close();
  }
} finally {
  await edge.stop();
}
