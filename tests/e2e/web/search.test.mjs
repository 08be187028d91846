// Searching the messages of a network, against a real edge:
// `network.events.query {text}` keeps the messages with every word, only what
// the requester may read, and a bad text is refused with `invalid_search`
// while the connection goes on; in Chromium, the workspace's search finds
// what the browser holds at once and what only the network's history has,
// opens a result in its conversation scrolled to the message and highlighted
// (`?message={id}`, a link that can be shared) — reading the conversation's
// history further back when the message is older than what was loaded, and
// a reply in its thread — says when nothing matches, and never
// shows a private channel's messages to someone outside it. Screenshots at
// 1366×768 and 390×844, light and dark, each checked with axe-core.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, openNetwork } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';
import { call } from '../../support/http.mjs';
import { until } from '../../support/process.mjs';

const started = edgeAndBrowser();

async function network(name) {
  const { id } = await createNetwork(started.edge.url, { name, mods: ['workspace', 'persistence'] });
  return id;
}

/** The contents of the messages a history page holds, oldest first. */
const contents = (page) => page.events.map((e) => e.event.payload.content);

test('network.events.query with text: every word, any case, only what the requester may read; a bad text is invalid_search', async () => {
  const id = await network('Search API');
  const alice = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:alice' });
  const bob = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:bob' });
  try {
    await alice.createChannel('vault', { private: true });
    await alice.send('agent:broadcast', 'workspace.message.posted', { content: 'Deploy on Friday' });
    await alice.send('agent:broadcast', 'workspace.message.posted', { content: 'lunch on friday?' });
    await alice.send('channel/vault', 'workspace.message.posted', { content: 'secret deploy plans' });
    await alice.send('agent:bob', 'workspace.message.posted', { content: 'the deploy key, for bob' });
    await alice.send('agent:broadcast', 'workspace.message.status', { status: 'deploying now' });

    assert.deepEqual(contents(await bob.history({ text: 'DEPLOY', types: 'workspace.message.posted' })),
      ['Deploy on Friday', 'the deploy key, for bob'], 'not the private channel');
    assert.deepEqual(contents(await alice.history({ text: 'deploy', types: 'workspace.message.posted' })),
      ['Deploy on Friday', 'secret deploy plans', 'the deploy key, for bob']);
    assert.deepEqual(contents(await bob.history({ text: 'friday  dep' })), ['Deploy on Friday'], 'every word, in any order');
    const status = await bob.history({ text: 'deploying' });
    assert.deepEqual(status.events.map((e) => e.event.payload.status), ['deploying now'], 'a status update\'s text');
    assert.deepEqual(contents(await bob.history({ text: 'on' })), ['Deploy on Friday', 'lunch on friday?'], 'a short word');
    assert.deepEqual((await bob.history({ text: 'nothing like this' })).events, []);
    const paged = await bob.history({ text: 'friday', limit: 1 });
    assert.deepEqual(contents(paged), ['Deploy on Friday']);
    assert.equal(paged.has_more, true);
    assert.deepEqual(contents(await bob.history({ text: 'friday', after: paged.next_after })), ['lunch on friday?']);

    for (const text of ['   ', 'x'.repeat(201), 'a\nb']) {
      await assert.rejects(bob.history({ text }), { code: 'invalid_search' }, JSON.stringify(text));
    }
    assert.deepEqual(contents(await bob.history({ text: 'lunch' })), ['lunch on friday?'], 'the connection goes on');
  } finally {
    alice.close();
    bob.close();
  }
});

