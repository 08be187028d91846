// Where the local edge's memory goes as a network fills up: workerd's resident
// memory (both workerd processes of `wrangler dev`, and the Worker's own one
// without wrangler's proxy in front of it), the isolate's WebAssembly
// linear memory (the Rust side of every object in it: `v1/__test/counters`)
// and its JS heap (the inspector's `Runtime.getHeapUsage`), read at each stage:
//
//   1. a fresh edge that has answered one request;
//   2. one network with one agent joined;
//   3. 21 idle agents joined (the figure `tests/bench/edge.mjs` prints);
//   4. MEMORY_AGENTS idle agents joined (default 10,000; the per-agent figures
//      are from stage 3 to stage 4);
//   5. the same after every socket closed and 10 s passed.
//
// Run: node tests/bench/memory.mjs (after the edge is built with test hooks,
// scripts/lib.sh build_edge). The agents are bare WebSockets
// (tests/support/frames.mjs) connected straight to workerd's entry socket, as
// scale.mjs's `connected` step does. Prints figures; asserts nothing.
//
// MEMORY_FLOOR=1 runs the same stages against tests/bench/workerd-floor, the
// smallest Worker that holds WebSockets as the edge does (one SQLite-backed
// object, the hibernation API), reading workerd's memory only: what workerd
// itself keeps, fresh and per socket, apart from agentnet.
//
// MEMORY_RUNTIME=workerd runs the same built Workers (or the floor) under
// `workerd serve` itself instead of `wrangler dev` (tests/support/workerd-serve.mjs):
// one process, without the development tooling a deployment does not have
// (wrangler's proxy, Miniflare's entry Worker, the inspector, the asset
// Workers). The JS heap is not read there (it needs the inspector).
//
// MEMORY_DEFLATE=1 has every agent offer per-message compression
// (permessage-deflate) at its upgrade, as browsers, Node's own WebSocket
// (undici, Node 22 and later) and Python's `websockets` do; it prints what
// the runtime agreed to. Without it the agents offer nothing, as the npm
// package's `ws` sockets do.
//
// MEMORY_ASSETS=0 (under `wrangler dev`) runs the edge without its `[assets]` table: with it,
// Miniflare puts two Workers of its own (the assets proxy and router) between its entry
// Worker and the edge's, which each socket passes through; a deployment's assets layer is
// Cloudflare's, outside the Worker's isolate.
//
// MEMORY_SHARE=1 has the agents share sockets, 16 to a socket, each in a lane
// of its own (`?lanes=1`, docs/wire.md "Shared sockets"), as npm agents in
// one process do by default; they join by their first frame.
//
// MEMORY_GATEWAYS=N creates the network with N connection gateways
// (docs/scale.md): each agent's socket is held by its gateway, and with
// MEMORY_SHARE=1 each gateway holds the shared sockets of its members (one
// socket per gateway while it has room, named after its first member, as the
// npm package opens them).

import { createNetwork, startEdge, startWorker, testConfigWithoutAssets, workerEntryUrl } from '../support/edge.mjs';
import { bareSocket, laneSocket } from '../support/frames.mjs';
import { gatewayOf } from '../support/gateways.mjs';
import { heapUsage } from '../support/profile.mjs';
import { serveEdge } from '../support/workerd-serve.mjs';
import { workerdMemoryKb, workerdRssKb } from '../support/workerd.mjs';
import { fileURLToPath } from 'node:url';

const AGENTS = Number(process.env.MEMORY_AGENTS ?? 10_000);
// One network object takes 8,192 sockets by default; the test policy lets this one take more.
const policy = AGENTS + 2 > 8_192 ? { max_sockets: AGENTS + 2 } : undefined;
const MiB = 1024 * 1024;

const FLOOR = process.env.MEMORY_FLOOR === '1';
const SERVE = process.env.MEMORY_RUNTIME === 'workerd';
const OFFER_DEFLATE = process.env.MEMORY_DEFLATE === '1';
const SHARE = process.env.MEMORY_SHARE === '1';
const WITHOUT_ASSETS = process.env.MEMORY_ASSETS === '0';
const GATEWAYS = Number(process.env.MEMORY_GATEWAYS ?? 0);
const LANES = 16;
if (SHARE && FLOOR) throw new Error('MEMORY_SHARE=1 needs the edge: the floor takes no lanes');
if (GATEWAYS && FLOOR) throw new Error('MEMORY_GATEWAYS needs the edge: the floor has no gateways');
if (WITHOUT_ASSETS && (FLOOR || SERVE)) throw new Error('MEMORY_ASSETS=0 is for the edge under wrangler dev');
const vars = policy ? { AGENTNET_TEST_POLICY: JSON.stringify(policy) } : {};
const edge = SERVE ? await serveEdge({ floor: FLOOR, testHooks: true, vars })
  : FLOOR ? await startWorker({ cwd: fileURLToPath(new URL('./workerd-floor', import.meta.url)) })
  : await startEdge({ testHooks: true, vars, config: WITHOUT_ASSETS ? await testConfigWithoutAssets() : undefined });
