// MCP's authorization flow against the real edge (wrangler dev): the
// OFFICIAL SDK clients (@modelcontextprotocol/sdk 1.x and
// @modelcontextprotocol/client 2.x, each with an OAuthClientProvider) connect
// with no token, get 401, discover the protected-resource and
// authorization-server metadata, register, and send Chromium to the consent
// page; a person picks a name there (and enters the network token), the
// join is the consent, the code comes back to the client's loopback
// redirect URI, and the client's token then makes its MCP calls that
// member's events. Only the person's part is played here (Chromium, with
// JavaScript off: the page works without it).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Agent } from '../../../core/js/index.js';
import { launchBrowser } from '../../support/browser.mjs';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { MemoryProvider, atConsentPage as consentIn, startCallback } from '../../support/oauth.mjs';
import { waitOut } from '../../support/waits.mjs';

const ACCESS_TTL_MS = 3000;
let edge;
let browser;
let callback;

before(async () => {
  // Test hooks: a loopback client ID metadata document URL (https, as the SDK
  // requires) is fetched over http, since nothing here serves TLS workerd
  // trusts; and access tokens live 3 s, so the SDKs' own refresh is exercised.
  const vars = { AGENTNET_TEST_POLICY: JSON.stringify({ oauth_access_ttl_ms: ACCESS_TTL_MS }) };
  [edge, browser, callback] = await Promise.all([startEdge({ testHooks: true, vars, allowLocalFetches: true }), launchBrowser(), startCallback()]);
});

after(async () => {
  await browser?.close();
  await callback?.stop();
  await edge?.stop();
});

const endpoint = (id) => new URL(`${edge.url}/networks/${id}/mcp`);
const info = { name: 'agentnet-oauth-e2e', version: '1.0.0' };
const newProvider = (consent) => new MemoryProvider(callback.url, consent);
const atConsentPage = (url, fields) => consentIn(browser, url, fields);

/** The events of the log from `source` of `type`, read by a member over HTTP. */
async function eventsFrom(id, token, source, type) {
  const res = await fetch(`${edge.url}/networks/${id}/v1/events?after=0&limit=200`, { headers: { authorization: `Bearer ${token}` } });
  const { events } = await res.json();
  return events.map((e) => e.event).filter((e) => e.source === source && e.type === type);
}

