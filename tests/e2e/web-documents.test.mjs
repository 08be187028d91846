// A live document in the browser: a person and a JS agent edit one file's
// text; remote edits appear live, the editors line shows who is there, and
// edits both made while the edge is down merge when it is back. A reload
// reopens the document from IndexedDB, and what the person types into its
// cached text while it loads is kept.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { Agent } from '../../core/js/index.js';
import { freePort, startEdge } from '../support/edge.mjs';
import { launchBrowser, openResource, openWorkspace } from '../support/browser.mjs';
import { until } from '../support/process.mjs';

const screenshots = join(dirname(fileURLToPath(import.meta.url)), '..', 'output', 'screenshots');
let edge;
let browser;
let stateDir;
let scribe;

after(async () => {
  scribe?.close();
  await browser?.close();
  await edge?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

test('a browser and an agent edit one document live and offline, and converge', async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'agentnet-web-documents-'));
  const port = await freePort();
  edge = await startEdge({ stateDir, port });
  browser = await launchBrowser();
  const address = `resource/file/notes-${Date.now() % 100000}.md`;

  scribe = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:scribe', WebSocket });
  await scribe.registerFile(address.replace('resource/file/', ''), '# Notes\n', {
    contentType: 'text/markdown', permissions: { write: 'network' },
  });
  const doc = await scribe.document(address);

  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await openWorkspace(page, edge.url);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const resources = page.getByRole('region', { name: 'Resources' });
  await resources.getByRole('button', { name: 'Refresh' }).click();
  const { item, text } = await openResource(resources, address);
  await until('the text in the browser', async () => (await text.inputValue()) === '# Notes\n');
  const editors = item.getByRole('status', { name: 'Editors' });
  await editors.filter({ hasText: 'Also editing: agent:scribe' }).waitFor({ timeout: 10_000 });
  await until('the agent to see the person', () => doc.editors.length === 2);

  // Live both ways.
  doc.insert(doc.text.length, 'from the agent\n');
  await until('the agent\'s line in the browser', async () => (await text.inputValue()).includes('from the agent\n'));
  await text.click();
  await text.press('Control+End');
  await text.pressSequentially('from the person\n');
  await until('the person\'s line at the agent', () => doc.text.includes('from the person\n'));
  assert.equal(await text.inputValue(), doc.text);

  // The document view: the same editor grown over the page, typing and all;
  // Escape puts it back in the panel.
  const inPanel = (await text.boundingBox()).width;
  await item.getByRole('button', { name: 'Expand' }).click();
  await until('the document view', async () => (await text.boundingBox()).width > 3 * inPanel);
  await item.getByRole('heading', { name: address }).waitFor();
  await text.press('Control+End');
  await text.pressSequentially('in the document view\n');
  await until('the line typed in the view at the agent', () => doc.text.includes('in the document view\n'));
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, 'web-document-view.png') });
  await text.press('Escape');
  await until('the editor back in the panel', async () => (await text.boundingBox()).width === inPanel);
  await item.getByRole('button', { name: 'Expand' }).waitFor();

  // Both offline: each edits its own copy.
  await edge.kill();
  await page.getByRole('status').filter({ hasText: /^offline$|^connecting$/ }).first().waitFor({ timeout: 15_000 });
  await until('the agent to notice', () => !scribe.online);
  await text.press('Control+End');
  await text.pressSequentially('offline person\n');
  doc.insert(0, 'offline agent\n');
  assert.ok(!doc.text.includes('offline person'));

  edge = await startEdge({ stateDir, port });
  await until('both copies to converge', async () => {
    const shown = await text.inputValue();
    return shown === doc.text && shown.includes('offline person\n') && shown.includes('offline agent\n');
  }, 30_000);
  const merged = doc.text;
  assert.equal((await scribe.read(address)).content, merged);
  await mkdir(screenshots, { recursive: true });
  await page.screenshot({ path: join(screenshots, 'workspace-live-document-1280x720.png') });

  // A reload shows the cached copy at once, editable while the document itself
  // loads from IndexedDB: the person types '?' the moment the editor appears
  // (before the load can have started, which waits for a painted frame), and
  // that edit is applied once the document has loaded.
  const selector = `.resource[data-address="${address}"]`;
  await page.addInitScript((selector) => {
    new MutationObserver((_, observer) => {
      const area = document.querySelector(`${selector} textarea`);
      if (!area) return;
      observer.disconnect();
      window.typedWhile = {
        editors: document.querySelector(`${selector} .editors`)?.textContent,
        readOnly: area.readOnly,
        shown: area.value,
      };
      area.value += '?';
      area.dispatchEvent(new Event('input', { bubbles: true }));
    }).observe(document, { childList: true, subtree: true });
  }, selector);
  await page.reload();
  const again = page.getByRole('region', { name: 'Resources' })
    .locator(selector).getByRole('textbox', { name: /Content of/ });
  await again.waitFor({ timeout: 15_000 });
  const typedWhile = await page.evaluate(() => window.typedWhile);
  assert.deepEqual(typedWhile, { editors: 'Opening the saved document…', readOnly: false, shown: merged },
    'typed into the cached text while the document was still loading');
  await page.locator(`${selector} .editors`).filter({ hasText: /^Also editing|^Only you/ })
    .waitFor({ timeout: 15_000 });
  assert.equal(await again.inputValue(), `${merged}?`, 'the typing survives the load');
  await until('the typing during the load reaches the agent', () => doc.text === `${merged}?`);
  await again.press('Control+End');
  await again.type('!');
  await until('the edit after the reload reaches the agent', () => doc.text === `${merged}?!`);

  // A SKILL.md-style context (text) is a live document too; a JSON context is not.
  const skill = `resource/context/skill-${Date.now() % 100000}`;
  await scribe.registerContext(skill.replace('resource/context/', ''), '# Skill\nGreet people.\n', {
    permissions: { write: 'network' },
  });
  const panel = page.getByRole('region', { name: 'Resources' });
  await panel.getByRole('button', { name: 'Refresh' }).click();
  const { item: context, text: brief } = await openResource(panel, skill);
  await until('the skill text', async () => (await brief.inputValue()) === '# Skill\nGreet people.\n');
  await context.getByRole('status', { name: 'Editors' }).waitFor();
  await brief.press('Control+End');
  await brief.pressSequentially('Be brief.\n');
  const skillDoc = await scribe.document(skill);
  await until('the agent to read the edited skill', () => skillDoc.text === '# Skill\nGreet people.\nBe brief.\n');
});
