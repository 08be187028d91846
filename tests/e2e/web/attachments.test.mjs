// Files in the conversation, in Chromium against a real edge: one
// person attaches a picture with the paperclip, a text file by pasting it and
// a CSV by dropping it on the conversation (then removes it again), and sends
// them with a line of text; the other person sees the picture inline and the
// file as a card with its name and size, and opens it. A file over the limit
// (100 MB; bigger than 375 KB goes to R2, tests/e2e/web/files.test.mjs)
// is refused at once with the limit stated. A private channel's attachment
// is read by its members and refused to a member outside it (an npm agent
// gets `forbidden`). In the resources panel an attachment opens as what it
// is — a picture previewed, another file by its name, type and size with
// Download (a text one with Open too, as sent, not its base64 in an editor) — and a picture, there or in the
// conversation, opens in the picture viewer (Escape closes it, the focus
// comes back), not a new tab. Screenshots of the composer with pending
// files, the conversation, the panel and the viewer, at 1366×768 and
// 390×844, light and dark.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, openNetwork } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';

const started = edgeAndBrowser();
const NOTES = 'Launch notes\n- status page first\n- then the press note\n';

async function network() {
  const { id } = await createNetwork(started.edge.url, { name: 'Files', mods: ['workspace', 'persistence'] });
  return id;
}

/** A page for the person `name` in network `id`, open and online (at `path`). */
async function person(id, name, path = '') {
  const context = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(([network, name]) => localStorage.setItem(`agentnet:name:${network}`, name), [id, name]);
  const page = await context.newPage();
  await openNetwork(page, started.edge.url, id, path);
  return { context, page };
}

/** Ann and Bob online in a new network, and Ann's page. */
async function annAndBob() {
  const id = await network();
  const ann = await person(id, 'human:ann');
  const bob = await person(id, 'human:bob');
  return { ann, bob, page: ann.page };
}

/** A PNG of a small bar chart, drawn by the browser: its bytes. */
async function chartPng(page) {
  const data = await page.evaluate(() => {
    const canvas = Object.assign(document.createElement('canvas'), { width: 480, height: 270 });
    const g = canvas.getContext('2d');
    g.fillStyle = '#f4f6fb';
    g.fillRect(0, 0, 480, 270);
    [120, 190, 150, 230, 90].forEach((h, i) => {
      g.fillStyle = ['#2952cc', '#3d8bfd', '#1c7c3c', '#f0b35a', '#b3261e'][i];
      g.fillRect(40 + i * 84, 250 - h, 60, h);
    });
    return canvas.toDataURL('image/png').split(',')[1];
  });
  return Buffer.from(data, 'base64');
}

/** Pastes a file into the composer's text box (as a clipboard with a file would). */
function pasteFile(page, name, type, text) {
  return page.locator('#message').evaluate((area, [name, type, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type }));
    area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, [name, type, text]);
}

/** Drags a file over the conversation (the drop zone shows), then drops it. */
async function dropFile(page, name, type, text) {
  const column = page.locator('.conversation-column');
  const data = await page.evaluateHandle(([name, type, text]) => {
    const data = new DataTransfer();
    data.items.add(new File([text], name, { type }));
    return data;
  }, [name, type, text]);
  await column.dispatchEvent('dragenter', { dataTransfer: data });
  await page.locator('.drop-zone').filter({ hasText: 'Drop files to attach them' }).waitFor();
  assert.match(await page.locator('.drop-zone').textContent(), /up to 100 MB/);
  await column.dispatchEvent('drop', { dataTransfer: data });
  await page.locator('.drop-zone').waitFor({ state: 'hidden' });
}

