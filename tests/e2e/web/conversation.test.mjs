// The conversation as people who live in Slack, Discord or Element expect it
// (README, "Using it"), in Chromium against a real edge, with agents from the npm
// package: history on arrival (what the network kept, newest in view, earlier
// ones paged in by scrolling up, an empty conversation that says what to do);
// a list that follows (new messages stay in view at the bottom, a "N new
// messages" control when scrolled up, the position kept per conversation);
// readable messages (times in <time>, day separators, groups, a multi-line
// composer); threads that reply in the thread and count their replies; and
// channel names people write ("Team Room" → channel/team-room), with the
// last error cleared by the next success. axe-core stays clean in both
// colour schemes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { createChannelFromNav, edgeAndBrowser, joinCreatedChannel, nextFrames, openNetwork } from '../../support/browser.mjs';
import { assertAccessibleInBothSchemes } from '../../support/axe.mjs';
import { until, expectNothingFor } from '../../support/waits.mjs';

const started = edgeAndBrowser();

/** True when the message with `text` is inside the visible part of the message log. */
function inView(page, text) {
  return page.evaluate((text) => {
    const log = document.querySelector('.message-log');
    const item = [...document.querySelectorAll('.message')].find((m) => m.textContent.includes(text));
    if (!log || !item) return false;
    const a = log.getBoundingClientRect();
    const b = item.getBoundingClientRect();
    return b.bottom > a.top && b.top < a.bottom && b.bottom <= a.bottom + 2;
  }, text);
}

/** Waits until the message with `text` is in view. */
async function waitInView(page, text, what) {
  await until(what ?? `“${text}” in view`, () => inView(page, text), 10_000);
}

/** Scrolls the message log to `top` (pixels; 0 is the top) and waits until the list has reacted. */
async function scrollLog(page, top) {
  await page.evaluate((top) => {
    const log = document.querySelector('.message-log');
    log.scrollTop = top;
    log.dispatchEvent(new Event('scroll'));
  }, top);
  await nextFrames(page);
}

/** Runs `body` with a new network, the agent `name` in it and a page, closed after. */
async function withAgentAndPage(name, body) {
  const { id } = await network();
  const agent = await Agent.connect({ url: started.edge.url, network: id, name });
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await body({ id, agent, page });
  } finally {
    await page.close();
    agent.close();
  }
}

async function network() {
  const { id, admin_token } = await createNetwork(started.edge.url, {
    name: 'Conversation', mods: ['workspace', 'persistence'],
  });
  return { id, admin_token };
}

test('history on arrival: the newest in view, earlier ones paged in, an empty conversation says what to do', () =>
  withAgentAndPage('agent:historian', async ({ id, agent, page }) => {
    for (let n = 1; n <= 70; n += 1) {
      await agent.send('agent:broadcast', 'workspace.message.posted', { content: `kept ${String(n).padStart(3, '0')}` });
    }
    // A newcomer: nothing in this browser's replica, everything from the network's history.
    await openNetwork(page, started.edge.url, id);
    await page.locator('.message', { hasText: 'kept 070' }).waitFor({ timeout: 15_000 });
    await waitInView(page, 'kept 070', 'the newest message in view');
    assert.equal(await page.locator('.message', { hasText: 'kept 001' }).count(), 0, 'the oldest wait above');
    const earlier = page.getByRole('button', { name: /Load earlier messages \(20\)/ });
    await earlier.waitFor();
    await assertAccessibleInBothSchemes(page, 'a conversation with history');

    // Scrolling to the top pages the earlier ones in, and keeps what was in view where it was.
    await scrollLog(page, 0);
    await page.locator('.message', { hasText: 'kept 001' }).waitFor({ timeout: 5_000 });
    const top = await page.evaluate(() => document.querySelector('.message-log').scrollTop);
    assert.ok(top > 100, `the view stays on what was read (scrollTop ${top})`);
    await page.getByText('This is the beginning of Everyone.').waitFor();

    // An empty channel says what to do.
    await page.getByRole('textbox', { name: 'New channel' }).fill('quiet');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`**/n/${id}/channel/quiet`);
    await page.getByText('No messages in # quiet yet').waitFor({ timeout: 10_000 });
    await page.getByText('Write the first message below', { exact: false }).waitFor();
    await assertAccessibleInBothSchemes(page, 'an empty conversation');
  }));