test('a search finds only what retention kept, and the network keeps answering', async () => {
  const api = (method, path, options) => call(started.edge.url, method, path, options);
  const { id } = await createNetwork(started.edge.url, {
    name: 'Search retention', access: { policy: 'open' }, mods: ['persistence'],
    retention: { history_events: 3 }, presence_timeout_ms: 1000,
  });
  const ann = await api('POST', `/networks/${id}/v1/join`, { body: { agent_id: 'agent:ann' } });
  assert.equal(ann.status, 200, JSON.stringify(ann.json));
  const send = (event) => api('POST', `/networks/${id}/v1/events`, { token: ann.json.token, body: event });
  for (let n = 0; n < 8; n += 1) {
    const sent = await send({ type: 'workspace.message.posted', target: 'agent:broadcast', payload: { content: `Findme note ${n}` } });
    assert.equal(sent.status, 200, JSON.stringify(sent.json));
  }
  const found = async (text) => {
    const answer = await send({ type: 'network.events.query', target: 'core', payload: { text, limit: 100 } });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    return answer.json.payload.events.map((e) => e.event.payload.content);
  };
  // Pruning waits for Ann's presence to time out (1 s) and the alarm after it, which may
  // already have come when eight sends took longer on a loaded machine (as in
  // edge/retention.test.mjs): whatever is found now is the newest run, never fewer than the cap.
  const before = await found('findme');
  assert.ok(before.length >= 3, JSON.stringify(before));
  assert.deepEqual([...before].sort(), Array.from({ length: before.length }, (_, k) => `Findme note ${8 - before.length + k}`),
    'all kept until the alarm prunes, the oldest pruned first');
  // Ann goes quiet: her presence times out, the alarm fires and prunes (and the index with it).
  let kept = [];
  await until('history pruned to its cap', async () => {
    kept = await found('FINDME note');
    return kept.length <= 3;
  }, 20_000);
  assert.ok(kept.every((c) => /Findme note [5-7]/.test(c)), JSON.stringify(kept));
  const bad = await send({ type: 'network.events.query', target: 'core', payload: { text: '' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.code ?? bad.json.error?.code, 'invalid_search', JSON.stringify(bad.json));
});

test('the workspace searches the replica and the network\'s history, opens a result in its conversation, and says when nothing matches', async () => {
  const id = await network('Search');
  const alice = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:alice' });
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    // Before the browser joins: only the network's history will have these.
    await alice.createChannel('vault', { private: true });
    await alice.send('agent:broadcast', 'workspace.message.posted', { content: 'Deploy plan: ship the search on Friday' });
    await alice.send('channel/vault', 'workspace.message.posted', { content: 'secret deploy of the vault' });
    for (let n = 0; n < 5; n += 1) {
      await alice.send('agent:broadcast', 'workspace.message.posted', { content: `small talk ${n}` });
    }

    await openNetwork(page, started.edge.url, id);
    // After: the browser's replica receives this one.
    await alice.send('agent:broadcast', 'workspace.message.posted', { content: 'the deploy checklist is **ready**' });
    await alice.send('agent:broadcast', 'workspace.message.posted', { content: 'deploy <img src=x onerror="window.pwned=1"> here' });
    await page.locator('.message', { hasText: 'the deploy checklist' }).first().waitFor({ timeout: 10_000 });

    // Empty state, then `/` from anywhere opens the search with its field focused.
    const button = page.getByRole('button', { name: 'Search messages' });
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    await page.locator('body').press('/');
    const panel = page.getByRole('dialog', { name: 'Search messages' });
    await panel.waitFor();
    const field = panel.getByRole('searchbox', { name: 'Search messages' });
    // The panel is a part of its own: the field takes the focus once its chunk has come.
    await field.waitFor();
    await until('the field to have the focus', () => field.evaluate((el) => el === document.activeElement), 5_000);
    await panel.getByText('Every word must appear').waitFor();

    await field.fill('DEPLOY');
    const results = panel.locator('.search-result');
    const held = results.and(page.locator('[data-origin="replica"]')).filter({ hasText: 'the deploy checklist' });
    const kept = results.and(page.locator('[data-origin="network"]')).filter({ hasText: 'ship the search' });
    await held.waitFor({ timeout: 10_000 });
    await kept.waitFor({ timeout: 10_000 });
    await panel.getByRole('status').filter({ hasText: /^3 messages$/ }).waitFor({ timeout: 10_000 });
    const tricky = results.filter({ hasText: '<img src=x' });
    await tricky.waitFor();
    assert.equal(await panel.locator('.search-results img').count(), 0, 'HTML in a message stays text');
    assert.equal(await page.evaluate(() => window.pwned), undefined);
    assert.equal(await results.filter({ hasText: 'vault' }).count(), 0, 'a private channel it is not in stays private');
    assert.equal(await kept.locator('mark').first().textContent(), 'Deploy', 'the match is marked');
    assert.equal(await held.locator('.result-text').textContent(), 'the deploy checklist is ready', 'Markdown read as its text');
    assert.equal(await held.locator('b, strong').count(), 0);
    assert.match(await kept.textContent(), /Everyone.*agent:alice/);
    assert.ok(await kept.locator('time[datetime]').count() === 1);
    await shoot(page, 'search', async () => {
      if (!(await panel.isVisible())) await button.click();
      await kept.waitFor();
    });

    // A result opens the message in its conversation (Everyone), scrolled to it and highlighted.
    await kept.getByRole('link').click();
    await page.waitForURL(new RegExp(`/n/${id}\\?message=[0-9A-Z]{26}$`));
    const eventId = new URL(page.url()).searchParams.get('message');
    const landed = page.getByRole('list', { name: 'Conversation' }).locator(`.message[data-id="${eventId}"]`, { hasText: 'ship the search on Friday' });
    await landed.waitFor({ timeout: 10_000 });
    await page.locator('.conversation-header h2', { hasText: 'Everyone' }).waitFor();
    assert.equal(await panel.isVisible(), false, 'the search closes');

    // `/` opens it again, with what was found; a search that matches nothing says so.
    await page.keyboard.press('/');
    await panel.waitFor();
    await field.fill('zebra crossing');
    await panel.getByText('No messages match “zebra crossing”.').waitFor({ timeout: 10_000 });
    assert.equal(await results.count(), 0);
    await field.fill('vault');
    await panel.getByText('No messages match “vault”.').waitFor({ timeout: 10_000 });
    await shoot(page, 'search-nothing');
    // Escape closes it and gives the focus back to the button.
    await field.press('Escape');
    await panel.waitFor({ state: 'hidden' });
    // (in the next frame, once the panel has gone)
    await until('the focus is back on the search button', () => button.evaluate((el) => el === document.activeElement), 5_000);
  } finally {
    await page.close();
    alice.close();
  }
});

test('on a phone the search is its own view and a result opens the conversation', async () => {
  const id = await network('Search phone');
  const alice = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:alice' });
  const page = await started.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true });
  try {
    await alice.send('agent:broadcast', 'workspace.message.posted', { content: 'where is the release note?' });
    await openNetwork(page, started.edge.url, id);
    await page.getByRole('button', { name: 'Search messages' }).click();
    const panel = page.getByRole('dialog', { name: 'Search messages' });
    const box = await panel.boundingBox();
    assert.ok(box && box.width >= 389, `the panel fills the width (${box?.width})`);
    await panel.getByRole('searchbox').fill('release');
    const result = panel.locator('.search-result', { hasText: 'release note' });
    await result.waitFor({ timeout: 10_000 });
    await result.getByRole('link').click();
    await page.waitForURL(new RegExp(`/n/${id}\\?message=[0-9A-Z]{26}$`));
    const landed = page.getByRole('list', { name: 'Conversation' }).locator('.message.highlighted', { hasText: 'where is the release note?' });
    await landed.waitFor({ timeout: 10_000 });
    assert.equal(await panel.isVisible(), false);
  } finally {
    await page.close();
    alice.close();
  }
});

