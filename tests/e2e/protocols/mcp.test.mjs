// Every network is an MCP server at /networks/{id}/mcp. Driven here by the
// official TypeScript SDK clients (@modelcontextprotocol/sdk 1.x and
// @modelcontextprotocol/client 2.x) against the real edge (wrangler dev), with
// npm agents (core/js Agent) on the other side: tools they register are
// listed, called and answered; documents they edit are read and notified;
// strangers are refused. Raw fetch only for malformed input.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { joinToken } from '../../support/http.mjs';
import { until, pace, within } from '../../support/waits.mjs';
import { watchingStream } from '../../support/mcp-client.mjs';

const edge = edgeForFile();

const endpoint = (id) => new URL(`${edge.url}/networks/${id}/mcp`);
const info = { name: 'agentnet-e2e', version: '1.0.0' };

const auth = (token) => ({ requestInit: { headers: { Authorization: `Bearer ${token}` } } });

/** An SDK 1.x client (it speaks 2025-11-25). */
async function connect1(id, token, { fetch: fetchFn, clientOptions } = {}) {
  const transport = new Transport1(endpoint(id), { ...auth(token), fetch: fetchFn });
  const client = new Client1(info, clientOptions ?? { capabilities: {} });
  await client.connect(transport);
  return { client, transport };
}

/** A 2.x client speaking `revision` (a legacy one through initialize, 2026-07-28 stateless). */
async function connect2(id, token, revision) {
  const modern = revision >= '2026-07-28';
  const client = new Client2(info, {
    capabilities: {},
    ...(modern ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] }),
  });
  const transport = new Transport2(endpoint(id), auth(token));
  await client.connect(transport);
  return { client, transport };
}

const agent = (id, name) => Agent.connect({ url: edge.url, network: id, name, WebSocket });

const BUILT_INS = ['agentnet_post', 'agentnet_read', 'agentnet_members', 'agentnet_channel', 'ioa_space', 'ioa_send', 'ioa_read'];

test('each protocol revision connects through an official client', async () => {
  const { id } = await createNetwork(edge.url, { name: 'revisions' });
  const token = await joinToken(edge.url, id, 'agent:claude');
  for (const revision of ['2025-03-26', '2025-06-18', '2026-07-28']) {
    const { client, transport } = await connect2(id, token, revision);
    assert.equal(client.getNegotiatedProtocolVersion(), revision);
    assert.equal(client.getServerVersion()?.name, 'agentnet');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), BUILT_INS, revision);
    if (revision < '2026-07-28') assert.ok(transport.sessionId, `${revision} has a session`);
    else assert.equal(transport.sessionId, undefined, '2026-07-28 has no session');
    await client.close();
  }
  const { client, transport } = await connect1(id, token);
  assert.equal(transport.protocolVersion, '2025-11-25');
  assert.match(client.getInstructions(), /agent:claude/);
  assert.deepEqual((await client.listTools()).tools.map((t) => t.name), BUILT_INS);
  await client.close();
});

test("an npm agent's tool is listed as it registers, called, and answered by its owner", async () => {
  const { id } = await createNetwork(edge.url, { name: 'tools' });
  const watched = watchingStream();
  const { client } = await connect1(id, await joinToken(edge.url, id, 'agent:claude'), { fetch: watched.fetch });
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => { changed += 1; });
  const modern = await connect2(id, await joinToken(edge.url, id, 'agent:gpt'), '2026-07-28');
  let modernChanged = 0;
  modern.client.setNotificationHandler('notifications/tools/list_changed', () => { modernChanged += 1; });
  const subscription = await modern.client.listen({ toolsListChanged: true });
  assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true });
  await within(watched.streamOpen, 10_000, 'GET stream of the 1.x client');

  const owner = await agent(id, 'agent:calculator');
  const seen = [];
  await owner.registerTool('add', { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    (input, event) => { seen.push(event); return { sum: input.a + input.b }; }, { description: 'adds two numbers' });
  await until('tools/list_changed on both', () => changed > 0 && modernChanged > 0, 5000);

  const { tools } = await client.listTools();
  const add = tools.find((t) => t.name === 'add');
  assert.equal(add.description, 'adds two numbers');
  assert.deepEqual(add.inputSchema.required, ['a', 'b']);
  const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } });
  assert.deepEqual(result.structuredContent, { sum: 42 });
  assert.equal(result.content[0].text, '{"sum":42}');
  assert.equal(result.isError, false);
  // The call was an event from the MCP session's member.
  assert.equal(seen[0].source, 'agent:claude');
  assert.equal(seen[0].type, 'network.resource.invoke');

  const again = await modern.client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
  assert.deepEqual(again.structuredContent, { sum: 2 });
  await subscription.close();
  await modern.client.close();
  await client.close();
  owner.close();
});

