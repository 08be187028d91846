// The smaller expected things, in Chromium against a real edge: "Ann is
// typing…" (an event the network delivers live and never stores), Up-arrow
// in an empty composer edits one's last message, Ctrl+K switches
// conversations (type to filter, Enter to go; its last choice searches),
// the tab's title names the conversation, a tool form keeps the schema's
// field order, a task's Markdown artifact renders as Markdown, "No
// messages yet" does not sit above a lone approval card, and the Directory
// shows member counts without "No description." noise.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, openNetwork, twoPeople } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { shoot } from '../../support/shots.mjs';

const started = edgeAndBrowser();

test('typing shows live and is never stored; Up-arrow edits; Ctrl+K switches; the title names the conversation', async () => {
  const { id, agent, pages: [ann, bob], close, heard: typing } = await twoPeople(started, 'Expected', 'agent:watcher', 'workspace.typing');
  try {
    const bobName = (await bob.locator('.topbar .me strong').textContent()).trim();
    // The tab names the conversation.
    await until('the title names Everyone', async () => (await ann.title()) === 'Everyone — agentnet');

    // Bob types: Ann reads "… is typing…", sent once for a burst of keys, and never in the log.
    const bobBox = bob.getByRole('textbox', { name: 'Message' });
    await bobBox.pressSequentially('hello th', { delay: 30 });
    await ann.locator('.typing', { hasText: `${bobName} is typing…` }).waitFor({ timeout: 10_000 });
    await until('the agent hears the typing', () => typing.length > 0);
    assert.equal(typing.length, 1, `one typing event for a burst: ${typing.length}`);
    assert.equal(typing[0].target, 'agent:broadcast');
    // (Bob keeps typing while the screens are taken, so the line stays.)
    await shoot(ann, 'typing', async () => {
      await bobBox.pressSequentially('.');
      await ann.locator('.typing', { hasText: 'is typing…' }).waitFor({ timeout: 10_000 });
    });
    await bobBox.pressSequentially('ere');
    await bobBox.press('Enter');
    await ann.locator('.message', { hasText: /hello th\.+ere/ }).waitFor({ timeout: 10_000 });
    await until('the typing line goes with the message', async () => (await ann.locator('.typing').textContent()).trim() === '');
    const log = await agent.history({});
    const kinds = log.events.map((e) => e.event.type);
    assert.ok(kinds.includes('workspace.message.posted'), JSON.stringify(kinds));
    assert.ok(!kinds.includes('workspace.typing'), 'typing is never stored');

    // Up-arrow in the empty composer edits the person's last message.
    const annBox = ann.getByRole('textbox', { name: 'Message' });
    await annBox.fill('first draft of the plan');
    await annBox.press('Enter');
    const mine = ann.locator('.message[data-state="sent"]', { hasText: 'first draft of the plan' });
    await mine.waitFor({ timeout: 10_000 });
    await annBox.press('ArrowUp');
    const edit = mine.getByRole('textbox', { name: 'Edit message' });
    await edit.waitFor({ timeout: 5_000 });
    assert.equal(await edit.evaluate((e) => e === document.activeElement), true, 'the edit box has the focus');
    await edit.fill('final plan');
    await edit.press('Enter');
    await bob.locator('.message', { hasText: 'final plan' }).locator('.edited').waitFor({ timeout: 10_000 });

    // Ctrl+K: a switcher of conversations and people; typing filters, Enter goes.
    const nav = ann.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('textbox', { name: 'New channel' }).fill('Release Notes');
    await nav.getByRole('button', { name: 'Create' }).click();
    await ann.waitForURL(`**/n/${id}/channel/release-notes`);
    await until('the title names the channel', async () => (await ann.title()) === '# Release Notes — agentnet');
    await nav.getByRole('link', { name: 'Everyone' }).click();
    await ann.keyboard.press('Control+k');
    const switcher = ann.getByRole('dialog', { name: 'Switch conversation' });
    await switcher.waitFor();
    const field = switcher.getByRole('combobox', { name: 'Go to a conversation or person' });
    await until('the switcher field has the focus', () => field.evaluate((e) => e === document.activeElement), 5_000);
    await field.fill('release');
    const options = switcher.getByRole('option');
    assert.deepEqual((await options.allTextContents()).map((t) => t.trim()), ['# Release NotesChannel', 'Search messages for “release”']);
    await shoot(ann, 'switcher');
    await field.press('Enter');
    await ann.waitForURL(`**/n/${id}/channel/release-notes`);
    await switcher.waitFor({ state: 'hidden' });
    // A person is reached too; the last choice searches the messages.
    await ann.keyboard.press('Control+k');
    await field.fill(bobName);
    await switcher.getByRole('option', { name: new RegExp(`^${bobName}`) }).first().waitFor();
    await field.fill('final plan');
    await field.press('ArrowDown');
    await field.press('Enter');
    const search = ann.getByRole('dialog', { name: 'Search messages' });
    await search.waitFor();
    assert.equal(await search.getByRole('searchbox').inputValue(), 'final plan');
  } finally {
    await close();
  }
});

