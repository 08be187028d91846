// Shared-document figures through the real stack (wrangler dev + Chromium).
// Run after ./scripts/test has built everything:
//
//   node tests/bench/documents.mjs [edits]      (default 100000)
//
// 1. A JS agent makes a document with N edits (one character each; every
//    tenth deletes one) while the edge is down, then syncs it up.
// 2. The browser opens it: time from the click to the whole text shown
//    (initial sync of the whole document to a replica with no copy).
// 3. One edit at the agent until the browser shows it, 20 times (p50/p99):
//    two up-to-date replicas agreeing after one edit, through the network.
// 4. With the edge down again, reloads of the page until the editor shows
//    the whole text (its cached copy, editable at once) and until the
//    document itself has loaded from IndexedDB (5 runs); then a key typed the
//    moment the text shows, until it shows (3 runs): the load holds the page.
// The native figures of the same steps: cargo bench -p agentnet-core --features documents --bench documents

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Agent } from '../../core/js/index.js';
import { freePort, startEdge } from '../support/edge.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { until } from '../support/process.mjs';

const edits = Number(process.argv[2] ?? 100_000);
const stateDir = await mkdtemp(join(tmpdir(), 'agentnet-bench-documents-'));
const port = await freePort();
let edge = await startEdge({ stateDir, port });
const browser = await launchBrowser();
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
try {
  const address = 'resource/file/bench.md';
  const agent = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:typist', WebSocket });
  await agent.registerFile('bench.md', '', { permissions: { write: 'network' } });
  const doc = await agent.document(address);
  await edge.kill();
  await until('the agent to notice', () => !agent.online);
  let started = Date.now();
  for (let i = 0; i < edits; i += 1) {
    if (i % 10 === 9) doc.splice(doc.text.length - 1, 1);
    else doc.insert(i - Math.floor(i / 10) * 2, String.fromCharCode(97 + (i % 26)));
  }
  const expected = doc.text;
  console.log(`${edits} edits made offline in ${Date.now() - started} ms (${expected.length} characters)`);
  edge = await startEdge({ stateDir, port });
  started = Date.now();
  await until('the network to hold them', async () => agent.online && (await agent.read(address)).content === expected, 120_000);
  console.log(`synced up to the network in ${Date.now() - started} ms`);

  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${edge.url}/`);
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
  await page.evaluate(() => navigator.serviceWorker.ready);
  const item = page.locator(`.resource[data-address="${address}"]`);
  await page.getByRole('button', { name: 'Refresh' }).click();
  const text = item.getByRole('textbox', { name: /Content of/ });
  started = Date.now();
  await item.getByRole('button', { name: 'Open file' }).click();
  await page.waitForFunction(({ sel, length }) => document.querySelector(sel)?.value.length === length,
    { sel: `.resource[data-address="${address}"] textarea`, length: expected.length }, { polling: 5, timeout: 60_000 });
  console.log(`initial sync to the browser (no copy): ${Date.now() - started} ms`);

  const agreement = [];
  for (let i = 0; i < 20; i += 1) {
    const mark = `#${i}#`;
    const t = Date.now();
    doc.insert(0, mark);
    await page.waitForFunction(({ sel, mark }) => document.querySelector(sel)?.value.startsWith(mark),
      { sel: `.resource[data-address="${address}"] textarea`, mark }, { polling: 1, timeout: 30_000 });
    agreement.push(Date.now() - t);
  }
  agreement.sort((a, b) => a - b);
  console.log(`one edit at the agent until the browser shows it: p50 ${pct(agreement, 50)} ms, p99 ${pct(agreement, 99)} ms`);
  const final = doc.text;
  await until('the browser to hold the last edit', async () => (await text.inputValue()) === final);
  await page.waitForTimeout(1000); // IndexedDB writes settle

  await edge.kill();
  const selector = `.resource[data-address="${address}"] textarea`;
  const editorsLine = `.resource[data-address="${address}"] .editors`;
  const showsLength = (length) => page.waitForFunction(({ sel, length }) => document.querySelector(sel)?.value.length === length,
    { sel: selector, length }, { polling: 5, timeout: 60_000 });
  const reloads = [];
  const loaded = [];
  const inPage = [];
  for (let run = 0; run < 5; run += 1) {
    const t = Date.now();
    await page.reload();
    await showsLength(final.length);
    reloads.push(Date.now() - t);
    await page.waitForFunction((sel) => /^Also editing|^Only you/.test(document.querySelector(sel)?.textContent ?? ''),
      editorsLine, { polling: 5, timeout: 60_000 });
    loaded.push(Date.now() - t);
    inPage.push(await page.evaluate(() => performance.getEntriesByName('agentnet: load a saved document')[0]?.duration));
  }
  // A key typed the moment the text shows: the load holds the page, so it shows
  // once the load is done (and is then applied to the loaded document).
  const typed = [];
  let current = final;
  for (let run = 0; run < 3; run += 1) {
    await page.reload();
    await showsLength(current.length);
    const t = Date.now();
    await page.evaluate((sel) => {
      const area = document.querySelector(sel);
      area.focus();
      area.setSelectionRange(area.value.length, area.value.length);
    }, selector);
    await page.keyboard.type('x');
    await showsLength(current.length + 1);
    typed.push(Date.now() - t);
    current += 'x';
    await page.waitForFunction(({ sel, line, want }) => document.querySelector(sel)?.value.endsWith(want)
      && /^Only you/.test(document.querySelector(line)?.textContent ?? ''),
      { sel: selector, line: editorsLine, want: current.slice(-20) }, { polling: 5, timeout: 60_000 });
    await page.waitForTimeout(1000); // IndexedDB writes settle
  }
  for (const runs of [reloads, loaded, inPage]) runs.sort((a, b) => a - b);
  console.log(`offline reload until the editor shows the document (cached text): median ${pct(reloads, 50)} ms (${reloads.join(', ')} ms)`);
  console.log(`offline reload until the document is loaded from IndexedDB: median ${pct(loaded, 50)} ms (${loaded.join(', ')} ms)`);
  console.log(`  of which opening the document in the page (Automerge's load of its stored rows, and its text): median ${Math.round(pct(inPage, 50))} ms (${inPage.map(Math.round).join(', ')} ms)`);
  console.log(`a key typed as the text shows, until it shows: ${typed.join(', ')} ms`);
  agent.close();
} finally {
  await browser.close();
  await edge.stop();
  await rm(stateDir, { recursive: true, force: true });
}
