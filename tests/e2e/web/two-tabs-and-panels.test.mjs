// Two tabs of the same workspace (one browser profile) stay consistent: what
// one posts shows in the other, with its state; what arrives shows in both.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { edgeAndBrowser, openResource, openWorkspace, refreshedResource } from '../../support/browser.mjs';
import { startNode } from '../../support/process.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shoot } from '../../support/shots.mjs';
import { until, expectNothingFor, waitOut } from '../../support/waits.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const started = edgeAndBrowser();

/** Runs `body` with a page open on the edge's workspace, closed after. */
async function withWorkspacePage(body) {
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await openWorkspace(page, started.edge.url);
    await body(page);
  } finally {
    await page.close();
  }
}

test('two tabs show the same conversation and the network gets each message once', async () => {
  const agent = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:listener' });
  const heard = [];
  agent.on('workspace.message.posted', (event) => heard.push(event));
  const context = await started.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const [first, second] = [await context.newPage(), await context.newPage()];
  try {
    for (const tab of [first, second]) {
      await openWorkspace(tab, started.edge.url);
    }
    const me = (await first.locator('.me').getAttribute('data-address')).trim();
    assert.equal((await second.locator('.me').getAttribute('data-address')).trim(), me, 'both tabs are the same person');

    const box = first.getByRole('textbox', { name: 'Message' });
    await box.fill('typed in the first tab');
    await box.press('Enter');
    for (const tab of [first, second]) {
      await tab.locator('.message', { hasText: 'typed in the first tab' }).locator('.state', { hasText: 'sent' }).waitFor({ timeout: 10_000 });
    }

    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'to everyone' });
    for (const tab of [first, second]) {
      await tab.locator('.message', { hasText: 'to everyone' }).waitFor({ timeout: 10_000 });
    }
    await until('the listener hears the tab', () => heard.length >= 1);
    await expectNothingFor(300, 'the message sent twice');
    assert.deepEqual(heard.filter((e) => e.source === me).map((e) => e.payload.content), ['typed in the first tab']);
    assert.equal(await second.locator('.message', { hasText: 'typed in the first tab' }).count(), 1);
  } finally {
    agent.close();
    await context.close();
  }
});

test('the people panel shows members with their address, no "unverified" on everyone, and presence changes live', () =>
  withWorkspacePage(async (page) => {
    const people = page.getByRole('complementary', { name: 'People' });
    const me = (await page.locator('.me').getAttribute('data-address')).trim();
    await people.locator(`.person[data-address="${me}"][data-status="online"]`).waitFor({ timeout: 10_000 });

    const visitor = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:visitor' });
    const row = people.locator('.person[data-address="agent:visitor"]');
    await row.and(page.locator('[data-status="online"]')).waitFor({ timeout: 10_000 });
    assert.equal((await row.locator('.details').textContent()).trim(), 'agent:visitor');
    assert.equal(await row.locator('.badge.verified').count(), 0, 'an unverified member carries no badge, and no word');
    assert.equal((await row.locator('.agent-badge').textContent()).trim(), 'Agent');
    visitor.close();
    await row.and(page.locator('[data-status="offline"]')).waitFor({ timeout: 15_000 });
    await shoot(page, 'workspace-people');
  }));

test('the inspector lists every event, filters by type and source, and opens the JSON', async () => {
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 720 } });
  const agent = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:tooling' });
  try {
    await openWorkspace(page, started.edge.url);
    await agent.send('agent:broadcast', 'tool.call.started', { tool: 'search', query: 'agents' });
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'a chat line' });
    await page.locator('.message', { hasText: 'a chat line' }).waitFor({ timeout: 10_000 });

    await page.getByRole('link', { name: 'Inspector' }).click();
    const inspector = page.getByRole('region', { name: 'Event inspector' });
    // The inspector replaces the conversation; the people panel stays beside it.
    await page.getByRole('textbox', { name: 'Message' }).waitFor({ state: 'hidden' });
    const [insp, people] = [await inspector.boundingBox(), await page.getByRole('complementary', { name: 'People' }).boundingBox()];
    assert.ok(people.x > insp.x + insp.width - 1 && people.y < insp.y + 50, 'the people panel is beside the inspector');
    await inspector.locator('.event[data-type="tool.call.started"]').waitFor();
    await inspector.getByRole('textbox', { name: 'Type' }).fill('tool.*');
    await inspector.locator('.count', { hasText: '1 shown' }).waitFor();
    await inspector.getByRole('textbox', { name: 'Source' }).fill('agent:nobody');
    await inspector.locator('.count', { hasText: '0 shown' }).waitFor();
    await inspector.getByRole('textbox', { name: 'Source' }).fill('tooling');
    const row = inspector.locator('.event', { hasText: 'tool.call.started' });
    await row.locator('summary').click();
    const json = JSON.parse(await row.locator('.json').textContent());
    assert.deepEqual(json.payload, { tool: 'search', query: 'agents' });
    assert.equal(json.source, 'agent:tooling');

    // Live: a new event appears while the inspector is open.
    await agent.send('agent:broadcast', 'tool.call.finished', { tool: 'search' });
    await inspector.locator('.event[data-type="tool.call.finished"]').waitFor({ timeout: 10_000 });
    await shoot(page, 'workspace-inspector');
    await page.getByRole('link', { name: 'Conversation' }).click();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
  } finally {
    agent.close();
    await page.close();
  }
});

