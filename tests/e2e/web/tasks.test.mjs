// Tasks in the web workspace: the person starts a task at an npm
// agent, the page shows it working, its conversation, the agent's question
// (answered from the page), its artifact (opened as the network document it
// is) and its completion; another task is cancelled from the page and the
// agent sees it. The agent reads the same
// tasks with `listTasks` (the core's `task.list`). The partner is picked from
// the members who take tasks; a task to a member that takes none
// is refused at once, in words; an artifact's page is titled by its name.
// A person at a browser takes no tasks (the page's join says so), so a task
// to one is refused at once with `takes_no_tasks` and no picker offers them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { edgeAndBrowser, openWorkspace } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { shootScreen } from '../../support/shots.mjs';

const started = edgeAndBrowser();

test('the page follows a task an agent works, opens its artifact, and cancels another', async () => {
  const worker = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:worker' });
  let finishReport;
  const reportMayFinish = new Promise((resolve) => { finishReport = resolve; });
  const canceled = [];
  let startBurst;
  const burstMayStart = new Promise((resolve) => { startBurst = resolve; });
  worker.onTask(async (task) => {
    if (task.text.startsWith('write')) {
      await task.progress('drafting the report');
      await reportMayFinish;
      const format = await task.askInput('Which format?');
      await task.artifact('report', `The report (${format.text}): all good.`);
      return 'done: see the report';
    }
    await task.progress('waiting for you');
    await burstMayStart;
    await Promise.all(Array.from({ length: 40 }, (_, i) => task.progress(`step ${i + 1}`)));
    await until('the task to be cancelled', () => task.canceled, 60_000);
    canceled.push(task.id);
    return undefined;
  });
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await openWorkspace(page, started.edge.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Tasks' }).click();
    await page.waitForURL('**/n/demo/tasks');
    const tasks = page.getByRole('region', { name: 'Tasks' });

    // Start one: the page opens it and follows the agent's progress.
    await tasks.getByRole('combobox', { name: 'Partner' }).selectOption('agent:worker');
    await tasks.getByRole('textbox', { name: 'Task' }).fill('write the report');
    await tasks.getByRole('button', { name: 'Start task' }).click();
    await page.waitForURL(/\/n\/demo\/tasks\/[0-9A-Z]{26}$/);
    const reportUrl = page.url();
    const card = tasks.locator('.task-card');
    await card.getByRole('status').filter({ hasText: 'State: working' }).waitFor({ timeout: 10_000 });
    const conversation = card.getByRole('list', { name: 'Task conversation' });
    await conversation.getByText('write the report').waitFor();
    await conversation.getByText('drafting the report').waitFor({ timeout: 10_000 });
    await card.getByText('None yet.').waitFor();

    // The agent asks; the person answers from the page, and the task goes on.
    finishReport();
    await card.getByRole('status').filter({ hasText: 'State: awaiting-input' }).waitFor({ timeout: 10_000 });
    await conversation.getByText('Which format?').waitFor();
    const answer = tasks.getByRole('textbox', { name: 'Your answer (the task waits for it)' });
    await answer.fill('markdown');
    await answer.press('Enter');
    await card.getByRole('status').filter({ hasText: 'State: completed' }).waitFor({ timeout: 10_000 });
    await conversation.getByText('markdown').waitFor();
    await conversation.getByText('done: see the report').waitFor();
    assert.equal(await card.getByRole('button', { name: 'Cancel task' }).count(), 0, 'a finished task cannot be cancelled');
    assert.equal(await tasks.getByRole('button', { name: 'Send' }).count(), 0, 'nor added to');

    // Its artifact is a document of the network, on its own page.
    await card.getByRole('list', { name: 'Artifacts' }).getByRole('link', { name: 'report' }).click();
    await page.waitForURL(/\/n\/demo\/document\/resource\/file\/tasks\/[0-9A-Z]{26}\/artifact-1$/);
    const text = page.getByRole('region', { name: 'Document' }).getByRole('textbox', { name: /Content of/ });
    await until('the artifact\'s text', async () => (await text.inputValue().catch(() => '')) === 'The report (markdown): all good.');
    assert.equal(await text.getAttribute('readonly'), '', 'the requester reads the artifact, the partner wrote it');
    // Titled by its name, said to be read-only, with the way back to its task.
    const documentPage = page.getByRole('region', { name: 'Document' });
    await documentPage.getByRole('heading', { level: 2, name: 'report', exact: true }).waitFor();
    const note = documentPage.getByRole('note');
    assert.match(await note.textContent(), /^Read only.*change it/);
    await documentPage.getByRole('link', { name: 'write the report' }).waitFor();
    await shootScreen(page, 'documents-artifact-read-only');
    await page.goBack();
    await page.waitForURL(reportUrl);
    await card.getByRole('status').filter({ hasText: 'State: completed' }).waitFor();
    await shootScreen(page, 'tasks-detail');

    // Another, cancelled from the page: the agent hears it, both pages agree.
    await tasks.getByRole('link', { name: 'All tasks' }).click();
    await page.waitForURL('**/n/demo/tasks');
    await tasks.getByRole('combobox', { name: 'Partner' }).selectOption('agent:worker');
    await tasks.getByRole('textbox', { name: 'Task' }).fill('wait for me');
    await tasks.getByRole('button', { name: 'Start task' }).click();
    await page.waitForURL((url) => /\/tasks\/[0-9A-Z]{26}$/.test(url.pathname) && url.href !== reportUrl);
    const waitingId = page.url().split('/').at(-1);
    await card.getByRole('list', { name: 'Task conversation' }).getByText('waiting for you').waitFor({ timeout: 10_000 });

    // A burst of progress shows whole, without a read of the list per message.
    startBurst();
    await card.getByRole('list', { name: 'Task conversation' }).getByText('step 40', { exact: true }).waitFor({ timeout: 10_000 });
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Inspector' }).click();
    const inspector = page.getByRole('region', { name: 'Event inspector' });
    await inspector.getByRole('textbox', { name: 'Type' }).fill('task.message');
    const progress = Number((await inspector.locator('.count').textContent()).split(' ')[0]);
    await inspector.getByRole('textbox', { name: 'Type' }).fill('task.list.response');
    const listings = Number((await inspector.locator('.count').textContent()).split(' ')[0]);
    console.log(`task.list reads: ${listings} for ${progress} task messages`);
    assert.ok(progress >= 40, `${progress} progress messages arrived`);
    assert.ok(listings < progress / 2, `${listings} listings read for ${progress} messages`);
    await page.goBack();
    await page.waitForURL(`**/tasks/${waitingId}`);
    await card.getByRole('button', { name: 'Cancel task' }).click();
    await card.getByRole('status').filter({ hasText: 'State: canceled' }).waitFor({ timeout: 10_000 });
    await until('the agent sees the cancel', () => canceled.includes(waitingId));

    // The list: both, newest change first, with their states; a reload keeps the place.
    await tasks.getByRole('link', { name: 'All tasks' }).click();
    const list = tasks.getByRole('list', { name: 'Your tasks' });
    await list.locator(`.task[data-id="${waitingId}"][data-state="canceled"]`).waitFor();
    await list.locator('.task[data-state="completed"]', { hasText: 'write the report' }).waitFor();
    assert.equal(await list.locator('.task').first().getAttribute('data-id'), waitingId);
    await page.goto(reportUrl);
    await tasks.locator('.task-card').getByRole('status').filter({ hasText: 'State: completed' }).waitFor({ timeout: 15_000 });

    // The agent reads the same tasks through the npm package.
    const listed = await worker.listTasks();
    const states = Object.fromEntries(listed.tasks.map((t) => [t.id, t.state]));
    assert.equal(states[waitingId], 'canceled');
    assert.equal(listed.tasks.find((t) => t.state === 'completed')?.artifacts[0]?.name, 'report');
    const onlyCanceled = await worker.listTasks({ state: 'canceled' });
    assert.deepEqual(onlyCanceled.tasks.map((t) => t.id), [waitingId]);
    await assert.rejects(worker.listTasks({ limit: 0 }), /limit/);
  } finally {
    worker.close();
    await page.close();
  }
});

