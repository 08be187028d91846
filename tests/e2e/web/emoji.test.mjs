// Emoji and the phone's swipes, in Chromium against a real edge with two
// people in two browser contexts:
// - the emoji picker: a reaction picked from it (by search, by keyboard or
//   by a tap in the phone's action sheet) shows for the other person; arrows
//   move through its grid, Enter picks, Escape closes it and gives the focus
//   back to the button that opened it; its Recent row keeps what the person
//   used across a reload;
// - the composer: its emoji button inserts at the caret; `:thu` offers the
//   matching emoji (arrows, Enter or Tab pick, Escape closes), a whole
//   `:tada:` becomes 🎉 as it is typed, and the other person reads the emoji;
// - swipes at 390×844 with touch: from the left edge the menu opens, back it
//   closes; from the right edge people open; left on a message opens its
//   thread with the reply box focused; right on the thread closes it;
// - the loading shell has the app's layout: its top bar, columns and
//   composer are where the app's are (at 1366×768 and 390×844).
// Screenshots at both sizes, light and dark, axe-checked (tests/support/shots.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeAndBrowser, openNetwork, twoPeople } from '../../support/browser.mjs';
import { until } from '../../support/waits.mjs';
import { PHONE, WIDE, shoot, shootAt } from '../../support/shots.mjs';

const started = edgeAndBrowser();

const focusedLabel = (page) => page.evaluate(() => {
  const e = document.activeElement;
  return e?.getAttribute('aria-label') ?? e?.labels?.[0]?.textContent?.trim() ?? e?.textContent?.trim() ?? '';
});

/** Opens the reaction picker of `message` (hover and React on a wide screen, "…" and React on a phone). */
async function openReactionPicker(page, message) {
  const phone = page.viewportSize().width <= 480;
  if (phone) {
    await message.getByRole('button', { name: /^Actions on/ }).click();
  } else {
    await message.hover();
  }
  const react = message.getByRole('button', { name: 'React', exact: true });
  if ((await react.getAttribute('aria-expanded')) !== 'true') await react.click();
  await message.getByRole('button', { name: 'More reactions' }).click();
  const picker = page.getByRole('dialog', { name: 'Choose a reaction' });
  await picker.waitFor();
  return picker;
}

/** Closes whatever picker, list or sheet is open. */
async function closeAll(page) {
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('Escape');
  const cancel = page.locator('.actions.sheet .sheet-close');
  if ((await cancel.count()) && (await cancel.first().isVisible())) await cancel.first().click();
}