test('the list follows at the bottom, counts new messages when scrolled up, and keeps each conversation\'s place', () =>
  withAgentAndPage('agent:talker', async ({ id, agent, page }) => {
    for (let n = 1; n <= 40; n += 1) await agent.send('agent:broadcast', 'workspace.message.posted', { content: `before ${n}` });
    await openNetwork(page, started.edge.url, id);
    await waitInView(page, 'before 40');
    // At the bottom, a new message stays in view.
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'live one' });
    await waitInView(page, 'live one', 'a new message followed at the bottom');

    // Scrolled up: new messages are counted, and the control jumps down to them.
    await scrollLog(page, 200);
    for (const n of [1, 2, 3]) await agent.send('agent:broadcast', 'workspace.message.posted', { content: `while away ${n}` });
    const jump = page.getByRole('button', { name: '3 new messages ↓' });
    await jump.waitFor({ timeout: 10_000 });
    assert.equal(await inView(page, 'while away 3'), false, 'the person\'s place is not taken away');
    await assertAccessibleInBothSchemes(page, 'new messages below');
    await jump.click();
    await waitInView(page, 'while away 3', 'the jump lands on the newest');
    await jump.waitFor({ state: 'detached' });

    // Each conversation keeps its place.
    await scrollLog(page, 300);
    const left = await page.evaluate(() => document.querySelector('.message-log').scrollTop);
    await page.getByRole('textbox', { name: 'New channel' }).fill('side');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`**/channel/side`);
    await page.getByRole('link', { name: 'Everyone' }).click();
    await page.locator('.message', { hasText: 'before 1' }).first().waitFor();
    const scrollTop = () => page.evaluate(() => document.querySelector('.message-log').scrollTop);
    const back = await until('the list back where it was left', async () => {
      const now = await scrollTop();
      return Math.abs(now - left) < 4 && now;
    }, 5_000).catch(scrollTop);
    assert.ok(Math.abs(back - left) < 4, `back where it was left (${left} → ${back})`);
  }));