test('the partner is picked from the members who take tasks; a task to one that takes none is refused at once', async () => {
  const connect = (name) => Agent.connect({ url: started.edge.url, network: 'demo', name });
  const helper = await connect('agent:helper');
  const idle = await connect('agent:idle');
  const flaky = await connect('agent:flaky');
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    // agent:idle never registers a task handler, so its join says it takes none.
    for (const agent of [helper, flaky]) {
      agent.onTask(async () => 'done');
      await agent.send('core', 'network.agent.profile', { tasks: true });
    }
    await openWorkspace(page, started.edge.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Tasks' }).click();
    const tasks = page.getByRole('region', { name: 'Tasks' });
    const picker = tasks.getByRole('combobox', { name: 'Partner' });
    const offered = () => picker.locator('optgroup[label="Members who take tasks"] option')
      .evaluateAll((options) => options.map((o) => o.value));
    await until('the picker to offer the helpers', async () => {
      const values = await offered();
      return values.includes('agent:helper') && values.includes('agent:flaky');
    });
    const values = await offered();
    assert.ok(!values.includes('agent:idle'), `a member that takes no tasks is not offered: ${values}`);
    assert.ok(values.every((v) => !v.startsWith('human:')), `people at a browser are not offered: ${values}`);
    await shootScreen(page, 'tasks-picker');

    // agent:flaky changes its mind after the page read the roster: the network refuses at once.
    await flaky.send('core', 'network.agent.profile', { tasks: false });
    await picker.selectOption('agent:flaky');
    await tasks.getByRole('textbox', { name: 'Task' }).fill('review the plan');
    const asked = Date.now();
    await tasks.getByRole('button', { name: 'Start task' }).click();
    const refusal = tasks.getByRole('alert').filter({ hasText: 'agent:flaky does not take tasks' });
    await refusal.waitFor({ timeout: 5_000 });
    console.log(`refused after ${Date.now() - asked} ms`);
    assert.match(await refusal.textContent(), /its profile says so/);
    assert.match(page.url(), /\/n\/demo\/tasks$/, 'no task opened');
    assert.ok(!(await offered()).includes('agent:flaky'), 'the refused member is no longer offered');
    assert.equal((await flaky.listTasks()).tasks.length, 0, 'no task was left accepted');
    await shootScreen(page, 'tasks-refused');
  } finally {
    for (const agent of [helper, idle, flaky]) agent.close();
    await page.close();
  }
});

