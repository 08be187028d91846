// Network agents as A2A agents, driven by the official A2A JS SDK
// (@a2a-js/sdk, whose client speaks 1.0 and, through its compat layer, 0.3)
// against the real edge (wrangler dev). On the other side an npm agent
// (core/js Agent) answers tasks with `onTask`: it asks for input, adds an
// artifact and completes. Cards, both generations, streams, cancel, a task
// read back after kill -9 and a restart, and callers without a session.
// What the A2A TCK and the SDK check besides: typed errors (ErrorInfo in
// `error.data`), the well-known card fetched bare, per-method errors,
// ListTasks without artifacts, 0.3 push configs, version errors and
// idempotent sends.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';
import WebSocket from 'ws';
import { Role, TaskState } from '@a2a-js/sdk';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { joinToken } from '../../support/http.mjs';
import { until, settlesWithin } from '../../support/waits.mjs';
import { clientFactory, textPart, partText } from '../../support/a2a.mjs';

let edge;
let stateDir;
let network;
let adminToken;
let planner;
let token;
const seen = { canceled: [] };

const base = (agent) => `${edge.url}/networks/${network}/a2a${agent ? `/${agent}` : ''}`;

/** `fetch` that sends the session as the card's securitySchemes asks. */

/** A 1.0 client of `agent`'s endpoint, from its card. */
const client10 = (agent, bearer = token) => clientFactory(bearer).createFromUrl(`${base(agent)}/`);

/**
 * A 0.3 client: the card fetched bare (no A2A-Version) and read as a 0.3
 * client reads it — its 0.3 fields, without the 1.0 `supportedInterfaces`
 * merged in — through the SDK's compat layer.
 */
async function client03(agent, bearer = token) {
  const card = await (await fetch(`${base(agent)}/.well-known/agent-card.json`)).json();
  assert.equal(card.protocolVersion, '0.3.0');
  const { supportedInterfaces, ...v03 } = card;
  assert.equal(supportedInterfaces[0].protocolVersion, '1.0');
  return clientFactory(bearer).createFromAgentCard(v03);
}

/** The ErrorInfo an SDK error carries (A2A 1.0 §9.5). */
function errorInfo(err, name, reason) {
  assert.equal(err.name, name, `${err.name}: ${err.message}`);
  const [info] = err.data;
  assert.equal(info['@type'], 'type.googleapis.com/google.rpc.ErrorInfo');
  assert.equal(info.reason, reason);
  assert.equal(info.domain, 'a2a-protocol.org');
  return true;
}

const message = (value, taskId = '') => ({
  message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [textPart(value)], taskId, contextId: '', extensions: [], referenceTaskIds: [], metadata: undefined },
});

before(async () => {
  stateDir = await mkdtemp(joinPath(tmpdir(), 'agentnet-a2a-'));
  edge = await startEdge({ stateDir, allowLocalFetches: true });
  ({ id: network, admin_token: adminToken } = await createNetwork(edge.url, { name: 'A2A' }));
  planner = await Agent.connect({ url: edge.url, network, name: 'agent:planner', WebSocket });
  await planner.registerTool('plan', { type: 'object' }, () => ({}), { description: 'plans a trip' });
  planner.onTask(async (task) => {
    let dates;
    try {
      dates = await task.askInput(`Which dates for ${task.text}?`);
    } catch (err) {
      seen.canceled.push(task.id);
      throw err;
    }
    await task.artifact('itinerary', `${task.text} on ${dates.text}`);
    return `planned ${task.text}`;
  });
  token = await joinToken(edge.url, network, 'agent:traveller');
});

after(async () => {
  planner?.close();
  await edge?.stop();
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
});

