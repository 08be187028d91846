// What a hostile member (or a hostile page) can do to other people's pages
// from the browser's side:
// - the workspace's pages are never framed and carry a Content-Security-Policy
//   as strict as the app allows; every static file says nosniff — and the
//   app still works under that policy (no violation while it loads a
//   conversation, sends a message, shows and opens a picture, and shows the inspector);
// - the offline shell is only ever the app's own page: a file opened as a
//   page once (the manifest) does not open in place of the workspace offline;
// - a session title with a right-to-left override stays inside its sentence.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { edgeAndBrowser, openWorkspace, openNetwork } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';
import { expectNothingFor } from '../../support/waits.mjs';

const started = edgeAndBrowser();

/** The status and headers of GET `path` on the edge, asked as a browser opening it as a page would. */
function headersOf(path) {
  return new Promise((resolve, reject) => {
    const req = get(`${started.edge.url}${path}`, { headers: { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', accept: 'text/html' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: new Headers(Object.entries(res.headers).map(([k, v]) => [k, String(v)])) }));
    });
    req.on('error', reject);
  });
}

/** Each directive of a CSP header, by name. */
function directives(csp) {
  return Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]));
}

test('the workspace is never framed, sends a strict CSP, and every static file says nosniff', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'Headers', mods: ['workspace'] });
  for (const path of ['/', `/n/${id}`, `/n/${id}/channel/general`, `/invite/${id}`]) {
    const { status, headers } = await headersOf(path);
    assert.equal(status, 200, path);
    assert.match(headers.get('content-type'), /^text\/html/, path);
    assert.equal(headers.get('x-frame-options'), 'DENY', path);
    assert.equal(headers.get('x-content-type-options'), 'nosniff', path);
    const csp = headers.get('content-security-policy');
    assert.ok(csp, `${path} has a CSP`);
    const d = directives(csp);
    assert.deepEqual(d['frame-ancestors'], ["'none'"], path);
    assert.deepEqual(d['script-src'], ["'self'", "'wasm-unsafe-eval'"], `${path}: no inline script, no eval`);
    assert.deepEqual(d['style-src'], ["'self'"], `${path}: no inline style`);
    assert.deepEqual(d['object-src'], ["'none'"], path);
    assert.ok(!csp.includes("'unsafe-eval'") && !csp.includes("'unsafe-inline'"), csp);
  }
  for (const path of ['/pkg/agentnet_web.js', '/pkg/agentnet_web_bg.wasm', '/sw.js', '/boot.js', '/pkg/styles.css', '/manifest.webmanifest']) {
    const { status, headers } = await headersOf(path);
    assert.equal(status, 200, path);
    assert.equal(headers.get('x-content-type-options'), 'nosniff', path);
  }
  // The header rules themselves are not a file anyone can read.
  const rules = await fetch(`${started.edge.url}/_headers`);
  assert.doesNotMatch(await rules.text(), /^\s+X-Frame-Options: DENY$/m);

  // A page elsewhere that frames the workspace gets nothing of it.
  const context = await started.browser.newContext();
  const page = await context.newPage();
  await page.setContent(`<iframe src="${started.edge.url}/n/${id}" width="800" height="600"></iframe>`);
  await expectNothingFor(1500, 'the workspace loading in the frame');
  const frame = page.frames().find((f) => f !== page.mainFrame());
  const framed = await frame?.evaluate(() => document.querySelector('#shell, .topbar') !== null).catch(() => false);
  assert.equal(framed ?? false, false, 'the workspace does not load in a frame');
  await context.close();
});

test('the app works under its CSP: a conversation, a message, a picture opened, the inspector — no violation', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'Strict', mods: ['workspace', 'persistence'] });
  const context = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(() => {
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const page = await context.newPage();
  const refused = [];
  page.on('console', (m) => { if (/Content.Security.Policy|Refused to/i.test(m.text())) refused.push(m.text()); });
  page.on('pageerror', (e) => refused.push(`page error: ${e.message}`));
  try {
    await openNetwork(page, started.edge.url, id);
    await page.locator('#message').fill('hello under a strict policy');
    await page.locator('#message').press('Enter');
    await page.locator('.message[data-state="sent"]', { hasText: 'hello under a strict policy' }).waitFor({ timeout: 10_000 });

    // A picture: its chip previews it (a blob: URL), the message shows it, the viewer opens it.
    const png = Buffer.from(await page.evaluate(() => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 120, height: 80 });
      const g = canvas.getContext('2d');
      g.fillStyle = '#2952cc';
      g.fillRect(10, 10, 100, 60);
      return canvas.toDataURL('image/png').split(',')[1];
    }), 'base64');
    await page.locator('#message-files').setInputFiles({ name: 'square.png', mimeType: 'image/png', buffer: png });
    await page.locator('.file-chip img.chip-thumb').waitFor();
    await page.locator('#message').fill('a picture');
    await page.locator('#message').press('Enter');
    const message = page.locator('.message[data-state="sent"]', { hasText: 'a picture' });
    const link = message.getByRole('link', { name: 'Open square.png full size' });
    await link.waitFor({ timeout: 15_000 });
    const inline = message.getByRole('img', { name: 'square.png' });
    await page.waitForFunction((img) => img.complete && img.naturalWidth === 120, await inline.elementHandle());
    await link.click();
    const viewer = page.getByRole('dialog', { name: 'square.png' });
    const big = viewer.getByRole('img', { name: 'square.png' });
    await big.waitFor();
    await page.waitForFunction((img) => img.complete && img.naturalWidth === 120, await big.elementHandle());
    await page.keyboard.press('Escape');

    assert.deepEqual(await page.evaluate(() => window.violations), [], 'no CSP violation reported');
    // The inspector indents replies (a CSS property set through the CSSOM, not a style attribute).
    await page.goto(`${started.edge.url}/n/${id}/inspector`);
    await page.locator('.events .event').first().waitFor({ timeout: 15_000 });

    assert.deepEqual(await page.evaluate(() => window.violations), [], 'no CSP violation reported');
    assert.deepEqual(refused, [], 'nothing refused in the console');
  } finally {
    await context.close();
  }
});

