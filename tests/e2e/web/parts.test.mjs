// The first page loads only the conversation: the parts opened later (the
// inspector, search, Admin, documents, tasks, the Directory, the picture
// viewer) are chunks of their own (web/src/parts.rs), fetched when first
// opened, with a loading line while they come and Try again when they cannot.
// Shared documents' engine (Automerge) is a chunk too, fetched when a live
// document is first opened.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { edgeForFile } from '../../support/edge.mjs';
import { launchBrowser, openWorkspace } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';
import { until } from '../../support/waits.mjs';

const edge = edgeForFile();
let browser;
after(async () => browser?.close());

/**
 * A page in a context of its own with no service worker (it would fetch every part for offline
 * use once installed), and the paths it fetches, in order.
 */
async function pageWithoutServiceWorker() {
  browser ??= await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(() => {
    Object.defineProperty(navigator, 'serviceWorker', { get: () => undefined });
  });
  const page = await context.newPage();
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  return { context, page, fetched };
}

const PART = /\/pkg\/(split_[a-z_]+|chunk_\d+)\.wasm$/;

test('the first page fetches no part; a part comes when opened, says it is loading, and can be tried again', async () => {
  const { context, page, fetched } = await pageWithoutServiceWorker();
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

test('a live document fetches the documents engine when first opened; when it cannot come, the editor says so and opens on the next try', async () => {
  const { context, page, fetched } = await pageWithoutServiceWorker();
  const author = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:notes' });
  const text = '# Notes\n\nShared with everyone.\n';
  try {
    await author.registerFile('notes.md', text, { contentType: 'text/markdown' });
    await openWorkspace(page, edge.url);
    const engine = '/pkg/split_documents_chunk.wasm';
    assert.ok(!fetched.includes(engine), 'the conversation does not load the documents engine');

    // Held, then refused: the editor shows the document opening, then why it did not.
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route(`**${engine}`, async (route) => {
      await held;
      await route.abort('internetdisconnected');
    });
    await page.goto(`${edge.url}/n/demo/document/resource/file/notes.md`);
    const doc = page.getByRole('region', { name: 'Document' });
    await doc.getByRole('status', { name: 'Editors' }).filter({ hasText: 'Opening the saved document…' })
      .waitFor({ timeout: 15_000 });
    release();
    const failed = doc.getByRole('alert').filter({ hasText: 'Could not load shared documents: check the connection.' });
    await failed.waitFor({ timeout: 10_000 });
    await shoot(page, 'documents-engine-failed');
    assert.equal(await page.locator('#failure').isVisible(), false, 'the app goes on');

    // Back online: Open brings the engine and the document's text.
    await page.unroute(`**${engine}`);
    await doc.getByRole('button', { name: 'Open file' }).click();
    const source = doc.getByRole('textbox', { name: 'Content of resource/file/notes.md' });
    await until('the document\'s text', async () => (await source.inputValue()) === text, 15_000);
    assert.equal(await failed.count(), 0, 'the failure goes once it opens');
    assert.ok(fetched.includes(engine), 'the engine came from its chunk');
  } finally {
    author.close();
    await context.close();
  }
});
