// IOA v0.1 (github.com/chainreactors/ioa) against the real edge (wrangler
// dev), as IOA's reference Go client sends it (no official IOA client exists
// on npm or PyPI): JSON bodies, `Authorization: Bearer <token>` and the
// client's `X-Node-ID` header. Every endpoint with its success and error
// cases; the message graph as root, chain, tree and DAG read in each direction
// with `after` and `limit` (upstream returns every ancestor); SSE per space,
// node and thread with keepalive and fork events; a spoofed X-Node-ID; an IOA
// message reaching a WebSocket agent (the npm package) and its reply coming
// back; IOA's three MCP tools through the official MCP SDK at the IOA base
// URL's `/mcp`; a checkpoint answered from the web workspace in Chromium.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { launchBrowser, openWorkspace } from '../../support/browser.mjs';
import { sseBlocks, sseFields } from '../../support/sse.mjs';
import { until, settlesWithin } from '../../support/waits.mjs';

const ACCESS_KEY = 'ioa-access-key';
let edge;
let base;
let network;
let adminToken;
const nodes = {};

/** One request as IOA's client makes it; answers `{status, json}`. */
async function ioa(method, path, { body, node, headers = {} } = {}) {
  const all = { 'Content-Type': 'application/json', ...headers };
  if (node) {
    all.Authorization = `Bearer ${node.token}`;
    all['X-Node-ID'] = node.id;
  }
  const res = await fetch(`${base}${path}`, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, json };
}

