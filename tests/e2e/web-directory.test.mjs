// The Directory in the workspace (issue 25), in Chromium against a real edge:
// an agent registered with an ACS whose endpoint is a member's A2A binding in
// a network is found by capability, its ANP description opens, and the page
// starts a direct conversation with it and joins its network.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, KeyPair, register } from '../../core/js/index.js';
import { createNetwork, startEdge } from '../support/edge.mjs';
import { launchBrowser } from '../support/browser.mjs';

let edge;
let browser;
let agent;

before(async () => {
  edge = await startEdge();
  browser = await launchBrowser();
});

after(async () => {
  agent?.close();
  await browser?.close();
  await edge?.stop();
});

test('search the Directory by capability, open a description, talk to the agent in its network', async () => {
  const { id: network } = await createNetwork(edge.url, { name: 'translators', public: true });
  agent = await Agent.connect({ url: edge.url, network, name: 'agent:polyglot' });
  const acs = (name, skill, description) => ({
    active: true, lastModifiedTime: '2026-01-01T00:00:00Z', protocolVersion: '01.00', name, description, version: '1.0.0',
    provider: { organization: 'Test Org', url: 'https://example.com', license: 'MIT' }, securitySchemes: {},
    endPoints: [{ url: `${edge.url}/networks/${network}/a2a/agent:${name}`, transport: 'JSONRPC' }],
    capabilities: { streaming: false, notification: false, messageQueue: [] },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: skill, name: skill, description: `does ${skill}`, version: '1', tags: [skill] }],
  });
  await register({ url: edge.url, name: 'polyglot', key: KeyPair.generate(), acs: acs('polyglot', 'translation', 'turns any text into another language') });
  await register({ url: edge.url, name: 'chatty', key: KeyPair.generate(), acs: acs('chatty', 'chat', 'talks, and mentions translation once') });

  // The network's own discovery page lists the agents with an endpoint in it.
  const own = await (await fetch(`${edge.url}/networks/${network}/.well-known/agent-descriptions`)).json();
  assert.equal(own['@type'], 'CollectionPage');
  assert.deepEqual(own.items.map((i) => i.name).sort(), ['chatty', 'polyglot']);
  const other = await createNetwork(edge.url, { name: 'empty' });
  assert.deepEqual((await (await fetch(`${edge.url}/networks/${other.id}/.well-known/agent-descriptions`)).json()).items, []);

  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${edge.url}/directory`);
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
  for (let i = 0; i < 200 && heard.length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
  assert.equal(heard[0]?.[1], 'can you translate this?');

  // Back in the Directory, "Join its network" opens the network's workspace.
  await page.goto(`${edge.url}/directory`);
  await directory.getByLabel('Search agents by capability').fill('chat');
  await directory.getByRole('button', { name: 'Search' }).click();
  await found.getByRole('button', { name: 'chatty' }).click();
  await description.getByRole('link', { name: 'Join its network' }).click();
  await page.waitForURL(`**/n/${network}`, { timeout: 10_000 });
  await page.locator(`.topbar .network[data-id="${network}"]`).waitFor({ timeout: 10_000 });
  await context.close();
});
