// The workspace is local-first: with the edge gone it still opens (service
// worker), shows its history and queued messages after a reload (IndexedDB),
// and when the edge is back it delivers each queued message once, in order.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { onlineWorkspacePage, restartableEdgeAndBrowser, storedRows } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';
import { until, expectNothingFor } from '../../support/waits.mjs';

const setup = restartableEdgeAndBrowser('agentnet-offline-');

test('offline: post three, reload offline, come back online, each delivered exactly once', async () => {
  let { edge, browser } = await setup.start();

  const watcher = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:watcher' });
  const seen = [];
  watcher.on('workspace.message.posted', (event) => seen.push(event));

  // Online, with the service worker holding the shell before the network goes away.
  const { context, page, status, human } = await onlineWorkspacePage(browser, edge.url);

  await watcher.send('agent:broadcast', 'workspace.message.posted', { content: 'history before the outage' });
  await page.locator('.message', { hasText: 'history before the outage' }).waitFor({ timeout: 10_000 });

  // The edge goes away (kill -9): the page notices and says so.
  watcher.close();
  await edge.kill();
  await status.filter({ hasText: /offline|connecting/ }).waitFor({ timeout: 15_000 });

  const box = page.getByRole('textbox', { name: 'Message' });
  for (const n of [1, 2, 3]) {
    await box.fill(`offline ${n}`);
    await box.press('Enter');
  }
  await page.locator('.message .state', { hasText: 'pending' }).nth(2).waitFor();
  await status.filter({ hasText: '3 queued' }).waitFor({ timeout: 5_000 });
  // IndexedDB has the three, then a reload with the edge still down.
  await until('the three queued in IndexedDB', async () => (await storedRows(page, 'demo')).kinds.o >= 3, 10_000);
  await page.reload();
  await page.locator('.message', { hasText: 'history before the outage' }).waitFor({ timeout: 15_000 });
  for (const n of [1, 2, 3]) {
    await page.locator('.message', { hasText: `offline ${n}` }).locator('.state', { hasText: 'pending' }).waitFor();
  }
  assert.equal((await page.locator('.me').getAttribute('data-address')).trim(), human, 'the same person after the reload');
  await shoot(page, 'workspace-offline');
  // The parts opened later come from the service worker's cache as well: the inspector opens offline.
  await page.getByRole('link', { name: 'Inspector' }).click();
  await page.getByRole('region', { name: 'Event inspector' }).waitFor({ timeout: 15_000 });
  await page.goBack();
  await page.locator('.message', { hasText: 'offline 3' }).waitFor();

  // The edge comes back with its state: the page reconnects and sends the queue, once and in order.
  edge = await setup.restart();
  const back = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:watcher', memberSecret: watcher.memberSecret });
  back.on('workspace.message.posted', (event) => seen.push(event));
  await status.filter({ hasText: 'online' }).waitFor({ timeout: 30_000 });
  for (const n of [1, 2, 3]) {
    await page.locator('.message', { hasText: `offline ${n}` }).locator('.state', { hasText: 'sent' }).waitFor({ timeout: 15_000 });
  }
  await until('the watcher has the three messages', () => seen.filter((e) => e.source === human).length >= 3, 15_000);
  await expectNothingFor(500, 'a duplicate');
  const fromPage = seen.filter((e) => e.source === human).map((e) => e.payload.content);
  assert.deepEqual(fromPage, ['offline 1', 'offline 2', 'offline 3']);
  back.close();
  await context.close();
});