async function ok(method, path, options, status = 200) {
  const res = await ioa(method, path, options);
  assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.json)}`);
  return res.json;
}

async function refused(method, path, options, status, detail) {
  const res = await ioa(method, path, options);
  assert.equal(res.status, status, `${method} ${path}: ${JSON.stringify(res.json)}`);
  assert.deepEqual(Object.keys(res.json), ['detail']);
  if (detail) assert.match(res.json.detail, detail);
  return res.json.detail;
}

async function register(name) {
  const answer = await ok('POST', '/auth/register', { body: { name, description: `${name} node`, access_key: ACCESS_KEY, meta: { team: 'red' } } }, 201);
  return { ...answer, token: answer.token };
}

const send = (node, space, body) => ok('POST', `/spaces/${space}/messages`, { node, body }, 201);
const ids = (messages) => messages.map((m) => m.id);

/** Opens an SSE stream; `next(n)` resolves with the next n records `{event, data}` or keepalives `{comment}`. */
async function stream(path, node) {
  const controller = new AbortController();
  const res = await fetch(`${base}${path}`, {
    headers: { Accept: 'text/event-stream', Authorization: `Bearer ${node.token}`, 'X-Node-ID': node.id },
    signal: controller.signal,
  });
  assert.equal(res.status, 200, await (res.status === 200 ? '' : res.text()));
  assert.match(res.headers.get('content-type'), /text\/event-stream/);
  const reader = res.body.getReader();
  const take = sseBlocks();
  const records = [];
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const block of take(value)) {
          if (block.startsWith(':')) { records.push({ comment: block.slice(1).trim() }); continue; }
          const record = sseFields(block);
          record.data = JSON.parse(record.data);
          records.push(record);
        }
      }
    } catch { /* aborted */ }
  })();
  return {
    async next(n, { comments = false, timeoutMs = 10000 } = {}) {
      const wanted = () => records.filter((r) => comments || !r.comment);
      await until(`${n} records on ${path}`, () => wanted().length >= n, timeoutMs)
        .catch((err) => { throw new Error(`${err.message}: ${wanted().length} of ${n}: ${JSON.stringify(records)}`); });
      const got = wanted().slice(0, n);
      for (const r of got) records.splice(records.indexOf(r), 1);
      return got;
    },
    pending: () => records.filter((r) => !r.comment),
    close() { controller.abort(); return pump; },
    /** Resolves once the edge ended the stream (not the test). */
    ended: pump,
  };
}

before(async () => {
  edge = await startEdge();
  ({ id: network, admin_token: adminToken } = await createNetwork(edge.url, {
    name: 'IOA', access: { policy: 'token', token: ACCESS_KEY }, mods: ['persistence'],
  }));
  base = `${edge.url}/networks/${network}/ioa`;
  nodes.alice = await register('alice');
  nodes.bob = await register('bob');
  nodes.carol = await register('carol');
});

after(async () => {
  await edge?.stop();
});

test('health, ready and registration: a token is a network session; a wrong key, no name or a taken name is refused', async () => {
  assert.deepEqual(await ok('GET', '/health'), { status: 'ok' });
  assert.deepEqual(await ok('GET', '/ready'), { status: 'ok' });
  await refused('POST', '/health', {}, 405);
  assert.equal(nodes.alice.id, 'agent:alice');
  assert.equal(nodes.alice.name, 'alice');
  assert.match(nodes.alice.token, /^[0-9a-f]{64}$/);
  await refused('POST', '/auth/register', { body: { name: 'mallory', access_key: 'wrong-key!', meta: {} } }, 403, /access_denied/);
  await refused('POST', '/auth/register', { body: { access_key: ACCESS_KEY, meta: {} } }, 422, /^name is required$/);
  await refused('POST', '/auth/register', { body: { name: 'x', access_key: ACCESS_KEY, bogus: 1 } }, 422, /unknown field "bogus"/);
  await refused('POST', '/auth/register', { body: 'not json' }, 422);
  // An address is its first holder's: re-registering needs the secret the first registration answered.
  await refused('POST', '/auth/register', { body: { name: 'alice', access_key: ACCESS_KEY, meta: {} } }, 422, /address_in_use/);
  const again = await ok('POST', '/auth/register', { body: { name: 'alice', access_key: ACCESS_KEY, member_secret: nodes.alice.member_secret } }, 201);
  assert.equal(again.id, 'agent:alice');
  assert.notEqual(again.token, nodes.alice.token);
  // The same token works on agentnet's own HTTP binding: it is a network session.
  const poll = await fetch(`${edge.url}/networks/${network}/v1/events?after=0`, { headers: { Authorization: `Bearer ${nodes.alice.token}` } });
  assert.equal(poll.status, 200);
  await refused('GET', '/spaces', {}, 401, /^authorization token required$/);
  await refused('GET', '/spaces', { headers: { Authorization: 'Bearer nope' } }, 401, /^invalid token$/);
  await refused('GET', '/nope', { node: nodes.alice }, 404);
});

test('nodes: listed, one by id, registered by another node; unknown ones are 404', async () => {
  const all = await ok('GET', '/nodes', { node: nodes.alice });
  assert.ok(all.some((n) => n.id === 'agent:bob' && n.name === 'bob' && typeof n.meta === 'object'));
  // A node's description and meta are kept from its registration (the member's profile).
  assert.deepEqual(await ok('GET', `/nodes/${encodeURIComponent('agent:bob')}`, { node: nodes.alice }), { id: 'agent:bob', name: 'bob', description: 'bob node', meta: { team: 'red' } });
  await refused('GET', '/nodes/agent:nobody', { node: nodes.alice }, 404, /^Node 'agent:nobody' not found$/);
  const dave = await ok('POST', '/nodes', { node: nodes.alice, body: { name: 'dave', meta: {} }, headers: { 'X-Access-Key': ACCESS_KEY } }, 201);
  assert.deepEqual(dave, { id: 'agent:dave', name: 'dave', meta: {} });
  // The same profile through the network's roster, as WebSocket agents see it.
  const roster = await fetch(`${edge.url}/networks/${network}/v1/discover`, { headers: { Authorization: `Bearer ${nodes.alice.token}` } }).then((r) => r.json());
  assert.deepEqual(roster.agents.find((a) => a.address === 'agent:carol').profile, { description: 'carol node', meta: { team: 'red' } });
  await refused('POST', '/nodes', { node: nodes.alice, body: { name: 'erin', meta: { big: 'x'.repeat(5000) } }, headers: { 'X-Access-Key': ACCESS_KEY } }, 422, /profile.meta is at most 4096 bytes/);
  await refused('POST', '/nodes', { node: nodes.alice, body: { meta: {} } }, 422, /name is required/);
  await refused('DELETE', '/nodes', { node: nodes.alice }, 405);
});

test('spaces: created or joined by name, tags merged, listed, read; errors are 404 and 422', async () => {
  const created = await ok('POST', '/spaces', { node: nodes.alice, body: { name: 'ops', description: 'coordinating', tags: ['team:red'] } });
  assert.equal(created.id, 'ops');
  assert.equal(created.name, 'ops');
  assert.deepEqual(created.tags, ['team:red']);
  assert.deepEqual(created.nodes.map((n) => n.id), ['agent:alice']);
  assert.equal(created.message_count, 0);
  const joined = await ok('POST', '/spaces', { node: nodes.bob, body: { name: 'ops', description: 'helping', tags: ['team:red', 'workspace:aide'] } });
  assert.equal(joined.id, 'ops');
  assert.deepEqual(joined.tags, ['team:red', 'workspace:aide']);
  assert.deepEqual(joined.nodes.map((n) => n.id), ['agent:alice', 'agent:bob']);
  const again = await ok('POST', '/spaces', { node: nodes.bob, body: { name: 'ops', description: 'helping' } });
  assert.deepEqual(again, joined);
  await ok('POST', '/spaces', { node: nodes.carol, body: { name: 'side', description: 'elsewhere' } });
  await ok('POST', '/spaces', { node: nodes.alice, body: { name: 'side', description: 'elsewhere' } });
  const listed = await ok('GET', '/spaces', { node: nodes.alice });
  assert.deepEqual(listed.map((s) => s.id).filter((id) => ['ops', 'side'].includes(id)), ['ops', 'side']);
  assert.deepEqual(await ok('GET', '/spaces/ops', { node: nodes.alice }), joined);
  await refused('GET', '/spaces/none', { node: nodes.alice }, 404, /^Space 'none' not found$/);
  // Without a description the caller node's own stands in (IOA's CreateSpace); only when both are empty is it refused.
  const defaulted = await ok('POST', '/spaces', { node: nodes.alice, body: { name: 'quiet' } });
  assert.deepEqual(defaulted.nodes.map((n) => n.id), ['agent:alice']);
  const mute = await ok('POST', '/auth/register', { body: { name: 'mute', access_key: ACCESS_KEY } }, 201);
  assert.equal(mute.description, undefined);
  await refused('POST', '/spaces', { node: mute, body: { name: 'x' } }, 422, /^Space description is required$/);
  await refused('POST', '/spaces', { node: mute, body: { name: 'x', description: '  ' } }, 422, /^Space description is required$/);
  await ok('POST', '/spaces', { node: mute, body: { name: 'quiet', description: 'listening' } });
  await refused('POST', '/spaces', { node: nodes.alice, body: { description: 'x' } }, 422, /^Space name is required$/);
  await refused('POST', '/spaces', { node: nodes.alice, body: { name: 'bad name!', description: 'x' } }, 422);
  await refused('GET', '/spaces/side/messages', { node: nodes.bob }, 403, /has not joined space 'side'/);
});

const graph = {};

test('the graph: root, chain, tree and a DAG with two parents, read in each direction with after and limit', async () => {
  const { alice, bob } = nodes;
  graph.m1 = await send(alice, 'ops', { content: { text: 'root' } });
  assert.equal(graph.m1.space_id, 'ops');
  assert.equal(graph.m1.sender, 'agent:alice');
  assert.deepEqual(graph.m1.refs, { messages: [], nodes: [] });
  assert.ok(Math.abs(Date.parse(graph.m1.created_at) - Date.now()) < 60_000);
  graph.m2 = await send(bob, 'ops', { content: { text: 'chain 1' }, refs: { messages: [graph.m1.id] } });
  graph.m3 = await send(alice, 'ops', { content: { text: 'chain 2' }, refs: { messages: [graph.m2.id], nodes: ['agent:bob'] } });
  graph.m4 = await send(bob, 'ops', { content: { text: 'tree' }, refs: { messages: [graph.m1.id] } });
  graph.r2 = await send(bob, 'ops', { content: { text: 'second root' } });
  graph.m5 = await send(alice, 'ops', { content: { text: 'merge' }, refs: { messages: [graph.m3.id, graph.r2.id] }, meta: { kind: 'merge' } });
  assert.deepEqual(graph.m5.meta, { kind: 'merge' });
  const { m1, m2, m3, m4, r2, m5 } = graph;
  const read = (query, node = alice) => ok('GET', `/spaces/ops/messages?${query}`, { node }).then(ids);

  assert.deepEqual(await read(`message_id=${m5.id}&direction=upstream`), ids([m1, m2, m3, r2, m5]), 'every ancestor');
  assert.deepEqual(await read(`message_id=${m3.id}&direction=upstream`), ids([m1, m2, m3]));
  assert.deepEqual(await read(`message_id=${m1.id}&direction=downstream`), ids([m1, m2, m3, m4, m5]));
  assert.deepEqual(await read(`message_id=${r2.id}&direction=downstream`), ids([r2, m5]));
  assert.deepEqual(await read(`message_id=${m2.id}`), ids([m1, m2, m3, m5]), 'ancestors and descendants');
  assert.deepEqual(await read(`message_id=${m1.id}&direction=downstream&limit=2`), ids([m4, m5]), 'the last 2');
  assert.deepEqual(await read(`message_id=${m1.id}&direction=downstream&after=${m2.id}&limit=2`), ids([m3, m4]), 'the first 2 after');
  assert.deepEqual(await read(`all=true`), ids([m1, m2, m3, m4, r2, m5]));
  assert.deepEqual(await read(`all=true&after=${m3.id}`), ids([m4, r2, m5]));
  assert.deepEqual(await read(`all=1&limit=1`), ids([m5]));
  // Bob's own read: what is addressed to him plus root broadcasts, minus his own.
  assert.deepEqual(await read('', bob), ids([m1, m3]));
  await refused('GET', `/spaces/ops/messages?message_id=${m1.id}&direction=sideways`, { node: alice }, 422, /direction must be 'upstream' or 'downstream'/);
  await refused('GET', '/spaces/ops/messages?message_id=01HZZZZZZZZZZZZZZZZZZZZZZZ', { node: alice }, 404, /not found in space 'ops'/);
  await refused('GET', '/spaces/ops/messages?after=01HZZZZZZZZZZZZZZZZZZZZZZZ', { node: alice }, 422, /^after: /);
  await refused('GET', '/spaces/ops/messages?limit=0', { node: alice }, 422, /^limit must be greater than 0$/);
  await refused('GET', '/spaces/ops/messages?all=maybe', { node: alice }, 422, /^all must be a boolean$/);
  await refused('GET', '/spaces/none/messages', { node: alice }, 404);
  const info = await ok('GET', '/spaces/ops', { node: alice });
  assert.equal(info.message_count, 6);
});

test('sending: refs are checked (parents in the same space, recipients nodes), content and content_schema too', async () => {
  const { alice } = nodes;
  const side = await send(alice, 'side', { content: { text: 'elsewhere' } });
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content: {}, refs: { messages: [side.id] } } }, 422, /unknown_parent: refs.messages: .* not found in space 'ops'/);
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content: {}, refs: { messages: ['01HZZZZZZZZZZZZZZZZZZZZZZZ'] } } }, 422, /unknown_parent/);
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content: {}, refs: { nodes: ['agent:nobody'] } } }, 422, /unknown_recipient/);
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { text: 'no content' } }, 422, /unknown field/);
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content: 'text' } }, 422, /content is required/);
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content: {}, content_schema: { type: 'strnig' } } }, 422, /^content_schema is not valid JSON Schema/);
  await refused('POST', '/spaces/none/messages', { node: alice, body: { content: {} } }, 404, /^Space 'none' not found$/);
  const schema = { type: 'object', properties: { n: { type: 'integer' } } };
  // The schema is kept, the content is not validated against it (as IOA says).
  const typed = await send(alice, 'side', { content: { n: 'not a number' }, content_schema: schema });
  assert.deepEqual(typed.content_schema, schema);
  const [listed] = await ok('GET', `/messages?message_id=${typed.id}`, { node: alice });
  assert.deepEqual(listed, typed);
});

test('app protocols are checked by content_type', async () => {
  const { alice } = nodes;
  const checkpoint = await send(alice, 'ops', { content_type: 'checkpoint', content: { id: 'cp-1', title: 'Deploy?', options: ['Approve', 'Reject'], status: 'info' } });
  assert.equal(checkpoint.content_type, 'checkpoint');
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content_type: 'checkpoint', content: { title: 'no id' } } }, 422, /^checkpoint: id is required$/);
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content_type: 'checkpoint', content: { id: 'c', status: 'maybe' } } }, 422, /status must be one of/);
  await send(alice, 'ops', { content_type: 'handoff', content: { title: 'Take over', message: 'context' }, refs: { nodes: ['agent:bob'] } });
  await send(alice, 'ops', { content_type: 'team', content: { team: 'red', text: 'hello team' } });
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content_type: 'team', content: { team: 'red' } } }, 422, /^team: text is required$/);
  await send(alice, 'ops', { content_type: 'swarm', content: { content: 'scan', targets: ['10.0.0.1'], task: true, meta: {} } });
  await refused('POST', '/spaces/ops/messages', { node: alice, body: { content_type: 'swarm', content: { content: 'x', targets: 'all' } } }, 422, /targets must be a list/);
  // The reply to a checkpoint has no content_type: it is linked by refs.
  const reply = await send(nodes.bob, 'ops', { content: { option: 'Approve', feedback: 'go' }, refs: { messages: [checkpoint.id] } });
  const thread = await ok('GET', `/spaces/ops/messages?message_id=${checkpoint.id}&direction=downstream`, { node: alice });
  assert.deepEqual(ids(thread), [checkpoint.id, reply.id]);
});

test('GET /messages: every filter, and its errors', async () => {
  const { alice } = nodes;
  const { m1, m2, m3, m4, r2, m5 } = graph;
  const list = (query) => ok('GET', `/messages?${query}`, { node: alice }).then(ids);
  const bobs = await list('space_id=ops&sender=agent:bob');
  assert.deepEqual(bobs.slice(0, 3), ids([m2, m4, r2]));
  assert.equal(bobs.length, 4, 'and the checkpoint reply');
  assert.deepEqual(await list('space_id=ops&sender=agent:bob&limit=2'), bobs.slice(-2));
  assert.deepEqual(await list(`ref_message=${m1.id}`), ids([m2, m4]));
  assert.deepEqual(await list(`sender=agent:alice&ref_message=${m2.id}`), ids([m3]));
  const toBob = await list('ref_node=agent:bob');
  assert.equal(toBob.length, 2);
  assert.equal(toBob[0], m3.id);
  assert.deepEqual(await list(`message_id=${m5.id}`), ids([m5]));
  assert.deepEqual(await list(`space_id=ops&after=${m3.id}&limit=2`), ids([m4, r2]));
  const touching = await list('node_id=agent:bob&space_id=ops');
  assert.deepEqual(touching.slice(0, 4), ids([m2, m3, m4, r2]));
  assert.deepEqual(touching.slice(4), [toBob[1], bobs[3]]);
  await refused('GET', '/messages?sender=agent:nobody', { node: alice }, 404, /^sender: node 'agent:nobody' not found$/);
  await refused('GET', '/messages?space_id=none', { node: alice }, 404);
  await refused('GET', '/messages?message_id=01HZZZZZZZZZZZZZZZZZZZZZZZ', { node: alice }, 404);
  await refused('GET', '/messages?ref_message=01HZZZZZZZZZZZZZZZZZZZZZZZ', { node: alice }, 422, /^ref_message: /);
  await refused('GET', '/messages?after=01HZZZZZZZZZZZZZZZZZZZZZZZ', { node: alice }, 422, /^after: /);
  await refused('GET', '/messages?limit=-1', { node: alice }, 422);
});

test('inbox: across spaces, what is addressed to the node plus root broadcasts, minus its own; only its own', async () => {
  const { alice, bob, carol } = nodes;
  const direct = await send(carol, 'side', { content: { text: 'for bob' }, refs: { nodes: ['agent:bob'] } });
  const before = ids(await ok('GET', `/nodes/agent:bob/inbox`, { node: bob }));
  assert.ok(!before.includes(direct.id), "a channel's messages are its members' (bob has not joined side)");
  await ok('POST', '/spaces', { node: bob, body: { name: 'side', description: 'reading' } });
  const inbox = ids(await ok('GET', `/nodes/agent:bob/inbox`, { node: bob }));
  assert.ok(inbox.includes(direct.id), 'addressed to bob in another space');
  assert.ok(inbox.includes(graph.m1.id) && inbox.includes(graph.m3.id));
  assert.ok(!inbox.includes(graph.m2.id) && !inbox.includes(graph.r2.id), 'never his own');
  assert.ok(!inbox.includes(graph.m5.id), 'neither root nor addressed to him');
  assert.deepEqual(ids(await ok('GET', `/nodes/agent:bob/inbox?limit=1`, { node: bob })), inbox.slice(-1));
  assert.deepEqual(ids(await ok('GET', `/nodes/agent:bob/inbox?after=${graph.m1.id}&limit=1`, { node: bob })), [graph.m3.id]);
  await refused('GET', '/nodes/agent:bob/inbox', { node: alice }, 403);
  await refused('GET', '/nodes/agent:nobody/inbox', { node: alice }, 404);
  await refused('GET', '/nodes/agent:bob/inbox?limit=x', { node: bob }, 422);
});

test('a spoofed X-Node-ID changes nothing: the token says who calls', async () => {
  const { alice, bob } = nodes;
  const spoofed = { token: bob.token, id: alice.id };
  const message = await send(spoofed, 'ops', { content: { text: 'who am I' } });
  assert.equal(message.sender, 'agent:bob');
  const mine = ids(await ok('GET', '/spaces/ops/messages', { node: spoofed }));
  assert.ok(!mine.includes(message.id), "bob's own read leaves out bob's message");
  assert.ok(mine.includes(graph.m3.id), 'and holds what is addressed to bob');
  await refused('GET', '/nodes/agent:alice/inbox', { node: spoofed }, 403);
});

test('SSE: a space, a node and a thread, with keepalive and forks', async () => {
  const { alice, bob } = nodes;
  const space = await stream('/spaces/ops/sse', bob);
  const node = await stream('/nodes/agent:bob/sse', bob);
  const thread = await stream(`/spaces/ops/messages/${graph.m1.id}/sse`, bob);
  const branch = await stream(`/spaces/ops/messages/${graph.m1.id}/sse?head=${graph.m3.id}&fork_depth=2`, bob);
  // The branch at m3 opens with what came after it: m4 answers m1 (an ancestor of m3) and m5 extends m3.
  const opening = await branch.next(2);
  assert.deepEqual(opening.map((r) => [r.event, r.data.id]), [['fork', graph.m4.id], ['message', graph.m5.id]]);
  const root = await send(alice, 'ops', { content: { text: 'unrelated' } });
  const extend = await send(alice, 'ops', { content: { text: 'extends' }, refs: { messages: [graph.m5.id], nodes: ['agent:bob'] } });
  const fork = await send(alice, 'ops', { content: { text: 'forks' }, refs: { messages: [graph.m3.id] } });
  const [s1, s2, s3] = await space.next(3);
  assert.deepEqual([s1, s2, s3].map((r) => [r.event, r.data.id]), [['message', root.id], ['message', extend.id], ['message', fork.id]]);
  const [n1] = await node.next(1);
  assert.deepEqual([n1.event, n1.data.id, n1.data.space_id], ['message', extend.id, 'ops']);
  const [t1, t2] = await thread.next(2);
  assert.deepEqual([t1, t2].map((r) => r.data.id), [extend.id, fork.id], 'related messages only');
  const [b1, b2] = await branch.next(2);
  assert.deepEqual([b1.event, b1.data.id], ['message', extend.id]);
  assert.deepEqual([b2.event, b2.data.id], ['fork', fork.id]);
  assert.equal(node.pending().length, 0);
  // Idle for more than 15 s: a keepalive comment arrives.
  const [keepalive] = await space.next(1, { comments: true, timeoutMs: 20_000 });
  assert.deepEqual(keepalive, { comment: 'keepalive' });
  await refused('GET', '/spaces/ops/messages/01HZZZZZZZZZZZZZZZZZZZZZZZ/sse', { node: bob }, 404);
  await refused('GET', `/spaces/ops/messages/${graph.m1.id}/sse?head=01HZZZZZZZZZZZZZZZZZZZZZZZ`, { node: bob }, 422, /^head message not found/);
  await refused('GET', '/nodes/agent:alice/sse', { node: bob }, 403);
  await refused('GET', '/spaces/none/sse', { node: bob }, 404);
  await Promise.all([space, node, thread, branch].map((s) => s.close()));
});

test('an IOA message reaches a WebSocket agent, and its reply comes back to IOA', async () => {
  const agent = await Agent.connect({ url: edge.url, network, name: 'agent:socket', credentials: { token: ACCESS_KEY }, WebSocket });
  try {
    await agent.joinChannel('ops');
    const arrived = new Promise((resolve) => agent.on('ioa.message', resolve));
    const question = await send(nodes.alice, 'ops', { content: { text: 'anyone there?' }, refs: { nodes: ['agent:socket'] } });
    const event = await arrived;
    assert.equal(event.id, question.id);
    assert.deepEqual(event.payload.content, { text: 'anyone there?' });
    assert.deepEqual(event.metadata.refs, { messages: [], nodes: ['agent:socket'] });
    await agent.send('channel/ops', 'workspace.message.posted', { content: 'here' }, { metadata: { refs: { messages: [question.id], nodes: ['agent:alice'] } } });
    const replies = await ok('GET', `/spaces/ops/messages?message_id=${question.id}&direction=downstream`, { node: nodes.alice });
    assert.equal(replies.length, 2);
    assert.equal(replies[1].sender, 'agent:socket');
    assert.deepEqual(replies[1].content, { content: 'here' });
    assert.deepEqual(replies[1].meta, { type: 'workspace.message.posted' });
    const inbox = ids(await ok('GET', '/nodes/agent:alice/inbox', { node: nodes.alice }));
    assert.ok(inbox.includes(replies[1].id));
    // A WebSocket agent's bad parent is refused with the same stable code.
    await assert.rejects(
      agent.send('channel/ops', 'workspace.message.posted', { content: 'x' }, { metadata: { refs: { messages: ['01HZZZZZZZZZZZZZZZZZZZZZZZ'] } } }),
      (err) => err.code === 'unknown_parent',
    );
    // The agent's profile is its node's description and meta for IOA clients.
    const ack = await agent.setProfile({ description: 'answers on ops', meta: { via: 'websocket' } });
    assert.equal(ack.member.profile.description, 'answers on ops');
    assert.deepEqual(await ok('GET', '/nodes/agent:socket', { node: nodes.alice }), { id: 'agent:socket', name: 'socket', description: 'answers on ops', meta: { via: 'websocket' } });
    await assert.rejects(agent.setProfile({ description: 42 }), (err) => err.code === 'invalid_request');
  } finally {
    agent.close();
  }
});

test("IOA's MCP tools at <base>/mcp, through the official MCP SDK, as the token's node", async () => {
  const connect = async (token) => {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    const client = new Client({ name: 'ioa-e2e', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
    return client;
  };
  // Unlike IOA's reference server, /mcp is not open.
  await assert.rejects(connect(undefined), /not_joined/);
  const client = await connect(nodes.carol.token);
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ['ioa_space', 'ioa_send', 'ioa_read']) assert.ok(names.includes(name), name);
    const parse = (result) => {
      assert.ok(!result.isError, JSON.stringify(result));
      return result.structuredContent ?? JSON.parse(result.content[0].text);
    };
    const space = parse(await client.callTool({ name: 'ioa_space', arguments: { name: 'ops', description: 'via MCP', tags: ['mcp'] } }));
    assert.equal(space.id, 'ops');
    assert.ok(space.nodes.some((n) => n.id === 'agent:carol'));
    assert.ok(space.tags.includes('mcp'));
    assert.ok(space.start_messages.some((m) => m.id === graph.m1.id), 'root messages');
    const sent = parse(await client.callTool({ name: 'ioa_send', arguments: { space_id: 'ops', content: { text: 'from MCP' }, refs: { messages: [graph.m5.id] } } }));
    assert.equal(sent.sender, 'agent:carol');
    const up = parse(await client.callTool({ name: 'ioa_read', arguments: { space_id: 'ops', message_id: sent.id, direction: 'upstream' } }));
    const list = Array.isArray(up) ? up : up.result ?? up.messages;
    assert.deepEqual(ids(list), ids([graph.m1, graph.m2, graph.m3, graph.r2, graph.m5, sent]));
    const bad = await client.callTool({ name: 'ioa_send', arguments: { space_id: 'ops', content: {}, refs: { messages: ['01HZZZZZZZZZZZZZZZZZZZZZZZ'] } } });
    assert.equal(bad.isError, true);
    assert.match(JSON.stringify(bad.content), /unknown_parent/);
    const missing = await client.callTool({ name: 'ioa_read', arguments: { space_id: 'none' } });
    assert.equal(missing.isError, true);
    assert.match(JSON.stringify(missing.content), /Space 'none' not found/);
  } finally {
    await client.close();
  }
});

test('a checkpoint answered from the web workspace in Chromium; a handoff and a swarm show their recipients', async () => {
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    await openWorkspace(page, edge.url);
    // The person creates #review; an IOA node (on the built-in demo network, open) joins it as a space.
    await page.getByLabel('New channel').fill('review');
    await page.getByRole('button', { name: 'Create' }).click();
    const demo = `${edge.url}/networks/demo/ioa`;
    const post = async (path, body, token, status = 200) => {
      const res = await fetch(`${demo}${path}`, { method: body ? 'POST' : 'GET', headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: body && JSON.stringify(body) });
      const json = await res.json();
      assert.equal(res.status, status, JSON.stringify(json));
      return json;
    };
    const bot = await post('/auth/register', { name: 'reviewer-bot', meta: {} }, undefined, 201);
    let space;
    await until('the review space', async () => (await fetch(`${demo}/spaces/review`, { headers: { Authorization: `Bearer ${bot.token}` } })).status === 200, 10_000, 100);
    space = await post('/spaces', { name: 'review', description: 'asking for approval' }, bot.token);
    const person = space.nodes.find((n) => n.id.startsWith('human:')).id;
    const checkpoint = await post('/spaces/review/messages', {
      content_type: 'checkpoint',
      content: { id: 'deploy-1', title: 'Deploy to production?', content: 'All checks passed.', options: ['Approve', 'Reject'] },
      refs: { nodes: [person] },
    }, bot.token, 201);
    await post('/spaces/review/messages', { content_type: 'handoff', content: { title: 'Take over the rollout', message: 'notes attached' }, refs: { nodes: [person] } }, bot.token, 201);
    await post('/spaces/review/messages', { content_type: 'swarm', content: { content: 'scan the fleet', targets: ['10.0.0.1', '10.0.0.2'], task: true } }, bot.token, 201);

    const card = page.getByRole('region', { name: 'Checkpoint: Deploy to production?' });
    await card.waitFor({ timeout: 15_000 });
    assert.match(await card.textContent(), /All checks passed\./);
    assert.match(await card.locator('.ioa-recipients').textContent(), new RegExp(person));
    const handoff = page.getByRole('region', { name: 'Handoff' });
    await handoff.waitFor();
    assert.match(await handoff.textContent(), /Take over the rollout/);
    assert.match(await handoff.locator('.ioa-recipients').textContent(), new RegExp(person));
    assert.match(await page.getByRole('region', { name: 'Swarm' }).locator('.ioa-targets').textContent(), /10\.0\.0\.1, 10\.0\.0\.2/);

    await card.getByRole('button', { name: 'Approve' }).click();
    await card.locator('.ioa-answered', { hasText: 'Answered: Approve' }).waitFor({ timeout: 10_000 });
    assert.equal(await card.getByRole('button', { name: 'Reject' }).isDisabled(), true);
    // The bot reads the answer as IOA says: the checkpoint's downstream, linked by refs, no content_type.
    const thread = await until('the answer downstream of the checkpoint', async () => {
      const read = await post(`/spaces/review/messages?message_id=${checkpoint.id}&direction=downstream`, undefined, bot.token);
      return read.length >= 2 && read;
    }, 10_000, 100);
    assert.equal(thread.length, 2);
    const [, answer] = thread;
    assert.equal(answer.sender, person);
    assert.deepEqual(answer.content, { option: 'Approve', feedback: '' });
    assert.deepEqual(answer.refs.messages, [checkpoint.id]);
    assert.equal(answer.content_type, undefined);
  } finally {
    await browser.close();
  }
});

test("a member's IOA streams end when a master removes it, and its token no longer reads", async () => {
  const leaver = await register('leaver');
  const inbox = await stream('/nodes/agent:leaver/sse', leaver);
  const boss = await fetch(`${edge.url}/networks/${network}/v1/join`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ agent_id: 'human:ioa-boss', credentials: { token: ACCESS_KEY, admin_token: adminToken } }),
  }).then((r) => r.json());
  assert.ok(boss.token, JSON.stringify(boss));
  const removed = await fetch(`${edge.url}/networks/${network}/v1/admin/members/remove`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${boss.token}` },
    body: JSON.stringify({ address: 'agent:leaver' }),
  });
  assert.equal(removed.status, 200, await removed.text());
  const ended = await settlesWithin(inbox.ended, 5000);
  assert.ok(ended, 'the edge ended the removed member\'s stream');
  await refused('GET', '/nodes/agent:leaver/sse', { node: leaver }, 401);
});
