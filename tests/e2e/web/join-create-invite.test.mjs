// Starting out, in Chromium against a real edge: Join and Create are two
// separate flows (Join asks for an invitation link or a network and its
// token, never who may join; Create asks a name and who may join; one
// primary button each, and no two buttons called "Create"); after creating,
// the new network opens on a step that offers an invitation link whose
// expiry and use limit the creator picks, and invitations for named
// addresses; the link is reusable: two people join with it, one by pasting
// it into Join.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { edgeAndBrowser, openWorkspace } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';

const started = edgeAndBrowser();

test('separate Join and Create flows; after creating, a reusable invitation link with a chosen expiry and use limit', async () => {
  const { edge, browser } = started;
  const [owner, second, third] = [await browser.newContext(), await browser.newContext(), await browser.newContext()];
  try {
    const page = await owner.newPage({ viewport: { width: 1366, height: 768 } });
    await openWorkspace(page, edge.url);
    const bar = page.getByRole('navigation', { name: 'Networks' });
    await bar.locator('summary').click();
    const flows = bar.getByRole('group', { name: 'Join or create' });
    // Join first: an invitation link or a network, no access choices.
    assert.equal(await flows.getByRole('button', { name: 'Join a network' }).getAttribute('aria-pressed'), 'true');
    const join = bar.getByRole('form', { name: 'Join a network' });
    await join.getByLabel("Invitation link, or the network's link or id").waitFor();
    assert.equal(await bar.getByRole('radio').count(), 0, 'joining asks nothing about who may join');
    assert.deepEqual(await join.getByRole('button').allTextContents(), ['Join']);
    await shoot(page, 'start-join', async () => {
      if (!(await bar.locator('details').evaluate((d) => d.open))) await bar.locator('summary').click();
    });

    // Create: a name and who may join; the token only for a token network.
    await flows.getByRole('button', { name: 'Create a network' }).click();
    const create = bar.getByRole('form', { name: 'Create a network' });
    assert.equal(await bar.getByRole('form', { name: 'Join a network' }).count(), 0);
    const access = create.getByRole('group', { name: 'Who may join' });
    assert.equal(await access.getByRole('radio', { name: 'Only people I invite' }).isChecked(), true);
    assert.equal(await create.getByLabel(/Access token/).count(), 0);
    await access.getByRole('radio', { name: 'Anyone with the access token' }).check();
    await create.getByLabel(/Access token/).waitFor();
    await access.getByRole('radio', { name: 'Only people I invite' }).check();
    assert.deepEqual(await create.getByRole('button').allTextContents(), ['Create network']);
    assert.ok(await page.getByRole('button', { name: 'Create', exact: true }).count() <= 1, 'no two buttons called Create');
    await create.getByLabel('Network name').fill('Launch Crew');
    await shoot(page, 'start-create', async () => {
      if (!(await bar.locator('details').evaluate((d) => d.open))) await bar.locator('summary').click();
    });
    await create.getByRole('button', { name: 'Create network' }).click();

    // The new network opens on the step that invites people.
    await page.locator('.topbar .network:not([data-id="demo"])').waitFor({ timeout: 15_000 });
    const id = await page.locator('.topbar .network').getAttribute('data-id');
    const step = page.getByRole('region', { name: 'Launch Crew is ready: invite people' });
    await step.waitFor({ timeout: 15_000 });
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    await step.getByLabel('Link works for').selectOption({ label: '1 day' });
    await step.getByLabel('People who may use it').selectOption('5');
    await step.getByRole('button', { name: 'Create invitation link' }).click();
    const anyone = step.locator('.made-link', { hasText: 'For anyone with the link' });
    await anyone.waitFor({ timeout: 10_000 });
    assert.match(await anyone.locator('.limits').textContent(), /^up to 5 people · expires in (23|24) h$/);
    const link = await anyone.getByRole('textbox').inputValue();
    assert.match(link, new RegExp(`/invite/${id}#[0-9a-f]+$`));
    // Whom to invite: one address, its own single-use link.
    await step.getByLabel('Or invite one person or agent by address').fill('agent:helper');
    await step.getByRole('button', { name: 'Invite', exact: true }).click();
    const named = step.locator('.made-link', { hasText: 'For agent:helper' });
    await named.waitFor({ timeout: 10_000 });
    assert.match(await named.locator('.limits').textContent(), /^one person · /);
    await shoot(page, 'start-invite');
    await step.getByRole('button', { name: 'Done' }).click();
    await step.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    assert.equal(await page.getByRole('region', { name: /is ready: invite people/ }).count(), 0, 'done is done');

    // The link admits more than one person: one pastes it into Join, another opens it.
    const bob = await second.newPage({ viewport: { width: 390, height: 844 } });
    await openWorkspace(bob, edge.url);
    const bobBar = bob.getByRole('navigation', { name: 'Networks' });
    await bobBar.locator('summary').click();
    await bobBar.getByLabel("Invitation link, or the network's link or id").fill(link);
    await bobBar.getByRole('button', { name: 'Join', exact: true }).click();
    for (const [who, name] of [[bob, 'Bob'], [await third.newPage(), 'Cleo']]) {
      if (name === 'Cleo') await who.goto(link);
      const card = who.getByRole('main', { name: 'Invitation' });
      await card.getByText('Launch Crew').waitFor({ timeout: 15_000 });
      await card.getByRole('textbox', { name: 'Your name there' }).fill(name);
      await card.getByRole('button', { name: 'Accept' }).click();
      await who.waitForURL(`**/n/${id}`);
      await who.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
    }
    const people = page.getByRole('complementary', { name: 'People' });
    await people.locator('.person .name', { hasText: 'Bob' }).waitFor({ timeout: 15_000 });
    await people.locator('.person .name', { hasText: 'Cleo' }).waitFor({ timeout: 15_000 });
  } finally {
    await owner.close();
    await second.close();
    await third.close();
  }
});
