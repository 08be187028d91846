// The first page on a throttled phone: a fresh browser (nothing cached) opens
// /n/demo at 390×844 over a slow 4G link with the CPU slowed 4× (the mobile
// profile Lighthouse uses: 150 ms round trip, 1.6 Mbit/s down,
// 4× CPU), until the conversation is usable: its newest message shows and the
// composer takes text. Prints the time and the gzip'd bytes of wasm and JS the
// page fetched by then. The link is a proxy here in front of the edge (each
// request waits the round trip, every response body shares the 1.6 Mbit/s):
// Chromium's own network emulation left the streamed wasm unthrottled. Given two trees (two builds of the web workspace), it
// alternates them run by run, so both see the same machine:
//
//   node tests/bench/first-page.mjs [ROOT] [OTHER_ROOT] [RUNS (default 3)]
//
// ROOT defaults to this repository; each tree uses its own built www/, edge and npm package.
import { createServer, request as forward } from 'node:http';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const roots = args.filter((arg) => !/^\d+$/.test(arg));
if (roots.length === 0) roots.push(here);
const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 3);
// Lighthouse's mobile link: 150 ms round trip, 1.6 Mbit/s down (what is sent up is small here).
const PHONE = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8 };

async function setUp(root) {
  const { startEdge } = await import(`${root}/tests/support/edge.mjs`);
  const { launchBrowser } = await import(`${root}/tests/support/browser.mjs`);
  const { Agent } = await import(`${root}/core/js/index.js`);
  const edge = await startEdge();
  const agent = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:talk' });
  for (let n = 0; n < 30; n += 1) await agent.send('agent:broadcast', 'workspace.message.posted', { content: `hello ${n}` });
  return { root, edge, launchBrowser, agent, times: [], bytes: [] };
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * A slow link to `target` (http://host:port): one round trip before each request goes on, and
 * the response bodies share the link's bandwidth, in the order their bytes arrive. Counts the
 * bytes of `.wasm` and `.js` it carried. Resolves to `{url, fetched(), close()}`.
 */
async function slowLink(target) {
  const { hostname, port } = new URL(target);
  const bytesPerMs = PHONE.downloadThroughput / 1000;
  let free = Date.now();
  let scripts = 0;
  const pace = async (chunk) => {
    free = Math.max(free, Date.now()) + chunk.length / bytesPerMs;
    await sleep(free - Date.now());
  };
  const server = createServer(async (req, res) => {
    await sleep(PHONE.latency);
    const out = forward({ hostname, port, path: req.url, method: req.method, headers: req.headers }, async (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      const counted = /\.(wasm|js)(\?|$)/.test(req.url);
      for await (const chunk of answer) {
        await pace(chunk);
        if (counted) scripts += chunk.length;
        res.write(chunk);
      }
      res.end();
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  // WebSockets: the round trip, then the bytes as they are.
  server.on('upgrade', async (req, socket, head) => {
    await sleep(PHONE.latency);
    const upstream = connect(Number(port), hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, ...Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`)];
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise((resolve) => { server.listen(0, '127.0.0.1', resolve); });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    fetched: () => scripts,
    close: () => { server.closeAllConnections(); server.close(); },
  };
}

async function firstPage(tree) {
  // A browser of its own each time: contexts of one browser shared cached files here.
  const browser = await tree.launchBrowser();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const link = await slowLink(tree.edge.url);
  const start = Date.now();
  await page.goto(`${link.url}/n/demo`);
  await page.locator('.message', { hasText: 'hello 29' }).waitFor({ timeout: 120_000 });
  await page.locator('#message').fill('typed');
  tree.times.push(Date.now() - start);
  tree.bytes.push(link.fetched());
  link.close();
  await browser.close();
}

const trees = [];
try {
  for (const root of roots) trees.push(await setUp(root));
  for (let run = 0; run < runs; run += 1) for (const tree of trees) await firstPage(tree);
  for (const { root, times, bytes } of trees) {
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`${root}: usable conversation median ${sorted[Math.floor(sorted.length / 2)]} ms (${sorted.join(', ')} ms), wasm+JS fetched ${bytes.map((b) => `${Math.round(b / 1024)} KiB`).join(', ')}`);
  }
} finally {
  for (const tree of trees) {
    tree.agent.close();
    await tree.edge.stop();
  }
}
