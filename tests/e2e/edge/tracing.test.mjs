// W3C trace context end to end: a `traceparent` on an HTTP request reaches the
// event it sends, the tool invocation it is, the tool's result (the owner's
// reply names the invocation as its parent) and the network's answers; the
// edge logs the traced request with its trace id; the web inspector loads the
// history from before the tab joined, shows a trace as a tree and replays the
// events step by step with the network as it was at each; a malformed
// header is ignored, a malformed event field refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, traceCausedBy } from '../../../core/js/index.js';
import { createNetwork } from '../../support/edge.mjs';
import { edgeAndBrowser, openWorkspace } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const started = edgeAndBrowser();
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = `00-${TRACE}-00f067aa0ba902b7-01`;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** The span an event is, computed here from its ULID on its own: the id's low 64 bits. */
function spanOf(eventId) {
  let value = 0n;
  for (const ch of eventId.toUpperCase()) value = value * 32n + BigInt(CROCKFORD.indexOf(ch));
  return (value & ((1n << 64n) - 1n)).toString(16).padStart(16, '0');
}

test('a trace goes from an HTTP request through a tool invocation and back, and the edge logs it', async () => {
  const { edge } = started;
  const { id: network } = await createNetwork(edge.url, { name: 'Traced', access: { policy: 'open' } });
  const owner = await Agent.connect({ url: edge.url, network, name: 'agent:tools' });
  let invocation;
  try {
    await owner.registerTool('echo', { type: 'object' }, (input, event) => {
      invocation = event;
      return { echo: input.text };
    });
    const base = `${edge.url}/networks/${network}/v1`;
    const joined = await (await fetch(`${base}/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'agent:curl' }) })).json();
    const headers = { authorization: `Bearer ${joined.token}`, 'content-type': 'application/json', traceparent: PARENT, tracestate: 'vendor=7' };
    const sent = await fetch(`${base}/events`, {
      method: 'POST', headers,
      body: JSON.stringify({ type: 'network.resource.invoke', target: 'resource/tool/echo', payload: { input: { text: 'hi' } } }),
    });
    assert.equal(sent.status, 200);
    const ack = await sent.json();

    // The invocation the owner receives is the event the request sent, carrying the request's context.
    await until('the invocation', () => invocation);
    assert.equal(invocation.id, ack.id);
    assert.equal(invocation.metadata.traceparent, PARENT);
    assert.equal(invocation.metadata.tracestate, 'vendor=7');

    // Its result (the owner's reply) is the invocation's child in the same trace.
    const result = await until('the result', async () => {
      const page = await (await fetch(`${base}/events?after=0`, { headers: { authorization: `Bearer ${joined.token}` } })).json();
      return page.events.map((e) => e.event).find((e) => e.type === 'network.resource.invoke.result');
    });
    assert.deepEqual(result.payload.output, { echo: 'hi' });
    assert.equal(result.metadata.in_reply_to, ack.id);
    assert.equal(result.metadata.traceparent, `00-${TRACE}-${spanOf(ack.id)}-01`);
    assert.equal(result.metadata.tracestate, 'vendor=7');
    assert.deepEqual(traceCausedBy(invocation), { traceparent: result.metadata.traceparent, tracestate: 'vendor=7' });

    // A request's malformed header is ignored (the request goes on untraced); a malformed event field is refused.
    const untraced = await fetch(`${base}/events`, {
      method: 'POST', headers: { ...headers, traceparent: 'not-a-trace', tracestate: '' },
      body: JSON.stringify({ type: 'chat.note', target: 'agent:tools', payload: {} }),
    });
    assert.equal(untraced.status, 200);
    const malformed = await fetch(`${base}/events`, {
      method: 'POST', headers,
      body: JSON.stringify({ type: 'chat.note', target: 'agent:tools', payload: {}, metadata: { traceparent: '00-bad' } }),
    });
    assert.equal(malformed.status, 400);
    assert.equal((await malformed.json()).code, 'malformed_event');

    // The edge wrote a structured log line for the traced request, with its trace id.
    const line = await until('the log line', () => edge.log.join('').split('\n')
      .map((l) => l.slice(l.indexOf('{')))
      .filter((l) => l.startsWith('{'))
      .map((l) => { try { return JSON.parse(l); } catch { return null; } })
      .find((l) => l?.trace_id === TRACE && l.path === `/networks/${network}/v1/events`));
    assert.equal(line.message, 'request');
    assert.equal(line.method, 'POST');
    assert.equal(line.status, 200);
  } finally {
    owner.close();
  }
});

test("an MCP request's params._meta.traceparent reaches the tool invocation it causes (official SDK client)", async () => {
  const { edge } = started;
  const { id: network } = await createNetwork(edge.url, { name: 'Traced MCP', access: { policy: 'open' } });
  const owner = await Agent.connect({ url: edge.url, network, name: 'agent:mcp-tools' });
  const invocations = [];
  const client = new Client({ name: 'tracing-e2e', version: '1.0.0' }, { capabilities: {} });
  try {
    await owner.registerTool('echo', { type: 'object' }, (input, event) => {
      invocations.push(event);
      return { echo: input.text };
    });
    const joined = await (await fetch(`${edge.url}/networks/${network}/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'agent:mcp-client' }) })).json();
    const transport = new StreamableHTTPClientTransport(new URL(`${edge.url}/networks/${network}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${joined.token}` } },
    });
    await client.connect(transport);
    const MCP_PARENT = `00-${TRACE}-1122334455667788-01`;
    const result = await client.callTool({ name: 'echo', arguments: { text: 'via mcp' }, _meta: { traceparent: MCP_PARENT, tracestate: 'mcp=1' } });
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    assert.deepEqual(result.structuredContent ?? JSON.parse(result.content[0].text), { echo: 'via mcp' });
    assert.equal(invocations.length, 1);
    assert.equal(invocations[0].metadata.traceparent, MCP_PARENT);
    assert.equal(invocations[0].metadata.tracestate, 'mcp=1');
    // Without _meta the call is untraced.
    await client.callTool({ name: 'echo', arguments: { text: 'plain' } });
    assert.equal(invocations.length, 2);
    assert.equal(invocations[1].metadata.traceparent, undefined);
  } finally {
    await client.close();
    owner.close();
  }
});

