// Proof under faults: the browser composes 500 messages with the
// edge gone (kill -9), reloads while still offline, and when the edge is back
// each of the 500 is delivered exactly once, in order. Prints how long the
// queue took to drain.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { onlineWorkspacePage, restartableEdgeAndBrowser, storedRows } from '../../support/browser.mjs';
import { until, expectNothingFor } from '../../support/waits.mjs';

const COUNT = 500;
const setup = restartableEdgeAndBrowser('agentnet-offline-500-');

test(`offline: ${COUNT} composed, reloaded, reconnected: each delivered once, in order`, async () => {
  let { edge, browser } = await setup.start();

  const watcher = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:watcher-500' });
  const secret = watcher.memberSecret;
  const { context, page, status, human } = await onlineWorkspacePage(browser, edge.url);

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
  edge = await setup.restart();
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
