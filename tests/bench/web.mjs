// Web workspace figures: the gzipped size of what the browser downloads, and
// the time from navigation to an interactive workspace after 1,000 events
// (IndexedDB keeps the newest 500, web/src/storage.rs LOG_KEPT; the page
// shows the newest 50 of them and pages the rest in as the person scrolls up). Run after ./scripts/test has built everything:
//
//   node tests/bench/web.mjs
//
// It starts its own edge on 127.0.0.1 and Chromium, and stops both.

import { readFile, readdir } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../../core/js/index.js';
import { startEdge } from '../support/edge.mjs';
import { launchBrowser } from '../support/browser.mjs';

const www = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'www');

async function shellFiles() {
  const snippets = join(www, 'pkg', 'snippets');
  const files = [
    'index.html', 'pkg/styles.css', 'sw.js', 'manifest.webmanifest', 'icons/icon.svg',
    'pkg/agentnet_web.js', 'pkg/agentnet_web_bg.wasm',
  ];
  for (const dir of await readdir(snippets)) {
    for (const file of await readdir(join(snippets, dir, 'js'))) files.push(`pkg/snippets/${dir}/js/${file}`);
  }
  return files;
}

const edge = await startEdge();
const browser = await launchBrowser();
try {
  let total = 0;
  for (const file of await shellFiles()) {
    const bytes = await readFile(join(www, file));
    const gz = gzipSync(bytes, { level: 9 }).length;
    total += gz;
    console.log(`${file}: ${bytes.length} B, gzip ${gz} B`);
  }
  console.log(`app total (wasm + JS + HTML + CSS), gzip -9 per file: ${total} B`);

  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${edge.url}/`);
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
  const agent = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:filler' });
  const sends = [];
  for (let n = 0; n < 1000; n += 1) {
    sends.push(agent.send('agent:broadcast', 'workspace.message.posted', { content: `cached message ${n}` }));
  }
  await Promise.all(sends);
  // The list shows the newest (web/src/chat/list/rows.rs WINDOW) and pages earlier ones in on scrolling up.
  await page.locator('.message', { hasText: 'cached message 999' }).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000); // IndexedDB writes settle
  agent.close();

  const runs = [];
  const kept = 500;
  for (let run = 0; run < 5; run += 1) {
    const start = Date.now();
    await page.reload();
    await page.locator('.message', { hasText: 'cached message 999' }).waitFor({ timeout: 30_000 });
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    runs.push(Date.now() - start);
  }
  runs.sort((a, b) => a - b);
  console.log(`navigation to interactive after 1,000 events, ${kept} of them cached, the newest shown (5 reloads): median ${runs[2]} ms, min ${runs[0]} ms, max ${runs[4]} ms`);
} finally {
  await browser.close();
  await edge.stop();
}
