// The Admin view in the web workspace (issue 26): the page that created a
// network is its master; from the Admin view it loads mod/analytics, reads
// the counts as charts, pauses and resumes the network (an npm agent's sends
// are refused meanwhile), issues an invitation an agent then uses (the page
// hears of it), and bans a member (its socket closes, its rejoin is refused).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../core/js/index.js';
import { edgeAndBrowser, openWorkspace } from '../support/browser.mjs';
import { until } from '../support/process.mjs';

const started = edgeAndBrowser();

test('a master manages the network and reads its analytics from the Admin view', async () => {
  const { edge, browser } = started;
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const agents = [];
  try {
    await openWorkspace(page, edge.url);
    const bar = page.getByRole('navigation', { name: 'Networks' });
    await bar.locator('summary').click();
    await bar.getByLabel('Network (id, URL or new name)').fill('admin room');
    await bar.getByRole('radio', { name: 'Anyone with the link' }).check();
    await bar.getByRole('button', { name: 'Create' }).click();
    await page.locator('.topbar .network:not([data-id="demo"])').waitFor({ timeout: 10_000 });
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    const id = await page.locator('.topbar .network').getAttribute('data-id');

    const views = page.getByRole('navigation', { name: 'Views' });
    await views.getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(`**/n/${id}/admin`);
    const admin = page.getByRole('region', { name: 'Admin' });
    await admin.locator('.network-status', { hasText: 'active' }).waitFor({ timeout: 10_000 });
    const notice = admin.locator('.notice');

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

    // Pause: the agent's sends are refused with the code; resume lets them on.
    await admin.getByRole('button', { name: 'Pause' }).click();
    await admin.locator('.network-status', { hasText: 'paused' }).waitFor({ timeout: 10_000 });
    await assert.rejects(alice.send('agent:broadcast', 'chat.message', { text: 'four' }), { code: 'network_unavailable' });
    await admin.getByRole('button', { name: 'Resume' }).click();
    await admin.locator('.network-status', { hasText: 'active' }).waitFor({ timeout: 10_000 });
    assert.ok((await alice.send('agent:broadcast', 'chat.message', { text: 'five' })).seq > 0);

    // An invitation from the page, used by an agent: the page hears it was accepted.
    const invitations = admin.getByRole('region', { name: 'Invitations' });
    await invitations.getByRole('textbox', { name: 'Invitee (optional)' }).fill('agent:guest');
    await invitations.getByRole('button', { name: 'Invite' }).click();
    await notice.filter({ hasText: 'Invitation code:' }).waitFor({ timeout: 10_000 });
    const code = (await notice.textContent()).match(/Invitation code: ([0-9a-f]+)/)[1];
    // With the link that opens the invitation page (tests/e2e/web-workspace.test.mjs).
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
    const members = admin.getByRole('region', { name: 'Members' });
    await members.getByRole('textbox', { name: 'Address' }).fill('agent:alice');
    await members.getByRole('button', { name: 'Ban', exact: true }).click();
    await notice.filter({ hasText: 'Ban a member: done.' }).waitFor({ timeout: 10_000 });
    await until('alice is closed out', () => changes.includes(false));
    await assert.rejects(Agent.connect({ url: edge.url, network: id, name: 'agent:alice', reconnect: false }), { code: 'banned' });
  } finally {
    for (const agent of agents) agent.close();
    await page.close();
  }
});

test('someone who is not a master is told so in the Admin view', async () => {
  const page = await started.browser.newPage();
  try {
    await openWorkspace(page, started.edge.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Admin' }).click();
    await page.getByRole('region', { name: 'Admin' }).getByRole('alert').filter({ hasText: 'Only masters manage this network' }).waitFor({ timeout: 10_000 });
  } finally {
    await page.close();
  }
});
