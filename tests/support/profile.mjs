// A V8 CPU profile of the edge's workerd, taken through `wrangler dev`'s
// inspector port (the Chrome DevTools protocol), for benchmarks that want to
// know where the edge's time goes: `const stop = await startProfile(edge)`,
// run the load, then `summarize(await stop())` lists the functions that took
// the most of it (self time). The profile covers every isolate's JavaScript
// and WebAssembly (the worker's function names come from the wasm name
// section, which the release build drops: build the edge with
// AGENTNET_WASM_NAMES=1 to keep it, scripts/lib.sh `optimize_wasm`); time in workerd's own C++ (SQLite, the kernel) shows as the
// JavaScript or wasm frame that called it, or as `(program)`. `watchHeap`
// follows the isolate's JS heap instead, and finds its major collections.

import WebSocket from 'ws';

/** A DevTools protocol session with the edge's workerd: `call(method, params)` and `close()`. */
async function inspect(edge) {
  const targets = await (await fetch(`http://127.0.0.1:${edge.inspectorPort}/json`)).json();
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  let next = 0;
  const pending = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(`${message.error.message} (${message.error.code})`));
    else waiter.resolve(message.result);
  });
  const call = (method, params = {}) => new Promise((resolve, reject) => {
    next += 1;
    pending.set(next, { resolve, reject });
    socket.send(JSON.stringify({ id: next, method, params }));
  });
  return { call, close: () => socket.close() };
}

/** Starts sampling every `intervalUs` microseconds; resolves to a function that stops and returns the profile. */
export async function startProfile(edge, { intervalUs = 200 } = {}) {
  const { call, close } = await inspect(edge);
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: intervalUs });
  await call('Profiler.start');
  return async () => {
    const { profile } = await call('Profiler.stop');
    close();
    return profile;
  };
}

/**
 * Reads the edge isolate's used JS heap every `everyMs`; resolves to a
 * function that stops and returns what it saw: `{ samples: [[epochMs, bytes]],
 * majors: [{ at, before, after }] }`, where a major collection is a fall of
 * the used heap to under half of what it was (the young generation's
 * collections free a small part of it).
 */
export async function watchHeap(edge, { everyMs = 10 } = {}) {
  const { call, close } = await inspect(edge);
  const samples = [];
  let watching = true;
  const done = (async () => {
    while (watching) {
      const { usedSize } = await call('Runtime.getHeapUsage');
      samples.push([performance.timeOrigin + performance.now(), usedSize]);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return async () => {
    watching = false;
    await done;
    close();
    const majors = [];
    for (let i = 1; i < samples.length; i += 1) {
      const [at, after] = samples[i];
      const before = samples[i - 1][1];
      if (after < before / 2) majors.push({ at, before, after });
    }
    return { samples, majors };
  };
}

/** The `top` functions by self time, each with its share of all samples, as printable lines. */
export function summarize(profile, top = 40) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfSamples = new Map();
  for (const id of profile.samples) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
  const byName = new Map();
  for (const [id, count] of selfSamples) {
    const frame = byId.get(id).callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${frame.url ? frame.url.split('/').pop() : ''}`.trim();
    byName.set(name, (byName.get(name) ?? 0) + count);
  }
  const total = profile.samples.length;
  const idle = byName.get('(idle)') ?? 0;
  return [`${total} samples, ${(100 * idle / total).toFixed(1)} % idle; of the busy time:`,
    ...[...byName].filter(([name]) => name !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top)
      .map(([name, count]) => `${(100 * count / (total - idle)).toFixed(1).padStart(5)} %  ${name}`)];
}

/** The edge isolate's JS heap once: `{ usedSize, totalSize }` (bytes; `Runtime.getHeapUsage`). */
export async function heapUsage(edge) {
  const { call, close } = await inspect(edge);
  try {
    return await call('Runtime.getHeapUsage');
  } finally {
    close();
  }
}