test("a traced task's updates are the task.create's children in its trace", async () => {
  const { edge } = started;
  const worker = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:traced-worker' });
  const requester = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:traced-requester' });
  try {
    worker.onTask(async (task) => {
      await task.progress('halfway');
      return 'done';
    });
    const handle = await requester.startTask('agent:traced-worker', 'do it', { metadata: { traceparent: PARENT } });
    const events = [];
    for await (const update of handle) events.push(update.event);
    assert.equal(handle.state, 'completed');
    const fromWorker = events.filter((e) => e.source === 'agent:traced-worker');
    assert.ok(fromWorker.length >= 3, `working, the message and completed: ${fromWorker.map((e) => e.type)}`);
    for (const event of fromWorker) assert.equal(event.metadata.traceparent, `00-${TRACE}-${spanOf(handle.id)}-01`, event.type);
  } finally {
    worker.close();
    requester.close();
  }
});

test('the inspector shows a trace as a tree, each event under the one that caused it', async () => {
  const { edge, browser } = started;
  const page = await browser.newPage();
  const asker = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:asker' });
  const helper = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:helper-traced' });
  try {
    helper.on('chat.question', async (event) => {
      const answer = await helper.send('agent:broadcast', 'chat.answer', { text: 'forty-two' }, { metadata: traceCausedBy(event) });
      await helper.send('agent:broadcast', 'chat.footnote', { text: 'see the answer' }, {
        metadata: traceCausedBy({ id: answer.id, metadata: traceCausedBy(event) }),
      });
    });
    // Sent before this tab joined: only the history has it.
    await asker.send('agent:broadcast', 'chat.earlier', { text: 'before you came' });
    await openWorkspace(page, edge.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Inspector' }).click();
    const inspector = page.getByRole('region', { name: 'Event inspector' });
    assert.equal(await inspector.locator('.event[data-type="chat.earlier"]').count(), 0);
    await inspector.getByRole('button', { name: /Load history/ }).click();
    await inspector.locator('.event[data-type="chat.earlier"]').waitFor({ timeout: 10_000 });
    await asker.send('agent:broadcast', 'chat.question', { text: 'the answer?' }, { metadata: { traceparent: PARENT } });
    await inspector.locator('.event[data-type="chat.footnote"]').waitFor({ timeout: 10_000 });
    await inspector.locator('.event[data-type="chat.question"]').getByRole('button', { name: `Show trace ${TRACE}` }).click();
    const rows = inspector.locator('.events .event');
    await until('the tree', async () => (await rows.count()) === 3);
    const tree = await rows.evaluateAll((items) => items.map((li) => [li.dataset.type, Number(li.dataset.depth)]));
    assert.deepEqual(tree, [['chat.question', 0], ['chat.answer', 1], ['chat.footnote', 2]]);

    // The replay steps through what the tab has, showing the network as it was at each event.
    await inspector.getByText('Replay', { exact: true }).click();
    const replay = inspector.getByRole('region', { name: 'Replay' });
    const current = replay.locator('.current');
    const members = replay.getByRole('list', { name: 'Members then' });
    // The controls are named as they read and enabled as the position allows.
    const forward = replay.getByRole('button', { name: 'Forward a step', exact: true });
    const back = replay.getByRole('button', { name: 'Back a step', exact: true });
    const position = replay.getByRole('status');
    assert.equal(await forward.isEnabled(), true, 'forward is enabled at the first event');
    assert.equal(await back.isEnabled(), false, 'back is disabled at the first event');
    await forward.click();
    assert.match(await position.textContent(), /^Event 2 of \d+$/);
    assert.equal(await back.isEnabled(), true);
    await back.click();
    assert.match(await position.textContent(), /^Event 1 of \d+$/);
    for (let i = 0; i < 400 && !(await current.textContent()).startsWith('chat.earlier'); i += 1) {
      await forward.click();
    }
    assert.match(await current.textContent(), /^chat\.earlier · agent:asker → agent:broadcast/);
    assert.ok((await members.allTextContents()).join(' ').includes('agent:asker'));
    assert.ok(!(await members.allTextContents()).join(' ').includes('agent:helper-traced'), 'the helper had not spoken yet');
    await replay.getByRole('slider', { name: 'Step' }).evaluate((range) => {
      range.value = range.max;
      range.dispatchEvent(new Event('input', { bubbles: true }));
    });
    assert.match(await current.textContent(), /^chat\.footnote · agent:helper-traced/);
    assert.equal(await forward.isEnabled(), false, 'forward is disabled at the last event');
    assert.ok((await members.allTextContents()).join(' ').includes('agent:helper-traced'));
  } finally {
    asker.close();
    helper.close();
    await page.close();
  }
});
