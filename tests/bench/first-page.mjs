// The first page on a throttled phone: a fresh browser (nothing cached) opens
// /n/demo at 390×844 over a slow 4G link with the CPU slowed 4× (the mobile
// profile Lighthouse uses: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up,
// 4× CPU), until the conversation is usable: its newest message shows and the
// composer takes text. Prints the time and the gzip'd bytes of wasm and JS the
// page fetched by then. Given two trees (two builds of the web workspace), it
// alternates them run by run, so both see the same machine:
//
//   node tests/bench/first-page.mjs [ROOT] [OTHER_ROOT] [RUNS (default 3)]
//
// ROOT defaults to this repository; each tree uses its own built www/, edge and npm package.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const roots = args.filter((arg) => !/^\d+$/.test(arg));
if (roots.length === 0) roots.push(here);
const runs = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 3);
const PHONE = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

async function setUp(root) {
  const { startEdge } = await import(`${root}/tests/support/edge.mjs`);
  const { launchBrowser } = await import(`${root}/tests/support/browser.mjs`);
  const { Agent } = await import(`${root}/core/js/index.js`);
  const edge = await startEdge();
  const agent = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:talk' });
  for (let n = 0; n < 30; n += 1) await agent.send('agent:broadcast', 'workspace.message.posted', { content: `hello ${n}` });
  return { root, edge, launchBrowser, agent, times: [], bytes: [] };
}

async function firstPage(tree) {
  // A browser of its own each time: contexts of one browser shared cached files here.
  const browser = await tree.launchBrowser();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...PHONE });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const types = new Map();
  let fetched = 0;
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    types.set(requestId, response.url);
    if (process.env.FIRST_PAGE_DEBUG) console.log(response.url, response.fromDiskCache, response.fromServiceWorker, response.fromPrefetchCache, response.encodedDataLength, response.headers['content-encoding']);
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    if (/\.(wasm|js)(\?|$)/.test(types.get(requestId) ?? '')) fetched += encodedDataLength;
  });
  const start = Date.now();
  await page.goto(`${tree.edge.url}/n/demo`);
  await page.locator('.message', { hasText: 'hello 29' }).waitFor({ timeout: 120_000 });
  await page.locator('#message').fill('typed');
  tree.times.push(Date.now() - start);
  // What the page fetched of wasm and JS (as sent: gzip'd), by the page's own resource timing.
  const scripts = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((entry) => /\.(wasm|js)$/.test(new URL(entry.name).pathname))
    .map((entry) => ({ name: entry.name, size: entry.transferSize, ms: Math.round(entry.duration) })));
  if (process.env.FIRST_PAGE_DEBUG) console.log(scripts);
  tree.bytes.push(Math.max(fetched, scripts.reduce((sum, entry) => sum + entry.size, 0)));
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