test('the SDK 1.x client authorizes through the consent page and acts as the member it joined as', async () => {
  const networkToken = 'the-network-token';
  const { id } = await createNetwork(edge.url, { name: 'OAuth team', access: { policy: 'token', token: networkToken } });
  const owner = await Agent.connect({ url: edge.url, network: id, name: 'agent:calculator', token: networkToken, WebSocket });
  const seen = [];
  await owner.registerTool('add', { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
    (input, event) => { seen.push(event); return { sum: input.a + input.b }; }, { description: 'adds' });

  // Another member, to read the log as members see it.
  const join = await fetch(`${edge.url}/networks/${id}/v1/join`, {
    method: 'POST', body: JSON.stringify({ agent_id: 'agent:reader', credentials: { token: networkToken } }),
  });
  const reader = (await join.json()).token;

  const started = performance.now();
  let code;
  const provider = newProvider(async (url) => {
    // What the SDK built: PKCE S256, the resource, the state.
    assert.equal(url.origin + url.pathname, `${edge.url}/networks/${id}/oauth/authorize`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('resource'), endpoint(id).href);
    const arrived = callback.next();
    const { context } = await atConsentPage(url, { network: 'OAuth team', name: 'claude-oauth', token: networkToken });
    const back = await arrived;
    await context.close();
    assert.equal(back.searchParams.get('state'), 'state-from-the-client');
    assert.equal(back.searchParams.get('iss'), `${edge.url}/networks/${id}`);
    code = back.searchParams.get('code');
  });
  const first = new Transport1(endpoint(id), { authProvider: provider });
  await assert.rejects(new Client1(info, { capabilities: {} }).connect(first), UnauthorizedError);
  assert.equal(provider.redirects.length, 1);
  assert.ok(provider.saved.client?.client_id, 'registered dynamically');
  assert.match(code, /^[0-9a-f]{64}$/);
  await first.finishAuth(code);
  assert.equal(provider.saved.tokens.token_type, 'Bearer');
  assert.ok(provider.saved.tokens.refresh_token);

  const client = new Client1(info, { capabilities: {} });
  await client.connect(new Transport1(endpoint(id), { authProvider: provider }));
  const { tools } = await client.listTools();
  const handshakeMs = performance.now() - started;
  assert.ok(tools.some((t) => t.name === 'add'), tools.map((t) => t.name).join());
  assert.match(client.getInstructions(), /agent:claude-oauth/);
  const result = await client.callTool({ name: 'add', arguments: { a: 40, b: 2 } });
  assert.deepEqual(result.structuredContent, { sum: 42 });
  // The call is an event from the member the consent page joined.
  assert.equal(seen[0].source, 'agent:claude-oauth');
  assert.equal(seen[0].type, 'network.resource.invoke');
  const posted = await client.callTool({ name: 'agentnet_post', arguments: { to: 'agent:broadcast', text: 'hello over OAuth' } });
  assert.equal(posted.isError, false, JSON.stringify(posted));
  const messages = await eventsFrom(id, reader, 'agent:claude-oauth', 'workspace.message.posted');
  assert.deepEqual(messages.map((e) => e.payload.content), ['hello over OAuth']);
  console.log(`# OAuth handshake (401 → discovery → registration → consent in Chromium → token → tools/list): ${handshakeMs.toFixed(0)} ms`);

  // The token is this network's only: another network answers 401 invalid_token.
  const other = await createNetwork(edge.url, { name: 'elsewhere' });
  const res = await fetch(endpoint(other.id), {
    method: 'POST',
    headers: { authorization: `Bearer ${provider.saved.tokens.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info } }),
  });
  assert.equal(res.status, 401);
  assert.match(res.headers.get('www-authenticate'), /error="invalid_token"/);
  await res.body?.cancel();
  await client.close();
  owner.close();
});

test('the SDK 2.x client authorizes too, and its refresh token rotates', async () => {
  const { id } = await createNetwork(edge.url, { name: 'OAuth open' });
  let callbackParams;
  const provider = newProvider(async (url) => {
    const arrived = callback.next();
    const { context } = await atConsentPage(url, { network: 'OAuth open', name: 'human:ada' });
    callbackParams = (await arrived).searchParams;
    await context.close();
  });
  const first = new Transport2(endpoint(id), { authProvider: provider });
  await assert.rejects(new Client2(info, { capabilities: {} }).connect(first));
  // The whole callback, so the client checks its iss against the issuer (RFC 9207).
  await first.finishAuth(callbackParams);
  const client = new Client2(info, { capabilities: {} });
  await client.connect(new Transport2(endpoint(id), { authProvider: provider }));
  assert.match(client.getInstructions(), /human:ada/);
  assert.equal(provider.saved.tokens.expires_in, ACCESS_TTL_MS / 1000);
  const expired = provider.saved.tokens.access_token;
  await waitOut(ACCESS_TTL_MS + 300, 'the access token\'s lifetime');
  // The token expired: the SDK is refused (401 invalid_token), refreshes by itself and goes on.
  assert.ok((await client.listTools()).tools.length > 0);
  assert.notEqual(provider.saved.tokens.access_token, expired);
  await client.close();

  // The token endpoint as the SDK calls it: a refresh answers a new pair, and the old one is spent.
  const { refresh_token: refresh } = provider.saved.tokens;
  const tokenUrl = `${edge.url}/networks/${id}/oauth/token`;
  const refreshWith = (token) => fetch(tokenUrl, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: provider.saved.client.client_id, resource: endpoint(id).href }),
  });
  const renewed = await (await refreshWith(refresh)).json();
  assert.ok(renewed.access_token && renewed.refresh_token && renewed.refresh_token !== refresh);
  const reused = await refreshWith(refresh);
  assert.equal(reused.status, 400);
  assert.deepEqual(Object.keys(await reused.json()).sort(), ['error', 'error_description']);
});

test('a client named by its metadata document (SDK 2.x, no registration) authorizes too', async () => {
  const { id } = await createNetwork(edge.url, { name: 'OAuth CIMD' });
  const documentUrl = `https://${callback.origin}/client.json`;
  callback.serve('/client.json', {
    client_id: documentUrl, client_name: 'Document client', redirect_uris: [callback.url],
    grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none',
  });
  let callbackParams;
  let shownName;
  const provider = newProvider(async (url) => {
    assert.equal(url.searchParams.get('client_id'), documentUrl);
    const arrived = callback.next();
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url.href);
    shownName = await page.locator('main p').first().textContent();
    await page.getByLabel('Your name in the network').fill('documented');
    await page.getByRole('button', { name: 'Join and allow' }).click();
    callbackParams = (await arrived).searchParams;
    await context.close();
  });
  provider.clientMetadataUrl = documentUrl;
  const first = new Transport2(endpoint(id), { authProvider: provider });
  await assert.rejects(new Client2(info, { capabilities: {} }).connect(first));
  assert.equal(provider.saved.client.client_id, documentUrl, 'the URL is the client id: nothing registered');
  assert.match(shownName, /Document client/);
  await first.finishAuth(callbackParams);
  const client = new Client2(info, { capabilities: {} });
  await client.connect(new Transport2(endpoint(id), { authProvider: provider }));
  assert.match(client.getInstructions(), /agent:documented/);
  await client.close();

  // A document that does not name its own URL is refused on the page.
  callback.serve('/liar.json', { client_id: 'https://elsewhere.example/client.json', redirect_uris: [callback.url] });
  const liar = new URL(`${edge.url}/networks/${id}/oauth/authorize`);
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: `https://${callback.origin}/liar.json`, redirect_uri: callback.url, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' })) liar.searchParams.set(k, v);
  const refused = await fetch(liar, { redirect: 'manual' });
  assert.equal(refused.status, 400);
  assert.match(await refused.text(), /client_id is not its URL/);
});

test('a join the network refuses shows the reason on the page and issues no code', async () => {
  const { id } = await createNetwork(edge.url, { name: 'Guarded', access: { policy: 'token', token: 'only-this-one' } });
  let page;
  let context;
  const hitsBefore = callback.hits.length;
  const provider = newProvider(async (url) => {
    ({ page, context } = await atConsentPage(url, { network: 'Guarded', name: 'intruder', token: 'a-wrong-token' }));
  });
  await assert.rejects(new Client1(info, { capabilities: {} }).connect(new Transport1(endpoint(id), { authProvider: provider })), UnauthorizedError);
  try {
    const alert = page.getByRole('alert');
    assert.match(await alert.textContent(), /Could not join: the network token is not valid/);
    // Still the consent page, the name kept for another try, nothing sent to the client.
    assert.equal(new URL(page.url()).pathname, `/networks/${id}/oauth/authorize`);
    assert.equal(await page.getByLabel('Your name in the network').inputValue(), 'intruder');
    assert.equal(await page.getByLabel('Network token').inputValue(), '');
    assert.equal(callback.hits.length, hitsBefore);
  } finally {
    await context.close();
  }
  const discover = await fetch(`${edge.url}/networks/${id}/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'agent:check', credentials: { token: 'only-this-one' } }) });
  const roster = await (await fetch(`${edge.url}/networks/${id}/v1/discover`, { headers: { authorization: `Bearer ${(await discover.json()).token}` } })).json();
  assert.ok(!JSON.stringify(roster).includes('agent:intruder'), 'the refused joiner is no member');
});

test('the metadata documents are where the SDKs look, and name each other', async () => {
  const { id } = await createNetwork(edge.url, { name: 'Metadata' });
  const resource = await (await fetch(`${edge.url}/.well-known/oauth-protected-resource/networks/${id}/mcp`)).json();
  assert.deepEqual(resource.authorization_servers, [`${edge.url}/networks/${id}`]);
  const res = await fetch(`${edge.url}/.well-known/oauth-authorization-server/networks/${id}`);
  assert.equal(res.status, 200);
  const server = await res.json();
  assert.equal(server.issuer, resource.authorization_servers[0]);
  assert.deepEqual(server.code_challenge_methods_supported, ['S256']);
  assert.equal(server.registration_endpoint, `${edge.url}/networks/${id}/oauth/register`);
  const missing = await fetch(`${edge.url}/.well-known/oauth-authorization-server/networks/nosuchnet`);
  assert.equal(missing.status, 404);
  await missing.body?.cancel();

  // A request the endpoint refuses goes back to the client's redirect URI, untouched by the edge.
  const registered = await fetch(server.registration_endpoint, { method: 'POST', body: JSON.stringify({ redirect_uris: [callback.url] }) });
  assert.equal(registered.status, 201);
  const { client_id: clientId } = await registered.json();
  const plain = new URL(server.authorization_endpoint);
  for (const [k, v] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: callback.url, state: 'x', code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' })) plain.searchParams.set(k, v);
  const refused = await fetch(plain, { redirect: 'manual' });
  assert.equal(refused.status, 303);
  const back = new URL(refused.headers.get('location'));
  assert.equal(back.origin + back.pathname, callback.url);
  assert.equal(back.searchParams.get('error'), 'invalid_request');
  assert.equal(back.searchParams.get('state'), 'x');
  await refused.body?.cancel();
});
