// The conversation, part two, in Chromium against a real edge:
// unread counts kept in IndexedDB across a reload with mentions marked
// apart, the read marker ("new" line) above the first message the person
// has not seen, browser notifications for a mention while the tab is hidden
// (asked for on a click, never on load), editing and deleting one's own
// message as events other people's views follow (and the network refusing
// anyone else), and a thread beside the conversation on a wide screen and
// instead of it on a phone. axe-core stays clean in both colour schemes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, openNetwork, postAndWaitSent } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { assertAccessibleInBothSchemes } from '../../support/axe.mjs';
import { expectNothingFor } from '../../support/waits.mjs';

const started = edgeAndBrowser();

async function network() {
  const { id } = await createNetwork(started.edge.url, { name: 'Conversation II', mods: ['workspace', 'persistence'] });
  return id;
}

// The page's visibility, as the test says (a headless page is always
// "visible"): document.visibilityState and document.hidden answer what
// window.__setHidden(…) last set, and a visibilitychange event tells the page.
const VISIBILITY = () => {
  let hidden = false;
  Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') });
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
  window.__setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event('visibilitychange'));
  };
};

// Notifications recorded: Chromium's own Notification (the context granted
// the permission) wrapped so each one shown is kept in window.__shown, and
// each permission request counted in window.__asked.
const RECORD_NOTIFICATIONS = () => {
  const Real = window.Notification;
  window.__shown = [];
  window.__asked = 0;
  class Recorded extends Real {
    constructor(title, options) {
      window.__shown.push({ title, body: options?.body ?? '' });
      super(title, options);
    }
    static get permission() { return window.__permission ?? Real.permission; }
    static async requestPermission() {
      window.__asked += 1;
      window.__permission = undefined;
      return Real.requestPermission();
    }
  }
  window.Notification = Recorded;
};

test('unread counts survive a reload in IndexedDB, mentions are marked apart, and a "new" line sits above the first unread', async () => {
  const id = await network();
  const agent = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:herald' });
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(page, started.edge.url, id);
    const me = await page.locator('.me').getAttribute('data-address');
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'seen one' });
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'seen two' });
    await page.locator('.message', { hasText: 'seen two' }).waitFor({ timeout: 10_000 });
    // Away in a channel, three messages come to everyone, one mentioning the person.
    await nav.getByRole('textbox', { name: 'New channel' }).fill('side');
    await nav.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/channel/side');
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'unseen one' });
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: `unseen two, @${me} have a look` });
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'unseen three' });
    const everyone = nav.getByRole('link', { name: /Everyone/ });
    await everyone.locator('.unread.mention', { hasText: '3' }).waitFor({ timeout: 10_000 });
    assert.match(await everyone.textContent(), /unread, for you: a mention/);

    // Kept in IndexedDB, not localStorage: the reload still knows what was read.
    // (Only the read markers' old localStorage keys: the person's identity stays.)
    await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('read:')).forEach((k) => localStorage.removeItem(k)));
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    await everyone.locator('.unread.mention', { hasText: '3' }).waitFor({ timeout: 15_000 });
    assert.match(await page.title(), /^\(3\) .+ — agentnet$/);
    const kept = await page.evaluate(() => new Promise((resolve, reject) => {
      const request = indexedDB.open('agentnet');
      request.onsuccess = () => {
        const all = request.result.transaction('kept').objectStore('kept').getAll();
        all.onsuccess = () => resolve(all.result.filter((r) => r.network === '~values').map((r) => [r.key, r.row]));
        all.onerror = () => reject(all.error);
      };
      request.onerror = () => reject(request.error);
    }));
    assert.ok(kept.some(([key, row]) => key.startsWith('read:') && JSON.parse(row)['agent:broadcast'] > 0), JSON.stringify(kept));

    // Back in Everyone: the "new" line sits above the first message not seen.
    await everyone.click();
    const marker = page.locator('.messages .new-marker');
    await marker.waitFor({ timeout: 10_000 });
    const around = await marker.evaluate((m) => [m.previousElementSibling?.textContent ?? '', m.nextElementSibling?.textContent ?? '']);
    assert.match(around[0], /seen two/, 'below the last message seen');
    assert.match(around[1], /unseen one/, 'above the first one not seen');
    assert.equal(await page.locator('.messages .new-marker').count(), 1);
    await everyone.locator('.unread').waitFor({ state: 'detached', timeout: 10_000 });
    await assertAccessibleInBothSchemes(page, 'the read marker');
    // Leaving and coming back with nothing new: no line.
    await nav.getByRole('link', { name: /# side/ }).click();
    await page.waitForURL('**/channel/side');
    await everyone.click();
    await page.locator('.message', { hasText: 'unseen three' }).waitFor();
    assert.equal(await marker.count(), 0, 'nothing new, no line');
  } finally {
    await page.close();
    agent.close();
  }
});

