// The first page loads only the conversation: the parts opened later (the
// inspector, search, Admin, documents, tasks, the Directory, the picture
// viewer) are chunks of their own (web/src/parts.rs), fetched when first
// opened, with a loading line while they come and Try again when they cannot.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { edgeForFile } from '../../support/edge.mjs';
import { launchBrowser, openWorkspace } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';

const edge = edgeForFile();
let browser;
after(async () => browser?.close());

const PART = /\/pkg\/(split_[a-z_]+|chunk_\d+)\.wasm$/;

test('the first page fetches no part; a part comes when opened, says it is loading, and can be tried again', async () => {
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  // No service worker: it would fetch every part for offline use once installed.
  await context.addInitScript(() => {
    Object.defineProperty(navigator, 'serviceWorker', { get: () => undefined });
  });
  const page = await context.newPage();
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  const agent = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:parts' });
  try {
    await openWorkspace(page, edge.url);
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'before any part' });
    await page.locator('.message', { hasText: 'before any part' }).waitFor({ timeout: 10_000 });
    assert.deepEqual(fetched.filter((path) => PART.test(path)), [], 'the conversation needs no part');
    assert.equal(await page.locator('#failure').isVisible(), false, 'no failure shows without a service worker');

    // The inspector's chunk is held: the pane says it is loading, in the conversation's place.
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/pkg/split_inspector_chunk.wasm', async (route) => {
      await held;
      await route.abort('internetdisconnected');
    });
    await page.getByRole('link', { name: 'Inspector' }).click();
    const loading = page.getByRole('status').filter({ hasText: 'Loading the inspector…' });
    await loading.waitFor();
    await shoot(page, 'part-loading');

    // It cannot come (the connection is gone): the pane says so and offers to try again.
    release();
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load the inspector' });
    await failed.waitFor();
    await shoot(page, 'part-failed');
    assert.equal(await page.locator('#failure').isVisible(), false, 'a part that cannot load fails alone, not the app');

    // Back online, Try again brings the inspector, which lists what happened before it came.
    await page.unroute('**/pkg/split_inspector_chunk.wasm');
    await failed.getByRole('button', { name: 'Try again' }).click();
    const inspector = page.getByRole('region', { name: 'Event inspector' });
    await inspector.waitFor({ timeout: 15_000 });
    await inspector.locator('.event[data-type="workspace.message.posted"]').first().waitFor();
    assert.ok(fetched.includes('/pkg/split_inspector_chunk.wasm'), 'the inspector came from its chunk');
    assert.ok(!fetched.some((path) => path.includes('split_admin_pane_chunk')), 'no other part was fetched');

    // Search is a part too: `/` opens it and its field takes the text.
    await page.getByRole('link', { name: 'Everyone' }).click();
    await page.locator('.message', { hasText: 'before any part' }).waitFor();
    await page.keyboard.press('/');
    const field = page.getByRole('searchbox', { name: 'Search messages' });
    await field.waitFor();
    await page.waitForFunction(() => document.activeElement?.id === 'search-text');
    await page.keyboard.type('before');
    assert.equal(await field.inputValue(), 'before');
    await page.locator('.search-result', { hasText: 'before any part' }).waitFor({ timeout: 10_000 });
    assert.ok(fetched.includes('/pkg/split_search_panel_chunk.wasm'), 'search came from its chunk');
  } finally {
    agent.close();
    await context.close();
  }
});
