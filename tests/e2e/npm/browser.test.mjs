// The npm package in a browser: Chromium loads `agentnet-sdk` as plain ES modules
// (no bundler, entry/browser.js), fetches the wasm core by URL, and its Agent talks over the
// browser's own WebSocket to a Node agent through the local edge.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../../../core/js/index.js';
import { startEdge } from '../../support/edge.mjs';
import { launchBrowser } from '../../support/browser.mjs';
import { serveDirectory } from '../../support/static-server.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'core', 'js');
let edge;
let server;
let browser;

before(async () => {
  edge = await startEdge();
  server = await serveDirectory(pkg, { pages: { '/': '<!doctype html><title>agentnet in the browser</title>' } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
  await edge?.stop();
});

test('a browser agent built from the package chats and makes requests through the edge', async () => {
  const helper = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:helper' });
  helper.on('question.asked', (event) => helper.reply(event, 'question.answered', { answer: event.payload.q.toUpperCase() }));
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err));
  try {
    await page.goto(`${server.url}/`);
    const result = await page.evaluate(async (edgeUrl) => {
      const { Agent, parseAddress, KeyPair } = await import('/entry/browser.js');
      const agent = await Agent.connect({ url: edgeUrl, network: 'demo', name: 'human:browser' });
      window.heard = [];
      agent.on('chat.message', (event) => window.heard.push(event.payload.text));
      window.browserAgent = agent;
      const answer = await agent.request('agent:helper', 'question.asked', { q: 'from chromium' });
      return {
        address: agent.address,
        canonical: parseAddress('bob'),
        publicKey: KeyPair.generate().publicKey.length,
        answer: answer.payload.answer,
        heard: window.heard.length,
      };
    }, edge.url);
    assert.deepEqual(result, { address: 'human:browser', canonical: 'agent:bob', publicKey: 64, answer: 'FROM CHROMIUM', heard: 0 });

    await helper.send('human:browser', 'chat.message', { text: 'hello browser' });
    await page.waitForFunction(() => window.heard.length === 1, null, { timeout: 10_000 });
    assert.deepEqual(await page.evaluate(() => window.heard), ['hello browser']);
    assert.deepEqual(errors, []);
  } finally {
    await page.evaluate(() => window.browserAgent?.close()).catch(() => {});
    await page.close();
    helper.close();
  }
});
