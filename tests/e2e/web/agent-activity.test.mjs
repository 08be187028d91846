// Agents working in the open, in Chromium against a real edge: an
// npm agent answering a person's question posts `workspace.agent.activity`
// (thinking, calling a tool, writing with the text growing) and then its
// answer with `payload.answers` and `payload.steps`. The page shows a pending
// entry under the conversation (in the thread pane when the answer goes into
// a thread) that the answer replaces; the steps fold under the answer and
// open by mouse or keyboard; Stop, shown to the person who asked only,
// sends `workspace.agent.stop` to the agent. Screenshots of the pending
// entry and of the open steps at both sizes in both schemes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { createChannelFromNav, edgeAndBrowser, joinCreatedChannel, openNetwork, say } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { PHONE, WIDE, shoot } from '../../support/shots.mjs';
import { nextEvent } from '../../support/events.mjs';

const started = edgeAndBrowser();
const ACTIVITY = 'workspace.agent.activity';

/** The next `workspace.message.posted` `agent` receives whose content matches `pattern`. */
const heard = (agent, pattern) => nextEvent(agent, 'workspace.message.posted', (event) => pattern.test(event.payload?.content ?? ''));

test('an agent at work shows as a pending entry its answer replaces; its steps fold; Stop reaches it', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'Agents at work', mods: ['workspace', 'persistence'] });
  const helper = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:helper' });
  const stops = [];
  helper.on('workspace.agent.stop', (event) => stops.push(event));
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(page, started.edge.url, id);
    const me = await page.locator('.me').getAttribute('data-address');
    const nav = await createChannelFromNav(page, 'general');
    await joinCreatedChannel(helper, 'general');
    const to = 'channel/general';

    // The person asks; the agent thinks, calls a tool, writes.
    const question = heard(helper, /what is six times seven/);
    await say(page, '@agent:helper what is six times seven?');
    const asked = await question;
    const list = page.locator('.conversation-column .messages');
    const pending = list.locator('.message.answering');
    await helper.send(to, ACTIVITY, { state: 'thinking', message: asked.id });
    await pending.waitFor({ timeout: 10_000 });
    assert.equal(await pending.locator('.source').getAttribute('data-address'), 'agent:helper');
    assert.match(await pending.locator('.meta').textContent(), /helper\s*Agent\s*is thinking…/);
    assert.equal(await page.locator('.message:not(.answering)', { hasText: 'thinking' }).count(), 0, 'no line for an activity');
    await helper.send(to, ACTIVITY, { state: 'calling_tool', message: asked.id, tool: 'calculator' });
    await pending.getByText('is using calculator…').waitFor({ timeout: 10_000 });
    await helper.send(to, ACTIVITY, { state: 'writing', message: asked.id, text: 'Six times seven' });
    await pending.locator('.markdown', { hasText: 'Six times seven' }).waitFor({ timeout: 10_000 });
    // Long enough to wrap on a phone and on a wide screen: the answer's text must not reflow.
    const text = 'Six times seven is **42**: six sevens are seven, fourteen, twenty-one, twenty-eight, '
      + 'thirty-five and forty-two, which is also what seven sixes make, counted the other way round.'
      + '\n\n- checked with `calculator`\n- and by hand';
    await helper.send(to, ACTIVITY, { state: 'writing', message: asked.id, text });
    await pending.locator('.markdown strong', { hasText: '42' }).waitFor({ timeout: 10_000 });
    assert.equal(await pending.count(), 1, 'one entry, replaced in place');
    assert.match(await pending.locator('.doing').textContent(), /is writing…/);
    const stop = pending.getByRole('button', { name: "Stop agent:helper's answer" });
    assert.ok(await stop.isVisible(), 'the person who asked may stop it');
    await shoot(page, 'agent-pending');

    // The answer replaces the entry: its text is where the entry's was, below
    // the question (a short conversation sits at the bottom of the log, so the
    // steps added under the answer lift everything above them alike).
    const placed = (element, asking = 'what is six times seven?') => element.evaluate((e, asking) => {
      const question = [...document.querySelectorAll('.conversation-column .message')]
        .find((m) => m.textContent.includes(asking));
      const rect = e.getBoundingClientRect();
      return { top: rect.top - question.getBoundingClientRect().top, height: rect.height };
    }, asking);
    const before = await placed(pending.locator('.markdown'));
    await helper.send(to, 'workspace.message.posted', {
      content: text,
      answers: asked.id,
      steps: [
        { tool: 'calculator', arguments: { expression: '6*7' }, ok: true, result: '42' },
        { tool: 'search', arguments: { query: 'six times seven' }, ok: false, result: 'the search service timed out' },
      ],
    });
    const answer = list.locator('.message:not(.answering)', { hasText: 'Six times seven is 42:' });
    await answer.waitFor({ timeout: 10_000 });
    assert.equal(await pending.count(), 0, 'the entry is gone with the answer');
    const after = await placed(answer.locator('.markdown'));
    assert.ok(Math.abs(after.top - before.top) <= 1 && Math.abs(after.height - before.height) <= 1,
      `the text stays where it was: ${JSON.stringify({ before, after })}`);
    await helper.send(to, ACTIVITY, { state: 'idle', message: asked.id });

    // The steps: folded, opened by a click and by the keyboard.
    const steps = answer.locator('details.steps');
    const summary = steps.locator('summary');
    assert.equal(await summary.textContent(), 'Used 2 tools, 1 failed');
    assert.equal(await steps.getAttribute('open'), null, 'folded at first');
    assert.equal(await steps.locator('.step-list').isVisible(), false);
    await summary.click();
    assert.equal(await steps.getAttribute('open'), '');
    const items = steps.locator('.step');
    assert.equal(await items.count(), 2);
    assert.match(await items.nth(0).textContent(), /calculator.*✓ ok.*Arguments.*\{"expression":"6\*7"\}.*Result.*42/s);
    assert.match(await items.nth(1).textContent(), /search.*✗ failed.*the search service timed out/s);
    await summary.focus();
    await page.keyboard.press('Enter');
    assert.equal(await steps.getAttribute('open'), null, 'Enter folds it');
    await page.keyboard.press('Space');
    assert.equal(await steps.getAttribute('open'), '', 'Space opens it');
    await shoot(page, 'agent-steps', async (p) => {
      await p.locator('.conversation-column .message-log').evaluate((log) => { log.scrollTop = log.scrollHeight; });
      const box = await summary.boundingBox();
      if (p.viewportSize().width <= 720) assert.ok(box.height >= 44, `a 44 px target on a phone: ${box.height}`);
    });

    // Stop: the person presses it, the agent hears which message.
    const second = heard(helper, /and eight times nine/);
    await say(page, '@agent:helper and eight times nine?');
    const again = await second;
    await helper.send(to, ACTIVITY, { state: 'thinking', message: again.id });
    await pending.waitFor({ timeout: 10_000 });
    await pending.getByRole('button', { name: "Stop agent:helper's answer" }).click();
    await until('the stop', () => stops.length > 0, 10_000);
    assert.equal(stops[0].payload.message, again.id);
    assert.equal(String(stops[0].target), 'agent:helper');
    assert.equal(String(stops[0].source), me, 'from the person who asked');
    const stopping = pending.getByRole('button', { name: "Stopping agent:helper's answer" });
    await stopping.waitFor({ timeout: 10_000 });
    await until('Stopping…', async () => (await stopping.isDisabled()) && /Stopping…/.test(await stopping.textContent()), 10_000);
    await helper.send(to, ACTIVITY, { state: 'idle', message: again.id });
    await pending.waitFor({ state: 'detached', timeout: 10_000 });
    assert.equal(await list.locator('.message', { hasText: 'eight times nine' }).count(), 1, 'nothing but the question');

    // Someone else's question: the entry shows, without Stop.
    const other = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:asker' });
    try {
      await other.joinChannel('general');
      const { id: theirs } = await other.send(to, 'workspace.message.posted', { content: 'helper, what is 2+2?' });
      await list.locator('.message', { hasText: 'what is 2+2' }).waitFor({ timeout: 10_000 });
      await helper.send(to, ACTIVITY, { state: 'thinking', message: theirs });
      await pending.waitFor({ timeout: 10_000 });
      assert.equal(await pending.getByRole('button').count(), 0, 'only the person who asked may stop it');
      // On a phone too, the answer's text lands where the growing text was.
      await page.setViewportSize(PHONE);
      await helper.send(to, ACTIVITY, { state: 'writing', message: theirs, text });
      await pending.locator('.markdown strong').waitFor({ timeout: 10_000 });
      const growing = await placed(pending.locator('.markdown'), 'what is 2+2');
      await helper.send(to, 'workspace.message.posted', { content: text, answers: theirs });
      const theirAnswer = list.locator('.message:not(.answering)', { hasText: 'Six times seven is 42:' }).last();
      await until('their answer', async () => (await pending.count()) === 0 && (await list.locator('.message:not(.answering)', { hasText: 'Six times seven is 42:' }).count()) === 2, 10_000);
      const landed = await placed(theirAnswer.locator('.markdown'), 'what is 2+2');
      assert.deepEqual(landed, growing, 'the text stays where it was on a phone');
      await page.setViewportSize(WIDE);
    } finally {
      await other.close();
    }

    // An answer into a thread shows in the thread pane, not under the conversation.
    const threadPane = page.getByRole('region', { name: 'Thread' });
    await list.locator('.message', { hasText: 'six times seven?' }).getByRole('link', { name: /^Reply in thread to/ }).click();
    await threadPane.waitFor({ timeout: 10_000 });
    const followUp = heard(helper, /and in a thread\?/);
    await say(page, '@agent:helper and in a thread?', threadPane.locator('.composer'));
    const inThread = await followUp;
    const turn = { message: inThread.id, thread: asked.id };
    await helper.send(to, ACTIVITY, { state: 'writing', ...turn, text: 'In the thread' });
    await threadPane.locator('.message.answering', { hasText: 'In the thread' }).waitFor({ timeout: 10_000 });
    await helper.send(to, ACTIVITY, { state: 'writing', ...turn, text: 'In the thread, growing' });
    await threadPane.locator('.message.answering', { hasText: 'growing' }).waitFor({ timeout: 10_000 });
    assert.equal(await list.locator('.message.answering').count(), 0, 'not under the conversation');
    await helper.send(to, 'workspace.message.posted', { content: 'In the thread, done', answers: inThread.id }, { metadata: { in_reply_to: asked.id } });
    await threadPane.locator('.message:not(.answering)', { hasText: 'In the thread, done' }).waitFor({ timeout: 10_000 });
    assert.equal(await threadPane.locator('.message.answering').count(), 0);

    // Elsewhere, the conversation list marks where an agent is at work; its
    // activity counts as nothing unread.
    await nav.getByRole('link', { name: /Everyone/ }).click();
    await page.waitForURL((url) => !url.pathname.includes('channel/general'));
    const general = nav.getByRole('link', { name: /# general/ });
    // What general counts unread as the person leaves it (the thread's last reply may still be
    // on its way to being read); the activities below must add nothing to it.
    const unread = async () => Number((await general.locator('.unread').allTextContents())[0]?.match(/\d+/)?.[0] ?? 0);
    const unreadBefore = await unread();
    await helper.send(to, ACTIVITY, { state: 'thinking', message: inThread.id });
    await general.locator('.working').waitFor({ timeout: 10_000 });
    assert.match(await general.textContent(), /an agent is at work/);
    await helper.send(to, ACTIVITY, { state: 'writing', message: inThread.id, text: 'more' });
    await helper.send(to, ACTIVITY, { state: 'idle', message: inThread.id });
    await general.locator('.working').waitFor({ state: 'detached', timeout: 10_000 });
    assert.ok(await unread() <= unreadBefore, 'no unread count for activities');
  } finally {
    await page.close();
    await helper.close();
  }
});
