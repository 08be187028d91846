// A live document in the browser: a person and a JS agent edit one file's
// text; remote edits appear live, the editors line shows who is there, and
// edits both made while the edge is down merge when it is back. A reload
// reopens the document from IndexedDB, and what the person types into its
// cached text while it loads is kept.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { Agent } from '../../../core/js/index.js';
import { startEdge } from '../../support/edge.mjs';
import { launchBrowser, openResource, openWorkspace, restartableEdgeAndBrowser } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { shootScreen } from '../../support/shots.mjs';

const screenshots = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'output', 'screenshots');
let scribe;

after(() => scribe?.close());
const setup = restartableEdgeAndBrowser('agentnet-web-documents-');

test('a browser and an agent edit one document live and offline, and converge', async () => {
  let { edge, browser } = await setup.start();
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
  // (Markdown: the preview takes half of the view, beside the source.)
  await until('the document view', async () => (await text.boundingBox()).width > 2 * inPanel);
  await item.getByRole('heading', { name: address.replace('resource/file/', '') }).waitFor();
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

  edge = await setup.restart();
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

test('a read-only document says so, and Markdown shows its preview beside or instead of the source', async () => {
  setup.edge ??= await startEdge();
  setup.browser ??= await launchBrowser();
  const { edge, browser } = setup;
  const author = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:author', WebSocket });
  const guide = '# Guide\n\nSome **bold** words and `code`.\n\n## Steps\n\n- one\n- two\n\n<script>window.ran = true</script>\n';
  await author.registerFile('guide.md', guide, { contentType: 'text/markdown' });
  const skill = 'resource/context/greet.SKILL.md';
  await author.registerContext('greet.SKILL.md', '# Greet\n\nSay hello.\n', { permissions: { write: 'network' } });
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openWorkspace(page, edge.url);
    const resources = page.getByRole('region', { name: 'Resources' });
    await resources.getByRole('button', { name: 'Refresh' }).click();
    await resources.locator(`.resource[data-address="${skill}"]`).waitFor({ timeout: 10_000 });

    // Read-only, on its own page: a labelled badge and why; the preview beside the source.
    await page.goto(`${edge.url}/n/demo/document/resource/file/guide.md`);
    const doc = page.getByRole('region', { name: 'Document' });
    await doc.getByRole('heading', { level: 2, name: 'guide.md' }).waitFor({ timeout: 15_000 });
    const note = doc.getByRole('note');
    await note.waitFor({ timeout: 10_000 });
    assert.equal(await note.locator('.badge').textContent(), 'Read only');
    assert.match(await note.textContent(), /agent:author shares it with you to read; you may not change it\./);
    const source = doc.getByRole('textbox', { name: 'Content of resource/file/guide.md' });
    await until('the guide\'s text', async () => (await source.inputValue()) === guide);
    assert.equal(await source.getAttribute('readonly'), '');
    const preview = doc.getByRole('region', { name: 'Preview of guide.md' });
    await preview.getByRole('heading', { level: 3, name: 'Guide' }).waitFor();
    await preview.getByRole('heading', { level: 4, name: 'Steps' }).waitFor();
    assert.equal(await preview.locator('strong').textContent(), 'bold');
    assert.equal(await preview.getByRole('listitem').count(), 2);
    assert.equal(await preview.locator('script').count(), 0, 'raw HTML is shown as text, never run');
    assert.equal(await page.evaluate(() => window.ran), undefined);
    const [left, right] = [await source.boundingBox(), await preview.boundingBox()];
    assert.ok(right.x >= left.x + left.width - 1 && Math.abs(right.y - left.y) < 5, `beside the source when wide: ${JSON.stringify([left, right])}`);
    assert.equal(await doc.getByRole('button', { name: 'Show preview' }).isVisible(), false, 'no toggle when both show');
    await shootScreen(page, 'documents-markdown-read-only', async (p, size) => {
      if (size.width < 480 && !(await preview.isVisible())) {
        await doc.getByRole('button', { name: 'Show preview' }).click();
      }
    });

    // On a phone, the preview instead of the source, by a toggle.
    await page.setViewportSize({ width: 390, height: 844 });
    const toggle = doc.getByRole('button', { name: /Show (preview|source)/ });
    if ((await toggle.textContent()) === 'Show source') await toggle.click();
    assert.equal(await preview.isVisible(), false, 'the source first');
    assert.equal(await source.isVisible(), true);
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    assert.equal(await preview.isVisible(), true, 'then the preview, instead');
    assert.equal(await source.isVisible(), false);
    // (The page's own width on a phone — its tab row — is the phone layout's.)
    assert.ok(await doc.evaluate((el) => el.scrollWidth <= el.clientWidth), 'the document is no wider than its place');
    await page.setViewportSize({ width: 1366, height: 768 });

    // A SKILL.md the person may write: no badge, and the preview follows the typing.
    await page.goto(`${edge.url}/n/demo/document/${skill}`);
    const skillText = doc.getByRole('textbox', { name: `Content of ${skill}` });
    await until('the skill\'s text', async () => (await skillText.inputValue()) === '# Greet\n\nSay hello.\n');
    assert.equal(await doc.getByRole('note').count(), 0, 'a writable document has no read-only badge');
    await skillText.press('Control+End');
    await skillText.pressSequentially('\n## Then\n');
    await doc.getByRole('region', { name: 'Preview of greet.SKILL.md' }).getByRole('heading', { level: 4, name: 'Then' })
      .waitFor({ timeout: 5_000 });
    await shootScreen(page, 'documents-skill-markdown');
  } finally {
    author.close();
    await page.close();
  }
});
