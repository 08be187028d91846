// Tool results for people (docs/workspace.md, "Tools, tasks and documents"):
// an npm agent offers a tool that answers in words, in JSON or with records;
// the page shows words as words, JSON pretty-printed in a <details> that
// folds, records as a table, and each outcome replaces the last (an error,
// then a success, shows only the success).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, AgentnetError } from '../../../core/js/index.js';
import { edgeAndBrowser, openWorkspace, refreshedResource } from '../../support/browser.mjs';
import { shootScreen } from '../../support/shots.mjs';

const started = edgeAndBrowser();

const schema = {
  type: 'object',
  properties: { answer: { enum: ['json', 'records', 'words', 'fail'] }, about: { type: 'string' } },
  required: ['answer', 'about'],
};

const answers = {
  json: (about) => ({ about, weather: { sky: 'cloudy', temperature: 3 }, tags: ['north', 'coast'] }),
  records: () => [
    { name: 'Ann', role: 'editor', since: 2021 },
    { name: 'Bob', role: 'reviewer' },
    { name: 'Cy', role: 'writer', since: 2024 },
  ],
  words: (about) => `All good in ${about}.\nNothing else to say.`,
  fail: () => { throw new AgentnetError('invalid_request', 'nothing is known about that'); },
};

/** On a phone the resources are in the People sheet: open it before looking. */
async function showResources(page, size) {
  if (size.width > 720) return;
  const sheet = page.getByRole('button', { name: 'People and resources' });
  if ((await sheet.getAttribute('aria-expanded')) !== 'true') await sheet.click();
}

test('tool results show for people, and each outcome replaces the last', async () => {
  const toolbox = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:toolbox' });
  await toolbox.registerTool('lookup', schema, ({ answer, about }) => answers[answer](about), {
    description: 'looks things up',
  });
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openWorkspace(page, started.edge.url);
    const item = await refreshedResource(page, 'resource/tool/lookup');
    const form = item.getByRole('form', { name: 'Invoke resource/tool/lookup' });
    const invoke = async (answer, about = 'Oslo') => {
      await form.getByLabel('answer (required)').selectOption(answer);
      await form.getByLabel('about (required)').fill(about);
      await form.getByRole('button', { name: 'Invoke' }).click();
    };
    const outcome = item.locator('.outcome');

    // JSON: pretty-printed, and it folds.
    await invoke('json');
    const json = outcome.locator('details.result-json');
    await json.waitFor({ timeout: 10_000 });
    assert.equal(await json.locator('summary').textContent(), 'JSON · 3 fields');
    const pretty = await json.locator('pre').textContent();
    assert.deepEqual(JSON.parse(pretty), answers.json('Oslo'));
    assert.match(pretty, /\n {2}"weather": \{\n {4}"sky": "cloudy",/, 'indented, one field a line');
    assert.equal(await json.getAttribute('open'), '', 'open at first');
    await json.locator('summary').click();
    assert.equal(await json.getAttribute('open'), null, 'folded');
    assert.equal(await json.locator('pre').isVisible(), false);

    // Records: a table with every column.
    await invoke('records');
    const table = outcome.getByRole('table');
    await table.waitFor({ timeout: 10_000 });
    assert.deepEqual(await table.getByRole('columnheader').allTextContents(), ['name', 'role', 'since']);
    const rows = table.locator('tbody tr');
    assert.equal(await rows.count(), 3);
    assert.deepEqual(await rows.nth(1).getByRole('cell').allTextContents(), ['Bob', 'reviewer', '']);
    assert.equal(await outcome.count(), 1, 'one outcome at a time');
    await shootScreen(page, 'tools-table', async (p, size) => {
      await showResources(p, size);
      await item.scrollIntoViewIfNeeded();
    });

    // A result is shared in the conversation: the composer gets it (records as a
    // pipe table in a code block), focused; Enter sends it for everyone to read.
    await outcome.getByRole('button', { name: 'Share in the conversation' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    assert.match(await box.inputValue(), /^Result of `resource\/tool\/lookup`:\n\n```\n\| name \| role +\| since \|\n/);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'message', 'the composer has the focus');
    await box.press('Enter');
    const shared = page.locator('.message', { hasText: 'Result of' }).last();
    await shared.locator('pre code').filter({ hasText: /\| Bob +\| reviewer +\|/ }).waitFor({ timeout: 10_000 });
    await shootScreen(page, 'tools-shared', async () => { await shared.scrollIntoViewIfNeeded(); });

    // An error, then a success: only the success shows.
    await invoke('fail');
    await outcome.filter({ hasText: 'nothing is known about that' }).waitFor({ timeout: 10_000 });
    assert.equal(await item.getByRole('alert').count(), 1);
    await invoke('words', 'Bergen');
    await outcome.locator('.result-text').filter({ hasText: 'All good in Bergen.' }).waitFor({ timeout: 10_000 });
    assert.equal(await outcome.locator('.result-text').textContent(), 'All good in Bergen.\nNothing else to say.', 'words as words');
    assert.equal(await item.getByRole('alert').count(), 0, 'the error is gone');
    assert.equal(await item.getByText('nothing is known about that').count(), 0);

    // A form to correct is an outcome too: replaced by the next result.
    await form.getByLabel('about (required)').fill('');
    await form.getByRole('button', { name: 'Invoke' }).click();
    await item.getByRole('alert').filter({ hasText: 'Please fill in about.' }).waitFor();
    assert.equal(await item.locator('.result-text').count(), 0, 'the older result is replaced by the problem');
    await invoke('json', 'Tromsø');
    await json.waitFor({ timeout: 10_000 });
    assert.equal(await item.getByRole('alert').count(), 0, 'the problem is gone');
    await shootScreen(page, 'tools-json', async (p, size) => {
      await showResources(p, size);
      await item.scrollIntoViewIfNeeded();
    });
  } finally {
    toolbox.close();
    await page.close();
  }
});
