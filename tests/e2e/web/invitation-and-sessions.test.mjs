// The Workspace in Chromium: an invitation link opens a page that shows the
// network and who invited, where Decline tells the inviter and Accept joins
// (an invite-only network) and opens the workspace; a session shows by its
// title and status, follows an agent's updates and is renamed from its
// header; a question in it delegated to an expert is answered there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { edgeAndBrowser } from '../../support/browser.mjs';
import { inviteNetworkWithHost } from '../../support/agents.mjs';
import { until } from '../../support/process.mjs';
import { assertAccessible } from '../../support/axe.mjs';
import { shoot } from '../../support/shots.mjs';

const started = edgeAndBrowser();

test('an invitation page declines or accepts, and a session is shown and updated in the workspace', async () => {
  const { edge, browser } = started;
  const { id, admin_token, host } = await inviteNetworkWithHost(edge, 'Launch crew');
  const news = [];
  host.on('workspace.invitation.*', (event) => news.push(event));
  const sessionNews = [];
  host.on('workspace.session.updated', (event) => sessionNews.push(event));
  const context = await browser.newContext();
  try {
    const invite = async () => (await host.send('core', 'workspace.invitation.created', {})).code;

    // Decline: the page shows the network and the inviter; the inviter hears of it.
    const page = await context.newPage();
    const declined = await invite();
    await page.goto(`${edge.url}/invite/${id}#${declined}`);
    const card = page.getByRole('main', { name: 'Invitation' });
    await card.getByText('Launch crew').waitFor({ timeout: 15_000 });
    assert.match(await card.locator('.inviter').textContent(), /agent:host/);
    await assertAccessible(page, 'the invitation page');
    await shoot(page, 'invitation');
    await card.getByRole('button', { name: 'Decline' }).click();
    await card.getByRole('status').filter({ hasText: 'You declined the invitation to Launch crew' }).waitFor({ timeout: 10_000 });
    await until('the rejection news', () => news.find((e) => e.type === 'workspace.invitation.rejected'));
    // The declined code is void: opening it again says so.
    await page.reload();
    await card.getByRole('alert').filter({ hasText: 'used, revoked or expired' }).waitFor({ timeout: 10_000 });
    // A link cut short of its code says so, without asking the network.
    await page.goto(`${edge.url}/invite/${id}`);
    await card.getByRole('alert').filter({ hasText: 'This link has no invitation code' }).waitFor({ timeout: 10_000 });
    await shoot(page, 'invitation-no-code');

    // Accept: joins the invite-only network with the code and opens its workspace.
    const accepted = await invite();
    await page.goto(`${edge.url}/invite/${id}#${accepted}`);
    await card.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(`**/n/${id}`);
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    const joined = await until('the acceptance news', () => news.find((e) => e.type === 'workspace.invitation.accepted'));
    const me = joined.payload.invitee;
    assert.match(me, /^human:guest-/);
    // The network is called by the name the invitation gave.
    assert.equal((await page.locator('.topbar .network').textContent()).trim(), 'Launch crew');

    // A session the host creates shows by its title once opened, with its header.
    const session = await host.createSession({ session: 'plan', title: 'Plan the launch' });
    await page.goto(`${edge.url}/n/${id}/channel/session-plan`);
    const header = page.getByRole('region', { name: 'Session' });
    await header.getByRole('heading', { name: 'Plan the launch' }).waitFor({ timeout: 15_000 });
    assert.equal(await header.locator('.session-status').textContent(), 'open');
    await assertAccessible(page, 'a session with its header');
    // The host's update reaches the page: the header and the conversation list follow it.
    await host.updateSession('plan', { title: 'Launch day', status: 'closed' });
    await header.getByRole('heading', { name: 'Launch day' }).waitFor({ timeout: 10_000 });
    assert.equal(await header.locator('.session-status').textContent(), 'closed');
    const list = page.getByRole('navigation', { name: 'Conversations' });
    await list.getByRole('link', { name: '# Launch day · closed' }).waitFor({ timeout: 10_000 });

    // The person, a participant now, renames and reopens it from the header.
    await header.getByLabel('Session title').fill('Launch week');
    await header.getByLabel('Status').selectOption('open');
    // Another session changing meanwhile keeps the person's choice (the header is drawn again).
    await host.createSession({ session: 'other', title: 'Another plan' });
    await list.getByRole('link', { name: /Another plan/ }).waitFor({ timeout: 10_000 });
    await header.getByRole('button', { name: 'Update session' }).click();
    const update = await until('the person\'s update', () => sessionNews.find((e) => e.source === me));
    assert.equal(update.payload.title, 'Launch week');
    assert.equal(update.payload.status, 'open');
    assert.equal(update.payload.session, 'plan');
    await header.getByRole('heading', { name: 'Launch week' }).waitFor({ timeout: 10_000 });
    await list.getByRole('link', { name: '# Launch week' }).waitFor({ timeout: 10_000 });
    await shoot(page, 'session-header');

    // A question asked in the session, delegated by the host (a master) to an expert:
    // the answer comes back into the session, marked with who delegated it.
    const expert = await Agent.connect({ url: edge.url, network: id, name: 'agent:expert', credentials: { admin_token } });
    try {
      expert.onDelegated((delegation) => `${delegation.payload.content} → 42`);
      host.on('workspace.message.posted', (event) => {
        if (event.source === me) host.delegate(event, 'agent:expert', { note: 'yours' }).catch(() => {});
      });
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('what is 6 x 7?');
      await box.press('Enter');
      // The answer is in the question's thread (it answers it), not repeated in the session.
      const question = page.locator('.conversation-column .message', { hasText: 'what is 6 x 7?' });
      await question.locator('.thread-link', { hasText: '1 reply' }).click({ timeout: 10_000 });
      const answer = page.getByRole('region', { name: 'Thread' }).locator('.message', { hasText: 'what is 6 x 7? → 42' });
      await answer.waitFor({ timeout: 10_000 });
      assert.equal(await answer.locator('.source').getAttribute('data-address'), 'agent:expert');
      assert.equal(await answer.locator('.delegated').textContent(), 'delegated by host');
      assert.equal(await page.locator('.conversation-column .message', { hasText: '→ 42' }).count(), 0);
      await page.getByRole('link', { name: 'Back to the conversation' }).click();
    } finally {
      expert.close();
    }

    // Archived is final: the page says why a later rename is refused.
    await host.updateSession('plan', { status: 'archived' });
    await header.locator('.session-status', { hasText: 'archived' }).waitFor({ timeout: 10_000 });
    await header.getByLabel('Session title').fill('Too late');
    await header.getByRole('button', { name: 'Update session' }).click();
    await page.getByRole('alert').filter({ hasText: 'The session was not updated: session plan is archived' }).waitFor({ timeout: 10_000 });
    assert.equal(await header.getByRole('heading').textContent(), 'Launch week');
  } finally {
    await context.close();
    host.close();
  }
});
