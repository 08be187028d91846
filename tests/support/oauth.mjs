// What an MCP client app and its user do in MCP's authorization flow, for
// the tests and the benchmark: a loopback redirect URI that records the
// requests reaching it, an OAuthClientProvider kept in memory (the official
// SDKs' interface), and a person at the consent page in Chromium.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';

/**
 * A loopback redirect URI: `{url, hits, next(), serve(path, json), stop()}`;
 * `next()` resolves with the next request's URL; `serve` answers `path` with
 * a JSON document (a client ID metadata document) instead.
 */
export function startCallback() {
  const hits = [];
  const waiting = [];
  const documents = new Map();
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (documents.has(url.pathname)) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(documents.get(url.pathname)));
      return;
    }
    hits.push(url);
    waiting.splice(0).forEach((resolve) => resolve(url));
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Connected. You may close this page.</p>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({
      url: `http://127.0.0.1:${server.address().port}/callback`,
      hits,
      next: () => new Promise((r) => waiting.push(r)),
      serve: (path, json) => documents.set(path, json),
      origin: `127.0.0.1:${server.address().port}`,
      stop: () => new Promise((r) => server.close(r)),
    });
  }));
}

/**
 * An OAuthClientProvider kept in memory, as an SDK app keeps one, redirecting
 * to `redirectUrl`; `consent(url)` plays the person at the authorization URL.
 */
export class MemoryProvider {
  constructor(redirectUrl, consent) {
    this.redirect = redirectUrl;
    this.consent = consent;
    this.saved = {};
    this.redirects = [];
  }
  get redirectUrl() { return this.redirect; }
  get clientMetadata() {
    return {
      client_name: 'agentnet OAuth e2e', redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none',
    };
  }
  state() { return 'state-from-the-client'; }
  clientInformation() { return this.saved.client; }
  saveClientInformation(client) { this.saved.client = client; }
  tokens() { return this.saved.tokens; }
  saveTokens(tokens) { this.saved.tokens = tokens; }
  saveCodeVerifier(verifier) { this.saved.verifier = verifier; }
  codeVerifier() { return this.saved.verifier; }
  saveDiscoveryState(state) { this.saved.discovery = state; }
  discoveryState() { return this.saved.discovery; }
  async redirectToAuthorization(url) {
    this.redirects.push(new URL(url));
    await this.consent(new URL(url));
  }
}

/**
 * Chromium (JavaScript off: the page needs none) at the consent page `url`:
 * checks its heading and focus, fills the name (and `token`) by their labels,
 * presses `button`; resolves with `{page, context}` once the answer loaded.
 */
export async function atConsentPage(browser, url, { network, name, token }, button = 'Join and allow') {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(url.href);
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Join ${network} to connect`);
    // The name field has focus from the start; each field is found by its label.
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'name');
    await page.getByLabel('Your name in the network').fill(name);
    if (token !== undefined) await page.getByLabel('Network token').fill(token);
    await page.getByRole('button', { name: button }).click();
    await page.waitForLoadState();
    return { page, context };
  } catch (err) {
    await context.close();
    throw err;
  }
}