test('a reaction picked from the picker shows for the other person; keys move, Escape gives the focus back; Recent is kept', async () => {
  const { agent, pages: [ann, bob], close } = await twoPeople(started, 'Emoji reactions', 'agent:shipper');
  try {
    ann.on('console', (m) => { if (m.type() === 'error') console.log('ANN console:', m.text().slice(0, 600)); });
    bob.on('console', (m) => { if (m.type() === 'error') console.log('BOB console:', m.text().slice(0, 600)); });
    const posted = await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'ready to ship?' });
    // A later message has a picker button of its own: the first message's picker must not act for it.
    const later = await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'packing the crates' });
    const annMessage = ann.locator(`.message[data-id="${posted.id}"]`);
    const bobMessage = bob.locator(`.message[data-id="${posted.id}"]`);
    await annMessage.waitFor({ timeout: 15_000 });
    await bobMessage.waitFor({ timeout: 15_000 });

    // By search: the field has the focus, "rocket" puts 🚀 first, Enter picks it.
    let picker = await openReactionPicker(ann, annMessage);
    assert.equal(await focusedLabel(ann), 'Search emoji');
    assert.ok(await picker.getByRole('group', { name: 'Smileys' }).count(), 'the categories show');
    assert.equal(await picker.getByRole('group', { name: 'Recent' }).count(), 0, 'nothing used yet');
    const search = picker.getByRole('combobox', { name: 'Search emoji' });
    await search.fill('rocket');
    const first = picker.getByRole('option').first();
    assert.equal(await first.getAttribute('aria-label'), 'rocket');
    assert.equal(await search.getAttribute('aria-activedescendant'), await first.getAttribute('id'));
    await search.press('Enter');
    await picker.waitFor({ state: 'detached' });
    await annMessage.getByRole('button', { name: /^🚀 1 person reacted/ }).waitFor({ timeout: 10_000 });
    assert.equal(await ann.locator(`.message[data-id="${later.id}"] .reaction`).count(), 0, 'the reaction is on the message whose picker was opened');
    assert.equal(await focusedLabel(ann), 'React', 'the focus is back on React');
    // The other person sees it, not pressed for them.
    const bobRocket = bobMessage.getByRole('button', { name: /^🚀 1 person reacted/ });
    await bobRocket.waitFor({ timeout: 10_000 });
    assert.equal(await bobRocket.getAttribute('aria-pressed'), 'false');

    // By keyboard: arrows move through the grid (Down keeps the column), Escape closes and focuses the opener.
    picker = await openReactionPicker(ann, annMessage);
    const active = () => picker.getByRole('combobox').getAttribute('aria-activedescendant');
    const recent = picker.getByRole('group', { name: 'Recent' });
    assert.equal(await recent.getByRole('option').first().getAttribute('aria-label'), 'rocket', 'Recent has it');
    await ann.keyboard.press('ArrowRight');
    await ann.keyboard.press('ArrowDown');
    await ann.keyboard.press('ArrowRight');
    const smileys = picker.getByRole('group', { name: 'Smileys' }).getByRole('option');
    assert.equal(await active(), await smileys.nth(9).getAttribute('id'), 'into Smileys, down a row keeping the column, one right');
    await ann.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    assert.equal(await focusedLabel(ann), 'More reactions', 'Escape gives the focus back to the opener');
    // Open again with the keyboard; Enter picks the one under the arrows.
    await ann.keyboard.press('Enter');
    picker = ann.getByRole('dialog', { name: 'Choose a reaction' });
    await picker.waitFor();
    await ann.keyboard.press('ArrowDown');
    const chosen = await ann.locator(`#${await active()}`).getAttribute('aria-label');
    await ann.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    await bobMessage.locator('.reaction').nth(1).waitFor({ timeout: 10_000 });
    assert.ok((await bobMessage.locator('.reaction').nth(1).getAttribute('aria-label')).includes('1 person reacted'), chosen);

    // Recent survives a reload.
    await ann.reload();
    await ann.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    await annMessage.waitFor({ timeout: 15_000 });
    picker = await openReactionPicker(ann, annMessage);
    const kept = await picker.getByRole('group', { name: 'Recent' }).getByRole('option').evaluateAll((os) => os.map((o) => o.getAttribute('aria-label')));
    assert.ok(kept.includes('rocket') && kept.includes(chosen), JSON.stringify(kept));
    await closeAll(ann);

    await shoot(ann, 'emoji-picker', async () => {
      await closeAll(ann);
      const opened = await openReactionPicker(ann, annMessage);
      await opened.getByRole('combobox').fill('');
    });
    await closeAll(ann);
    await shoot(ann, 'emoji-picker-search', async () => {
      await closeAll(ann);
      const opened = await openReactionPicker(ann, annMessage);
      await opened.getByRole('combobox').fill('heart');
    });
  } finally {
    await close();
  }
});

test('on a phone the picker is a sheet: a tap reacts, the action sheet closes, the other person sees it', async () => {
  const { id, agent, pages: [, bob], close } = await twoPeople(started, 'Emoji on a phone', 'agent:phoner');
  const context = await started.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  try {
    // A third person, on a phone.
    const phone = await context.newPage();
    await openNetwork(phone, started.edge.url, id);
    const posted = await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'lunch at noon?' });
    const message = phone.locator(`.message[data-id="${posted.id}"]`);
    await message.waitFor({ timeout: 15_000 });
    await message.getByRole('button', { name: /^Actions on/ }).tap();
    await message.getByRole('button', { name: 'React', exact: true }).tap();
    await message.getByRole('button', { name: 'More reactions' }).tap();
    const picker = phone.getByRole('dialog', { name: 'Choose a reaction' });
    await picker.waitFor();
    const box = await picker.boundingBox();
    assert.ok(box.x <= 1 && Math.abs(box.x + box.width - PHONE.width) <= 1, `a sheet the screen's width (${JSON.stringify(box)})`);
    assert.ok(Math.abs(box.y + box.height - PHONE.height) <= 1, 'at the bottom');
    const option = picker.getByRole('group', { name: 'Food' }).getByRole('option').first();
    const small = await picker.locator('.emoji-option, .emoji-category, .emoji-search').evaluateAll((els) => els
      .filter((e) => e.getClientRects().length > 0).map((e) => e.getBoundingClientRect().height).filter((h) => h < 43.5).length);
    assert.equal(small, 0, 'every target is 44 px');
    const name = await option.getAttribute('aria-label');
    await option.tap();
    await picker.waitFor({ state: 'detached' });
    assert.equal(await phone.locator('.actions.sheet').count(), 0, 'the action sheet closed');
    await bob.locator(`.message[data-id="${posted.id}"] .reaction`).first().waitFor({ timeout: 10_000 });
    assert.ok(name, 'the emoji has a name');
  } finally {
    await context.close();
    await close();
  }
});

