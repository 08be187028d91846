// The npm package in a browser: Chromium loads `agentnet-sdk` as plain ES modules
// (no bundler), fetches the wasm core by URL, and its Agent talks over the
// browser's own WebSocket to a Node agent through the local edge.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../../core/js/index.js';
import { startEdge } from '../support/edge.mjs';
import { launchBrowser } from '../support/browser.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'core', 'js');
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };
let edge;
let server;
let browser;

/** Serves core/js as static files on 127.0.0.1, as any web server would. */
function servePackage() {
  return new Promise((resolve) => {
    const http = createServer(async (req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<!doctype html><title>agentnet in the browser</title>');
        return;
      }
      try {
        const body = await readFile(join(pkg, path));
        res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
        res.end(body);
      } catch {
        res.writeHead(404);
        res.end();
      }
    });
    http.listen(0, '127.0.0.1', () => resolve(http));
  });
}

before(async () => {
  edge = await startEdge();
  server = await servePackage();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
  await edge?.stop();
});

test('a browser agent built from the package chats and makes requests through the edge', async () => {
  const helper = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:helper' });
  helper.on('question.asked', (event) => helper.reply(event, 'question.answered', { answer: event.payload.q.toUpperCase() }));
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(err));
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    const result = await page.evaluate(async (edgeUrl) => {
      const { Agent, parseAddress, KeyPair } = await import('/index.js');
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