test('cards: one per agent with skills, the network\'s, in both generations', async () => {
  const v10 = await (await fetch(`${base('agent:planner')}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
  assert.deepEqual(v10.supportedInterfaces.map((i) => i.protocolVersion), ['1.0', '0.3']);
  assert.equal(v10.supportedInterfaces[0].url, base('agent:planner'));
  assert.deepEqual(v10.skills.map((s) => s.id), ['plan']);
  assert.equal(v10.securitySchemes.session.httpAuthSecurityScheme.scheme, 'Bearer');
  const v03 = await (await fetch(`${base('agent:planner')}/.well-known/agent.json`)).json();
  assert.equal(v03.url, base('agent:planner'));
  // Fetched bare (as §8.2 discovery and the TCK do), the card is the current one, 0.3's fields merged in.
  const bare = await fetch(`${base('agent:planner')}/.well-known/agent-card.json`);
  assert.equal(bare.headers.get('vary'), 'A2A-Version');
  const merged = await bare.json();
  assert.deepEqual(merged.supportedInterfaces, v10.supportedInterfaces);
  assert.equal(merged.securitySchemes.session.httpAuthSecurityScheme.scheme, 'Bearer');
  assert.equal(merged.securitySchemes.session.scheme, 'bearer');
  assert.equal((await clientFactory(token).createFromAgentCard(merged)).protocolVersion, '1.0');
  assert.deepEqual(v03.security, [{ session: [] }, { didwba: [] }]);
  assert.equal(v10.securitySchemes.didwba.httpAuthSecurityScheme.scheme, 'DIDWba');
  const net = await (await fetch(`${base()}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
  assert.deepEqual(net.skills.map((s) => s.id), ['agent:planner/plan']);
  // The SDK reads the card it is given.
  const client = await client10('agent:planner');
  assert.equal(client.protocolVersion, '1.0');
  const none = await fetch(`${base('agent:traveller')}/.well-known/agent-card.json`);
  assert.equal(none.status, 404);
});

test('callers without a session are refused as the card says', async () => {
  const raw = await fetch(base('agent:planner'), {
    method: 'POST', headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } } }),
  });
  assert.equal(raw.status, 401);
  assert.equal(raw.headers.get('www-authenticate'), 'Bearer');
  const anonymous = await client10('agent:planner', null);
  await assert.rejects(anonymous.sendMessage(message('Rome')), /401|Authorization: Bearer/);
  const forged = await client03('agent:planner', 'not-a-session');
  await assert.rejects(forged.sendMessage(message('Rome')), /401|Authorization: Bearer/);
});