test('a mention or a direct message while the tab is hidden is a notification, asked for on a click and never on load', async () => {
  const id = await network();
  const agent = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:caller' });
  const context = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript(VISIBILITY);
  await context.addInitScript(RECORD_NOTIFICATIONS);
  const page = await context.newPage();
  try {
    // Not yet allowed: the bell offers them; loading asked nothing.
    await page.addInitScript(() => { window.__permission = 'default'; });
    await openNetwork(page, started.edge.url, id);
    const me = await page.locator('.me').getAttribute('data-address');
    const bell = page.getByRole('button', { name: 'Enable notifications' });
    await bell.waitFor();
    assert.equal(await page.evaluate(() => window.__asked), 0, 'never asked on load');
    // The person allows them (the context grants what is asked) with a click.
    await context.grantPermissions(['notifications'], { origin: started.edge.url });
    await bell.click();
    await page.getByText('Notifications on for mentions and direct messages').waitFor();
    assert.equal(await page.evaluate(() => window.__asked), 1, 'asked on the click');

    // Visible: nothing is shown.
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: `@${me} while you look` });
    await page.locator('.message', { hasText: 'while you look' }).waitFor({ timeout: 10_000 });
    // Hidden: a mention and a direct message are; a message for everyone is not.
    await page.evaluate(() => window.__setHidden(true));
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'for everyone, not you' });
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: `@${me} the build is red` });
    await agent.send(me, 'workspace.message.posted', { content: 'just between us' });
    const shown = await until('two notifications', async () => {
      const list = await page.evaluate(() => window.__shown);
      return list.length >= 2 ? list : null;
    });
    await expectNothingFor(300, 'a notification for the message to everyone');
    assert.deepEqual(await page.evaluate(() => window.__shown), [
      { title: 'caller mentioned you in Everyone', body: `@${me} the build is red` },
      { title: 'caller wrote to you', body: 'just between us' },
    ], JSON.stringify(shown));
    await page.evaluate(() => window.__setHidden(false));
    await assertAccessibleInBothSchemes(page, 'notifications on');
  } finally {
    agent.close();
    await context.close();
  }
});