test('a picture and a file reach the other person: previewed inline, a card to open; too big is refused with the limit', async () => {
  const { ann, bob, page } = await annAndBob();
  try {
    const png = await chartPng(page);
    const attach = page.getByRole('button', { name: 'Attach a file' });
    await attach.waitFor();
    // Too big: refused at once, with the limit, and nothing pending.
    // (made in the page: 101 MB need not cross the test's pipe)
    await page.locator('#message').evaluate((area) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(101 * 1024 * 1024)], 'huge.bin', { type: 'application/octet-stream' }));
      area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    const refused = page.getByRole('alert').filter({ hasText: 'huge.bin' });
    await refused.waitFor();
    assert.match(await refused.textContent(), /huge\.bin is 101 MB: files can be up to 100 MB a file/);
    assert.equal(await page.locator('.file-chip').count(), 0);

    // The paperclip (a picture), a paste (a text file), a drop (a CSV, removed again).
    await page.locator('#message-files').setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: png });
    await pasteFile(page, 'notes.txt', 'text/plain', NOTES);
    await dropFile(page, 'numbers.csv', 'text/csv', 'a,b\n1,2\n');
    const chips = page.getByRole('list', { name: 'Files to send' });
    for (const name of ['chart.png', 'notes.txt', 'numbers.csv']) {
      await chips.locator('.file-chip', { hasText: name }).waitFor();
    }
    await refused.waitFor({ state: 'detached' });
    assert.equal(await chips.locator('img.chip-thumb').count(), 1, 'the picture previews in its chip');
    await chips.getByRole('button', { name: 'Remove numbers.csv' }).click();
    await chips.locator('.file-chip', { hasText: 'numbers.csv' }).waitFor({ state: 'detached' });
    await page.locator('#message').fill('Chart and notes for the launch');
    await shoot(page, 'attachments-composer', async (page, viewport) => {
      await chips.waitFor();
      const least = viewport.width <= 720 ? 44 : 36;
      assert.ok((await attach.boundingBox()).height >= least, `the paperclip is at least ${least} px tall`);
    });
    await page.locator('#message').press('Enter');
    await chips.waitFor({ state: 'detached' });

    // The other person: the text, the picture rendered, the card with name and size.
    const message = bob.page.locator('.message', { hasText: 'Chart and notes for the launch' });
    await message.waitFor({ timeout: 15_000 });
    const picture = message.getByRole('img', { name: 'chart.png' });
    await picture.waitFor({ timeout: 15_000 });
    await bob.page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await picture.elementHandle());
    assert.equal(await picture.evaluate((img) => img.naturalWidth), 480);
    assert.ok((await picture.boundingBox()).height <= 241, 'a picture is at most 240 px tall');
    assert.match(await picture.getAttribute('src'), /^blob:/);
    const card = message.locator('.attachment.file', { hasText: 'notes.txt' });
    assert.match(await card.textContent(), new RegExp(`${NOTES.length} B · text/plain`));
    assert.equal(await message.locator('.attachment', { hasText: 'numbers.csv' }).count(), 0, 'the removed file was not sent');
    const open = card.getByRole('link', { name: 'Open notes.txt' });
    await open.waitFor({ timeout: 15_000 });
    assert.equal(await bob.page.evaluate((href) => fetch(href).then((r) => r.text()), await open.getAttribute('href')), NOTES);
    const [tab] = await Promise.all([bob.context.waitForEvent('page'), open.click()]);
    await tab.waitForLoadState();
    assert.equal((await tab.locator('body').textContent()).trim(), NOTES.trim());
    await tab.close();
    assert.equal(await card.getByRole('link', { name: 'Download notes.txt' }).getAttribute('download'), 'notes.txt');
    // Ann's own copy shows the same once the network accepted it.
    await ann.page.locator('.message[data-state="sent"]', { hasText: 'Chart and notes' }).getByRole('img', { name: 'chart.png' }).waitFor({ timeout: 15_000 });

    await shoot(bob.page, 'attachments-conversation', async () => {
      await picture.scrollIntoViewIfNeeded();
      await bob.page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await picture.elementHandle());
      const composer = bob.page.locator('.composer');
      const box = await composer.boundingBox();
      const viewport = bob.page.viewportSize();
      assert.ok(box && box.y + box.height <= viewport.height, 'the composer stays in view');
    });
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});

test("a private channel's attachment is read by its members and refused to a member outside it", async () => {
  const id = await network();
  const keeper = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:keeper' });
  const outsider = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:outsider' });
  await keeper.createChannel('launch', { members: ['human:ann'], private: true });
  const ann = await person(id, 'human:ann', '/channel/launch');
  try {
    const { page } = ann;
    await page.locator('#message-files').setInputFiles({ name: 'secret plan.txt', mimeType: 'text/plain', buffer: Buffer.from('the plan') });
    await page.locator('.file-chip', { hasText: 'secret plan.txt' }).waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    const card = page.locator('.message[data-state="sent"] .attachment.file', { hasText: 'secret plan.txt' });
    await card.waitFor({ timeout: 15_000 });
    const resource = await card.getAttribute('data-resource');
    assert.match(resource, /^resource\/file\/attachments\/[a-z0-9]+\/secret-plan\.txt$/);
    // The channel's members read it; a member of the network outside the channel may not.
    const read = await keeper.read(resource);
    assert.equal(read.content_type, 'text/plain');
    assert.equal(Buffer.from(read.content.data, 'base64').toString(), 'the plan');
    await assert.rejects(outsider.read(resource), { code: 'forbidden' });
  } finally {
    await ann.context.close();
    keeper.close();
    outsider.close();
  }
});

/** Opens the resources panel (on a phone, in the People sheet); resolves with it. */
async function resourcesPanel(page) {
  const sheet = page.getByRole('button', { name: 'People and resources' });
  if (await sheet.isVisible() && (await sheet.getAttribute('aria-expanded')) !== 'true') await sheet.click();
  const panel = page.getByRole('region', { name: 'Resources' });
  await panel.waitFor();
  return panel;
}