test('A2A 1.0: input-required, the client continues, completed with an artifact; read back after kill -9', async () => {
  const client = await client10('agent:planner');
  const asked = await client.sendMessage(message('Rome'));
  assert.equal(asked.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  assert.equal(partText(asked.status.message.parts[0]), 'Which dates for Rome?');
  const done = await client.sendMessage(message('May', asked.id));
  assert.equal(done.id, asked.id);
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(done.artifacts[0].name, 'itinerary');
  assert.equal(partText(done.artifacts[0].parts[0]), 'Rome on May');
  assert.equal(partText(done.status.message.parts[0]), 'planned Rome');
  const listed = await client.listTasks({ pageSize: 10 });
  assert.ok(listed.tasks.some((t) => t.id === asked.id));
  // ListTasks omits artifacts unless asked (§3.1.4).
  assert.deepEqual(listed.tasks.find((t) => t.id === asked.id).artifacts, []);
  const withArtifacts = await client.listTasks({ pageSize: 10, includeArtifacts: true });
  assert.equal(partText(withArtifacts.tasks.find((t) => t.id === asked.id).artifacts[0].parts[0]), 'Rome on May');
  const raw = await fetch(base('agent:planner'), {
    method: 'POST', headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ListTasks', params: {} }),
  }).then((r) => r.json());
  assert.ok(raw.result.tasks.every((t) => !('artifacts' in t)), JSON.stringify(raw.result.tasks[0]));
  // A message to the finished task is UnsupportedOperationError, a cancel TaskNotCancelableError.
  await assert.rejects(client.sendMessage(message('June', asked.id)), (err) => errorInfo(err, 'UnsupportedOperationError', 'UNSUPPORTED_OPERATION'));
  await assert.rejects(client.cancelTask({ id: asked.id }), (err) => errorInfo(err, 'TaskNotCancelableError', 'TASK_NOT_CANCELABLE'));
  await assert.rejects(client.getTask({ id: 'no-such-task' }), (err) => errorInfo(err, 'TaskNotFoundError', 'TASK_NOT_FOUND'));

  await edge.kill();
  edge = await startEdge({ stateDir, port: edge.port, allowLocalFetches: true });
  const after = await (await client10('agent:planner')).getTask({ id: asked.id });
  assert.equal(after.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(partText(after.artifacts[0].parts[0]), 'Rome on May');
  assert.deepEqual(after.history.map((m) => partText(m.parts[0])), ['Rome', 'Which dates for Rome?', 'May', 'planned Rome']);
  // The npm agent reconnects to the restarted edge before the next tests.
  await until('the planner to reconnect', () => planner.online);
});

test('A2A 1.0 streaming: the task, then each change until it settles', async () => {
  const client = await client10('agent:planner');
  const first = [];
  for await (const event of client.sendMessageStream(message('Oslo'))) first.push(event);
  assert.equal(first[0].payload.$case, 'task');
  const last = first.at(-1).payload;
  assert.equal(last.$case, 'statusUpdate');
  assert.equal(last.value.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  const id = first[0].payload.value.id;
  const rest = [];
  for await (const event of client.sendMessageStream(message('June', id))) rest.push(event);
  const cases = rest.map((e) => e.payload.$case);
  assert.equal(cases[0], 'task');
  assert.ok(cases.includes('artifactUpdate'), cases.join());
  const artifact = rest.find((e) => e.payload.$case === 'artifactUpdate').payload.value.artifact;
  assert.equal(partText(artifact.parts[0]), 'Oslo on June');
  assert.equal(rest.at(-1).payload.value.status.state, TaskState.TASK_STATE_COMPLETED);
});

test('A2A 1.0 cancel: the task ends canceled and the npm agent hears it', async () => {
  const client = await client10('agent:planner');
  const asked = await client.sendMessage(message('Lima'));
  assert.equal(asked.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  const canceled = await client.cancelTask({ id: asked.id });
  assert.equal(canceled.status.state, TaskState.TASK_STATE_CANCELED);
  await until('the agent to hear the cancel', () => seen.canceled.includes(asked.id));
  await assert.rejects(client.cancelTask({ id: asked.id }), (err) => /NotCancelable|-32002|cannot go/.test(`${err.constructor.name} ${err.message}`));
});

test('A2A 0.3 through the SDK compat layer: send, continue, stream, get, cancel', async () => {
  const client = await client03('agent:planner');
  assert.equal(client.protocolVersion, '0.3');
  const asked = await client.sendMessage(message('Kyoto'));
  assert.equal(asked.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  const done = await client.sendMessage(message('April', asked.id));
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  assert.equal(partText(done.artifacts[0].parts[0]), 'Kyoto on April');
  const got = await client.getTask({ id: asked.id });
  assert.equal(got.status.state, TaskState.TASK_STATE_COMPLETED);

  const events = [];
  for await (const event of client.sendMessageStream(message('Cairo'))) events.push(event);
  assert.equal(events.at(-1).payload.value.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  const canceled = await client.cancelTask({ id: events[0].payload.value.id });
  assert.equal(canceled.status.state, TaskState.TASK_STATE_CANCELED);
  await assert.rejects(client.sendMessage(message('May', asked.id)), (err) => err.name === 'UnsupportedOperationError');
});

test('A2A 0.3 push configs: set, get, list and delete name the task by params.id', async () => {
  const client = await client03('agent:planner');
  const asked = await client.sendMessage(message('Fez'));
  const url = 'http://127.0.0.1:9/hook';
  const made = await client.createTaskPushNotificationConfig({ tenant: '', taskId: asked.id, id: 'hook03', url, token: 't' });
  assert.equal(made.id, 'hook03');
  const got = await client.getTaskPushNotificationConfig({ tenant: '', taskId: asked.id, id: 'hook03' });
  assert.equal(got.url, url);
  assert.equal((await client.listTaskPushNotificationConfig({ tenant: '', taskId: asked.id })).configs.length, 1);
  await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: asked.id, id: 'hook03' });
  assert.equal((await client.listTaskPushNotificationConfig({ tenant: '', taskId: asked.id })).configs.length, 0);
  await client.cancelTask({ id: asked.id });
});

test('a version the endpoint does not speak: the SDK raises VersionNotSupportedError', async () => {
  // The server answers as the SDKs' servers do: a JSON-RPC error (HTTP 200) for the request's id.
  const later = (url, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${token}`);
    if ((init.method ?? 'GET') === 'POST') headers.set('A2A-Version', '2.0');
    return fetch(url, { ...init, headers });
  };
  const client = await clientFactory(token, later).createFromUrl(`${base('agent:planner')}/`);
  await assert.rejects(client.getTask({ id: 'x' }), (err) => {
    assert.equal(err.name, 'VersionNotSupportedError', `${err.name}: ${err.message}`);
    assert.equal(err.data[0].reason, 'VERSION_NOT_SUPPORTED');
    return true;
  });
  const raw = await later(base('agent:planner'), {
    method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 'v-1', method: 'GetTask', params: { id: 'x' } }),
  });
  assert.equal(raw.status, 200);
  const body = await raw.json();
  assert.equal(body.id, 'v-1');
  assert.equal(body.error.code, -32009);
});

test('idempotent sends: the same messageId sent again answers the same task', async () => {
  const client = await client10('agent:planner');
  const first = message('Nice');
  const asked = await client.sendMessage(first);
  assert.equal(asked.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  const count = async () => (await client.listTasks({ pageSize: 1 })).totalSize;
  const before = await count();
  // A retry after a lost answer: no second task.
  const retried = await client.sendMessage(first);
  assert.equal(retried.id, asked.id);
  assert.equal(await count(), before);
  // The answer sent twice is recorded once.
  const answer = message('August', asked.id);
  const done = await client.sendMessage(answer);
  assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
  const twice = await client.sendMessage(answer);
  assert.equal(twice.id, asked.id);
  const task = await client.getTask({ id: asked.id });
  assert.deepEqual(task.history.map((m) => partText(m.parts[0])), ['Nice', 'Which dates for Nice?', 'August', 'planned Nice']);
  // 0.3 clients get the same promise.
  const old = await client03('agent:planner');
  const oldFirst = message('Bari');
  const oldAsked = await old.sendMessage(oldFirst);
  assert.equal((await old.sendMessage(oldFirst)).id, oldAsked.id);
  await old.cancelTask({ id: oldAsked.id });
});

test('the network\'s endpoint routes a message by the skill it names', async () => {
  const client = await client10(null);
  const request = message('Quito');
  request.message.metadata = { skill: 'agent:planner/plan' };
  const asked = await client.sendMessage(request);
  assert.equal(asked.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
  assert.equal(partText(asked.status.message.parts[0]), 'Which dates for Quito?');
  await client.cancelTask({ id: asked.id });
});

test('npm startTask: updates as an async iterator, input sent back, artifact, completion', async () => {
  const asker = await Agent.connect({ url: edge.url, network, name: 'agent:asker', WebSocket });
  try {
    const handle = await asker.startTask('agent:planner', 'Bern', { skill: 'plan' });
    const states = [];
    for await (const update of handle) {
      states.push(update.state);
      if (update.state === 'awaiting-input' && update.type === 'update') {
        assert.equal(update.text, 'Which dates for Bern?');
        await handle.send('July');
      }
    }
    assert.deepEqual(states.filter((s, i) => s !== states[i - 1]), ['working', 'awaiting-input', 'working', 'completed']);
    assert.equal(handle.state, 'completed');
    assert.equal(handle.artifacts[0].parts[0].text, 'Bern on July');

    const second = await asker.startTask('agent:planner', 'Riga');
    for await (const update of second) {
      if (update.state === 'awaiting-input') break;
    }
    await second.cancel();
    assert.equal((await second.done).state, 'canceled');
    await until('the planner to hear the cancel', () => seen.canceled.includes(second.id));
  } finally {
    asker.close();
  }
});

test('a network that opts in lets public callers act as its guest, for tasks only; the demo network does not', async () => {
  const { id } = await createNetwork(edge.url, { name: 'Public A2A', a2a_guest: 'human:visitor' });
  const echo = await Agent.connect({ url: edge.url, network: id, name: 'agent:echo', WebSocket });
  try {
    await echo.registerTool('echo', { type: 'object' }, () => ({}), { description: 'echoes' });
    echo.onTask(async (task) => `echo: ${task.text}`);
    const card = await (await fetch(`${edge.url}/networks/${id}/a2a/agent:echo/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    assert.deepEqual(card.securityRequirements.at(-1), { schemes: {} });
    const client = await clientFactory(null).createFromUrl(`${edge.url}/networks/${id}/a2a/agent:echo/`);
    const done = await client.sendMessage(message('hello'));
    assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
    assert.equal(partText(done.status.message.parts[0]), 'echo: hello');
    const squat = await fetch(`${edge.url}/networks/${id}/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'human:visitor' }) });
    assert.equal(squat.status, 403);
  } finally {
    echo.close();
  }
  const demo = await (await fetch(`${edge.url}/networks/demo/a2a/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
  assert.deepEqual(demo.securityRequirements, [{ schemes: { session: { list: [] } } }, { schemes: { didwba: { list: [] } } }]);
  const refused = await fetch(`${edge.url}/networks/demo/a2a`, {
    method: 'POST', headers: { 'A2A-Version': '1.0' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }),
  });
  assert.equal(refused.status, 401);
});

test('push notifications: signed POSTs of the task, retried after a failure', async () => {
  const received = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      // The first two attempts fail: the edge must try again.
      res.writeHead(received.length <= 2 ? 500 : 200).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const client = await client10('agent:planner');
    const asked = await client.sendMessage(message('Lagos'));
    const url = `http://127.0.0.1:${receiver.address().port}/hook`;
    const config = await client.createTaskPushNotificationConfig({
      tenant: '', taskId: asked.id, id: 'hook', url, token: 'tok-123', authentication: { scheme: 'Bearer', credentials: 'c-456' },
    });
    assert.equal(config.url, url);
    const done = await client.sendMessage(message('March', asked.id));
    assert.equal(done.status.state, TaskState.TASK_STATE_COMPLETED);
    // Answered 500 twice, the edge tries again (after 1 s, then 2 s) until one is taken.
    await until('the notification to be retried until it is taken', () => received.length >= 3, 30_000);
    assert.equal(JSON.parse(received.at(-1).body).task.status.state, 'TASK_STATE_COMPLETED');
    const last = received.at(-1);
    assert.equal(last.headers.authorization, 'Bearer c-456');
    assert.equal(last.headers['x-a2a-notification-token'], 'tok-123');
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(last.headers['x-agentnet-signature']);
    assert.equal(v1, createHmac('sha256', 'tok-123').update(`${t}.${last.body}`).digest('hex'));
    assert.equal(JSON.parse(last.body).task.id, asked.id);
  } finally {
    receiver.close();
  }
});

test("a member's A2A stream ends when a master removes it", async () => {
  // An agent whose task stays working: the stream stays open until the edge ends it.
  let release;
  const held = new Promise((r) => { release = r; });
  const slow = await Agent.connect({ url: edge.url, network, name: 'agent:slow', WebSocket });
  // A skill gives it a card.
  await slow.registerTool('ponder', { type: 'object' }, () => ({}), { description: 'thinks slowly' });
  slow.onTask(async (task) => {
    await task.progress('on it');
    await held;
    return 'done';
  });
  const leaver = await joinToken(edge.url, network, 'agent:leaver');
  const boss = await fetch(`${edge.url}/networks/${network}/v1/join`, {
    method: 'POST', body: JSON.stringify({ agent_id: 'human:a2a-boss', credentials: { admin_token: adminToken } }),
  }).then((r) => r.json());
  try {
    const client = await client10('agent:slow', leaver);
    const events = [];
    let opened;
    const first = new Promise((r) => { opened = r; });
    const streamed = (async () => {
      try {
        for await (const event of client.sendMessageStream(message('slowly'))) {
          events.push(event);
          opened();
        }
      } catch { /* the SDK may report the cut as an error: the stream ended either way */ }
    })();
    await first;
    assert.equal(events[0].payload.$case, 'task');
    const removed = await fetch(`${edge.url}/networks/${network}/v1/admin/members/remove`, {
      method: 'POST', headers: { Authorization: `Bearer ${boss.token}` }, body: JSON.stringify({ address: 'agent:leaver' }),
    });
    assert.equal(removed.status, 200, await removed.text());
    const ended = await settlesWithin(streamed, 5000);
    assert.ok(ended, "the edge ended the removed member's stream");
    const after = await fetch(`${base('agent:slow')}`, {
      method: 'POST', headers: { Authorization: `Bearer ${leaver}`, 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: events[0].payload.value.id } }),
    });
    assert.equal(after.status, 401, 'its session no longer works');
  } finally {
    release();
    slow.close();
  }
});
