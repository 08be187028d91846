// CORS through the real edge: a page of an origin the network allows uses
// the HTTP API (join, send, a ticket) and SSE from Chromium across origins;
// a page of another origin is blocked, yet reads the public profile. The
// pages are served on 127.0.0.1 under two names (allowed.test, other.test)
// that Chromium resolves there, so each is its own origin.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { launchBrowser } from '../../support/browser.mjs';
import { serveDirectory } from '../../support/static-server.mjs';

let edge;
let pages;
let browser;
let allowed;
let other;
let network;

before(async () => {
  edge = await startEdge();
  pages = await serveDirectory('/nonexistent', { pages: { '/': '<!doctype html><title>another origin</title>' } });
  const port = new URL(pages.url).port;
  allowed = `http://allowed.test:${port}`;
  other = `http://other.test:${port}`;
  network = (await createNetwork(edge.url, { name: 'cors', allowed_origins: [allowed] })).id;
  browser = await launchBrowser({ args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] });
});

after(async () => {
  await browser?.close();
  await pages?.close();
  await edge?.stop();
});

/** A page of `origin`, with the network's base URL. */
async function pageOf(origin) {
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  return page;
}

test('a page of an allowed origin joins, sends and follows SSE through the HTTP API', async () => {
  const helper = await Agent.connect({ url: edge.url, network, name: 'agent:helper' });
  const got = [];
  helper.on('chat.message', (event) => got.push(event.payload.text));
  const page = await pageOf(allowed);
  try {
    const base = `${edge.url}/networks/${network}`;
    const sent = await page.evaluate(async (base) => {
      const join = await (await fetch(`${base}/v1/join`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: 'human:page' }),
      })).json();
      const auth = { authorization: `Bearer ${join.token}`, 'content-type': 'application/json' };
      const { ticket } = await (await fetch(`${base}/v1/ticket`, { method: 'POST', headers: auth })).json();
      window.heard = new Promise((resolve, reject) => {
        const stream = new EventSource(`${base}/v1/sse?ticket=${encodeURIComponent(ticket)}`);
        stream.onmessage = (message) => {
          const event = JSON.parse(message.data);
          if (event.type === 'chat.message') {
            stream.close();
            resolve(event.payload.text);
          }
        };
        stream.onerror = () => reject(new Error(`SSE failed (readyState ${stream.readyState})`));
        stream.onopen = () => { window.streaming = true; };
      });
      const response = await fetch(`${base}/v1/events`, {
        method: 'POST', headers: auth, body: JSON.stringify({ type: 'chat.message', target: 'agent:helper', payload: { text: 'from another origin' } }),
      });
      return { status: response.status, seq: (await response.json()).seq };
    }, base);
    assert.equal(sent.status, 200);
    assert.ok(sent.seq > 0);
    await page.waitForFunction(() => window.streaming === true, null, { timeout: 10_000 });
    await helper.send('human:page', 'chat.message', { text: 'over SSE' });
    assert.equal(await page.evaluate(() => window.heard), 'over SSE');
    assert.deepEqual(got, ['from another origin']);
  } finally {
    await page.close();
    helper.close();
  }
});

test('a page of another origin is blocked from the API and SSE, and still reads the public profile', async () => {
  // A ticket made outside the browser (no Origin), for the blocked page's stream.
  const join = await (await fetch(`${edge.url}/networks/${network}/v1/join`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: 'human:outsider' }),
  })).json();
  const { ticket } = await (await fetch(`${edge.url}/networks/${network}/v1/ticket`, {
    method: 'POST', headers: { authorization: `Bearer ${join.token}` },
  })).json();
  const page = await pageOf(other);
  try {
    const result = await page.evaluate(async ([base, ticket]) => {
      const attempt = (promise) => promise.then((r) => `status ${r.status}`, (err) => err.name);
      const joined = await attempt(fetch(`${base}/v1/join`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ agent_id: 'human:blocked' }),
      }));
      const stream = await new Promise((resolve) => {
        const source = new EventSource(`${base}/v1/sse?ticket=${encodeURIComponent(ticket)}`);
        source.onopen = () => { source.close(); resolve('open'); };
        source.onerror = () => { source.close(); resolve('error'); };
      });
      const profile = await (await fetch(`${base}/v1/profile`)).json();
      return { joined, stream, profile: profile.id };
    }, [`${edge.url}/networks/${network}`, ticket]);
    assert.deepEqual(result, { joined: 'TypeError', stream: 'error', profile: network });
  } finally {
    await page.close();
  }
  // Nobody joined as the blocked page: the join was refused before the network saw it.
  const helper = await Agent.connect({ url: edge.url, network, name: 'agent:checker' });
  try {
    const { agents } = await helper.discover();
    assert.ok(!agents.some((a) => a.address === 'human:blocked'), JSON.stringify(agents));
  } finally {
    helper.close();
  }
});

test('preflights are answered for allowed origins and refused for others; bad allowed_origins are invalid_origin', async () => {
  const preflight = (origin) => fetch(`${edge.url}/networks/${network}/v1/events`, {
    method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
  const yes = await preflight(allowed);
  assert.equal(yes.status, 204);
  assert.equal(yes.headers.get('access-control-allow-origin'), allowed);
  assert.equal(yes.headers.get('access-control-allow-headers'), 'authorization, content-type');
  assert.match(yes.headers.get('access-control-allow-methods'), /POST/);
  const no = await preflight(other);
  assert.equal(no.status, 403);
  assert.equal(no.headers.get('access-control-allow-origin'), null);
  assert.equal((await no.json()).code, 'forbidden');
  // The deployment's own routes are open to every origin.
  const listed = await fetch(`${edge.url}/v1/networks`, { headers: { origin: other } });
  assert.equal(listed.headers.get('access-control-allow-origin'), '*');
  const create = await fetch(`${edge.url}/v1/networks`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: other },
    body: JSON.stringify({ name: 'bad', allowed_origins: ['https://app.example/path'] }),
  });
  assert.equal(create.status, 400);
  assert.equal(create.headers.get('access-control-allow-origin'), '*');
  assert.equal((await create.json()).code, 'invalid_origin');
});