test('tool forms keep the schema order; a Markdown artifact renders; no "No messages" above an approval card; Directory counts', async () => {
  const { edge, browser } = started;
  const { id } = await createNetwork(edge.url, {
    name: 'Counted Guild', public: true, mods: ['workspace', 'persistence'],
  });
  const { id: bare } = await createNetwork(edge.url, { name: 'Bare Guild', public: true });
  const worker = await Agent.connect({ url: edge.url, network: id, name: 'agent:worker' });
  const deployer = await Agent.connect({ url: edge.url, network: id, name: 'agent:deployer' });
  // Declared zone, city, day; required day, city: neither the alphabet nor `required` gives this order.
  await worker.registerTool('forecast', {
    type: 'object',
    properties: { zone: { type: 'string' }, city: { type: 'string' }, day: { type: 'string' } },
    required: ['day', 'city'],
  }, ({ city }) => ({ city, sky: 'clear' }), { description: 'the weather' });
  worker.onTask(async (task) => {
    await task.artifact('findings.md', '# Findings\n\nEverything **works**.');
    return 'done';
  });
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(page, started.edge.url, id);
    const me = await page.locator('.me').getAttribute('data-address');
    const resources = page.getByRole('region', { name: 'Resources' });
    await resources.getByRole('button', { name: 'Refresh' }).click();
    const tool = resources.locator('.resource[data-address="resource/tool/forecast"]');
    await tool.waitFor({ timeout: 10_000 });
    const form = tool.getByRole('form', { name: 'Invoke resource/tool/forecast' });
    const labels = await form.locator('label').evaluateAll((ls) => ls.map((l) => l.textContent.trim()));
    assert.deepEqual(labels.slice(0, 3), ['zone', 'city (required)', 'day (required)']);

    // A Markdown artifact: its page renders it.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Tasks' }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByRole('combobox', { name: 'Partner' }).selectOption('agent:worker');
    await tasks.getByRole('textbox', { name: 'Task' }).fill('write the findings');
    await tasks.getByRole('button', { name: 'Start task' }).click();
    const card = tasks.locator('.task-card');
    await card.getByRole('status').filter({ hasText: 'State: completed' }).waitFor({ timeout: 15_000 });
    await card.getByRole('list', { name: 'Artifacts' }).getByRole('link', { name: 'findings.md' }).click();
    const preview = page.getByRole('region', { name: 'Preview of findings.md' });
    await preview.getByRole('heading', { name: 'Findings' }).waitFor({ timeout: 15_000 });
    assert.equal(await preview.locator('strong').textContent(), 'works');
    await shoot(page, 'artifact-markdown');

    // A direct conversation holding only an approval card does not say it has no messages.
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Conversation' }).click();
    await page.keyboard.press('Control+k');
    const field = page.getByRole('combobox', { name: 'Go to a conversation or person' });
    await field.fill('deployer');
    await field.press('Enter');
    await page.waitForURL(`**/n/${id}/with/agent:deployer`);
    await page.locator('.empty-conversation').waitFor({ timeout: 10_000 });
    const approval = deployer.approval({
      to: me, approvers: [me], kind: 'message', subject: 'channel/announce',
      summary: 'Announce the release', detail: 'v3 is out', expiresInMs: 120_000,
    });
    approval.catch(() => {});
    await page.locator('.approval-card').waitFor({ timeout: 15_000 });
    assert.equal(await page.locator('.empty-conversation').count(), 0, 'no "No messages yet" above the card');
    await shoot(page, 'approval-alone');

    // The Directory: member counts, and nothing where a network has no description.
    await page.goto(`${edge.url}/directory`);
    const networks = page.getByRole('main', { name: 'Directory' }).getByRole('list', { name: 'Public networks' });
    const counted = networks.locator(`[data-network="${id}"]`);
    await counted.locator('.card-counts').waitFor({ timeout: 15_000 });
    assert.match(await counted.locator('.card-counts').textContent(), /^\d+ members · [1-9]\d* online$/);
    const plain = networks.locator(`[data-network="${bare}"]`);
    await plain.waitFor();
    assert.doesNotMatch(await networks.textContent(), /No description/);
    await shoot(page, 'directory-counts');
  } finally {
    worker.close();
    deployer.close();
    await page.close();
  }
});
