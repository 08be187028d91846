// Proof under faults: the browser composes 500 messages with the
// edge gone (kill -9), reloads while still offline, and when the edge is back
// each of the 500 is delivered exactly once, in order. Prints how long the
// queue took to drain.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../../../core/js/index.js';
import { startEdge, freePort } from '../../support/edge.mjs';
import { launchBrowser, storedRows } from '../../support/browser.mjs';
import { until, expectNothingFor } from '../../support/waits.mjs';

const COUNT = 500;
let edge;
let browser;
let stateDir;

after(async () => {
  await browser?.close();
  await edge?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

test(`offline: ${COUNT} composed, reloaded, reconnected: each delivered once, in order`, async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'agentnet-offline-500-'));
  const port = await freePort();
  edge = await startEdge({ stateDir, port });
  browser = await launchBrowser();

  const watcher = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:watcher-500' });
  const secret = watcher.memberSecret;
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${edge.url}/`);
  const status = page.getByRole('status');
  await status.filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
  await page.evaluate(() => navigator.serviceWorker.ready);
  const human = (await page.locator('.me').getAttribute('data-address')).trim();

  watcher.close();
  await edge.kill();
  await status.filter({ hasText: /offline|connecting/ }).waitFor({ timeout: 15_000 });

  const box = page.getByRole('textbox', { name: 'Message' });
  for (let n = 1; n <= COUNT; n += 1) {
    await box.fill(`queued ${n}`);
    await box.press('Enter');
  }
  await status.filter({ hasText: `${COUNT} queued` }).waitFor({ timeout: 30_000 });
  await until(`the ${COUNT} queued in IndexedDB`, async () => (await storedRows(page, 'demo')).kinds.o >= COUNT, 10_000);
  await page.reload();
  await status.filter({ hasText: `${COUNT} queued` }).waitFor({ timeout: 30_000 });
  assert.equal((await page.locator('.me').getAttribute('data-address')).trim(), human, 'the same person after the reload');

  const seen = [];
  edge = await startEdge({ stateDir, port });
  const back = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:watcher-500', memberSecret: secret });
  back.on('workspace.message.posted', (event) => { if (event.source === human) seen.push(event.payload.content); });
  const started = Date.now();
  await until(`the watcher has all ${COUNT}`, () => seen.length >= COUNT, 120_000);
  const drained = Date.now() - started;
  await status.filter({ hasText: 'online' }).waitFor({ timeout: 30_000 });
  await until('nothing queued', async () => !/queued/.test(await status.textContent()), 30_000);
  await expectNothingFor(1000, 'a duplicate');
  assert.equal(seen.length, COUNT, 'each delivered once');
  assert.deepEqual(seen, Array.from({ length: COUNT }, (_, i) => `queued ${i + 1}`));
  console.log(`# ${COUNT} queued messages delivered in ${drained} ms after the edge came back`);
  back.close();
  await context.close();
});
