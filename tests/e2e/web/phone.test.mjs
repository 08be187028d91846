// The phone as a first-class screen: at 390×844 the workspace is
// one column no wider than the viewport, the conversation fills it with the
// composer in view at the bottom, views and conversations and people and
// resources are sheets that open from the top bar and close on a choice, on
// Escape and on a tap outside, and every control is at least 44 px tall;
// axe-core is clean with each sheet open, light and dark. On a wide screen
// the same parts are columns and the sheet buttons are gone. Screenshots of
// each state land in tests/output/screenshots (or AGENTNET_SCREENSHOTS:
// tests/support/shots.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { edgeAndBrowser, openWorkspace, openNetwork } from '../../support/browser.mjs';
import { PHONE, WIDE, shootAt, shoot } from '../../support/shots.mjs';
import { expectNothingFor } from '../../support/waits.mjs';

const started = edgeAndBrowser();

/** The visible controls of `page` that are shorter than 44 px, described. */
async function smallTargets(page, selector) {
  return page.locator(selector).evaluateAll((elements) => elements
    .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden')
    .map((e) => [e.getBoundingClientRect().height, `${e.tagName.toLowerCase()} “${(e.textContent || e.getAttribute('aria-label') || '').trim().slice(0, 30)}”`])
    .filter(([height]) => height < 44)
    .map(([height, what]) => `${what}: ${Math.round(height)} px`));
}

test('on a phone: one column, the composer in view, sheets for views, conversations and people, 44 px targets', async () => {
  const planner = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:phone-planner' });
  const context = await started.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    for (let i = 1; i <= 12; i += 1) {
      await planner.send('agent:broadcast', 'workspace.message.posted', { content: `phone check ${i}: enough history to fill the screen and more` });
    }
    await openWorkspace(page, started.edge.url);
    await page.locator('.message', { hasText: 'phone check 12' }).waitFor({ timeout: 15_000 });
    // A first visit asks for a name, compactly on a phone (the picture waits for Edit profile);
    // "Not now" puts it away, and a reload does not ask again.
    const prompt = page.getByRole('region', { name: 'What should people here call you?' });
    await prompt.waitFor({ timeout: 15_000 });
    assert.equal(await prompt.getByLabel('Picture (optional)').isVisible(), false);
    assert.ok((await prompt.boundingBox()).height <= 200, 'the question leaves the conversation room');
    await prompt.getByRole('button', { name: 'Not now' }).click();
    await prompt.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('.message', { hasText: 'phone check 12' }).waitFor({ timeout: 15_000 });
    await expectNothingFor(500, 'the name question asked again');
    assert.equal(await prompt.count(), 0, 'not asked again after Not now');

    // Nothing is wider than the viewport; the conversation and its composer fill it.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `the page is ${width} px wide`);
    const composer = page.getByRole('textbox', { name: 'Message' });
    const box = await composer.boundingBox();
    assert.ok(box && box.y > PHONE.height / 2 && box.y + box.height <= PHONE.height, `the composer is in view at the bottom (${JSON.stringify(box)})`);
    assert.equal(await page.getByRole('navigation', { name: 'Conversations' }).isVisible(), false, 'the conversation list waits in its sheet');
    assert.equal(await page.getByRole('complementary', { name: 'People' }).isVisible(), false, 'people wait in their sheet');
    assert.deepEqual(await smallTargets(page, '.topbar button, .composer button'), []);
    await shootAt(page, 'phone-conversation', 'phone');

    // The menu: views and conversations; choosing one closes it.
    const menu = page.getByRole('button', { name: 'Views and conversations' });
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');
    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    const conversations = page.getByRole('navigation', { name: 'Conversations' });
    await conversations.waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Tasks' }).waitFor();
    assert.deepEqual(await smallTargets(page, '.sidebar a, .sidebar button'), []);
    await shootAt(page, 'phone-menu', 'phone');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'About' }).click();
    await page.waitForURL('**/n/demo/about');
    assert.equal(await conversations.isVisible(), false, 'the sheet closed on a choice');
    await menu.click();
    await conversations.getByRole('link', { name: 'Everyone' }).click();
    await page.waitForURL('**/n/demo');
    await composer.waitFor();

    // People and resources; Escape closes, and so does a tap outside.
    const peopleButton = page.getByRole('button', { name: 'People and resources' });
    await peopleButton.click();
    const people = page.getByRole('complementary', { name: 'People' });
    await people.locator('.person[data-address="agent:phone-planner"]').waitFor();
    assert.ok((await people.boundingBox()).width <= PHONE.width);
    await shootAt(page, 'phone-people', 'phone');
    await page.keyboard.press('Escape');
    await people.waitFor({ state: 'hidden' });
    await peopleButton.click();
    await people.waitFor();
    await page.mouse.click(20, PHONE.height / 2);
    await people.waitFor({ state: 'hidden' });
    assert.equal(await peopleButton.getAttribute('aria-expanded'), 'false');

    // The network bar fits: its networks scroll sideways inside it, and the join form fits the screen.
    const bar = page.getByRole('navigation', { name: 'Networks' });
    assert.ok((await bar.boundingBox()).width <= PHONE.width);
    await bar.locator('summary').click();
    const form = bar.locator('form');
    const formBox = await form.boundingBox();
    assert.ok(formBox.x >= 0 && formBox.x + formBox.width <= PHONE.width, `the form fits (${JSON.stringify(formBox)})`);
    await shootAt(page, 'phone-join', 'phone');
  } finally {
    planner.close();
    await context.close();
  }
});

