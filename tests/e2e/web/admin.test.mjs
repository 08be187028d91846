// The Admin view in the web workspace: the page that
// created a network is its master and alone sees the Admin tab; the view
// lists the members with the actions the core offers on each (none against
// oneself), enables only the status changes the network's state allows
// (Pause while active, Resume while paused), loads mod/analytics, reads the
// counts as charts, pauses and resumes the network (an npm agent's sends
// are refused meanwhile), issues an invitation an agent then uses (the page
// hears of it), and bans a member from its row (its socket closes, its
// rejoin is refused). Someone who is not a master sees no Admin tab, and its
// URL tells them plainly. axe-core is clean on both, in both schemes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createOpenNetwork, edgeAndBrowser, openWorkspace } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { assertAccessible } from '../../support/axe.mjs';
import { shoot } from '../../support/shots.mjs';

/** axe-core on `page` as it is now, light and dark. */
async function accessible(page, screen) {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await assertAccessible(page, `${screen} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const started = edgeAndBrowser();

test('a master manages the network and reads its analytics from the Admin view', async () => {
  const { edge, browser } = started;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const agents = [];
  try {
    await openWorkspace(page, edge.url);
    const id = await createOpenNetwork(page, 'admin room');

    // The master sees the Admin tab (once the core let it read the configuration).
    const views = page.getByRole('navigation', { name: 'Views' });
    await views.getByRole('link', { name: 'Admin' }).click({ timeout: 10_000 });
    await page.waitForURL(`**/n/${id}/admin`);
    const admin = page.getByRole('region', { name: 'Admin' });
    await admin.locator('.network-status', { hasText: 'active' }).waitFor({ timeout: 10_000 });
    // The Admin view's own status line (each card below has its own).
    const notice = admin.locator(':scope > .notice');

    // Only the status changes an active network allows.
    const status = admin.getByRole('region', { name: 'Status' });
    const pause = status.getByRole('button', { name: 'Pause' });
    const resume = status.getByRole('button', { name: 'Resume' });
    assert.equal(await pause.isEnabled(), true);
    assert.equal(await resume.isEnabled(), false, 'Resume is disabled while the network runs');

    // The members are a list, each with the actions offered on it: none on oneself.
    const members = admin.getByRole('region', { name: 'Members' });
    const list = members.getByRole('list', { name: 'Members of this network' });
    const me = list.locator('.admin-member', { has: page.locator('.badge.you') });
    await me.waitFor({ timeout: 10_000 });
    assert.equal(await me.getByRole('button').count(), 0, 'a master is offered nothing against itself');
    assert.equal(await me.locator('.role').textContent(), 'master');
    const bob = await Agent.connect({ url: edge.url, network: id, name: 'agent:bob' });
    agents.push(bob);
    const bobRow = list.locator('.admin-member[data-address="agent:bob"]');
    await bobRow.waitFor({ timeout: 10_000 });
    assert.deepEqual(await bobRow.getByRole('button').allTextContents(), ['Remove', 'Ban']);
    assert.equal(await members.getByRole('textbox').count(), 0, 'no free-text address box');
    await accessible(page, 'the Admin view');
    await shoot(page, 'admin', () => admin.locator('.network-status').waitFor());

    // Offline, the members' presence is not known: the dots grey out and the count says so;
    // back online, both are as before.
    const count = members.locator('h3 .count');
    const bobDot = bobRow.locator('.presence');
    const colour = () => bobDot.evaluate((e) => getComputedStyle(e).backgroundColor);
    const grey = 'rgb(138, 147, 158)';
    const present = await colour();
    assert.notEqual(present, grey, 'bob shows as present while online');
    assert.match(await count.textContent(), /^\d+ · \d+ online$/);
    await page.context().setOffline(true);
    await page.getByRole('status').filter({ hasText: /^offline/ }).waitFor({ timeout: 5_000 });
    assert.equal(await colour(), grey, 'offline, the dot is grey');
    assert.match(await count.textContent(), /^\d+ · presence unknown$/);
    await shoot(page, 'admin-offline');
    await page.context().setOffline(false);
    await page.getByRole('status').filter({ hasText: /^online/ }).waitFor({ timeout: 15_000 });
    assert.equal(await colour(), present, 'present again once back online');
    assert.match(await count.textContent(), /^\d+ · \d+ online$/);

    // Load mod/analytics from the page.
    const mods = admin.getByRole('region', { name: 'Mods' });
    await mods.getByRole('combobox').selectOption('analytics');
    await mods.getByRole('button', { name: 'Load', exact: true }).click();
    await notice.filter({ hasText: 'Load a mod: done.' }).waitFor({ timeout: 10_000 });
    await mods.getByText('mod/analytics').waitFor();

    const alice = await Agent.connect({ url: edge.url, network: id, name: 'agent:alice' });
    agents.push(alice);
    for (const text of ['one', 'two', 'three']) await alice.send('agent:broadcast', 'chat.message', { text });

    // The charts: re-opening the view reads the counts again.
    await views.getByRole('link', { name: 'About' }).click();
    await views.getByRole('link', { name: 'Admin' }).click();
    const analytics = admin.getByRole('region', { name: 'Analytics' });
    const perType = analytics.getByRole('img', { name: 'Events per type' });
    await perType.locator('.bar[data-label="chat.message"][data-value="3"]').waitFor({ timeout: 10_000 });
    await analytics.getByRole('img', { name: 'Events per source' }).locator('.bar[data-label="agent:alice"]').waitFor();
    const minutes = analytics.getByRole('img', { name: 'Events per minute (last hour, UTC)' }).locator('.bar');
    assert.equal(await minutes.count(), 60);
    const perMinute = await minutes.evaluateAll((bars) => bars.map((b) => Number(b.dataset.value)));
    assert.ok(perMinute.reduce((a, b) => a + b, 0) >= 3, `${perMinute}`);

    // Pause: the agent's sends are refused with the code, and only Resume is enabled; resume flips it back.
    await pause.click();
    await admin.locator('.network-status', { hasText: 'paused' }).waitFor({ timeout: 10_000 });
    await until('Resume enabled, Pause disabled', async () => (await resume.isEnabled()) && !(await pause.isEnabled()));
    await assert.rejects(alice.send('agent:broadcast', 'chat.message', { text: 'four' }), { code: 'network_unavailable' });
    await resume.click();
    await admin.locator('.network-status', { hasText: 'active' }).waitFor({ timeout: 10_000 });
    await until('Pause enabled, Resume disabled', async () => (await pause.isEnabled()) && !(await resume.isEnabled()));
    assert.ok((await alice.send('agent:broadcast', 'chat.message', { text: 'five' })).seq > 0);

    // An invitation from the page, used by an agent: the page hears it was accepted.
    const invitations = admin.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('textbox', { name: 'Invitee (optional)' }).fill('agent:guest');
    await invitations.getByRole('button', { name: 'Invite' }).click();
    await notice.filter({ hasText: 'Invitation code:' }).waitFor({ timeout: 10_000 });
    const code = (await notice.textContent()).match(/Invitation code: ([0-9a-f]+)/)[1];
    // With the link that opens the invitation page (tests/e2e/web/invitation-and-sessions.test.mjs).
    assert.ok((await notice.textContent()).includes(`${edge.url}/invite/${id}#${code}`), await notice.textContent());
    await invitations.getByRole('button', { name: 'Revoke the invitation for agent:guest' }).waitFor();
    const guest = await Agent.connect({ url: edge.url, network: id, name: 'agent:guest', invite: code });
    agents.push(guest);
    await invitations.getByRole('list', { name: 'Invitation news' }).getByText('agent:guest accepted your invitation.').waitFor({ timeout: 10_000 });
    // The list is read again after the news: the used invitation leaves it.
    await invitations.getByRole('button', { name: /Revoke the invitation/ }).waitFor({ state: 'detached', timeout: 10_000 });

    // Ban the agent from the page: its socket closes and it may not come back.
    const changes = [];
    alice.onConnectionChange((change) => changes.push(change.online));
    await list.getByRole('button', { name: 'Ban agent:alice', exact: true }).click();
    await notice.filter({ hasText: 'Ban a member: done.' }).waitFor({ timeout: 10_000 });
    await until('alice is closed out', () => changes.includes(false));
    await assert.rejects(Agent.connect({ url: edge.url, network: id, name: 'agent:alice', reconnect: false }), { code: 'banned' });
    // She is listed as banned, with Unban, and no longer among the members.
    const banned = members.getByRole('list', { name: 'Banned' });
    await banned.getByRole('button', { name: 'Unban agent:alice' }).waitFor({ timeout: 10_000 });
    await list.locator('.admin-member[data-address="agent:alice"]').waitFor({ state: 'detached', timeout: 10_000 });

    // Archive (final), after a confirmation: every member's session ends, the guest's socket
    // closes for good, and the page says the network is archived.
    const closed = [];
    guest.onConnectionChange((change) => closed.push(change.online));
    page.once('dialog', (dialog) => dialog.accept());
    await status.getByRole('button', { name: 'Archive (final)' }).click();
    await until('the guest is closed out', () => closed.includes(false));
    await notice.filter({ hasText: 'Archive: done. Everyone\'s session has ended' }).waitFor({ timeout: 10_000 });
    await admin.locator('.network-status', { hasText: 'archived' }).waitFor({ timeout: 10_000 });
    for (const name of ['Pause', 'Resume', 'Archive (final)']) {
      assert.equal(await status.getByRole('button', { name }).isEnabled(), false, name);
    }
    await assert.rejects(Agent.connect({ url: edge.url, network: id, name: 'agent:guest', reconnect: false }), { code: 'network_unavailable' });
    await shoot(page, 'admin-archived');
  } finally {
    for (const agent of agents) agent.close();
    await page.close();
  }
});

test('someone who is not a master sees no Admin tab, and its URL says plainly they are not an admin', async () => {
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    await openWorkspace(page, started.edge.url);
    const url = page.url().replace(/\/$/, '');
    await page.goto(`${url}/admin`);
    const admin = page.getByRole('region', { name: 'Admin' });
    await admin.getByText('You are not an admin of this network.').waitFor({ timeout: 15_000 });
    // The core refused the configuration read: the tab is not there, and no red alert either.
    const views = page.getByRole('navigation', { name: 'Views' });
    await views.getByRole('link', { name: 'About' }).waitFor();
    assert.equal(await views.getByRole('link', { name: 'Admin' }).count(), 0);
    assert.equal(await admin.getByRole('alert').count(), 0);
    assert.equal(await admin.getByRole('button').count(), 0);
    await accessible(page, 'the Admin view of someone who is not a master');
    await shoot(page, 'admin-not-master');
    // Back in the conversation, still no Admin tab.
    await views.getByRole('link', { name: 'Conversation' }).click();
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    assert.equal(await views.getByRole('link', { name: 'Admin' }).count(), 0);
  } finally {
    await page.close();
  }
});
