// The Directory in the workspace, in Chromium against a real edge:
// an agent registered with an ACS whose endpoint is a member's A2A binding in
// a network is found by capability, its ANP description opens, and the page
// starts a direct conversation with it and joins its network. The
// Directory lists public networks by name and description, joined by a
// click, and finds a listed member of a public network by the tool it
// offers; axe-core is clean on it in both colour schemes.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, KeyPair, register } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser } from '../../support/browser.mjs';
import { assertAccessible } from '../../support/axe.mjs';
import { shoot } from '../../support/shots.mjs';
import { until } from '../../support/waits.mjs';

let agent;
let calc;

after(() => {
  agent?.close();
  calc?.close();
});
const started = edgeAndBrowser();

test('search the Directory by capability, open a description, talk to the agent in its network', async () => {
  const { id: network } = await createNetwork(started.edge.url, { name: 'translators', public: true });
  agent = await Agent.connect({ url: started.edge.url, network, name: 'agent:polyglot' });
  const acs = (name, skill, description) => ({
    active: true, lastModifiedTime: '2026-01-01T00:00:00Z', protocolVersion: '01.00', name, description, version: '1.0.0',
    provider: { organization: 'Test Org', url: 'https://example.com', license: 'MIT' }, securitySchemes: {},
    endPoints: [{ url: `${started.edge.url}/networks/${network}/a2a/agent:${name}`, transport: 'JSONRPC' }],
    capabilities: { streaming: false, notification: false, messageQueue: [] },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: skill, name: skill, description: `does ${skill}`, version: '1', tags: [skill] }],
  });
  await register({ url: started.edge.url, name: 'polyglot', key: KeyPair.generate(), acs: acs('polyglot', 'translation', 'turns any text into another language') });
  await register({ url: started.edge.url, name: 'chatty', key: KeyPair.generate(), acs: acs('chatty', 'chat', 'talks, and mentions translation once') });

  // The network's own discovery page lists the agents with an endpoint in it.
  const own = await (await fetch(`${started.edge.url}/networks/${network}/.well-known/agent-descriptions`)).json();
  assert.equal(own['@type'], 'CollectionPage');
  assert.deepEqual(own.items.map((i) => i.name).sort(), ['chatty', 'polyglot']);
  const other = await createNetwork(started.edge.url, { name: 'empty' });
  assert.deepEqual((await (await fetch(`${started.edge.url}/networks/${other.id}/.well-known/agent-descriptions`)).json()).items, []);

  const context = await started.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${started.edge.url}/directory`);
  const directory = page.getByRole('main', { name: 'Directory' });
  await directory.getByLabel('Search agents by capability').fill('translation');
  await directory.getByRole('button', { name: 'Search' }).click();
  const found = directory.getByRole('list', { name: 'Agents found' });
  await found.waitFor({ timeout: 10_000 });
  const names = await found.getByRole('button').allTextContents();
  assert.deepEqual(names, ['polyglot', 'chatty'], 'the exact skill first');

  await found.getByRole('button', { name: 'polyglot' }).click();
  const description = page.getByRole('region', { name: 'Agent description' });
  await description.getByText(/did:wba:.*:agents:polyglot/).waitFor({ timeout: 10_000 });
  const card = description.getByRole('link', { name: 'Agent card' });
  assert.equal(await card.getAttribute('href'), `/networks/${network}/a2a/agent:polyglot/.well-known/agent-card.json`);

  await description.getByRole('link', { name: 'Start a conversation' }).click();
  await page.waitForURL(`**/n/${network}/with/agent:polyglot`, { timeout: 10_000 });
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
  const heard = [];
  agent.on('workspace.message.posted', (e) => heard.push([e.source, e.payload.content]));
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('can you translate this?');
  await box.press('Enter');
  await until('the agent hears the message', () => heard.length > 0, 10_000);
  assert.equal(heard[0]?.[1], 'can you translate this?');

  // Back in the Directory, "Join its network" opens the network's workspace.
  await page.goto(`${started.edge.url}/directory`);
  await directory.getByLabel('Search agents by capability').fill('chat');
  await directory.getByRole('button', { name: 'Search' }).click();
  await found.getByRole('button', { name: 'chatty' }).click();
  await description.getByRole('link', { name: 'Join its network' }).click();
  await page.waitForURL(`**/n/${network}`, { timeout: 10_000 });
  await page.locator(`.topbar .network[data-id="${network}"]`).waitFor({ timeout: 10_000 });
  await context.close();
});

test('the Directory lists public networks to join and finds an agent by the tool it offers', async () => {
  const { id: guild } = await createNetwork(started.edge.url, {
    name: 'Calculators Guild', public: true, description: 'Agents that do sums for anyone who asks.',
  });
  const { id: hidden } = await createNetwork(started.edge.url, { name: 'Back office', public: false });
  calc = await Agent.connect({ url: started.edge.url, network: guild, name: 'agent:calc' });
  await calc.registerTool('calculator', { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
    ({ a, b }) => ({ sum: a + b }), { description: 'adds two numbers' });
  await calc.setProfile({ description: 'does arithmetic', listed: true });

  const context = await started.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  try {
    await page.goto(`${started.edge.url}/directory`);
    const directory = page.getByRole('main', { name: 'Directory' });
    const networks = directory.getByRole('list', { name: 'Public networks' });
    const card = networks.locator(`[data-network="${guild}"]`);
    await card.waitFor({ timeout: 10_000 });
    assert.equal(await card.getByRole('heading').textContent(), 'Calculators Guild');
    await card.getByText('Agents that do sums for anyone who asks.').waitFor();
    assert.equal(await networks.locator(`[data-network="${hidden}"]`).count(), 0, 'a private network is not listed');

    // Search by the tool's name: the member offering it is found (the listing reaches the registry soon after).
    const found = directory.getByRole('list', { name: 'Agents found' });
    await until('the calculator agent is found by its tool', async () => {
      await directory.getByLabel('Search agents by capability').fill('calculator');
      await directory.getByRole('button', { name: 'Search' }).click();
      await directory.getByRole('region', { name: 'Agents' }).waitFor();
      return (await found.getByRole('button', { name: 'calc', exact: true }).count()) === 1;
    });
    const hit = found.locator('.agent-card', { has: page.getByRole('button', { name: 'calc', exact: true }) });
    await hit.getByRole('list', { name: 'Tools' }).getByText('calculator').waitFor();
    // Its network by name (the public networks' list names it), the id in the tooltip.
    await hit.getByText('member of Calculators Guild').waitFor();
    assert.equal(await hit.getByText('member of Calculators Guild').getAttribute('title'), `network ${guild}`);
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      await assertAccessible(page, `the Directory (${colorScheme})`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await shoot(page, 'directory');

    // Joining a listed network is one click: its workspace opens.
    await card.getByRole('link', { name: 'Join Calculators Guild' }).click();
    await page.waitForURL(`**/n/${guild}`, { timeout: 10_000 });
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
  } finally {
    await context.close();
  }
});
