// Files of real size, in Chromium against a real edge with its R2 bucket
// (wrangler dev keeps it on disk): one person sends a 60 MB file; it goes
// to R2 in parts with progress on its chip, one part's connection drops in
// the middle and the upload goes on from what is missing; the other person
// downloads it through a signed link and gets the same bytes (SHA-256). The
// link is refused without its signature, for another member, and after the
// message is deleted (its file leaves R2 and the quota). Over HTTP: the
// network's quota says plainly when storage is full.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, openNetwork } from '../../support/browser.mjs';
import { call, fetchWithin } from '../../support/http.mjs';
import { until } from '../../support/waits.mjs';
import { shoot } from '../../support/shots.mjs';

const started = edgeAndBrowser();
const SIZE = 60 * 1000 * 1000;

/** A page for the person `name` in network `id`, open and online. */
async function person(id, name) {
  const context = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(([network, name]) => {
    localStorage.setItem(`agentnet:name:${network}`, name);
    localStorage.setItem(`agentnet:named:${network}`, 'later');
  }, [id, name]);
  const page = await context.newPage();
  await openNetwork(page, started.edge.url, id);
  return { context, page };
}

/** SHA-256 (hex) of bytes fetched from `url` in `page`, with the answer's headers. */
function fetchDigest(page, url) {
  return page.evaluate(async (url) => {
    const response = await fetch(url);
    const bytes = await response.arrayBuffer();
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    return {
      status: response.status,
      size: bytes.byteLength,
      sha256: [...digest].map((b) => b.toString(16).padStart(2, '0')).join(''),
      type: response.headers.get('content-type'),
      disposition: response.headers.get('content-disposition'),
    };
  }, url);
}

test('a 60 MB file goes to R2 in parts, survives a dropped connection, and comes back byte for byte to members only', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'Films', mods: ['workspace', 'persistence'] });
  const ann = await person(id, 'human:ann');
  const bob = await person(id, 'human:bob');
  try {
    const { page } = ann;
    // 60 MB made in the page (no 60 MB through the test's pipe), and its hash.
    const sent = await page.evaluate(async (size) => {
      const bytes = new Uint8Array(size);
      let x = 2463534242;
      for (let i = 0; i < size; i += 4) {
        x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
        bytes[i] = x; bytes[i + 1] = x >>> 8; bytes[i + 2] = x >>> 16; bytes[i + 3] = x >>> 24;
      }
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'launch-film.bin', { type: 'application/octet-stream' }));
      document.querySelector('#message').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    }, SIZE);
    const chip = page.locator('.file-chip', { hasText: 'launch-film.bin' });
    await chip.waitFor();
    assert.match(await chip.textContent(), /57\.2 MB/);

    // Part 4's first try loses its connection.
    const tries = new Map();
    // Part 5 waits until the uploading chip is photographed.
    let shot;
    const photographed = new Promise((resolve) => { shot = resolve; });
    await page.route('**/v1/files/*/parts/*', async (route) => {
      const part = route.request().url().split('/').pop();
      tries.set(part, (tries.get(part) ?? 0) + 1);
      if (part === '4' && tries.get(part) === 1) return route.abort('connectionreset');
      if (part === '5') await photographed;
      return route.continue();
    });
    await page.locator('#message').fill('The launch film, final cut');
    await page.locator('#message').press('Enter');
    // The chip shows how far the upload is.
    const progress = chip.locator('progress.chip-progress');
    await progress.waitFor({ timeout: 30_000 });
    await until('four parts stored', async () => Number(await progress.getAttribute('value')) >= 50, 120_000);
    await shoot(page, 'files-uploading', async () => { await progress.waitFor(); });
    shot();
    await chip.waitFor({ state: 'detached', timeout: 240_000 });
    assert.equal(tries.get('4'), 2, `part 4 was sent again after its drop: ${JSON.stringify([...tries])}`);
    assert.deepEqual([...tries.keys()].sort(), ['1', '2', '3', '4', '5', '6', '7', '8']);
    for (const [part, count] of tries) if (part !== '4') assert.equal(count, 1, `part ${part} was sent once`);

    // Bob downloads it through a signed link: the same bytes.
    const message = bob.page.locator('.message', { hasText: 'The launch film, final cut' });
    await message.waitFor({ timeout: 30_000 });
    const card = message.locator('.attachment.file', { hasText: 'launch-film.bin' });
    assert.match(await card.textContent(), /57\.2 MB/);
    const download = card.getByRole('link', { name: 'Download launch-film.bin' });
    await download.waitFor({ timeout: 15_000 });
    const href = await download.getAttribute('href');
    await shoot(bob.page, 'files-card', async () => { await card.scrollIntoViewIfNeeded(); });
    assert.match(href, new RegExp(`^/networks/${id}/v1/files/[0-9a-f]{32}/content\\?member=human%3Abob&expires=\\d+&sig=`));
    const got = await fetchDigest(bob.page, href);
    assert.equal(got.status, 200);
    assert.equal(got.size, SIZE);
    assert.equal(got.sha256, sent, 'the downloaded bytes are the sent bytes');
    assert.equal(got.type, 'application/octet-stream');
    assert.match(got.disposition, /^attachment; filename="launch-film\.bin"/);

    // Without the signature, or signed for someone else: refused.
    const base = started.edge.url;
    const within = { log: started.edge.log };
    const bare = await fetchWithin(`${base}${href.split('?')[0]}`, {}, within);
    assert.equal(bare.status, 401);
    await bare.arrayBuffer();
    const forged = await fetchWithin(`${base}${href.replace('member=human%3Abob', 'member=human%3Aeve')}`, {}, within);
    assert.equal(forged.status, 403);
    assert.equal((await forged.json()).code, 'access_denied');

    // Ann deletes the message: the file is gone for everyone.
    const messageId = await message.getAttribute('data-id');
    const mine = page.locator(`.message[data-id="${messageId}"]`);
    await mine.hover();
    await mine.getByRole('button', { name: 'Delete' }).click();
    await mine.getByRole('group', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
    await bob.page.locator(`.message[data-id="${messageId}"]`).getByText('This message was deleted.').waitFor({ timeout: 15_000 });
    // Its record goes with the deletion's commit; R2's object right after.
    await until('the deleted file to be refused', async () => {
      const response = await fetchWithin(`${base}${href}`, {}, within);
      await response.arrayBuffer();
      return response.status === 404;
    });
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});

