// Accessibility of every main screen of the workspace, checked
// with axe-core in Chromium, in the light and the dark colour scheme: no
// serious or critical violation on the loading shell, a failed load, the
// conversation (everyone, a channel, a thread), the network bar's join
// form, the inspector at an event, the tasks and a task, a document, the
// network's profile and a path that names nothing.

import { test } from 'node:test';
import { Agent } from '../../../core/js/index.js';
import { edgeAndBrowser, openWorkspace, postAndWaitSent } from '../../support/browser.mjs';
import { assertAccessibleInBothSchemes } from '../../support/axe.mjs';

const started = edgeAndBrowser();

test('the loading shell and a failed load are accessible', async () => {
  const context = await started.browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/pkg/agentnet_web_bg.wasm', async (route) => { await held; await route.continue(); });
    await page.goto(`${started.edge.url}/n/demo`);
    await page.getByRole('status').filter({ hasText: 'Loading the workspace' }).waitFor();
    await assertAccessibleInBothSchemes(page, 'the loading shell');
    release();

    const broken = await context.newPage();
    await broken.route('**/pkg/agentnet_web_bg.wasm', (route) => route.abort());
    await broken.goto(`${started.edge.url}/n/demo`);
    await broken.getByRole('alert').filter({ hasText: 'could not load' }).waitFor({ timeout: 10_000 });
    await assertAccessibleInBothSchemes(broken, 'a failed load');
  } finally {
    await context.close();
  }
});

test('every main screen of the workspace is accessible', async () => {
  const helper = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:helper' });
  helper.onTask(async (task) => {
    await task.progress('on it');
    const which = await task.askInput('Which notes?');
    await task.artifact('summary', `A short summary of ${which.text}.`);
    return 'done';
  });
  await helper.registerFile('a11y-notes.md', '# Notes\n', { contentType: 'text/markdown', permissions: { write: 'network' } });
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await openWorkspace(page, started.edge.url);
    const { message: mine, id } = await postAndWaitSent(page, 'hello @agent:helper');
    await helper.send('agent:broadcast', 'workspace.message.posted', { content: 'hi there' }, { metadata: { in_reply_to: id } });
    await helper.send('agent:broadcast', 'workspace.message.status', { status: 'thinking' });
    // The answer stays in the thread: the message counts it.
    await mine.locator('.thread-link', { hasText: '1 reply' }).waitFor({ timeout: 10_000 });
    await assertAccessibleInBothSchemes(page, 'the conversation with everyone');

    await page.getByRole('navigation', { name: 'Networks' }).locator('summary').click();
    await assertAccessibleInBothSchemes(page, 'the join form');

    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('textbox', { name: 'New channel' }).fill('a11y');
    await nav.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/channel/a11y');
    await assertAccessibleInBothSchemes(page, 'a channel');

    await page.goto(`${started.edge.url}/n/demo/thread/${id}`);
    await page.getByRole('region', { name: 'Thread' }).locator('.message', { hasText: 'hi there' }).waitFor({ timeout: 15_000 });
    await assertAccessibleInBothSchemes(page, 'a thread');

    await page.goto(`${started.edge.url}/n/demo/event/${id}`);
    await page.locator(`.event[data-id="${id}"] details[open]`).waitFor({ timeout: 15_000 });
    await assertAccessibleInBothSchemes(page, 'the inspector at an event');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Tasks' }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    await tasks.getByRole('combobox', { name: 'Partner' }).selectOption('agent:helper');
    await tasks.getByRole('textbox', { name: 'Task' }).fill('summarise the notes');
    await tasks.getByRole('button', { name: 'Start task' }).click();
    await tasks.locator('.task-card').getByRole('status').filter({ hasText: 'awaiting-input' }).waitFor({ timeout: 15_000 });
    await assertAccessibleInBothSchemes(page, 'a task awaiting input');
    await tasks.getByRole('textbox', { name: /Your answer/ }).fill('the a11y notes');
    await tasks.getByRole('button', { name: 'Send' }).click();
    await tasks.locator('.task-card').getByRole('status').filter({ hasText: 'completed' }).waitFor({ timeout: 15_000 });
    await assertAccessibleInBothSchemes(page, 'a finished task');
    await tasks.getByRole('link', { name: 'All tasks' }).click();
    await tasks.locator('.task').first().waitFor();
    await assertAccessibleInBothSchemes(page, 'the tasks');

    await page.goto(`${started.edge.url}/n/demo/document/resource/file/a11y-notes.md`);
    const text = page.getByRole('region', { name: 'Document' }).getByRole('textbox', { name: /Content of/ });
    await text.waitFor({ timeout: 15_000 });
    await assertAccessibleInBothSchemes(page, 'a document');

    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'About' }).click();
    const about = page.getByRole('region', { name: 'About this network' });
    await about.locator('.about-summary').waitFor({ timeout: 10_000 });
    await about.getByText('Protocol details').click();
    await about.locator('dl').waitFor();
    await assertAccessibleInBothSchemes(page, 'the network\'s profile');

    await page.goto(`${started.edge.url}/n/demo/nowhere`);
    await page.getByRole('alert').filter({ hasText: 'nothing at this address' }).waitFor();
    await assertAccessibleInBothSchemes(page, 'a path that names nothing');
  } finally {
    helper.close();
    await page.close();
  }
});
