// People are names and faces: the invitation page asks the name to be
// known by (and names the inviter by theirs); a first visit without a name
// asks for one, with an optional picture; the name travels in the member's
// profile, so the other person sees it on messages, mentions and People,
// with the address one click away, and a rename reaches them live
// (`workspace.member.updated`). Agents carry an Agent badge; "sent" is not
// shown on every own message; nobody is called "unverified". A name the
// core refuses (a control character) changes nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { edgeAndBrowser, openWorkspace } from '../../support/browser.mjs';
import { inviteNetworkWithHost } from '../../support/agents.mjs';
import { until } from '../../support/process.mjs';
import { shoot, shootAt } from '../../support/shots.mjs';

const started = edgeAndBrowser();

/** An 8×8 PNG, as a file the picture field takes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAGElEQVR4nGM4EaCBFTFQUUIj4ARWREUJAEKZUAEb0E/ZAAAAAElFTkSuQmCC',
  'base64',
);

test('names and faces: asked on the invitation and the first visit, shown everywhere, renamed live', async () => {
  const { edge, browser } = started;
  const { id, host } = await inviteNetworkWithHost(edge, 'Name day');
  const told = [];
  host.on('workspace.member.updated', (event) => told.push(event));
  await host.send('core', 'network.agent.profile', { name: 'Launch Host' });
  const invite = async () => (await host.send('core', 'workspace.invitation.created', {})).code;
  const [ca, cb] = [await browser.newContext(), await browser.newContext()];
  try {
    // Ada accepts an invitation, which names its inviter and asks her name.
    const pa = await ca.newPage({ viewport: { width: 1366, height: 768 } });
    await pa.goto(`${edge.url}/invite/${id}#${await invite()}`);
    const card = pa.getByRole('main', { name: 'Invitation' });
    await card.getByText('Name day').waitFor({ timeout: 15_000 });
    assert.match(await card.locator('.inviter').textContent(), /Invited by Launch Host/);
    await card.getByRole('textbox', { name: 'Your name there' }).fill('Ada Lovelace');
    await shoot(pa, 'invitation');
    await card.getByRole('button', { name: 'Accept' }).click();
    await pa.waitForURL(`**/n/${id}`);
    await pa.locator('.topbar .me strong', { hasText: 'Ada Lovelace' }).waitFor({ timeout: 15_000 });
    const ada = await pa.locator('.me').getAttribute('data-address');
    assert.match(ada, /^human:guest-/, 'the address stays what it was');
    // The invitation joined its network alone, not the public demo as well.
    assert.deepEqual(await pa.evaluate(() => JSON.parse(localStorage.getItem('agentnet:networks')).map((n) => n.id)), [id]);
    const heard = await until('the host hears the new name', () => told.find((e) => e.payload.address === ada));
    assert.equal(String(heard.source), 'mod/workspace');
    assert.equal(heard.payload.profile.name, 'Ada Lovelace');
    assert.equal(await pa.getByRole('region', { name: 'What should people here call you?' }).count(), 0, 'named already: not asked again');

    // Bob's first visit asks, with an optional picture.
    const pb = await cb.newPage({ viewport: { width: 1366, height: 768 } });
    await pb.goto(`${edge.url}/invite/${id}#${await invite()}`);
    await pb.getByRole('button', { name: 'Accept' }).click();
    await pb.waitForURL(`**/n/${id}`);
    const prompt = pb.getByRole('region', { name: 'What should people here call you?' });
    await prompt.waitFor({ timeout: 15_000 });
    // A banner over the conversation, as wide as it; the composer stays in view below.
    await shoot(pb, 'names-first-visit', async (page, viewport) => {
      const [box, list] = [await prompt.boundingBox(), await page.locator('main.chat').boundingBox()];
      assert.ok(box.width >= list.width - 48, `the banner is ${box.width} px of ${list.width}`);
      const composer = await page.getByRole('textbox', { name: 'Message' }).first().boundingBox();
      assert.ok(composer && composer.y + composer.height <= viewport.height, 'the composer stays in view');
    });
    await prompt.getByRole('textbox', { name: 'Your name' }).fill('Bob Builder');
    await prompt.getByLabel('Picture (optional)').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await prompt.getByRole('img', { name: 'Your picture' }).waitFor({ timeout: 10_000 });
    await prompt.getByRole('button', { name: 'Save' }).click();
    await prompt.waitFor({ state: 'detached', timeout: 15_000 });
    const bob = await pb.locator('.me').getAttribute('data-address');

    // Ada mentions Bob; Bob reads her name, his own in the mention, her address a click away.
    const box = pa.getByRole('textbox', { name: 'Message' });
    await box.fill(`hello @${bob}, welcome`);
    await box.press('Enter');
    const fromAda = pb.locator('.message', { hasText: 'welcome' });
    await fromAda.waitFor({ timeout: 15_000 });
    assert.equal((await fromAda.locator('.source').textContent()).trim(), 'Ada Lovelace');
    const mention = fromAda.locator('mark.mention');
    await mention.filter({ hasText: '@Bob Builder' }).waitFor({ timeout: 10_000 });
    // The mark is the mention alone; the comma after it is the sentence's.
    assert.equal(await mention.textContent(), '@Bob Builder');
    assert.match(await fromAda.locator('.content .text').textContent(), /hello @Bob Builder, welcome/);
    assert.equal(await mention.getAttribute('title'), bob);
    await fromAda.locator('.source').click();
    assert.equal((await fromAda.locator('.meta .address').textContent()).trim(), ada);
    assert.equal(await fromAda.locator('.avatar').getAttribute('aria-hidden'), 'true');

    // Ada's own message does not say "sent" to the eye (only to a screen reader).
    const mine = pa.locator('.message[data-state="sent"]', { hasText: 'welcome' });
    await mine.waitFor({ timeout: 10_000 });
    const state = await mine.locator('.state').boundingBox();
    assert.ok(!state || state.width <= 1, `"sent" is not shown: ${JSON.stringify(state)}`);

    // People: names, faces, the picture, the Agent badge, no "unverified".
    const people = pa.getByRole('complementary', { name: 'People' });
    const bobEntry = people.locator(`.person[data-address="${bob}"]`);
    await bobEntry.locator('.name', { hasText: 'Bob Builder' }).waitFor({ timeout: 10_000 });
    assert.match(await bobEntry.locator('img.avatar').getAttribute('src'), /^data:image\/jpeg;base64,/);
    assert.equal((await bobEntry.locator('.address').textContent()).trim(), bob);
    const hostEntry = people.locator('.person[data-address="agent:host"]');
    assert.equal((await hostEntry.locator('.name').textContent()).trim(), 'Launch Host');
    assert.equal((await hostEntry.locator('.agent-badge').textContent()).trim(), 'Agent');
    assert.doesNotMatch(await people.textContent(), /unverified/);

    // The host's message carries its name and the Agent badge.
    await host.send('agent:broadcast', 'workspace.message.posted', { content: 'briefing at noon' });
    const fromHost = pa.locator('.message', { hasText: 'briefing at noon' });
    await fromHost.waitFor({ timeout: 10_000 });
    assert.equal((await fromHost.locator('.source').textContent()).trim(), 'Launch Host');
    assert.equal((await fromHost.locator('.agent-badge').textContent()).trim(), 'Agent');

    // Bob posts, then renames himself: Ada's page follows, on his message and in People.
    const bobBox = pb.getByRole('textbox', { name: 'Message' });
    await bobBox.fill('thanks Ada');
    await bobBox.press('Enter');
    const fromBob = pa.locator('.message', { hasText: 'thanks Ada' });
    await fromBob.locator('.source', { hasText: 'Bob Builder' }).waitFor({ timeout: 10_000 });
    await shoot(pa, 'names-conversation');
    const you = pb.getByRole('region', { name: 'You' });
    await you.getByRole('button', { name: 'Edit profile' }).click();
    await you.getByRole('textbox', { name: 'Your name' }).fill('Robert');
    await you.getByRole('button', { name: 'Save' }).click();
    await fromBob.locator('.source', { hasText: 'Robert' }).waitFor({ timeout: 10_000 });
    await bobEntry.locator('.name', { hasText: 'Robert' }).waitFor({ timeout: 10_000 });
    assert.match(await bobEntry.locator('img.avatar').getAttribute('src'), /^data:image\/jpeg/, 'the picture stays');
    await shoot(pa, 'names-people');

    // A channel is called what its creator typed, for the invited person too.
    const nav = pa.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('textbox', { name: 'New channel' }).fill('Design Review');
    await nav.getByRole('button', { name: 'Create' }).click();
    await pa.waitForURL(`**/n/${id}/channel/design-review`);
    await pb.reload();
    await pb.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /# Design Review/ }).waitFor({ timeout: 15_000 });

    // A name with a control character is refused by the network, and changes nothing.
    await assert.rejects(host.send('core', 'network.agent.profile', { name: 'Evil\u202eHost' }));
    await assert.rejects(host.send('agent:broadcast', 'workspace.member.updated', { address: bob, profile: { name: 'Mallory' } }));
    assert.equal((await hostEntry.locator('.name').textContent()).trim(), 'Launch Host');
    assert.equal((await bobEntry.locator('.name').textContent()).trim(), 'Robert');
  } finally {
    host.close();
    await ca.close();
    await cb.close();
  }
});