test('a network bounds its files: too big and storage full are said plainly (in the workspace too); an upload is its sender\'s alone', async () => {
  const created = await createNetwork(started.edge.url, { name: 'Quota', mods: ['workspace', 'persistence'] });
  const base = started.edge.url;
  const boss = await call(base, 'POST', `/networks/${created.id}/v1/join`, { body: { agent_id: 'human:boss', credentials: { admin_token: created.admin_token } } });
  assert.equal(boss.status, 200, JSON.stringify(boss.json));
  const token = boss.json.token;
  const settings = await call(base, 'POST', `/networks/${created.id}/v1/admin/settings`, { token, body: { files: { max_file_bytes: 1_000_000, quota_bytes: 1_500_000 } } });
  assert.equal(settings.status, 200, JSON.stringify(settings.json));
  const begin = (size, name = 'a.bin') => call(base, 'POST', `/networks/${created.id}/v1/files`, { token, body: { name, size, conversation: 'agent:broadcast' } });
  const tooBig = await begin(1_000_001);
  assert.equal(tooBig.status, 413);
  assert.equal(tooBig.json.code, 'too_large');
  assert.match(tooBig.json.message, /at most 1000000 bytes/);
  // One file of 1 MB fits; a second does not: the quota counts uploads too.
  const first = await begin(1_000_000);
  assert.equal(first.status, 201, JSON.stringify(first.json));
  const full = await begin(600_000, 'b.bin');
  assert.equal(full.status, 507);
  assert.equal(full.json.code, 'storage_full');
  assert.match(full.json.message, /storage is full: 1000000 of 1500000 bytes are used/);
  // A person who sends a file then is told so, in the edge's words, and keeps the file to send later.
  const ann = await person(created.id, 'human:ann');
  try {
    await ann.page.locator('#message').evaluate((area) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(600_000)], 'report.pdf', { type: 'application/pdf' }));
      area.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await ann.page.locator('.file-chip', { hasText: 'report.pdf' }).waitFor();
    await ann.page.locator('#message').fill('The report');
    await ann.page.locator('#message').press('Enter');
    const said = ann.page.getByRole('alert').filter({ hasText: 'report.pdf could not be uploaded' });
    await said.waitFor({ timeout: 30_000 });
    assert.match(await said.textContent(), /storage is full/);
    assert.equal(await ann.page.locator('.file-chip', { hasText: 'report.pdf' }).count(), 1, 'the file stays, to send later');
  } finally {
    await ann.context.close();
  }
  // Another member cannot see the upload; nobody without a session can start one.
  const anonymous = await call(base, 'POST', `/networks/${created.id}/v1/files`, { body: { name: 'x', size: 1, conversation: 'agent:broadcast' } });
  assert.equal(anonymous.status, 401);
  const eve = await call(base, 'POST', `/networks/${created.id}/v1/join`, { body: { agent_id: 'human:eve' } });
  const peek = await call(base, 'GET', `/networks/${created.id}/v1/files/${first.json.file}`, { token: eve.json.token });
  assert.equal(peek.status, 404);
});

test('a picture bigger than a message carries is stored in R2 and still previews inline', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'Photos', mods: ['workspace', 'persistence'] });
  const ann = await person(id, 'human:ann');
  const bob = await person(id, 'human:bob');
  try {
    // A noisy 900×600 PNG: well over 375 KB.
    const size = await ann.page.evaluate(async () => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 900, height: 600 });
      const g = canvas.getContext('2d');
      const image = g.createImageData(900, 600);
      for (let i = 0; i < image.data.length; i += 1) image.data[i] = (i * 2654435761) >>> 24;
      g.putImageData(image, 0, 0);
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
      const data = new DataTransfer();
      data.items.add(new File([blob], 'site-photo.png', { type: 'image/png' }));
      document.querySelector('#message').dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return blob.size;
    });
    assert.ok(size > 375 * 1024, `the picture is ${size} bytes`);
    await ann.page.locator('.file-chip', { hasText: 'site-photo.png' }).waitFor();
    await ann.page.locator('#message').fill('The site today');
    await ann.page.locator('#message').press('Enter');
    const picture = bob.page.locator('.message', { hasText: 'The site today' }).getByRole('img', { name: 'site-photo.png' });
    await picture.waitFor({ timeout: 60_000 });
    await bob.page.waitForFunction((img) => img.complete && img.naturalWidth > 0, await picture.elementHandle(), { timeout: 30_000 });
    assert.equal(await picture.evaluate((img) => img.naturalWidth), 900);
    assert.match(await picture.getAttribute('src'), new RegExp(`^/networks/${id}/v1/files/[0-9a-f]{32}/content\\?`));
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});