test('a person at a browser takes no tasks: the join says so, a task to them is refused at once and no picker offers them', async () => {
  const name = `human:no-tasks-${process.pid}`;
  const context = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
  await context.addInitScript((name) => localStorage.setItem('agentnet:name:demo', name), name);
  const person = await context.newPage();
  const boss = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:boss' });
  const other = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openWorkspace(person, started.edge.url);
    // What the network knows of the person: their profile says they take none.
    const roster = await boss.discover();
    const member = roster.agents.find((a) => (a.address ?? a.agent_id ?? a.id) === name);
    assert.ok(member, `${name} is in the roster: ${JSON.stringify(roster.agents.map((a) => a.address ?? a.agent_id ?? a.id))}`);
    assert.equal(member.profile?.tasks, false, JSON.stringify(member));

    const asked = Date.now();
    await assert.rejects(boss.startTask(name, 'review the plan'), (error) => {
      assert.equal(error.code, 'takes_no_tasks', String(error));
      return true;
    });
    assert.ok(Date.now() - asked < 5_000, 'refused at once, not left waiting');
    assert.equal((await boss.listTasks()).tasks.filter((t) => t.partners.includes(name)).length, 0, 'no task was made');

    // Another person's picker offers agents that take tasks, never this person.
    await openWorkspace(other, started.edge.url);
    await other.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Tasks' }).click();
    const picker = other.getByRole('region', { name: 'Tasks' }).getByRole('combobox', { name: 'Partner' });
    await picker.waitFor();
    const values = await picker.locator('option').evaluateAll((options) => options.map((o) => o.value));
    assert.ok(!values.includes(name), `a person is not offered: ${values}`);
  } finally {
    boss.close();
    await other.close();
    await context.close();
  }
});
