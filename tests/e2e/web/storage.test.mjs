// The workspace's IndexedDB stays flat: rows are kept under keys
// that name what they are about (one watermark, one row per outbox entry,
// the newest log entries), so 10,000 received events and reloads between
// them leave the store the size it had after the first 2,000; start-up
// reads that bounded set and the page still shows the newest history. Rows
// an older version appended are taken over once, compacted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, storedRows } from '../../support/browser.mjs';
import { until, expectNothingFor } from '../../support/waits.mjs';

// web/src/storage.rs LOG_KEPT: the log entries kept per network.
const LOG_KEPT = 500;
const ROUNDS = 5;
const PER_ROUND = 2_000;

const started = edgeAndBrowser();

test('IndexedDB stays flat across 10,000 received events and reloads', { timeout: 600_000 }, async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'storage', access: { policy: 'open' }, mods: ['workspace', 'persistence'] });
  const page = await started.browser.newPage();
  const chatty = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:chatty' });
  const online = () => page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 30_000 });
  try {
    await page.goto(`${started.edge.url}/n/${id}`);
    await online();
    const sizes = [];
    let sent = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      let batch = [];
      for (let i = 0; i < PER_ROUND; i += 1) {
        sent += 1;
        batch.push(chatty.send('agent:broadcast', 'workspace.message.posted', { content: `message ${String(sent).padStart(5, '0')}` }));
        if (batch.length === 250) { await Promise.all(batch); batch = []; }
      }
      await Promise.all(batch);
      const last = `message ${String(sent).padStart(5, '0')}`;
      await page.locator('.message', { hasText: last }).waitFor({ timeout: 120_000 });
      // Rows are written just before the frames that follow them: wait for the last one's.
      await until('the last message kept', async () => (await storedRows(page, id)).newest.includes(last), 10_000, 100);
      sizes.push(await storedRows(page, id));
      await page.reload();
      await online();
      // The reloaded page shows the newest history from storage, not all of it.
      await page.locator('.message', { hasText: last }).waitFor({ timeout: 30_000 });
    }
    console.log(`IndexedDB rows for network ${id} after each ${PER_ROUND} events (then a reload):`);
    for (const [i, s] of sizes.entries()) {
      console.log(`  after ${(i + 1) * PER_ROUND}: ${s.rows} rows, ${s.bytes} bytes of JSON, ${JSON.stringify(s.kinds)}`);
    }
    const [first, ...later] = sizes;
    assert.ok(first.kinds.l <= LOG_KEPT, `at most ${LOG_KEPT} log rows: ${JSON.stringify(first.kinds)}`);
    assert.equal(first.kinds.w, 1, 'one watermark row');
    for (const s of later) {
      assert.ok(s.rows <= first.rows + 5, `rows stay flat: ${first.rows} then ${s.rows}`);
      assert.ok(s.bytes <= first.bytes * 1.1, `bytes stay flat: ${first.bytes} then ${s.bytes}`);
    }
    assert.equal(sizes.at(-1).appended, 0, 'nothing is appended');
    assert.equal(await page.locator('.message', { hasText: 'message 00001' }).count(), 0, 'the oldest events are the network\'s to keep');

    // The person's own messages: an outbox row each while unsent, none once the network has them.
    const box = page.getByRole('textbox', { name: 'Message' });
    for (let i = 0; i < 20; i += 1) {
      await box.fill(`mine ${i}`);
      await box.press('Enter');
    }
    await page.locator('.message', { hasText: 'mine 19' }).locator('.state', { hasText: 'sent' }).waitFor({ timeout: 20_000 });
    await page.locator('.message .state', { hasText: 'pending' }).waitFor({ state: 'detached' });
    await until('no outbox rows once sent', async () => (await storedRows(page, id)).kinds.o === undefined, 10_000, 100)
      .catch(() => { /* asserted below */ });
    const after = await storedRows(page, id);
    assert.equal(after.kinds.o, undefined, `no outbox rows once sent: ${JSON.stringify(after.kinds)}`);
    assert.ok(after.rows <= first.rows + 5, `still flat: ${after.rows}`);
  } finally {
    chatty.close();
    await page.close();
  }
});

test('rows an older version appended are taken over, compacted, and the queue still goes out', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'upgrade', access: { policy: 'open' }, mods: ['workspace', 'persistence'] });
  const listener = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:listener' });
  const heard = [];
  listener.on('workspace.message.posted', (event) => heard.push(event.payload.content));
  const context = await started.browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  try {
    // Version 1's store, as a page that appended every row left it (one origin page, no app).
    await page.goto(`${started.edge.url}/manifest.webmanifest`);
    await page.evaluate(async ({ network }) => {
      const event = (n, source, content) => ({
        id: `01M8600000000000000000000${n}`, type: 'workspace.message.posted', source, target: 'agent:broadcast',
        payload: { content }, metadata: {}, timestamp: Date.now(), network,
      });
      const rows = [];
      for (let n = 1; n <= 3; n += 1) {
        rows.push({ row: 'logged', seq: n, event: event(n, 'agent:past', `from the old store ${n}`) });
        rows.push({ row: 'watermark', seq: n });
      }
      const queued = event(9, 'human:returning', 'queued before the upgrade');
      rows.push({ row: 'outbox', event: queued, state: 'pending' });
      rows.push({ row: 'outbox', event: queued, state: 'sent' });
      localStorage.setItem(`agentnet:name:${network}`, 'human:returning');
      const db = await new Promise((resolve, reject) => {
        const request = indexedDB.open('agentnet', 1);
        request.onupgradeneeded = () => {
          request.result.createObjectStore('rows', { keyPath: 'n', autoIncrement: true }).createIndex('network', 'network');
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const transaction = db.transaction('rows', 'readwrite');
      for (const row of rows) transaction.objectStore('rows').add({ network, row });
      await new Promise((resolve) => { transaction.oncomplete = resolve; });
      db.close();
    }, { network: id });

    await page.goto(`${started.edge.url}/n/${id}`);
    for (let n = 1; n <= 3; n += 1) await page.locator('.message', { hasText: `from the old store ${n}` }).waitFor({ timeout: 15_000 });
    await page.locator('.message', { hasText: 'queued before the upgrade' }).locator('.state', { hasText: 'sent' }).waitFor({ timeout: 15_000 });
    await until('the listener hears the queued message', () => heard.length > 0, 10_000);
    await expectNothingFor(500, 'the queue going out again');
    assert.deepEqual(heard, ['queued before the upgrade'], 'the queue went out once');
    const kept = await storedRows(page, id);
    assert.equal(kept.appended, 0, 'the appended rows are gone');
    assert.equal(kept.kinds.w, 1);
    assert.ok(kept.kinds.l >= 3, JSON.stringify(kept.kinds));
    assert.equal(kept.kinds.o, undefined, 'the sent message left the outbox');
  } finally {
    listener.close();
    await context.close();
  }
});