test('a call without invoke permission is refused, and an offline owner is reported', async () => {
  const { id } = await createNetwork(edge.url, { name: 'guarded', mods: ['access-control'] });
  const owner = await agent(id, 'agent:vault');
  await owner.registerTool('secret', { type: 'object' }, () => 'the secret', { permissions: { invoke: 'agents:[agent:friend]' } });
  await owner.registerTool('open', { type: 'object' }, () => 'hello');
  const { client } = await connect1(id, await joinToken(edge.url, id, 'agent:claude'));
  const names = (await client.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes('open') && !names.includes('secret'), names.join());
  const refused = await client.callTool({ name: 'secret', arguments: {} });
  assert.equal(refused.isError, true);
  assert.equal(refused.structuredContent.error.code, 'forbidden');
  assert.equal((await client.callTool({ name: 'open', arguments: {} })).content[0].text, 'hello');
  owner.close();
  await until('the owner is offline', async () => {
    const { agents } = (await client.callTool({ name: 'agentnet_members', arguments: {} })).structuredContent;
    return agents.find((a) => a.address === 'agent:vault')?.status !== 'online';
  }, 10_000);
  const offline = await client.callTool({ name: 'open', arguments: {} });
  assert.equal(offline.isError, true);
  assert.equal(offline.structuredContent.error.code, 'owner_offline');
  await client.close();
});

test("no token, an unknown token or another network's token: 401 with WWW-Authenticate", async () => {
  const { id } = await createNetwork(edge.url, { name: 'closed' });
  const other = await createNetwork(edge.url, { name: 'elsewhere' });
  const foreign = await joinToken(edge.url, other.id, 'agent:claude');
  const initialize = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info } });
  const metadata = `${edge.url}/.well-known/oauth-protected-resource/networks/${id}/mcp`;
  for (const token of [undefined, 'not-a-token', foreign]) {
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (token) headers.authorization = `Bearer ${token}`;
    const res = await fetch(endpoint(id), { method: 'POST', headers, body: initialize });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('www-authenticate').split(',')[0], `Bearer resource_metadata="${metadata}"`);
    await res.body?.cancel();
    await assert.rejects(connect1(id, token ?? ''));
  }
  const document = await (await fetch(metadata)).json();
  assert.equal(document.resource, endpoint(id).href);
  assert.deepEqual(document.bearer_methods_supported, ['header']);
});

test('resources are read and subscribed while another agent edits the document', async () => {
  const { id } = await createNetwork(edge.url, { name: 'documents' });
  const writer = await agent(id, 'agent:writer');
  await writer.registerFile('notes.md', 'first draft', { contentType: 'text/markdown', description: 'shared notes' });
  const watched = watchingStream();
  const { client } = await connect1(id, await joinToken(edge.url, id, 'agent:claude'), { fetch: watched.fetch });
  const { resources } = await client.listResources();
  const uri = `openagents://${id}/resource/file/notes.md`;
  assert.deepEqual(resources.map((r) => [r.uri, r.mimeType, r.description]), [[uri, 'text/markdown', 'shared notes']]);
  assert.equal((await client.readResource({ uri })).contents[0].text, 'first draft');
  const updates = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => { updates.push(n.params.uri); });
  await client.subscribeResource({ uri });
  await within(watched.streamOpen, 10_000, 'GET stream of the client');
  const doc = await writer.document('resource/file/notes.md');
  doc.insert(doc.text.length, ' and more');
  await until('notifications/resources/updated', () => updates.includes(uri), 5000);
  await until('the edit', async () => (await client.readResource({ uri })).contents[0].text === 'first draft and more', 5000);
  await client.close();
  writer.close();
});

test('skills shared as contexts are prompts', async () => {
  const { id } = await createNetwork(edge.url, { name: 'skills' });
  const writer = await agent(id, 'agent:writer');
  await writer.registerContext('review.SKILL.md', '---\nname: review\ndescription: Reviews a change\n---\nRead the diff, then comment on it.');
  const { client } = await connect1(id, await joinToken(edge.url, id, 'agent:claude'));
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((p) => p.name), ['review']);
  const prompt = await client.getPrompt({ name: 'review' });
  assert.equal(prompt.description, 'Reviews a change');
  assert.equal(prompt.messages[0].content.text, 'Read the diff, then comment on it.');
  await client.close();
  writer.close();
});

