// An LLM member at work, seen by a person in Chromium (docs/agents.md), end to end
// with nothing faked but the model: the local edge, the scripted provider
// (tests/support/scripted-provider.mjs, OpenAI-shaped answers), a JS agent
// owning a `forecast` tool, and an agent started with `Agent.llm` (tools
// 'all') in a channel. The person mentions the agent in a thread from the
// workspace composer: the page shows the pending entry (thinking, using
// forecast, the streamed text growing), then the answer in its place with a
// folded "Used forecast" that opens to the step, and the tool ran with the
// model's arguments. A second, long answer is stopped from the page: the
// entry goes, nothing is posted and the provider's stream was cut. A direct
// message from the page is answered in the direct conversation.
// Screenshots of the streaming entry and of the opened steps at both sizes
// in both schemes (llm-agent-streaming-*, llm-agent-steps-*).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { createChannelFromNav, edgeAndBrowser, joinCreatedChannel, openNetwork, say } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { shoot } from '../../support/shots.mjs';
import { scriptedProviderForFile, toolCall, slow, text } from '../../support/scripted-provider.mjs';
import { pace, expectNothingFor } from '../../support/waits.mjs';

const KEY = 'sk-test-web-4c1d9e7a2b5f8c3e6a9d0b2e4f7a1c5d';
const started = edgeAndBrowser();
const provider = scriptedProviderForFile(KEY);

const ANSWER = 'Friday in Paris looks sunny and mild, with a high of 21 °C and a light breeze from the west, '
  + 'so a walk along the Seine in the afternoon would be a fine plan.';
const LONG = Array.from({ length: 120 }, (_, i) => `word${i + 1}`).join(' ');

// Records, in the page, every state the pending entries go through: what the
// agent is said to be doing and the text shown, each time either changes.
const RECORD_PENDING = () => {
  window.__pending = [];
  const seen = () => {
    for (const entry of document.querySelectorAll('.message.answering')) {
      const doing = entry.querySelector('.doing')?.textContent.trim() ?? '';
      const shown = entry.querySelector('.markdown')?.textContent.trim() ?? '';
      const last = window.__pending.at(-1);
      if (!last || last.doing !== doing || last.text !== shown) window.__pending.push({ doing, text: shown, at: performance.now() });
    }
  };
  new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, characterData: true });
};