test("on a phone, a message's actions wait behind one … button and open as a sheet of 44 px targets; the thread's back control is 44 px", async () => {
  const { edge, browser } = started;
  const poster = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:sheet-poster' });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  try {
    await openWorkspace(page, edge.url);
    await poster.send('agent:broadcast', 'workspace.message.posted', { content: 'a message with actions' });
    const message = page.locator('.message', { hasText: 'a message with actions' });
    await message.waitFor({ timeout: 15_000 });
    // No permanent row of small links: the actions are hidden behind "…".
    assert.equal(await message.getByRole('link', { name: /^Reply in thread to/ }).isVisible(), false);
    const more = message.getByRole('button', { name: /^Actions on/ });
    const moreBox = await more.boundingBox();
    assert.ok(moreBox.height >= 44 && moreBox.width >= 44, `… is 44 px: ${JSON.stringify(moreBox)}`);
    await more.click();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    const sheet = message.locator('.actions.sheet');
    const heights = await sheet.locator(':scope > a, :scope > button').evaluateAll((els) => els
      .filter((e) => e.getClientRects().length > 0).map((e) => [e.textContent.trim(), e.getBoundingClientRect().height]));
    assert.ok(heights.length >= 3, JSON.stringify(heights));
    for (const [what, height] of heights) assert.ok(height >= 44, `${what} is ${height} px`);
    await shootAt(page, 'phone-actions', 'phone');
    // "Reply in thread" closes the sheet and opens the thread with its composer
    // focused (typing goes into the reply), with a 44 px way back.
    await sheet.locator('.reply-in-thread').click();
    await page.waitForURL(/\/thread\//);
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    const threadBox = page.getByRole('textbox', { name: 'Thread reply' });
    await until('the thread reply box has the focus', () => threadBox.evaluate((e) => e === document.activeElement));
    await page.keyboard.type('typed right after Reply in thread');
    assert.equal(await threadBox.inputValue(), 'typed right after Reply in thread');
    await threadBox.fill('');
    const back = page.getByRole('link', { name: 'Back to the conversation' });
    await back.waitFor();
    const backBox = await back.boundingBox();
    assert.ok(backBox.height >= 44, `the back control is ${backBox.height} px`);
    await back.click();
    await message.waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'false', 'the sheet closed');

    // Offline, presence is unknown: the People dots grey out with the status, and stay
    // grey while the workspace tries to connect again (the status flips between
    // "offline" and "connecting" then, each retry for a moment only, so the page
    // itself notes the dot's colour at every change of the status).
    const dot = page.locator('.person[data-address="agent:sheet-poster"][data-status="online"] .presence');
    const colour = () => dot.evaluate((e) => getComputedStyle(e).backgroundColor);
    const grey = 'rgb(138, 147, 158)';
    const online = await colour();
    assert.notEqual(online, grey, 'the poster shows as present while online');
    await page.evaluate(() => {
      const status = document.querySelector('.topbar .status');
      const dot = () => document.querySelector('.person[data-address="agent:sheet-poster"] .presence');
      window.seenWhileAway = [];
      new MutationObserver(() => {
        window.seenWhileAway.push([status.dataset.state, getComputedStyle(dot()).backgroundColor]);
      }).observe(status, { attributes: true, attributeFilter: ['data-state'] });
    });
    await context.setOffline(true);
    const status = page.getByRole('status');
    await status.filter({ hasText: /^offline/ }).waitFor({ timeout: 5_000 });
    assert.equal(await colour(), grey);
    const count = page.locator('.roster h2 .count');
    assert.equal(await count.textContent(), 'presence unknown', 'offline, the count does not say who is online');
    await page.waitForFunction(() => window.seenWhileAway.some(([state]) => state === 'connecting'), null, { timeout: 15_000 });
    const seen = await page.evaluate(() => window.seenWhileAway);
    assert.deepEqual(seen.filter(([, c]) => c !== grey), [], `every dot grey while away: ${JSON.stringify(seen)}`);
    await context.setOffline(false);
    await status.filter({ hasText: /^online/ }).waitFor({ timeout: 15_000 });
    assert.equal(await colour(), online, 'present again once back online');
    assert.match(await count.textContent(), /^\d+ online$/);
  } finally {
    poster.close();
    await context.close();
  }
});