test('messages read like a chat: times, days, groups, a multi-line composer; threads reply in the thread', () =>
  withAgentAndPage('agent:pal', async ({ id, agent, page }) => {
    const heard = [];
    agent.on('workspace.message.posted', (event) => heard.push(event));
    await openNetwork(page, started.edge.url, id);
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'first of two' });
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'second of two' });
    const first = page.locator('.message', { hasText: 'first of two' });
    const second = page.locator('.message', { hasText: 'second of two' });
    await second.waitFor({ timeout: 10_000 });
    // A time people read, exact on hover, machine-readable.
    const time = first.locator('time');
    assert.equal(await time.textContent(), 'just now');
    assert.ok(!Number.isNaN(Date.parse(await time.getAttribute('datetime'))));
    assert.match(await time.getAttribute('title'), /\d/);
    // One separator for today; the second message continues the first's group.
    await page.locator('.messages .day', { hasText: 'Today' }).waitFor();
    assert.equal(await first.evaluate((e) => e.classList.contains('grouped')), false);
    assert.equal(await second.evaluate((e) => e.classList.contains('grouped')), true);

    // Markdown renders, safely: no raw HTML, links open apart.
    await agent.send('agent:broadcast', 'workspace.message.posted', {
      content: '**bold move** see [the plan](https://example.com/plan) <img src=x onerror=alert(1)> `code`\n\n- one\n- two',
    });
    const rich = page.locator('.message', { hasText: 'bold move' });
    await rich.waitFor({ timeout: 10_000 });
    assert.equal(await rich.locator('.markdown strong').textContent(), 'bold move');
    assert.equal(await rich.locator('.markdown code').textContent(), 'code');
    assert.equal(await rich.locator('.markdown li').count(), 2);
    const link = rich.getByRole('link', { name: 'the plan', exact: true });
    assert.equal(await link.getAttribute('href'), 'https://example.com/plan');
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(await rich.locator('img').count(), 0, 'raw HTML is text');
    assert.match(await rich.locator('.markdown').textContent(), /<img src=x onerror=alert\(1\)>/);

    // Shift+Enter breaks the line, Enter sends.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('line one');
    await box.press('Shift+Enter');
    await box.pressSequentially('line two');
    await box.press('Enter');
    const sent = await until('the two-line message', () => heard.find((e) => e.payload.content.startsWith('line one')));
    assert.equal(sent.payload.content, 'line one\nline two');
    assert.equal(await box.inputValue(), '', 'the composer empties once sent');

    // "Reply in thread" opens the thread; its composer replies in that thread.
    const root = await first.getAttribute('data-id');
    await first.getByRole('link', { name: /Reply in thread to/ }).click();
    await page.waitForURL(`**/thread/${root}`);
    const thread = page.getByRole('region', { name: 'Thread' });
    const threadBox = thread.getByRole('textbox', { name: 'Thread reply' });
    await threadBox.fill('answered in the thread');
    await threadBox.press('Enter');
    const reply = await until('the reply', () => heard.find((e) => e.payload.content === 'answered in the thread'));
    assert.equal(reply.metadata.in_reply_to, root, 'it answers the thread\'s first message');
    assert.equal(reply.target, 'agent:broadcast', 'in the thread\'s conversation');
    // The thread shows all its replies live.
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'and the agent answers too' }, { metadata: { in_reply_to: root } });
    await thread.locator('.message', { hasText: 'and the agent answers too' }).waitFor({ timeout: 10_000 });
    await thread.locator('.message', { hasText: 'answered in the thread' }).waitFor();
    assert.equal(await thread.locator('.message', { hasText: 'second of two' }).count(), 0, 'only the thread');
    await assertAccessibleInBothSchemes(page, 'a thread with replies');
    // The parent counts its replies and tells when the last came.
    await page.getByRole('link', { name: 'Back to the conversation' }).click();
    await first.locator('.thread-link', { hasText: '2 replies' }).waitFor({ timeout: 10_000 });
    assert.match(await first.locator('.last-reply time').textContent(), /last reply just now/);
  }));

test('a channel named for people is addressed by its slug, and the next success clears an error', async () => {
  const { id } = await network();
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(page, started.edge.url, id);
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('textbox', { name: 'New channel' }).fill('!!!');
    await nav.getByRole('button', { name: 'Create' }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'cannot name a channel' });
    await problem.waitFor();
    await nav.getByRole('textbox', { name: 'New channel' }).fill('Team Room');
    await nav.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`**/n/${id}/channel/team-room`);
    await nav.getByRole('link', { name: '# Team Room' }).and(page.locator('[aria-current="page"]')).waitFor();
    await page.getByRole('heading', { name: '# Team Room' }).waitFor();
    await problem.waitFor({ state: 'detached' });
    // The person can talk there at once; a reload keeps the name.
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('welcome to the room');
    await box.press('Enter');
    await page.locator('.message', { hasText: 'welcome to the room' }).locator('.state', { hasText: 'sent' }).waitFor({ timeout: 10_000 });
    await page.reload();
    await nav.getByRole('link', { name: '# Team Room' }).waitFor({ timeout: 15_000 });
    await page.locator('.message', { hasText: 'welcome to the room' }).waitFor({ timeout: 15_000 });
  } finally {
    await page.close();
  }
});

