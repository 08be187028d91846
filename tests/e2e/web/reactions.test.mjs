// Reactions and @ completion in the workspace, in Chromium
// against a real edge with an agent from the npm package: the person reacts
// from a message's React button and the agent hears it as an event; the
// agent's reaction shows as a chip with its count; clicking one's own chip
// takes it back; a reload keeps what the log says; a direct message's
// reactions go between its two people. Typing `@` in the composer offers
// the members, arrows and Enter (or a click) complete the address, Escape
// closes the list; an address typed out whole is sent by Enter.
// Screenshots at both sizes, light and dark, axe-checked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, openNetwork } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { WIDE, shoot } from '../../support/shots.mjs';

const started = edgeAndBrowser();

async function network(name) {
  const { id } = await createNetwork(started.edge.url, { name, mods: ['workspace', 'persistence'] });
  return id;
}

/** Connects each of `names` to network `id`, one after the other. */
async function members(id, names) {
  const agents = [];
  for (const name of names) agents.push(await Agent.connect({ url: started.edge.url, network: id, name }));
  return agents;
}

test('reactions: the person reacts, an agent hears it and reacts too, a chip takes one back, a reload keeps them', async () => {
  const id = await network('Reactions');
  const agent = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:reactor' });
  const heard = [];
  agent.on('workspace.reaction.added', (event) => heard.push(['added', event]));
  agent.on('workspace.reaction.removed', (event) => heard.push(['removed', event]));
  const page = await started.browser.newPage({ viewport: WIDE });
  try {
    await openNetwork(page, started.edge.url, id);
    const posted = await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'ready to ship?' });
    const messageId = posted.id;
    const message = page.locator(`.message[data-id="${messageId}"]`);
    await message.waitFor({ timeout: 10_000 });
    assert.equal(await message.getByRole('group', { name: 'Reactions' }).count(), 0, 'no reactions, no row');

    // The person reacts from the message's actions; the agent hears it.
    await message.hover();
    await message.getByRole('button', { name: 'React', exact: true }).click();
    await message.getByRole('group', { name: 'Choose a reaction' }).getByRole('button', { name: 'React with 👍' }).click();
    const thumbs = message.getByRole('button', { name: /^👍 1 person reacted/ });
    await thumbs.waitFor({ timeout: 10_000 });
    assert.equal(await thumbs.getAttribute('aria-pressed'), 'true', 'the person is among them');
    await until('the agent hears the reaction', () => heard.find(([kind]) => kind === 'added'));
    const [, added] = heard.find(([kind]) => kind === 'added');
    assert.deepEqual(added.payload, { message: messageId, emoji: '👍' });

    // The agent reacts too: its chip counts, not pressed for the person; 👍 counts two.
    await agent.send('agent:broadcast', 'workspace.reaction.added', { message: messageId, emoji: '🎉' });
    await agent.send('agent:broadcast', 'workspace.reaction.added', { message: messageId, emoji: '👍' });
    const party = message.getByRole('button', { name: /^🎉 1 person reacted: agent:reactor/ });
    await party.waitFor({ timeout: 10_000 });
    assert.equal(await party.getAttribute('aria-pressed'), 'false');
    await message.getByRole('button', { name: /^👍 2 people reacted/ }).waitFor({ timeout: 10_000 });
    await shoot(page, 'reactions', async () => {
      await message.scrollIntoViewIfNeeded();
    });

    // Clicking its own chip takes the person's back; the agent hears that too.
    await message.getByRole('button', { name: /^👍 2 people reacted/ }).click();
    const one = message.getByRole('button', { name: /^👍 1 person reacted: agent:reactor/ });
    await one.waitFor({ timeout: 10_000 });
    assert.equal(await one.getAttribute('aria-pressed'), 'false');
    await until('the agent hears it taken back', () => heard.find(([kind]) => kind === 'removed'));

    // A reload reads them back.
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    await page.locator(`.message[data-id="${messageId}"]`).getByRole('button', { name: /^🎉 1 person/ }).waitFor({ timeout: 15_000 });
    await page.locator(`.message[data-id="${messageId}"]`).getByRole('button', { name: /^👍 1 person reacted: agent:reactor/ }).waitFor();

    // The network refuses a bad one, and the agent's connection goes on.
    await assert.rejects(agent.send('agent:broadcast', 'workspace.reaction.added', { message: messageId, emoji: 'two words' }), { code: 'invalid_request' });
    await assert.rejects(agent.send('human:nobody', 'workspace.reaction.added', { message: messageId, emoji: '👍' }), (err) => err.code !== undefined);
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'still here' });
  } finally {
    await page.close();
    agent.close();
  }
});

