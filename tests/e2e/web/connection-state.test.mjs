// The connection state follows the browser at once: when the browser says
// it is offline the status says so without waiting for a heartbeat, and when
// it is back the page reconnects immediately rather than after the backoff
// it grew while offline.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeAndBrowser, openWorkspace } from '../../support/browser.mjs';
import { waitOut } from '../../support/waits.mjs';

const started = edgeAndBrowser();

test('offline and online follow the browser at once; the queue count shows while offline', async () => {
  const { edge, browser } = started;
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  try {
    await openWorkspace(page, edge.url);
    const status = page.locator('.topbar .status');
    await status.filter({ hasText: /^online$/ }).waitFor({ timeout: 15_000 });

    let wentOffline = Date.now();
    await context.setOffline(true);
    await status.filter({ hasText: /^offline/ }).waitFor({ timeout: 2_000 });
    const noticed = Date.now() - wentOffline;
    assert.ok(noticed < 2_000, `offline shown after ${noticed} ms`);

    // A message written meanwhile waits, and the status says how many do.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('written offline');
    await box.press('Enter');
    await status.filter({ hasText: /1 queued/ }).waitFor({ timeout: 2_000 });

    // Long enough offline for the backoff to reach its cap (10 s) several times over.
    await waitOut(20_000, 'the reconnect backoff reaching its cap several times');
    wentOffline = Date.now();
    await context.setOffline(false);
    await status.filter({ hasText: /^online$/ }).waitFor({ timeout: 4_000 });
    const back = Date.now() - wentOffline;
    assert.ok(back < 4_000, `online again after ${back} ms`);
    await page.locator('.message', { hasText: 'written offline' }).locator('.state', { hasText: 'pending' })
      .waitFor({ state: 'detached', timeout: 10_000 });
  } finally {
    await context.close();
  }
});