test('the author edits and deletes a message, another person sees it live, and nobody else may', async () => {
  const id = await network();
  const intruder = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:intruder' });
  const ann = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  const bob = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(ann, started.edge.url, id);
    await openNetwork(bob, started.edge.url, id);
    const { message: mine, id: messageId } = await postAndWaitSent(ann, 'the launch is on tuesdya', 'the launch is on');
    const theirs = bob.locator(`.message[data-id="${messageId}"]`);
    await theirs.waitFor({ timeout: 10_000 });
    assert.equal(await theirs.getByRole('button', { name: 'Edit' }).count(), 0, 'not theirs to edit');

    // Someone else is refused by the network.
    await assert.rejects(intruder.send('agent:broadcast', 'workspace.message.edited', { message: messageId, content: 'hijacked' }), { code: 'forbidden' });
    await assert.rejects(intruder.send('agent:broadcast', 'workspace.message.deleted', { message: messageId }), { code: 'forbidden' });

    // The author edits in place; the other person's view follows.
    await mine.hover();
    await mine.getByRole('button', { name: 'Edit' }).click();
    const edit = mine.getByRole('textbox', { name: 'Edit message' });
    await edit.fill('the launch is on **Tuesday**');
    await edit.press('Enter');
    await theirs.locator('.markdown strong', { hasText: 'Tuesday' }).waitFor({ timeout: 10_000 });
    await theirs.locator('.edited', { hasText: '(edited)' }).waitFor();
    await mine.locator('.edited').waitFor();
    await assertAccessibleInBothSchemes(bob, 'an edited message');

    // The author deletes it (asked once more); a placeholder stays for both.
    await mine.hover();
    await mine.getByRole('button', { name: 'Delete' }).click();
    await mine.getByRole('group', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click();
    await theirs.getByText('This message was deleted.').waitFor({ timeout: 10_000 });
    await ann.locator(`.message[data-id="${messageId}"]`).getByText('This message was deleted.').waitFor();
    assert.equal(await theirs.locator('.markdown').count(), 0);
    // A reload reads the changes back from the network's history.
    await bob.reload();
    await bob.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    await bob.locator(`.message[data-id="${messageId}"]`).getByText('This message was deleted.').waitFor({ timeout: 15_000 });
    await assertAccessibleInBothSchemes(bob, 'a deleted message');
  } finally {
    await ann.close();
    await bob.close();
    intruder.close();
  }
});

test('a thread opens beside the conversation at 1366 px and instead of it at 390 px', async () => {
  const id = await network();
  const agent = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:asker' });
  const heard = [];
  agent.on('workspace.message.posted', (event) => heard.push(event));
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(page, started.edge.url, id);
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'which region for the launch?' });
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'unrelated chatter' });
    const root = page.locator('.conversation-column .message', { hasText: 'which region' });
    await root.waitFor({ timeout: 10_000 });
    const rootId = await root.getAttribute('data-id');
    await root.getByRole('link', { name: /Reply in thread to/ }).click();
    await page.waitForURL(`**/thread/${rootId}`);
    const pane = page.getByRole('region', { name: 'Thread' });
    await pane.locator('.message', { hasText: 'which region' }).waitFor();
    assert.equal(await pane.locator('.message', { hasText: 'unrelated chatter' }).count(), 0, 'only the thread');
    // Beside: the conversation stays in view, the thread to its right.
    const column = page.locator('.conversation-column');
    assert.ok(await column.isVisible());
    const [left, right] = [await column.boundingBox(), await pane.boundingBox()];
    assert.ok(right.x >= left.x + left.width - 1, `${JSON.stringify(left)} ${JSON.stringify(right)}`);
    assert.ok(right.width >= 280, 'wide enough to read');
    // The thread's composer replies in the thread; the conversation's posts to it.
    await pane.getByRole('textbox', { name: 'Thread reply' }).fill('eu-west, I think');
    await pane.getByRole('textbox', { name: 'Thread reply' }).press('Enter');
    const reply = await until('the reply', () => heard.find((e) => e.payload.content === 'eu-west, I think'));
    assert.equal(reply.metadata.in_reply_to, rootId);
    await page.getByRole('textbox', { name: 'Message', exact: true }).fill('a word to everyone');
    await page.getByRole('textbox', { name: 'Message', exact: true }).press('Enter');
    const word = await until('the post', () => heard.find((e) => e.payload.content === 'a word to everyone'));
    assert.equal(word.metadata?.in_reply_to, undefined, 'not in the thread');
    await column.locator('.thread-link', { hasText: '1 reply' }).waitFor({ timeout: 10_000 });
    await assertAccessibleInBothSchemes(page, 'a thread beside the conversation');

    // A phone: the thread instead of the conversation.
    await page.setViewportSize({ width: 390, height: 844 });
    await until('the conversation hidden', async () => !(await column.isVisible()));
    assert.ok(await pane.isVisible());
    await pane.locator('.message', { hasText: 'eu-west' }).waitFor();
    await assertAccessibleInBothSchemes(page, 'a thread on a phone');
  } finally {
    await page.close();
    agent.close();
  }
});