test('a dropped stream is resumed with Last-Event-ID', async () => {
  const { id } = await createNetwork(edge.url, { name: 'resume' });
  const owner = await agent(id, 'agent:slow');
  await owner.registerTool('slow', { type: 'object' }, async () => {
    await pace(1500);
    return 'done at last';
  });
  const resumedWith = [];
  let cut = 0;
  // The network drops the tools/call stream right after its first event (the
  // priming one). Bytes arrive in chunks that may split an event, so the cut
  // comes after the first whole event (its blank line), not the first chunk.
  const dropping = async (url, init) => {
    const res = await fetch(url, init);
    if (init?.method === 'GET' && new Headers(init.headers).get('last-event-id')) resumedWith.push(new Headers(init.headers).get('last-event-id'));
    const isCall = init?.method === 'POST' && String(init.body).includes('"tools/call"');
    if (!isCall || !res.headers.get('content-type')?.includes('text/event-stream')) return res;
    cut += 1;
    const reader = res.body.getReader();
    const body = new ReadableStream({
      async start(controller) {
        const decoder = new TextDecoder();
        let seen = '';
        while (!seen.includes('\n\n')) {
          const { value, done } = await reader.read();
          if (done) break;
          seen += decoder.decode(value, { stream: true });
        }
        const end = seen.indexOf('\n\n');
        controller.enqueue(new TextEncoder().encode(end < 0 ? seen : seen.slice(0, end + 2)));
        await reader.cancel();
        controller.close();
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
  const { client } = await connect1(id, await joinToken(edge.url, id, 'agent:claude'), { fetch: dropping });
  const result = await client.callTool({ name: 'slow', arguments: {} });
  assert.equal(result.content[0].text, 'done at last');
  assert.equal(cut, 1);
  assert.equal(resumedWith.length, 1);
  assert.match(resumedWith[0], /^[0-9a-f]+_0$/);
  await client.close();
  owner.close();
});

test('DELETE ends a session', async () => {
  const { id } = await createNetwork(edge.url, { name: 'sessions' });
  const token = await joinToken(edge.url, id, 'agent:claude');
  const { client, transport } = await connect1(id, token);
  const session = transport.sessionId;
  await transport.terminateSession();
  const res = await fetch(endpoint(id), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'mcp-session-id': session, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  assert.equal(res.status, 404);
  await res.body?.cancel();
  await client.close();
});

test('the built-in tools post, read with a wait, list members and join channels', async () => {
  const { id } = await createNetwork(edge.url, { name: 'builtins' });
  const ann = await agent(id, 'agent:ann');
  const { client } = await connect1(id, await joinToken(edge.url, id, 'agent:claude'));
  const call = async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, false, JSON.stringify(result));
    return result.structuredContent;
  };
  await call('agentnet_channel', { action: 'create', channel: 'room' });
  await ann.joinChannel('room');
  const heard = new Promise((resolve) => ann.on('workspace.message.posted', (e) => resolve(e)));
  await call('agentnet_post', { to: 'channel/room', text: 'hello room' });
  const message = await heard;
  assert.deepEqual([message.source, message.target, message.payload.content], ['agent:claude', 'channel/room', 'hello room']);

  const members = await call('agentnet_members', {});
  assert.ok(members.agents.some((a) => a.address === 'agent:ann' && a.status === 'online'), JSON.stringify(members.agents));

  const first = await call('agentnet_read', {});
  const started = Date.now();
  const waiting = call('agentnet_read', { after: first.next_after, wait_ms: 10000 });
  const sent = new Promise((resolve, reject) => {
    pace(500).then(() => ann.send('channel/room', 'workspace.message.posted', { content: 'are you there?' })).then(resolve, reject);
  });
  const read = await waiting;
  await sent;
  assert.ok(Date.now() - started >= 400, 'the read waited for the message');
  assert.deepEqual(read.events.map((e) => e.event.payload.content), ['are you there?']);
  await client.close();
  ann.close();
});

test('malformed, unknown, batched and oversized requests get their codes; the session survives', async () => {
  const { id } = await createNetwork(edge.url, { name: 'malformed' });
  const token = await joinToken(edge.url, id, 'agent:claude');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = async (body, session, extra = {}) => {
    const res = await fetch(endpoint(id), { method: 'POST', headers: { ...headers, ...(session ? { 'mcp-session-id': session } : {}), ...extra }, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
  const initialize = async (protocolVersion) => {
    const { headers: h } = await post(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: info } }));
    return h.get('mcp-session-id');
  };
  const session = await initialize('2025-11-25');
  const ping = (n) => JSON.stringify({ jsonrpc: '2.0', id: n, method: 'ping' });
  for (const [body, status, code] of [
    ['{"jsonrpc":"2.0","id":1,', 400, -32700],
    ['{"jsonrpc":"2.0","id":1}', 400, -32600],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', 400, -32600],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/unknown"}', 200, -32601],
    ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"no-such-tool"}}', 200, -32602],
    [`[${ping(1)},${ping(2)}]`, 400, -32600],
  ]) {
    const answer = await post(body, session);
    assert.equal(answer.status, status, body);
    assert.equal(answer.body.error.code, code, body);
  }
  const huge = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping', params: { pad: 'x'.repeat(1024 * 1024 + 1) } });
  assert.equal((await post(huge, session)).status, 413);
  // 2025-03-26 allowed batches.
  const old = await initialize('2025-03-26');
  const batch = await post(`[${ping(1)},${ping(2)},{"jsonrpc":"2.0","method":"notifications/initialized"}]`, old, { 'mcp-protocol-version': '2025-03-26' });
  assert.equal(batch.status, 200);
  assert.deepEqual(batch.body.map((r) => r.id), [1, 2]);
  // The session and the network are unharmed.
  assert.deepEqual((await post(ping(3), session)).body, { jsonrpc: '2.0', id: 3, result: {} });
  const { client } = await connect1(id, token);
  assert.equal((await client.listTools()).tools.length, BUILT_INS.length);
  await client.close();
});
