// The personal assistant (`Agent.llm({mode: 'assistant'})`, docs/agents.md) end to
// end against the local edge, thinking with the scripted provider: a person
// DMs it "book a table and tell Ann"; it posts its plan, finds two members by
// capability (network.discovery.query), hands each a task, relays the
// booking task's question ("For how many people?") to the person in the same
// DM, passes the person's reply on, and posts ONE answer with links to both
// tasks. Then the same from the workspace in Chromium, with screenshots of
// the delegation thread (assistant-thread-*).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, openNetwork } from '../../support/browser.mjs';
import { collectEvents, nextEvent } from '../../support/events.mjs';
import { shoot } from '../../support/shots.mjs';
import { scriptedProviderForFile, text, toolCall } from '../../support/scripted-provider.mjs';

const KEY = 'sk-test-assistant-2b7e4d9a1c6f3e8b5a0d2c4f6e8a1b3d';
const POSTED = 'workspace.message.posted';
const started = edgeAndBrowser();
const provider = scriptedProviderForFile(KEY);

/** The last tool result the model was sent, parsed when it is JSON. */
function lastResult(request) {
  const content = request.body.messages.at(-1).content;
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/** The model's turns: plan, find each part's agent, hand each part to the first candidate, answer. */
function scriptAssistant() {
  const chosen = [];
  const pick = (instructions) => (request) => {
    const found = lastResult(request);
    const to = found.agents?.[0]?.address ?? 'agent:nobody';
    chosen.push(to);
    return toolCall('delegate', { to, instructions });
  };
  provider.script('openai', [
    toolCall('plan', { steps: ['Book a table for tonight', 'Tell Ann about the booking'] }),
    toolCall('find_agents', { query: 'restaurant booking' }),
    pick('Book a table for tonight at 19:30.'),
    toolCall('find_agents', { query: 'notify messaging' }),
    pick('Tell Ann: we have a table tonight at 19:30 at Chez Marie.'),
    text('Your table for tonight at 19:30 at Chez Marie is booked, and Ann has been told.'),
  ]);
  return chosen;
}

/** Two members with capabilities: a booker that asks how many people, and a notifier. */
async function members(url, network) {
  const booker = await Agent.connect({ url, network, name: 'agent:booker' });
  await booker.setProfile({
    description: 'Books tables at restaurants',
    meta: { skills: [{ id: 'restaurant-booking', name: 'restaurant booking', description: 'Books a table at a restaurant', tags: ['restaurant', 'booking'] }] },
  });
  const inputs = [];
  booker.onTask(async (task) => {
    const answer = await task.askInput('For how many people?');
    inputs.push(answer.text);
    return `Booked a table for ${answer.text} tonight at 19:30 at Chez Marie.`;
  });
  const notify = await Agent.connect({ url, network, name: 'agent:notify' });
  await notify.setProfile({
    description: 'Tells people things',
    meta: { skills: [{ id: 'notify', name: 'messaging', description: 'Sends a person a message', tags: ['notify', 'messaging'] }] },
  });
  const told = [];
  notify.onTask((task) => {
    told.push(task.text);
    return 'Ann was told.';
  });
  const weather = await Agent.connect({ url, network, name: 'agent:weather' });
  await weather.setProfile({ description: 'Forecasts the weather', meta: { skills: [{ id: 'forecast', name: 'forecast', tags: ['weather'] }] } });
  return { inputs, told, close: () => [booker, notify, weather].forEach((a) => a.close()) };
}

function assistant(url, network) {
  return Agent.llm({
    url, network, name: 'agent:assistant', mode: 'assistant',
    ...provider.openaiMember('ASSISTANT_KEY'),
    systemPrompt: 'You work for the people of this network.',
  });
}

test('a person DMs the assistant: plan, two agents found by capability, two tasks, a question relayed in the DM, one answer with both links', async () => {
  const url = started.edge.url;
  const { id: network } = await createNetwork(url, { name: 'assistant', mods: ['workspace', 'persistence'] });
  const team = await members(url, network);
  const helper = await assistant(url, network);
  const ann = await Agent.connect({ url, network, name: 'human:ann' });
  try {
    const fromAssistant = collectEvents(ann, POSTED);
    const first = provider.requests.length;
    const chosen = scriptAssistant();
    const request = await ann.send('agent:assistant', POSTED, { content: 'book a table and tell Ann' });

    const question = await nextEvent(ann, POSTED, (e) => e.payload?.progress?.kind === 'question', { timeoutMs: 60_000 });
    assert.equal(question.target, 'human:ann', 'in the same DM');
    assert.equal(question.payload.progress.from, 'agent:booker');
    assert.match(question.payload.content, /For how many people\?/);
    await ann.send('agent:assistant', POSTED, { content: '4 people' });

    const answer = await nextEvent(ann, POSTED, (e) => e.payload?.answers === request.id, { timeoutMs: 60_000 });
    assert.deepEqual(chosen, ['agent:booker', 'agent:notify'], 'each part went to the agent found for it');
    assert.deepEqual(team.inputs, ['4 people'], "the person's reply was the task's input");
    assert.deepEqual(team.told, ['Tell Ann: we have a table tonight at 19:30 at Chez Marie.']);

    // The DM, in order: the plan, each task handed out, the question, then one answer.
    const mine = fromAssistant.filter((e) => e.source === 'agent:assistant');
    const kinds = mine.map((e) => e.payload.progress?.kind ?? (e.payload.answers ? 'answer' : 'other'));
    assert.deepEqual(kinds, ['plan', 'delegated', 'question', 'delegated', 'answer']);
    assert.ok(mine.every((e) => e.target === 'human:ann'), 'all in the DM');
    assert.match(mine[0].payload.content, /1\. Book a table for tonight\n2\. Tell Ann about the booking/);
    const tasks = mine.filter((e) => e.payload.progress?.kind === 'delegated').map((e) => e.payload.progress);
    assert.deepEqual(tasks.map((t) => t.to), ['agent:booker', 'agent:notify']);
    assert.equal(mine.filter((e) => e.payload.answers).length, 1, 'one answer');
    assert.match(answer.payload.content, /^Your table for tonight at 19:30 at Chez Marie is booked, and Ann has been told\.\n\n\*\*Tasks\*\*/);
    for (const t of tasks) {
      assert.equal(t.url, `${url}/n/${network}/tasks/${t.task}`);
      assert.ok(answer.payload.content.includes(`](${t.url}) — completed`), `a link to ${t.task} in the answer`);
    }
    assert.deepEqual(answer.payload.steps.map((s) => [s.tool, s.ok]), [['plan', true], ['find_agents', true], ['delegate', true], ['find_agents', true], ['delegate', true]]);

    // The tasks are the network's: both completed, given by the assistant.
    const { tasks: given } = await helper.agent.listTasks();
    for (const t of tasks) assert.equal(given.find((g) => g.id === t.task)?.state, 'completed');
    // The person they were for reads them too (what the links open), without taking part.
    const { tasks: hers } = await ann.listTasks();
    assert.deepEqual(hers.map((t) => t.id).sort(), tasks.map((t) => t.task).sort());
    assert.ok(hers.every((t) => t.on_behalf_of === 'human:ann' && t.requester === 'agent:assistant'));

    // The model saw the candidates found by capability and the tasks' outcomes.
    const calls = provider.requests.slice(first).filter((r) => r.provider);
    assert.equal(calls.length, 6);
    assert.deepEqual(calls[0].body.tools.map((t) => t.function.name), ['plan', 'find_agents', 'delegate']);
    assert.match(calls[0].body.messages[0].content, /personal assistant/);
    const candidates = lastResult(calls[2]).agents.map((a) => a.address);
    assert.equal(candidates[0], 'agent:booker');
    assert.ok(!candidates.includes('agent:weather') && !candidates.includes('agent:assistant'));
    assert.match(lastResult(calls[3]).answer, /Booked a table for 4 people/);
  } finally {
    helper.close();
    ann.close();
    team.close();
  }
});

test('the delegation thread in the workspace: the person answers the relayed question from the page (screenshots)', async () => {
  const url = started.edge.url;
  const { id: network } = await createNetwork(url, { name: 'Assistant at work', mods: ['workspace', 'persistence'] });
  const team = await members(url, network);
  const helper = await assistant(url, network);
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(page, url, network, '/with/agent:assistant');
    scriptAssistant();
    const composer = page.locator('.conversation-column .composer');
    const say = async (words) => {
      await composer.getByRole('textbox').fill(words);
      await composer.getByRole('button', { name: 'Send' }).click();
    };
    await say('book a table and tell Ann');
    const list = page.locator('.conversation-column .messages');
    await list.locator('.message', { hasText: 'For how many people?' }).waitFor({ timeout: 60_000 });
    await say('4 people');
    const answer = list.locator('.message:not(.answering)', { hasText: 'Ann has been told' });
    await answer.waitFor({ timeout: 60_000 });
    assert.equal(await answer.locator('.markdown a[href*="/tasks/"]').count(), 2, 'a link to each task');
    const plan = list.locator('.message .markdown', { hasText: 'Tell Ann about the booking' });
    assert.equal(await plan.count(), 1);
    assert.equal(await list.locator('.message .markdown', { hasText: 'Asked agent:booker' }).count(), 1);
    assert.deepEqual(team.inputs, ['4 people']);
    await shoot(page, 'assistant-thread', async (p) => {
      await p.mouse.move(0, 0);
      await answer.scrollIntoViewIfNeeded();
    });
  } finally {
    await page.close();
    helper.close();
    team.close();
  }
});