/** True when `message` is inside the visible part of its scrolling list. */
function inView(message) {
  return message.evaluate((el) => {
    const list = el.closest('.message-log').getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return box.height > 0 && box.top >= list.top - 1 && box.bottom <= list.bottom + 1;
  });
}

test('a result older than what the conversation loaded opens there, scrolled to and highlighted; a shared link too; a reply opens its thread', async () => {
  const id = await network('Search jump');
  const alice = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:alice' });
  const bob = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:bob' });
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  const say = (content, metadata) => alice.send('channel/archive', 'workspace.message.posted', { content }, metadata ? { metadata } : {});
  let other;
  try {
    await alice.createChannel('archive');
    await say('the very first words in the archive');
    const root = await say('Release plan for the spring');
    const needle = await say('the needle is in the haystack');
    const reply = await say('a threaded haystack answer', { in_reply_to: root.id });
    // More than a history range (2,000 log positions) the browser cannot see
    // (Alice to Bob), then more than a screenful in the channel.
    for (let start = 0; start < 2_100; start += 150) {
      await Promise.all(Array.from({ length: 150 }, (_, n) => alice.send('agent:bob', 'workspace.message.posted', { content: `private ${start + n}` })));
    }
    for (let n = 0; n < 60; n += 1) await say(`later chatter ${n}`);

    // The person is in the channel (they have seen its newest messages), then reads Everyone.
    // The edge has just taken 2,000+ events: the page's own load may be slow behind them, so the
    // wait is for the workspace to say it is online, not for every resource's load event.
    await page.goto(`${started.edge.url}/n/${id}/channel/archive`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 45_000 });
    await page.locator('.message', { hasText: 'later chatter 59' }).waitFor({ timeout: 15_000 });
    assert.equal(await page.locator(`.message[data-id="${needle.id}"]`).count(), 0, 'older than what the channel loaded');
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: 'Everyone' }).click();
    await page.waitForURL((url) => url.pathname === `/n/${id}`);
    await page.getByRole('button', { name: 'Search messages' }).click();
    const panel = page.getByRole('dialog', { name: 'Search messages' });
    await panel.getByRole('searchbox').fill('needle haystack');
    const result = panel.locator(`.search-result[data-id="${needle.id}"][data-origin="network"]`);
    await result.waitFor({ timeout: 15_000 });
    assert.match(await result.textContent(), /# archive/);
    await result.getByRole('link').click();

    // The channel opens at the message: read from the network's history, visible, highlighted.
    await page.waitForURL((url) => url.href === `${started.edge.url}/n/${id}/channel/archive?message=${needle.id}`);
    const conversation = page.getByRole('list', { name: 'Conversation' });
    const landed = conversation.locator(`.message.highlighted[data-id="${needle.id}"]`);
    await landed.waitFor({ timeout: 20_000 });
    await page.locator('.conversation-header h2', { hasText: '# archive' }).waitFor();
    await until('the message scrolled into view', () => inView(landed), 5_000);
    assert.equal(await landed.evaluate((el) => el === document.activeElement), true, 'the message has the focus');
    // What was said around it is there too (history read down to it, not a lone line).
    await conversation.locator(`.message[data-id="${root.id}"]`, { hasText: 'Release plan for the spring' }).waitFor();
    await conversation.locator('.message', { hasText: 'later chatter 0' }).waitFor();
    assert.equal(await conversation.locator('.message', { hasText: 'later chatter 59' }).count(), 1);
    await shoot(page, 'search-jump', async () => {
      // The highlight may have faded by now (a moment, not a state): the message itself.
      await conversation.locator(`.message[data-id="${needle.id}"]`).scrollIntoViewIfNeeded();
    });
    // The highlight fades: it is a moment, not a state.
    await conversation.locator(`.message.highlighted`).waitFor({ state: 'detached', timeout: 10_000 });

    // Scrolled away, the same result opened again (the URL does not change) jumps there again.
    const needleLine = conversation.locator(`.message[data-id="${needle.id}"]`);
    await needleLine.evaluate((el) => { const log = el.closest('.message-log'); log.scrollTop = log.scrollHeight; });
    await until('the message scrolled out of view', async () => !(await inView(needleLine)), 5_000);
    await page.getByRole('button', { name: 'Search messages' }).click();
    await panel.getByRole('searchbox').fill('needle haystack');
    // Found in the browser's own copy this time (it has read that far back).
    const again = panel.locator(`.search-result[data-id="${needle.id}"]`).first();
    await again.waitFor({ timeout: 15_000 });
    await again.getByRole('link').click();
    assert.equal(page.url(), `${started.edge.url}/n/${id}/channel/archive?message=${needle.id}`, 'the same link as before');
    await landed.waitFor({ timeout: 10_000 });
    await until('the message scrolled into view again', () => inView(landed), 5_000);

    // The URL is the link to share: a fresh browser lands there the same way.
    const fresh = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
    other = await fresh.newPage();
    await other.goto(`${started.edge.url}/n/${id}/channel/archive?message=${needle.id}`);
    await other.getByRole('list', { name: 'Conversation' }).locator(`.message.highlighted[data-id="${needle.id}"]`).waitFor({ timeout: 30_000 });
    // As on the first page: the highlight comes with the history read down to the message, and
    // the scroll to it settles once that history is laid out (a cold run saw it a moment later).
    await until('the shared link scrolled to the message', () => inView(other.locator(`.message[data-id="${needle.id}"]`)), 5_000);

    // A reply opens its thread, beside the conversation, the reply highlighted there.
    await page.getByRole('button', { name: 'Search messages' }).click();
    await panel.getByRole('searchbox').fill('threaded haystack');
    const threaded = panel.locator(`.search-result[data-id="${reply.id}"]`);
    await threaded.waitFor({ timeout: 15_000 });
    await threaded.getByRole('link').click();
    await page.waitForURL((url) => url.href === `${started.edge.url}/n/${id}/thread/${root.id}?message=${reply.id}`, { timeout: 15_000 });
    const thread = page.getByRole('list', { name: 'Thread' });
    const inThread = thread.locator(`.message.highlighted[data-id="${reply.id}"]`);
    await inThread.waitFor({ timeout: 10_000 });
    await thread.locator(`.message[data-id="${root.id}"]`).waitFor();
    await page.locator('.thread-bar', { hasText: 'in # archive' }).waitFor();
    assert.equal(await inView(inThread), true);
  } finally {
    await other?.context().close();
    await page.close();
    alice.close();
    bob.close();
  }
});