test('on a wide screen the sheets are columns and their buttons are gone', async () => {
  const page = await started.browser.newPage({ viewport: WIDE });
  try {
    await openWorkspace(page, started.edge.url);
    await page.getByRole('navigation', { name: 'Conversations' }).waitFor();
    await page.getByRole('complementary', { name: 'People' }).waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Inspector' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Views and conversations' }).isVisible(), false);
    assert.equal(await page.getByRole('button', { name: 'People and resources' }).isVisible(), false);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= WIDE.width, `the page is ${width} px wide`);
    await page.getByRole('navigation', { name: 'Networks' }).locator('summary').click();
    await shootAt(page, 'wide-join', 'wide');
  } finally {
    await page.close();
  }
});

test('About and the inspector at both sizes, light and dark', async () => {
  const page = await started.browser.newPage({ viewport: WIDE });
  try {
    await openWorkspace(page, started.edge.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'About' }).click();
    const about = page.getByRole('region', { name: 'About this network' });
    await about.locator('.about-summary li').first().waitFor({ timeout: 10_000 });
    await shoot(page, 'about');
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Inspector' }).click();
    await page.locator('.event').first().waitFor({ timeout: 10_000 });
    await shoot(page, 'inspector');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= WIDE.width);
  } finally {
    await page.close();
  }
});

test("a direct conversation's composer names the person by their display name, on one line at every width", async () => {
  const context = await started.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const other = 'human:guest-43946-with-a-rather-long-name';
  try {
    await openNetwork(page, started.edge.url, 'demo', `/with/${other}`);
    const composer = page.getByRole('textbox', { name: 'Message' });
    await composer.waitFor();
    assert.equal(await composer.getAttribute('placeholder'), 'Message guest-43946-with-a-rather-long-name', 'the display name, not the address');
    for (const width of [320, 390, 480, 768, 1366]) {
      await page.setViewportSize({ width, height: PHONE.height });
      const { lines, overflow } = await composer.evaluate((area) => {
        const style = getComputedStyle(area);
        const line = parseFloat(style.lineHeight);
        const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
        return { lines: Math.round((area.clientHeight - padding) / line), overflow: document.documentElement.scrollWidth - innerWidth };
      });
      assert.equal(lines, 1, `the placeholder is one line at ${width} px`);
      assert.ok(overflow <= 0, `nothing wider than ${width} px`);
    }
    await page.setViewportSize(PHONE);
    await shoot(page, 'phone-direct-composer', async () => { await composer.waitFor(); });
  } finally {
    await context.close();
  }
});