test('a tool is invoked from a form built from its schema; results and errors show in words', async () => {
  const calculator = await startNode([join(root, 'core', 'js', 'examples', 'calculator.js')], {
    env: { AGENTNET_URL: started.edge.url, AGENTNET_NETWORK: 'demo', AGENTNET_NAME: 'agent:calc-owner' }, ready: /calculator ready/,
  });
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await openWorkspace(page, started.edge.url);
    const item = await refreshedResource(page, 'resource/tool/calculator');
    assert.match(await item.locator('.details').textContent(), /tool · by agent:calc-owner · you may .*invoke/);

    const form = item.getByRole('form', { name: 'Invoke resource/tool/calculator' });
    await form.getByLabel('op (required)').selectOption('multiply');
    await form.getByLabel('a (required)').fill('6');
    await form.getByLabel('b (required)').fill('7');
    await form.getByRole('button', { name: 'Invoke' }).click();
    await item.locator('.outcome .result-text', { hasText: /^42$/ }).waitFor({ timeout: 10_000 });

    await form.getByLabel('op (required)').selectOption('divide');
    await form.getByLabel('b (required)').fill('0');
    await form.getByRole('button', { name: 'Invoke' }).click();
    await item.locator('.outcome.error', { hasText: 'division by zero' }).waitFor({ timeout: 10_000 });

    await form.getByLabel('a (required)').fill('');
    await form.getByRole('button', { name: 'Invoke' }).click();
    await item.getByRole('alert').filter({ hasText: 'Please fill in a.' }).waitFor();
    // However long the side panels get, the message box stays on screen.
    const composer = await page.getByRole('textbox', { name: 'Message' }).boundingBox();
    assert.ok(composer && composer.y + composer.height <= 720, `the message box is visible: ${JSON.stringify(composer)}`);
    await shoot(page, 'workspace-tool');
  } finally {
    await page.close();
    await calculator.stop();
  }
});

test('channels and direct conversations: create, join, post, and each message stays in its conversation', async () => {
  const listener = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:channel-listener' });
  const heard = [];
  listener.on('workspace.message.posted', (event) => heard.push(event));
  const [ann, bob] = [await started.browser.newContext(), await started.browser.newContext()].map((c) => c);
  const [pa, pb] = [await ann.newPage({ viewport: { width: 1280, height: 720 } }), await bob.newPage({ viewport: { width: 1280, height: 720 } })];
  try {
    for (const page of [pa, pb]) {
      await openWorkspace(page, started.edge.url);
    }
    const annName = (await pa.locator('.me').getAttribute('data-address')).trim();
    const bobName = (await pb.locator('.me').getAttribute('data-address')).trim();
    const channel = `planning-${Date.now() % 100000}`;

    // Ann creates a channel and is in it at once.
    const annNav = pa.getByRole('navigation', { name: 'Conversations' });
    await annNav.getByLabel('New channel').fill(channel);
    await annNav.getByRole('button', { name: 'Create' }).click();
    await annNav.getByRole('link', { name: `# ${channel}` }).and(pa.locator('[aria-current="page"]')).waitFor();

    // Bob finds it after a refresh and joins by opening it.
    await pb.getByRole('region', { name: 'Resources' }).getByRole('button', { name: 'Refresh' }).click();
    const bobNav = pb.getByRole('navigation', { name: 'Conversations' });
    await bobNav.getByRole('link', { name: `# ${channel}` }).click();
    await waitOut(300, 'the join reaching the network before Ann posts (the page shows no sign of it)');

    const annBox = pa.getByRole('textbox', { name: 'Message' });
    await annBox.fill('in the channel');
    await annBox.press('Enter');
    await pb.locator('.message', { hasText: 'in the channel' }).waitFor({ timeout: 10_000 });
    await bobNav.getByRole('link', { name: 'Everyone' }).click();
    assert.equal(await pb.locator('.message', { hasText: 'in the channel' }).count(), 0, 'not in Everyone');

    // Bob opens a direct conversation with Ann from the people panel.
    await pb.getByRole('complementary', { name: 'People' }).locator(`.person[data-address="${annName}"] a.name`).click();
    const bobBox = pb.getByRole('textbox', { name: 'Message' });
    await bobBox.fill('just for you');
    await bobBox.press('Enter');
    await pb.locator('.message', { hasText: 'just for you' }).locator('.state', { hasText: 'sent' }).waitFor({ timeout: 10_000 });
    // The sidebar names Bob as People does (his display name), the header by his whole address.
    await annNav.getByRole('link', { name: bobName.replace(/^human:/, '') }).click({ timeout: 10_000 });
    await pa.locator('.conversation-header .address', { hasText: bobName }).waitFor();
    await pa.locator('.message', { hasText: 'just for you' }).waitFor({ timeout: 10_000 });

    // The listener (in neither conversation) heard neither.
    await expectNothingFor(300, 'the listener hearing either');
    assert.deepEqual(heard.filter((e) => [annName, bobName].includes(e.source)), []);
    await shoot(pa, 'workspace-direct');
  } finally {
    listener.close();
    await ann.close();
    await bob.close();
  }
});