const sockets = [];
try {
  await fetch(`${edge.url}/`).then((res) => res.arrayBuffer());
  const entry = SERVE ? edge.url : await workerEntryUrl(edge);
  const stages = [];
  let id;
  const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const read = async (stage, agents) => {
    await settle(2000);
    const counters = id && !FLOOR ? await (await fetch(`${edge.url}/networks/${id}/v1/__test/counters`)).json() : {};
    const heap = SERVE ? { usedSize: null, totalSize: null } : await heapUsage(edge);
    const rssKb = workerdRssKb(edge.pid);
    const figures = {
      // Under `workerd serve` the Worker's process is the only one.
      stage, agents, rssKb, workerKb: SERVE ? rssKb : workerdMemoryKb(edge.pid).worker.rss,
      wasm: counters.wasm_memory_bytes ?? null,
      heapUsed: heap.usedSize, heapTotal: heap.totalSize,
    };
    stages.push(figures);
    const wasm = figures.wasm === null ? '—' : `${(figures.wasm / MiB).toFixed(1)} MiB`;
    const workerdFigure = SERVE ? `workerd serve ${(figures.rssKb / 1024).toFixed(1)} MiB`
      : `workerd ${(figures.rssKb / 1024).toFixed(1)} MiB (the Worker's process ${(figures.workerKb / 1024).toFixed(1)})`;
    const heapFigure = SERVE ? 'JS heap not read' : `JS heap ${(figures.heapUsed / MiB).toFixed(1)} MiB used of ${(figures.heapTotal / MiB).toFixed(1)}`;
    console.log(`${stage}: ${workerdFigure}, wasm memory ${wasm}, ${heapFigure}`);
    return figures;
  };
  // Shared sockets: the one taking lanes now (per gateway), and how many it has.
  const carriers = new Map();
  let joined = 0;
  const joinInLane = async (name) => {
    const gateway = GATEWAYS ? gatewayOf(name, GATEWAYS) : 0;
    let carrier = carriers.get(gateway);
    if (!carrier || carrier.used === LANES) {
      carrier = await laneSocket(entry, id, { offerDeflate: OFFER_DEFLATE, member: GATEWAYS ? name : null });
      carriers.set(gateway, carrier);
      carrier.used = 0;
      if (sockets.length === 0) console.log(`shared sockets, ${LANES} agents to a socket; compression agreed: ${carrier.socket.extensions || 'none'}`);
      sockets.push(carrier.socket);
    }
    const lane = carrier.used++;
    const answered = carrier.answered(lane);
    carrier.join(lane, name);
    await answered;
    joined += 1;
    // Idle agents keep no frames: the figure is the edge's, not this process's.
    if (carrier.used === LANES) carrier.socket.removeAllListeners('message');
  };
  const join = async (name) => {
    if (SHARE) return joinInLane(name);
    // `agent_id` in the URL joins at the upgrade.
    const agent = await bareSocket(entry, id, name, { offerDeflate: OFFER_DEFLATE });
    if (sockets.length === 0) console.log(`compression offered: ${OFFER_DEFLATE ? 'permessage-deflate' : 'none'}, agreed: ${agent.socket.extensions || 'none'}`);
    // Idle agents keep no frames: the figure is the edge's, not this process's.
    agent.socket.removeAllListeners('message');
    sockets.push(agent.socket);
    joined += 1;
  };
  const joinUpTo = async (n) => {
    while (joined < n) {
      // Lanes of one socket join one after another (each waits for its socket).
      const group = SHARE ? 1 : Math.min(100, n - joined);
      const first = joined;
      await Promise.all(Array.from({ length: group }, (_, k) => join(`agent:idle${first + k}`)));
    }
  };

  await read('fresh edge', 0);
  if (FLOOR) id = 'floor';
  else {
    const gateways = GATEWAYS ? { gateways: { count: GATEWAYS } } : {};
    ({ id } = await createNetwork(edge.url, { name: 'memory', access: { policy: 'open' }, mods: ['persistence'], ...gateways }));
    if (GATEWAYS) console.log(`a network with ${GATEWAYS} connection gateways`);
  }
  await joinUpTo(1);
  await read('one network, 1 agent', 1);
  await joinUpTo(21);
  const few = await read('21 idle agents', 21);
  await joinUpTo(AGENTS);
  const many = await read(`${AGENTS} idle agents`, AGENTS);
  const per = (key) => ((many[key] - few[key]) / (AGENTS - 21) / 1024).toFixed(1);
  const perWorkerd = ((many.rssKb - few.rssKb) / (AGENTS - 21)).toFixed(1);
  const perProcesses = SERVE ? `workerd serve ${perWorkerd} KiB`
    : `workerd ${perWorkerd} KiB (the Worker's process ${((many.workerKb - few.workerKb) / (AGENTS - 21)).toFixed(1)})`;
  console.log(`per idle agent (21 → ${AGENTS}): ${perProcesses}, wasm memory ${per('wasm')} KiB${SERVE ? '' : `, JS heap ${per('heapUsed')} KiB`}`);
  for (const socket of sockets.splice(0)) socket.close();
  await settle(8000);
  await read('all closed, 10 s later', 0);
} finally {
  for (const socket of sockets) socket.close();
  await edge.stop();
}