test('a session title with a right-to-left override stays inside its sentence', async () => {
  const { id, admin_token } = await createNetwork(started.edge.url, { name: 'Bidi', mods: ['workspace', 'persistence'] });
  const host = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:host', credentials: { admin_token } });
  const context = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  try {
    const title = 'evil\u202E yet';
    await openNetwork(page, started.edge.url, id);
    await host.createSession({ session: 'rlo', title });
    const link = page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /evil/ });
    await link.waitFor({ timeout: 15_000 });
    await link.click();
    const empty = page.locator('.empty-title', { hasText: 'evil' });
    await empty.waitFor({ timeout: 15_000 });
    // The override is closed inside an isolate (U+2068 … U+2069) before the page's own " yet".
    assert.equal(await empty.textContent(), `No messages in # \u2068${title}\u2069 yet`);
    // Drawn: the sentence's own last word stays at its end, left of nothing.
    const box = await empty.evaluate((p) => {
      const range = document.createRange();
      const text = p.firstChild;
      range.setStart(text, text.length - 3);
      range.setEnd(text, text.length);
      const last = range.getBoundingClientRect();
      const all = p.firstChild.parentElement.getBoundingClientRect();
      const whole = document.createRange();
      whole.selectNodeContents(p);
      return { lastRight: last.right, textRight: whole.getBoundingClientRect().right, left: all.left };
    });
    assert.ok(Math.abs(box.lastRight - box.textRight) < 1, `"yet" ends the line: ${JSON.stringify(box)}`);
    await shoot(page, 'hostile-rlo-title');
  } finally {
    host.close();
    await context.close();
  }
});

test('one message cannot hold the page: 75,000 nested list markers render bounded', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'Nested', mods: ['workspace', 'persistence'] });
  const context = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  const mallory = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:mallory' });
  try {
    await openNetwork(page, started.edge.url, id);
    await mallory.send('agent:broadcast', 'workspace.message.posted', { content: 'just before' });
    await page.locator('.message', { hasText: 'just before' }).waitFor({ timeout: 10_000 });
    const sent = Date.now();
    await mallory.send('agent:broadcast', 'workspace.message.posted', { content: `${'- '.repeat(75_000)}x` });
    const message = page.locator('.message', { has: page.locator('.plain-rest') });
    await message.waitFor({ timeout: 30_000 });
    console.log(`# the 150 KB nested message showed ${Date.now() - sent} ms after it was sent`);
    const shape = await message.locator('.markdown').evaluate((el) => {
      let deepest = 0;
      for (const node of el.querySelectorAll('*')) {
        let depth = 0;
        for (let n = node; n !== el; n = n.parentElement) depth += 1;
        deepest = Math.max(deepest, depth);
      }
      return { elements: el.querySelectorAll('*').length, deepest, rest: el.querySelector('.plain-rest').textContent.length };
    });
    assert.ok(shape.elements <= 4_100, `elements drawn: ${shape.elements}`);
    assert.ok(shape.deepest <= 16, `nesting drawn: ${shape.deepest}`);
    assert.ok(shape.rest > 100_000, 'the rest shows as text');
    // The page still answers the person.
    await page.locator('#message').fill('still here');
    await page.locator('#message').press('Enter');
    await page.locator('.message[data-state="sent"]', { hasText: 'still here' }).waitFor({ timeout: 10_000 });
    await page.locator('.message', { hasText: 'just before' }).scrollIntoViewIfNeeded();
    await shoot(page, 'hostile-nested-message');
  } finally {
    mallory.close();
    await context.close();
  }
});

let offlineEdge;
after(async () => { await offlineEdge?.stop(); });

test('offline, a network page opens the app even after another file was opened as a page', async () => {
  offlineEdge = await startEdge();
  const context = await started.browser.newContext();
  const page = await context.newPage();
  try {
    await openWorkspace(page, offlineEdge.url);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 10_000 });
    // The manifest opened as a page, online, through the service worker.
    await page.goto(`${offlineEdge.url}/manifest.webmanifest`);
    assert.match(await page.textContent('body'), /"name"/);
    // The edge goes away; a network page opens the app, not the manifest.
    await offlineEdge.kill();
    await page.goto(`${offlineEdge.url}/n/demo`);
    assert.equal(await page.evaluate(() => document.contentType), 'text/html');
    await page.getByRole('status').filter({ hasText: /offline|connecting/ }).waitFor({ timeout: 15_000 });
    assert.doesNotMatch(await page.textContent('body'), /"start_url"/);
  } finally {
    await context.close();
  }
});
