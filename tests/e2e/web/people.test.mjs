// The People panel shows what a member says about itself (its profile's
// description) and the skills it shares (its `{skill}.SKILL.md` contexts,
// which MCP clients get as prompts), each linking to its document.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { edgeAndBrowser, openWorkspace } from '../../support/browser.mjs';
import { until } from '../../support/waits.mjs';

const started = edgeAndBrowser();

test("a member's description and SKILL.md skills are on its entry in People", async () => {
  const { edge, browser } = started;
  const reviewer = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:reviewer' });
  const page = await browser.newPage();
  try {
    await reviewer.setProfile({ description: 'Reviews pull requests within the hour' });
    await reviewer.registerContext('review.SKILL.md', '---\ndescription: Reviews a change\n---\nRead the diff, then comment.');
    await reviewer.registerContext('notes', 'not a skill');
    await openWorkspace(page, edge.url);
    const entry = page.getByRole('complementary', { name: 'People' }).locator('.person[data-address="agent:reviewer"]');
    await entry.waitFor({ timeout: 15_000 });
    assert.equal(await entry.locator('.description').textContent(), 'Reviews pull requests within the hour');
    const skills = entry.getByRole('list', { name: 'Skills of agent:reviewer' }).getByRole('link');
    assert.deepEqual(await skills.allTextContents(), ['review']);
    await skills.first().click();
    await page.waitForURL('**/n/demo/document/resource/context/review.SKILL.md');
  } finally {
    reviewer.close();
    await page.close();
  }
});

test('People: humans apart from agents, online first, names in natural order, you marked, a filter', async () => {
  const { edge, browser } = started;
  const names = ['agent:idle10', 'agent:idle2', 'agent:alpha', 'agent:gone'];
  const agents = [];
  for (const name of names) agents.push(await Agent.connect({ url: edge.url, network: 'demo', name }));
  await agents[0].setProfile({ description: 'Keeps an eye on the weather in every city, hour by hour' });
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openWorkspace(page, edge.url);
    const people = page.getByRole('complementary', { name: 'People' });
    // agent:gone leaves: it stays listed, below everyone online.
    agents[3].close();
    const agentNames = () => people.getByRole('region', { name: 'Agents' }).locator('.person').evaluateAll(
      (rows) => rows.map((row) => `${row.dataset.address}:${row.dataset.status}`),
    );
    let order = [];
    await until('agent:gone offline, below everyone online', async () => {
      order = (await agentNames()).filter((entry) => names.some((n) => entry.startsWith(`${n}:`)));
      return order.join() === 'agent:alpha:online,agent:idle2:online,agent:idle10:online,agent:gone:offline';
    }, 20_000, 200).catch(() => { /* asserted below */ });
    assert.deepEqual(order, ['agent:alpha:online', 'agent:idle2:online', 'agent:idle10:online', 'agent:gone:offline']);
    // The name reads without its kind; the whole address is its tooltip.
    const idle10 = people.locator('.person[data-address="agent:idle10"]');
    assert.equal((await idle10.locator('.name').textContent()).trim(), 'idle10');
    // A long description sits under the name at the panel's width, not in a narrow column.
    const [nameBox, textBox] = await Promise.all([idle10.locator('.name').boundingBox(), idle10.locator('.description').boundingBox()]);
    assert.ok(textBox.y > nameBox.y, 'the description is below the name');
    assert.ok(textBox.width > 150, `the description has the panel's width (${textBox.width})`);
    // You are among the humans, marked.
    const me = (await page.locator('.me').getAttribute('data-address')).trim();
    const mine = people.getByRole('region', { name: 'Humans' }).locator(`.person[data-address="${me}"]`);
    assert.equal((await mine.locator('.badge.you').textContent()).trim(), 'you');
    // The filter reads names and descriptions.
    const filter = people.getByRole('searchbox', { name: 'Filter people' });
    await filter.fill('idle');
    assert.deepEqual(await people.locator('.person').evaluateAll((rows) => rows.map((r) => r.dataset.address)), ['agent:idle2', 'agent:idle10']);
    await filter.fill('weather');
    assert.deepEqual(await people.locator('.person').evaluateAll((rows) => rows.map((r) => r.dataset.address)), ['agent:idle10']);
    await filter.fill('nobody-by-this-name');
    assert.equal(await people.locator('.person').count(), 0);
    assert.match(await people.locator('.nobody').textContent(), /Nobody matches “nobody-by-this-name”/);
  } finally {
    for (const agent of agents) agent.close();
    await page.close();
  }
});