test('attachments open in the resources panel as what they are, and a picture opens in the viewer', async () => {
  const { ann, bob, page } = await annAndBob();
  try {
    const png = await chartPng(page);
    const pdf = Buffer.from('%PDF-1.4\n% not a real document, only its bytes\n%%EOF\n');
    await page.locator('#message-files').setInputFiles([
      { name: 'chart.png', mimeType: 'image/png', buffer: png },
      { name: 'terms.pdf', mimeType: 'application/pdf', buffer: pdf },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTES) },
    ]);
    for (const name of ['chart.png', 'terms.pdf', 'notes.txt']) await page.locator('.file-chip', { hasText: name }).waitFor();
    await page.locator('#message').fill('The chart, the terms and the notes');
    await page.locator('#message').press('Enter');

    // In the conversation a click on the picture opens the viewer, not a tab.
    const { page: other } = bob;
    const message = other.locator('.message', { hasText: 'The chart, the terms and the notes' });
    const link = message.getByRole('link', { name: 'Open chart.png full size' });
    await link.waitFor({ timeout: 15_000 });
    let tabs = 0;
    bob.context.on('page', () => { tabs += 1; });
    await link.click();
    const viewer = other.getByRole('dialog', { name: 'chart.png' });
    await viewer.waitFor();
    const big = viewer.getByRole('img', { name: 'chart.png' });
    await other.waitForFunction((img) => img.complete && img.naturalWidth === 480, await big.elementHandle());
    const label = (n) => (n < 1024 ? `${n} B` : `${(n / 1024).toFixed(1).replace(/\.0$/, '')} KB`);
    assert.ok((await viewer.textContent()).includes(`${label(png.length)} · image/png`), await viewer.textContent());
    assert.equal(await viewer.getByRole('link', { name: 'Download chart.png' }).getAttribute('download'), 'chart.png');
    assert.ok((await big.boundingBox()).height > 241, 'larger than in the conversation');
    await shoot(other, 'attachments-viewer', async () => {
      if (!(await viewer.isVisible())) {
        await link.scrollIntoViewIfNeeded();
        await link.click();
      }
      await viewer.waitFor();
    });
    await other.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    assert.equal(await link.evaluate((el) => el === document.activeElement), true, 'the focus is back on the picture');
    // Its Close button gives the focus back too.
    await link.click();
    await viewer.getByRole('button', { name: 'Close' }).click();
    await viewer.waitFor({ state: 'hidden' });
    assert.equal(await link.evaluate((el) => el === document.activeElement), true, 'Close gives the focus back to the picture');
    assert.equal(tabs, 0, 'no new tab');

    // The resources panel: each attachment opens as what it is.
    const panel = await resourcesPanel(other);
    const item = (name) => panel.locator(`.resource[data-address$="/${name}"]`);
    // Listed once the panel reads the network's resources again.
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await item('chart.png').waitFor({ timeout: 15_000 });
    await item('chart.png').getByRole('button', { name: 'Open file' }).click();
    const preview = item('chart.png').getByRole('img', { name: 'chart.png' });
    await preview.waitFor({ timeout: 15_000 });
    assert.match(await preview.getAttribute('src'), /^blob:/);
    assert.equal(await item('chart.png').locator('textarea').count(), 0, 'a picture is no text editor');

    await item('terms.pdf').getByRole('button', { name: 'Open file' }).click();
    const card = item('terms.pdf').locator('.file-view');
    await card.getByRole('link', { name: 'Download terms.pdf' }).waitFor({ timeout: 15_000 });
    assert.match(await card.textContent(), new RegExp(`terms\\.pdf.*${pdf.length} B · application/pdf`));
    assert.equal(await card.getByRole('link', { name: 'Download terms.pdf' }).getAttribute('download'), 'terms.pdf');
    assert.equal(await item('terms.pdf').locator('textarea').count(), 0);

    // A text attachment too: its bytes as sent, opened in a tab or downloaded (not base64 in an editor).
    await item('notes.txt').getByRole('button', { name: 'Open file' }).click();
    const notes = item('notes.txt').getByRole('link', { name: 'Open notes.txt' });
    await notes.waitFor({ timeout: 15_000 });
    assert.equal(await other.evaluate((href) => fetch(href).then((r) => r.text()), await notes.getAttribute('href')), NOTES);
    assert.equal(await item('notes.txt').locator('textarea').count(), 0);

    await shoot(other, 'attachments-resources', async () => {
      const shown = await resourcesPanel(other);
      await shown.locator('.file-view').first().scrollIntoViewIfNeeded();
    });

    // The panel's picture opens the viewer too; Escape gives the focus back to it.
    await resourcesPanel(other);
    const panelLink = item('chart.png').getByRole('link', { name: 'Open chart.png full size' });
    await panelLink.click();
    await viewer.waitFor();
    await other.keyboard.press('Escape');
    await viewer.waitFor({ state: 'hidden' });
    assert.equal(await panelLink.evaluate((el) => el === document.activeElement), true);
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});
