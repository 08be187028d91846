// The workspace's IndexedDB stays flat (issue 27): rows are kept under keys
// that name what they are about (one watermark, one row per outbox entry,
// the newest log entries), so 10,000 received events and reloads between
// them leave the store the size it had after the first 2,000; start-up
// reads that bounded set and the page still shows the newest history.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../core/js/index.js';
import { createNetwork } from '../support/edge.mjs';
import { edgeAndBrowser } from '../support/browser.mjs';

// web/src/storage.rs LOG_KEPT: the log entries kept per network.
const LOG_KEPT = 500;
const ROUNDS = 5;
const PER_ROUND = 2_000;

const started = edgeAndBrowser();

/** The rows IndexedDB keeps for `network` in `page`: how many, of which kinds, and their JSON size. */
function measure(page, network) {
  return page.evaluate(async (network) => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('agentnet');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const store = db.transaction('kept', 'readonly').objectStore('kept');
    const records = await new Promise((resolve, reject) => {
      const request = store.getAll(IDBKeyRange.bound([network, ''], [network, '\uffff']));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const appended = await new Promise((resolve) => {
      const request = db.transaction('rows', 'readonly').objectStore('rows').count();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    const kinds = {};
    for (const r of records) kinds[r.key.split(':')[0]] = (kinds[r.key.split(':')[0]] ?? 0) + 1;
    return { rows: records.length, bytes: JSON.stringify(records).length, kinds, appended };
  }, network);
}

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
      // Rows are written just before the frames that follow them: give the last ones a moment.
      await new Promise((r) => setTimeout(r, 500));
      sizes.push(await measure(page, id));
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
  } finally {
    chatty.close();
    await page.close();
  }
});