test('threads, mentions and status updates with a JS agent', async () => {
  const helper = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:helper' });
  const asked = [];
  helper.on('workspace.message.posted', async (event) => {
    asked.push(event);
    if (event.payload.content.startsWith('question')) {
      await helper.send('agent:broadcast', 'workspace.message.status', { status: 'thinking about it' });
      await helper.send('agent:broadcast', 'workspace.message.posted', { content: 'the answer is 42' }, { metadata: { in_reply_to: event.id } });
    }
  });
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await openWorkspace(page, started.edge.url);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('question for @agent:helper, please');
    await box.press('Enter');
    // The agent's status update; its answer in the thread of the question (counted under it).
    await page.locator('.status-update', { hasText: 'thinking about it' }).waitFor({ timeout: 10_000 });
    const questionLine = page.locator('.conversation-column .message', { hasText: 'question for' });
    await questionLine.locator('mark.mention', { hasText: '@agent:helper' }).waitFor();
    assert.equal(await questionLine.locator('mark.mention').textContent(), '@agent:helper');
    await questionLine.locator('.thread-link', { hasText: '1 reply' }).click({ timeout: 10_000 });
    const threadPane = page.getByRole('region', { name: 'Thread' });
    await threadPane.locator('.message', { hasText: 'the answer is 42' }).waitFor({ timeout: 10_000 });
    const question = asked.find((e) => e.payload.content.startsWith('question'));
    assert.deepEqual(question.metadata.mentions, ['agent:helper']);

    // Replying in the thread answers the thread's first message.
    const threadBox = threadPane.getByRole('textbox', { name: 'Thread reply' });
    await threadBox.fill('thanks');
    await threadBox.press('Enter');
    await threadPane.locator('.message', { hasText: 'thanks' }).waitFor();
    await until('the agent hears the thanks', () => asked.some((e) => e.payload.content === 'thanks'), 5_000);
    const thanks = asked.find((e) => e.payload.content === 'thanks');
    assert.equal(thanks.metadata.in_reply_to, question.id);
    assert.equal(await page.locator('.conversation-column .message', { hasText: 'thanks' }).count(), 0, 'not repeated in the conversation');
    await shoot(page, 'workspace-thread');
  } finally {
    helper.close();
    await page.close();
  }
});

test('files and contexts open in the resources panel; a writable context is edited and saved', async () => {
  const owner = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:librarian' });
  const stamp = Date.now() % 100000;
  await owner.registerFile(`notes/plan-${stamp}.md`, '# the plan', { contentType: 'text/markdown' });
  await owner.registerContext(`brief-${stamp}`, { goal: 'ship' }, { permissions: { write: 'network' } });
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 720 } });
  try {
    await openWorkspace(page, started.edge.url);
    const resources = page.getByRole('region', { name: 'Resources' });
    await resources.getByRole('button', { name: 'Refresh' }).click();

    const { item: file, text: fileText } = await openResource(resources, `resource/file/notes/plan-${stamp}.md`);
    // A text file is a live document: its text arrives by sync, after the editor opens.
    await until('the file shows its text', async () => (await fileText.inputValue()) === '# the plan', 10_000);
    assert.equal(await fileText.getAttribute('readonly'), '', 'only the owner may write the file');
    assert.equal(await file.getByRole('button', { name: 'Save' }).count(), 0);

    const { item: context, text: contextText } = await openResource(resources, `resource/context/brief-${stamp}`);
    assert.deepEqual(JSON.parse(await contextText.inputValue()), { goal: 'ship' });
    await contextText.fill('{not json');
    await context.getByRole('button', { name: 'Save' }).click();
    await context.getByRole('alert').filter({ hasText: 'A context is JSON' }).waitFor();
    await contextText.fill('{"goal": "ship it"}');
    await context.getByRole('button', { name: 'Save' }).click();
    await context.getByRole('status').filter({ hasText: 'Saved.' }).waitFor({ timeout: 10_000 });
    assert.deepEqual((await owner.read(`resource/context/brief-${stamp}`)).content, { goal: 'ship it' });
  } finally {
    await page.close();
    owner.close();
  }
});

test('a message the network refuses shows its reason and is not sent again', () =>
  withWorkspacePage(async (page) => {
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(`huge ${'x'.repeat(600 * 1024)}`);
    await box.press('Enter');
    const refused = page.locator('.message', { hasText: 'huge' }).locator('.state', { hasText: 'not delivered:' });
    await refused.waitFor({ timeout: 10_000 });
    assert.match(await refused.textContent(), /payload|large|limit/i);
    // Nothing stays queued.
    await page.getByRole('status').filter({ hasText: /^online$/ }).waitFor();
  }));