test('a person asks an LLM agent from the workspace: it uses a tool, streams, answers with its steps; Stop cuts a long answer; a direct message is answered', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'LLM at work', mods: ['workspace', 'persistence'] });
  const url = started.edge.url;
  const weather = await Agent.connect({ url, network: id, name: 'agent:weather' });
  const invoked = [];
  await weather.registerTool('forecast', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    async (input) => {
      invoked.push(input);
      await pace(1200); // long enough to be seen "using forecast"
      return { city: input.city, sky: 'sunny', high_c: 21 };
    },
    { description: 'The forecast for a city' });
  const helper = await Agent.llm({
    url, network: id, name: 'agent:helper',
    provider: 'openai_chat', baseUrl: provider.openaiBase, model: 'gpt-4o-mini',
    keyVar: 'WEB_LLM_KEY', env: { WEB_LLM_KEY: KEY },
    systemPrompt: 'You are a helpful member of this network.',
    tools: 'all',
    onError: () => {},
  });
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(page, started.edge.url, id);
    await page.evaluate(RECORD_PENDING);
    const me = await page.locator('.me').getAttribute('data-address');
    await createChannelFromNav(page, 'plans');
    await joinCreatedChannel(helper.agent, 'plans');
    // The tool's owner listens in: it hears whatever the LLM agent posts in the channel.
    await weather.joinChannel('plans');
    const helperPosts = [];
    weather.on('workspace.message.posted', (e) => { if (String(e.source) === 'agent:helper') helperPosts.push(e); });

    // A thread, and the question in it, mentioning the agent (the composer puts it in metadata.mentions).
    const list = page.locator('.conversation-column .messages');
    await say(page, 'Trip to Paris on Friday');
    const root = list.locator('.message', { hasText: 'Trip to Paris on Friday' });
    // Sent first: a busy machine may redraw the message as its ack comes, under the click.
    await root.locator('.state', { hasText: 'sent' }).waitFor({ timeout: 10_000 });
    await root.getByRole('link', { name: /^Reply in thread to/ }).click();
    const threadPane = page.getByRole('region', { name: 'Thread' });
    await threadPane.waitFor({ timeout: 10_000 });

    const first = provider.requests.length;
    provider.script('openai', [
      // Streamed slowly, so "is thinking…" lasts long enough to be seen.
      { ...toolCall('forecast', { city: 'Paris' }, { stream: true }), delayMs: 150 },
      slow(ANSWER, { delayMs: 120 }),
    ]);
    await say(page, '@agent:helper what will the weather be on Friday?', threadPane.locator('.composer'));
    const pending = threadPane.locator('.message.answering');
    await pending.waitFor({ timeout: 15_000 });
    assert.match(await pending.locator('.source').getAttribute('data-address'), /agent:helper/);
    await pending.getByText('is using forecast…').waitFor({ timeout: 15_000 });
    await pending.locator('.markdown', { hasText: 'Friday in Paris' }).waitFor({ timeout: 15_000 });
    assert.ok(await pending.getByRole('button', { name: "Stop agent:helper's answer" }).isVisible(), 'Stop for the person who asked');
    assert.equal(await list.locator('.message.answering').count(), 0, 'in the thread pane, not under the conversation');

    // The answer takes the entry's place, in the thread, with its steps folded.
    const answer = threadPane.locator('.message:not(.answering)', { hasText: 'walk along the Seine' });
    await answer.waitFor({ timeout: 20_000 });
    assert.equal(await pending.count(), 0, 'the entry is gone with the answer');
    assert.deepEqual(invoked, [{ city: 'Paris' }], 'the tool ran once, with the model\'s arguments, through the network');

    const states = await page.evaluate(() => window.__pending);
    const doing = states.map((s) => s.doing).filter((d, i, all) => d !== all[i - 1]);
    assert.deepEqual(doing, ['is thinking…', 'is using forecast…', 'is thinking…', 'is writing…'], 'thinking, the tool, thinking again with its result, writing');
    const texts = states.map((s) => s.text).filter((t, i, all) => t && t !== all[i - 1]);
    assert.ok(texts.length >= 3, `the text grew in steps: ${JSON.stringify(texts)}`);
    for (let i = 1; i < texts.length; i += 1) {
      assert.ok(texts[i].startsWith(texts[i - 1]) && texts[i].length > texts[i - 1].length, `grows: ${texts[i - 1]} → ${texts[i]}`);
    }
    assert.ok(texts.every((t) => ANSWER.startsWith(t)), 'each is the beginning of the answer');

    const steps = answer.locator('details.steps');
    const summary = steps.locator('summary');
    assert.equal(await summary.textContent(), 'Used forecast');
    assert.equal(await steps.getAttribute('open'), null, 'folded at first');
    await summary.click();
    assert.equal(await steps.getAttribute('open'), '');
    const items = steps.locator('.step');
    assert.equal(await items.count(), 1);
    assert.match(await items.nth(0).textContent(), /forecast.*✓ ok.*Arguments.*\{"city":"Paris"\}.*Result.*sunny/s);

    const calls = provider.requests.slice(first).filter((r) => r.provider);
    assert.equal(calls.length, 2, 'one call for the tool, one for the answer');
    assert.deepEqual(calls[0].body.tools.map((t) => t.function.name), ['forecast']);
    assert.equal(calls[0].body.messages.at(-1).content, `${me}: @agent:helper what will the weather be on Friday?`);
    assert.match(calls[1].body.messages.at(-1).content, /sunny/, 'the tool\'s result went back to the model');
    const posted = helperPosts.find((e) => e.payload.content === ANSWER);
    assert.ok(posted, 'the answer was posted in the channel');
    assert.ok(posted.metadata.in_reply_to, 'into the thread');
    assert.deepEqual(posted.payload.steps.map((s) => [s.tool, s.arguments, s.ok]), [['forecast', { city: 'Paris' }, true]]);

    await shoot(page, 'llm-agent-steps', async (p) => {
      // No toolbar over the answer: it shows on hover and while focus is within
      // the message (the summary just clicked).
      await p.mouse.move(0, 0);
      await p.evaluate(() => document.activeElement?.blur());
      await items.nth(0).scrollIntoViewIfNeeded();
    });

    // A long answer in the channel, stopped from the page midway.
    await threadPane.getByRole('link', { name: 'Back to the conversation' }).click();
    await threadPane.waitFor({ state: 'detached', timeout: 10_000 });
    const second = provider.requests.length;
    provider.script('openai', [slow(LONG, { delayMs: 250 })]);
    await say(page, '@agent:helper count to a hundred and twenty, slowly');
    const streaming = list.locator('.message.answering');
    await streaming.locator('.markdown', { hasText: 'word3' }).waitFor({ timeout: 15_000 });
    await shoot(page, 'llm-agent-streaming', async (p) => {
      await p.mouse.move(0, 0);
      await streaming.scrollIntoViewIfNeeded();
    });
    const shown = (await streaming.locator('.markdown').textContent()).trim();
    assert.ok(LONG.startsWith(shown) && shown.length > 'word1 word2 word3'.length, `still streaming: ${shown}`);
    await streaming.getByRole('button', { name: "Stop agent:helper's answer" }).click();
    await streaming.waitFor({ state: 'detached', timeout: 10_000 });
    const call = provider.requests.slice(second).find((r) => r.provider);
    await until('the provider to see the stream aborted', () => call.aborted === true, 10_000);
    await expectNothingFor(1000, 'an answer after Stop');
    assert.equal(await list.locator('.message', { hasText: 'word1 word2' }).count(), 0, 'no answer in the page');
    assert.equal(helperPosts.filter((e) => e.payload.content?.startsWith('word1')).length, 0, 'nothing posted after Stop');
    assert.ok(!LONG.endsWith(`${shown}`), 'stopped before the end');

    // A direct message from the page is answered in the direct conversation.
    provider.script('openai', [text('Hello! Yes, I answer direct messages too.')]);
    const third = provider.requests.length;
    await openNetwork(page, started.edge.url, id, '/with/agent:helper');
    await say(page, 'hello helper, are you there?');
    const direct = page.locator('.conversation-column .messages .message:not(.answering)', { hasText: 'I answer direct messages too' });
    await direct.waitFor({ timeout: 15_000 });
    assert.match(await direct.locator('.source').first().getAttribute('data-address'), /agent:helper/);
    const [dmCall] = provider.requests.slice(third).filter((r) => r.provider);
    assert.equal(dmCall.body.messages.at(-1).content, `${me}: hello helper, are you there?`);
    assert.equal(helperPosts.filter((e) => /direct messages/.test(e.payload.content)).length, 0, 'not in the channel');
  } finally {
    await page.close();
    helper.close();
    await weather.close();
  }
});