test('the composer: the emoji button inserts at the caret, :shortcodes: complete and turn into emoji, the other person reads them', async () => {
  const { pages: [ann, bob], close } = await twoPeople(started, 'Emoji composer', 'agent:lurker');
  try {
    const box = ann.getByRole('textbox', { name: 'Message' });
    await box.click();
    await box.pressSequentially('hello world');
    for (let i = 0; i < 6; i += 1) await box.press('ArrowLeft');
    const button = ann.getByRole('button', { name: 'Insert an emoji' });
    await button.click();
    const picker = ann.getByRole('dialog', { name: 'Insert an emoji' });
    await picker.getByRole('combobox').fill('wave');
    await picker.getByRole('option', { name: 'waving hand', exact: true }).click();
    await picker.waitFor({ state: 'detached' });
    assert.equal(await box.inputValue(), 'hello👋 world', 'at the caret');
    assert.equal(await focusedLabel(ann), 'Message', 'the focus is back in the text');
    // Escape from the picker gives the focus back to the button.
    await button.click();
    await picker.waitFor();
    await ann.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    assert.equal(await focusedLabel(ann), 'Insert an emoji');

    // `:thu` offers 👍 first; Enter picks it (no send).
    await box.click();
    await box.press('Control+End');
    const list = ann.getByRole('listbox', { name: 'Emoji' });
    await box.pressSequentially(' :thu');
    await list.waitFor({ timeout: 5_000 });
    const options = await list.getByRole('option').allTextContents();
    assert.equal(options[0], '👍 :+1:', JSON.stringify(options));
    assert.ok(options.some((o) => o.includes('👎')), JSON.stringify(options));
    await shoot(ann, 'emoji-completion', async () => {
      await box.click();
      // The end of the text, not of the line (it wraps on a phone).
      await box.press('Control+End');
      await list.waitFor();
    });
    await box.press('ArrowDown');
    await box.press('ArrowUp');
    await box.press('Enter');
    await list.waitFor({ state: 'detached' });
    assert.equal(await box.inputValue(), 'hello👋 world 👍 ');
    // Escape closes the list and leaves the text; Tab picks too.
    await box.pressSequentially(':smi');
    await list.waitFor();
    await box.press('Escape');
    await list.waitFor({ state: 'detached' });
    await box.pressSequentially('l');
    await list.waitFor();
    await box.press('Tab');
    const afterTab = await box.inputValue();
    assert.ok(/hello👋 world 👍 \p{Extended_Pictographic}/u.test(afterTab) && !afterTab.includes(':smil'), afterTab);
    // A whole code becomes its emoji as its colon is typed; one left whole is turned on send.
    await box.pressSequentially(':tada:');
    assert.ok((await box.inputValue()).endsWith('🎉'), await box.inputValue());
    await box.fill('shipped :rocket: and :heart');
    await box.pressSequentially(':');
    assert.equal(await box.inputValue(), 'shipped :rocket: and ❤️');
    await box.press('Enter');
    await bob.locator('.message', { hasText: 'shipped 🚀 and ❤️' }).waitFor({ timeout: 10_000 });
    await box.fill('done :white_check_mark: `:tada:`');
    await box.press('Enter');
    await bob.locator('.message', { hasText: 'done ✅' }).waitFor({ timeout: 10_000 });
    assert.ok(await bob.locator('.message code', { hasText: ':tada:' }).count(), 'code keeps its colons');
    await shoot(ann, 'emoji-composer-picker', async () => {
      await closeAll(ann);
      await box.click();
      await ann.getByRole('button', { name: 'Insert an emoji' }).click();
      await ann.getByRole('dialog', { name: 'Insert an emoji' }).waitFor();
    });
  } finally {
    await close();
  }
});

