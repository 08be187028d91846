// The People panel shows what a member says about itself (its profile's
// description) and the skills it shares (its `{skill}.SKILL.md` contexts,
// which MCP clients get as prompts), each linking to its document.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../core/js/index.js';
import { edgeAndBrowser, openWorkspace } from '../support/browser.mjs';

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