test('a direct message takes reactions between its two people only', async () => {
  const id = await network('Direct reactions');
  const [ann, bob, eve] = await members(id, ['agent:ann', 'agent:bob', 'agent:eve']);
  try {
    const posted = await ann.send('agent:bob', 'workspace.message.posted', { content: 'between us' });
    const messageId = posted.id;
    const got = new Promise((resolve) => ann.on('workspace.reaction.added', resolve));
    await bob.send('agent:ann', 'workspace.reaction.added', { message: messageId, emoji: '👀' });
    assert.equal((await got).source, 'agent:bob');
    await assert.rejects(eve.send('agent:ann', 'workspace.reaction.added', { message: messageId, emoji: '👀' }), { code: 'forbidden' });
  } finally {
    ann.close();
    bob.close();
    eve.close();
  }
});

test('@ completion: the members offered as one types, arrows and Enter or a click complete, Escape closes', async () => {
  const id = await network('Mentions');
  const [planner, plotter] = await members(id, ['agent:planner', 'agent:plotter']);
  const heard = [];
  planner.on('workspace.message.posted', (event) => heard.push(event));
  const page = await started.browser.newPage({ viewport: WIDE });
  try {
    await openNetwork(page, started.edge.url, id);
    await page.locator('.person[data-address="agent:plotter"]').waitFor({ timeout: 15_000 });
    const box = page.getByRole('textbox', { name: 'Message' });
    const list = page.getByRole('listbox', { name: 'Members to mention' });
    await box.click();
    await box.pressSequentially('thanks @pl');
    await list.waitFor({ timeout: 5_000 });
    assert.deepEqual(await list.getByRole('option').allTextContents(), ['planner agent:planner', 'plotter agent:plotter'], 'each by its name, then its address');
    assert.equal(await box.getAttribute('aria-activedescendant'), 'message-mentions-0');
    await shoot(page, 'mention-completion', async () => {
      await box.click();
      await list.waitFor();
    });
    await box.press('ArrowDown');
    assert.equal(await list.getByRole('option', { name: 'agent:plotter' }).getAttribute('aria-selected'), 'true');
    await box.press('Enter');
    assert.equal(await box.inputValue(), 'thanks @agent:plotter ', 'Enter completed, it did not send');
    await list.waitFor({ state: 'detached' });

    // A click completes too; Escape closes the list and Enter then sends.
    await box.pressSequentially('and @agent:pla');
    await list.getByRole('option', { name: 'agent:planner' }).click();
    assert.equal(await box.inputValue(), 'thanks @agent:plotter and @agent:planner ');
    await box.pressSequentially('@p');
    await list.waitFor();
    await box.press('Escape');
    await list.waitFor({ state: 'detached' });
    assert.equal(await box.inputValue(), 'thanks @agent:plotter and @agent:planner @p');
    await box.press('Backspace');
    await box.press('Backspace');
    await box.press('Enter');
    const got = await until('the planner hears the message', () => heard.find((e) => e.payload.content.startsWith('thanks')));
    assert.equal(got.payload.content, 'thanks @agent:plotter and @agent:planner');
    assert.deepEqual([...got.metadata.mentions].sort(), ['agent:planner', 'agent:plotter']);
    await page.locator('.message .mention', { hasText: '@agent:planner' }).first().waitFor({ timeout: 10_000 });
    // An address typed out whole leaves nothing to complete: Enter sends it.
    await box.fill('ping @agent:planner');
    await box.press('Enter');
    await until('the planner hears the typed-out mention', () => heard.find((e) => e.payload.content === 'ping @agent:planner'));
  } finally {
    await page.close();
    planner.close();
    plotter.close();
  }
});