test('unread counts per conversation survive a reload, a direct message is marked apart, and the title shows the total', () =>
  withAgentAndPage('agent:poster', async ({ id, agent, page }) => {
    await openNetwork(page, started.edge.url, id);
    const me = await page.locator('.me').getAttribute('data-address');
    const nav = await createChannelFromNav(page, 'updates');
    await nav.getByRole('link', { name: 'Everyone' }).click();
    // Posted once the person looks elsewhere (a busy page may take a moment to switch).
    await until('Everyone is open', async () => (await page.title()) === 'Everyone — agentnet');
    await joinCreatedChannel(agent, 'updates');
    await agent.send('channel/updates', 'workspace.message.posted', { content: 'build 41 is green' });
    await agent.send('channel/updates', 'workspace.message.posted', { content: 'build 42 is green' });
    const updates = nav.getByRole('link', { name: /# updates/ });
    await updates.locator('.unread', { hasText: '2' }).waitFor({ timeout: 20_000 });
    await until('the title\'s count', async () => (await page.title()) === '(2) Everyone — agentnet');
    // The open conversation at its bottom is read as it comes.
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'seen at once' });
    await page.locator('.message', { hasText: 'seen at once' }).waitFor({ timeout: 10_000 });
    assert.equal(await nav.getByRole('link', { name: 'Everyone' }).locator('.unread').count(), 0);
    // A direct message is counted apart, for the person.
    await agent.send(me, 'workspace.message.posted', { content: 'a word in private' });
    const direct = nav.getByRole('link', { name: /^poster agent/ });
    await direct.locator('.unread.for-me', { hasText: '1' }).waitFor({ timeout: 10_000 });
    assert.match(await direct.textContent(), /unread, for you/);
    await until('the title\'s total', async () => (await page.title()) === '(3) Everyone — agentnet');
    await assertAccessibleInBothSchemes(page, 'unread counts');

    // Opening the channel reads it; a reload remembers what was read.
    await updates.click();
    await page.locator('.message', { hasText: 'build 42 is green' }).waitFor();
    await updates.locator('.unread').waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    await page.locator('.message', { hasText: 'build 42 is green' }).waitFor({ timeout: 15_000 });
    await nav.getByRole('link', { name: 'Everyone' }).click();
    await page.locator('.message', { hasText: 'seen at once' }).waitFor({ timeout: 15_000 });
    await expectNothingFor(500, 'an unread mark on the channel read before the reload');
    assert.equal(await updates.locator('.unread').count(), 0, 'read before the reload');
    await direct.locator('.unread.for-me', { hasText: '1' }).waitFor({ timeout: 10_000 });
    assert.equal(await page.title(), '(1) Everyone — agentnet', 'the tab names the conversation');
  }));

test('a long history comes range by range: the recent part at once, earlier ranges as the person scrolls up', async () => {
  const { id } = await network();
  const agent = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:elder' });
  const sink = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:sink' });
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'the very first word' });
    // Enough of the log between then and now (elsewhere) that the first range does not reach it.
    for (let round = 0; round < 9; round += 1) {
      await Promise.all(Array.from({ length: 250 }, (_, i) =>
        agent.send('agent:sink', 'workspace.message.posted', { content: `aside ${round}-${i}` })));
    }
    for (let n = 1; n <= 5; n += 1) await agent.send('agent:broadcast', 'workspace.message.posted', { content: `recent ${n}` });
    await openNetwork(page, started.edge.url, id);
    await waitInView(page, 'recent 5');
    assert.equal(await page.locator('.message', { hasText: 'the very first word' }).count(), 0, 'not read yet');
    const older = page.getByRole('button', { name: 'Load earlier messages', exact: true });
    await older.waitFor({ timeout: 10_000 });
    await older.click();
    await page.locator('.message', { hasText: 'the very first word' }).waitFor({ timeout: 20_000 });
    await page.getByText('This is the beginning of Everyone.').waitFor({ timeout: 10_000 });
  } finally {
    await page.close();
    agent.close();
    sink.close();
  }
});
