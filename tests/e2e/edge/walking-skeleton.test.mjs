// One event through all three runtimes: a JS agent (the npm package in Node)
// and the web workspace (Chromium) exchange messages through the edge
// (wrangler dev on workerd).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Agent, AgentnetError } from '../../../core/js/index.js';
import { edgeAndBrowser, openWorkspace } from '../../support/browser.mjs';
import { shoot } from '../../support/shots.mjs';
import { nextEvent } from '../../support/events.mjs';

// Agents are closed first, so a failing test cannot leave one reconnecting forever.
const agents = [];
async function connectAgent(options) {
  const agent = await Agent.connect(options);
  agents.push(agent);
  return agent;
}

after(() => {
  for (const agent of agents) agent.close();
});
const started = edgeAndBrowser();

test('the workspace and a JS agent exchange messages through the edge', async () => {
  const page = await started.browser.newPage({ viewport: { width: 1280, height: 720 } });
  await openWorkspace(page, started.edge.url);
  const human = (await page.locator('.me').getAttribute('data-address')).trim();
  assert.match(human, /^human:guest-\d{5}$/);

  const agent = await connectAgent({ url: started.edge.url, network: 'demo', name: 'agent:echo', WebSocket });
  assert.equal(agent.address, 'agent:echo');

  // Agent -> page.
  const ack = await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'hello from a JS agent' });
  assert.equal(typeof ack.seq, 'number');
  const fromAgent = page.locator('.message', { hasText: 'hello from a JS agent' });
  await fromAgent.waitFor({ timeout: 10_000 });
  assert.equal(await fromAgent.locator('.source').getAttribute('data-address'), 'agent:echo');

  // Page -> agent, typed and sent with the keyboard; the agent replies and the page shows the reply.
  const received = nextEvent(agent, 'workspace.message.*', (e) => e.payload.content === 'hello from the browser');
  await page.getByRole('textbox', { name: 'Message' }).fill('hello from the browser');
  await page.getByRole('textbox', { name: 'Message' }).press('Enter');
  const event = await received;
  assert.equal(event.source, human);
  assert.equal(event.target, 'agent:broadcast');
  assert.equal(event.network, 'demo');
  assert.match(event.id, /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  assert.equal(typeof event.timestamp, 'number');
  await page.locator('.message', { hasText: 'hello from the browser' }).locator('.state', { hasText: 'sent' }).waitFor();

  await agent.send(human, 'workspace.message.posted', { content: `echo: ${event.payload.content}` },
    { metadata: { in_reply_to: event.id } });
  // A direct answer opens a direct conversation with the agent in the sidebar.
  await page.getByRole('navigation', { name: 'Conversations' }).getByRole('link', { name: /^echo agent/ }).click({ timeout: 10_000 });
  const reply = page.locator('.message', { hasText: 'echo: hello from the browser' });
  await reply.waitFor({ timeout: 10_000 });
  assert.equal(await reply.locator('.source').getAttribute('data-address'), 'agent:echo');

  await shoot(page, 'workspace');
  agent.close();
  await page.close();
});

test('the edge rejects bad input with a stable code and keeps the connection', async () => {
  const agent = await connectAgent({ url: started.edge.url, network: 'demo', name: 'agent:tester', WebSocket });
  await assert.rejects(agent.send('agent:nobody-here', 'workspace.message.posted', {}), (err) => {
    assert.ok(err instanceof AgentnetError);
    assert.equal(err.code, 'unknown_target');
    return true;
  });
  await assert.rejects(agent.send('other::agent:x', 'workspace.message.posted', {}), { code: 'cross_network' });
  // The same connection still works.
  const ack = await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'still here' });
  assert.ok(ack.seq >= 1);
  agent.close();
});

test('an unknown network is a clear 404 and a plain GET asks for an upgrade', async () => {
  const missing = await fetch(`${started.edge.url}/networks/nope/v1/ws`);
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).code, 'not_found');
  const plain = await fetch(`${started.edge.url}/networks/demo/v1/ws`);
  assert.equal(plain.status, 426);
  assert.equal((await plain.json()).code, 'upgrade_required');
});
