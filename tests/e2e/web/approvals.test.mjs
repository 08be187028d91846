// Approval cards in Chromium against the local edge: an agent asks (through
// the SDK's `agent.approval()`) in a channel, naming the person in the page;
// the card shows what will happen, on what and the detail, with Approve,
// Deny and Edit; the person edits and approves, and the agent's promise
// resolves with the edited step; a second request is denied from the page;
// each card then says what was decided. Screenshots of a waiting card at
// both sizes in both schemes (approval-card-*).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { createChannelFromNav, edgeAndBrowser, joinCreatedChannel, openNetwork } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';

const started = edgeAndBrowser();

test('a person approves an edited step and denies another from approval cards in the workspace', async () => {
  const { id } = await createNetwork(started.edge.url, { name: 'Approvals', mods: ['workspace', 'persistence'] });
  const deployer = await Agent.connect({ url: started.edge.url, network: id, name: 'agent:deployer' });
  const page = await started.browser.newPage({ viewport: { width: 1366, height: 768 } });
  try {
    await openNetwork(page, started.edge.url, id);
    const me = await page.locator('.me').getAttribute('data-address');
    const myName = me.replace(/^human:/, ''); // a guest who gave no name goes by its address's name
    await createChannelFromNav(page, 'ops');
    await joinCreatedChannel(deployer, 'ops');

    const approved = deployer.approval({
      to: 'channel/ops', approvers: [me], kind: 'message', subject: 'channel/announce',
      summary: 'Announce the release in #announce', detail: 'v2 is out', expiresInMs: 120_000,
    });
    const card = page.locator('.approval-card').first();
    await card.waitFor({ timeout: 15_000 });
    assert.match(await card.locator('.approval-summary').textContent(), /Announce the release/);
    assert.match(await card.locator('.approval-detail').textContent(), /v2 is out/);
    assert.match(await card.locator('.approval-expiry').textContent(), new RegExp(`Waiting for ${myName}`));
    await shoot(page, 'approval-card', async () => {
      await card.scrollIntoViewIfNeeded();
    });

    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByRole('textbox').fill('v2.0 is out today');
    await card.getByRole('button', { name: 'Approve edited' }).click();
    const result = await approved;
    assert.equal(result.decision, 'approved');
    assert.equal(result.detail, 'v2.0 is out today');
    assert.equal(result.by, me);
    await card.locator('.approval-outcome', { hasText: `Approved with changes by ${myName}` }).waitFor({ timeout: 10_000 });
    assert.equal(await card.getByRole('button', { name: 'Approve' }).count(), 0, 'no controls once decided');

    const denied = deployer.approval({
      to: 'channel/ops', approvers: [me], kind: 'tool_call', subject: 'resource/tool/deploy',
      summary: 'Call deploy with {"env":"production"}', detail: { env: 'production' }, expiresInMs: 120_000,
    });
    const second = page.locator('.approval-card', { hasText: 'Call deploy' });
    await second.waitFor({ timeout: 15_000 });
    await second.getByRole('button', { name: 'Deny' }).click();
    assert.equal((await denied).decision, 'denied');
    await second.locator('.approval-outcome', { hasText: `Denied by ${myName}` }).waitFor({ timeout: 10_000 });
  } finally {
    await page.close();
    deployer.close();
  }
});