/** A finger's swipe from `from` to `to` on `page` (Chromium's touch events, through CDP). */
async function swipe(cdp, from, to, steps = 8) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: from.x, y: from.y }] });
  for (let i = 1; i <= steps; i += 1) {
    const point = { x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

test('swipes on a phone: the menu from the left edge, people from the right, a thread from a message and back', async () => {
  const { id, agent, close } = await twoPeople(started, 'Swipes', 'agent:swiper');
  const context = await started.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true });
  try {
    for (let i = 1; i <= 4; i += 1) {
      await agent.send('agent:broadcast', 'workspace.message.posted', { content: `swipe check ${i}` });
    }
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await openNetwork(page, started.edge.url, id);
    const message = page.locator('.message', { hasText: 'swipe check 3' });
    await message.waitFor({ timeout: 15_000 });
    const workspace = page.locator('.workspace');
    const sheet = () => workspace.getAttribute('data-sheet');
    const y = PHONE.height / 2;

    // From the left edge: the menu; back to the left: closed. A swipe not from the edge opens nothing.
    await swipe(cdp, { x: 4, y }, { x: 260, y: y + 10 });
    await until('the menu opens', async () => (await sheet()) === 'menu', 5_000);
    assert.equal(await page.getByRole('button', { name: 'Views and conversations' }).getAttribute('aria-expanded'), 'true');
    await shootAt(page, 'swipe-menu', 'phone');
    await swipe(cdp, { x: 250, y }, { x: 40, y });
    await until('the menu closes', async () => (await sheet()) === 'none', 5_000);
    await swipe(cdp, { x: 20, y: 300 }, { x: 24, y: 700 });
    assert.equal(await sheet(), 'none', 'a scroll is no swipe');

    // From the right edge: people; back to the right: closed.
    await swipe(cdp, { x: PHONE.width - 4, y }, { x: 120, y });
    await until('people open', async () => (await sheet()) === 'people', 5_000);
    await swipe(cdp, { x: 120, y }, { x: 360, y });
    await until('people close', async () => (await sheet()) === 'none', 5_000);

    // Left on a message: its thread, the reply box focused.
    const box = await message.boundingBox();
    const mid = { x: 300, y: box.y + box.height / 2 };
    const messageId = await message.getAttribute('data-id');
    await swipe(cdp, mid, { x: 140, y: mid.y });
    await page.waitForURL(`**/thread/${messageId}`, { timeout: 5_000 });
    const thread = page.getByRole('region', { name: 'Thread' });
    await thread.waitFor();
    await until('the reply box is focused', () => page.evaluate(() => document.activeElement?.id === 'thread-reply'), 5_000);
    await page.evaluate(() => document.activeElement?.blur());
    await shootAt(page, 'swipe-thread', 'phone');
    // Right on the thread: back to the conversation.
    await swipe(cdp, { x: 80, y }, { x: 320, y });
    await until('the thread closes', async () => !page.url().includes('/thread/'), 5_000);
    await thread.waitFor({ state: 'detached' });
    // Open it again; from the left edge goes back too (not the menu).
    await swipe(cdp, { x: 300, y: (await message.boundingBox()).y + 10 }, { x: 120, y: (await message.boundingBox()).y + 14 });
    await page.waitForURL(`**/thread/${messageId}`, { timeout: 5_000 });
    await swipe(cdp, { x: 3, y }, { x: 250, y });
    await until('back from the thread', async () => !page.url().includes('/thread/'), 5_000);
    assert.equal(await sheet(), 'none');
  } finally {
    await context.close();
    await close();
  }
});

test('the loading shell has the app layout at both sizes, so nothing jumps', async () => {
  const context = await started.browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  try {
    for (const [size, viewport] of Object.entries({ wide: WIDE, phone: PHONE })) {
      await page.setViewportSize(viewport);
      // Hold the wasm: the shell stays until it is let through.
      let release;
      const held = new Promise((resolve) => { release = resolve; });
      await page.route('**/pkg/agentnet_web_bg.wasm', async (route) => { await held; await route.continue(); });
      await page.goto(`${started.edge.url}/n/demo`);
      await page.getByRole('status').filter({ hasText: 'Loading the workspace' }).waitFor();
      const boxes = () => page.evaluate(() => {
        const at = (selector) => {
          const e = [...document.querySelectorAll(selector)].find((x) => x.getClientRects().length > 0);
          if (!e) return null;
          const r = e.getBoundingClientRect();
          return { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) };
        };
        return { topbar: at('.topbar'), sidebar: at('.sidebar'), side: at('.side'), composer: at('.composer') };
      });
      const shell = await boxes();
      await shootAt(page, 'loading-shell', size);
      release();
      await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
      await page.locator('#shell').waitFor({ state: 'detached' });
      const app = await boxes();
      await page.unroute('**/pkg/agentnet_web_bg.wasm');
      const near = (a, b, what, slack) => {
        assert.ok((a === null) === (b === null), `${size}: ${what} shows in both (${JSON.stringify([a, b])})`);
        if (!a) return;
        for (const k of ['x', 'y', 'w', 'h']) {
          assert.ok(Math.abs(a[k] - b[k]) <= slack, `${size}: the ${what}'s ${k} is ${a[k]} in the shell, ${b[k]} in the app`);
        }
      };
      near(shell.topbar, app.topbar, 'top bar', 3);
      near(shell.sidebar, app.sidebar, 'conversations column', 3);
      near(shell.side, app.side, 'people column', 3);
      assert.ok(Math.abs(shell.composer.y + shell.composer.h - (app.composer.y + app.composer.h)) <= 4, `${size}: the composer's foot (${JSON.stringify([shell.composer, app.composer])})`);
    }
  } finally {
    await context.close();
  }
});
