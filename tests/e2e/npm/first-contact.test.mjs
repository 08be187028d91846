// A developer's first contact with the npm package, against a real
// edge: every example runs twice as the same member (the SDK keeps member
// secrets), the echo answers a direct message directly, a tool call with bad
// arguments never reaches its handler, a registered name says who offers it,
// and a task to an agent that takes none fails at once (one whose worker went
// away is canceled after its stated time).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { runNode, startNode, until } from '../../support/process.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'core', 'js');
let edge;
let dir;
let Agent;

before(async () => {
  // The SDK's default store, kept apart from the user's: set before the package loads.
  dir = await mkdtemp(join(tmpdir(), 'agentnet-first-contact-'));
  process.env.AGENTNET_SECRETS = join(dir, 'secrets.json');
  ({ Agent } = await import('../../../core/js/index.js'));
  edge = await startEdge();
});

after(async () => {
  await edge?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `example` (a file of core/js/examples) until `ready`, does `check`, stops it: twice. */
async function twice(example, env, ready, check) {
  for (const run of [1, 2]) {
    const child = await startNode([join(pkg, 'examples', example)], { env: { AGENTNET_URL: edge.url, ...env }, ready });
    try {
      await check(run);
    } catch (err) {
      err.message = `${example}, run ${run}: ${err.message}\n${child.output.stderr}`;
      throw err;
    } finally {
      await child.stop();
    }
  }
}

/** Runs `body` with a new network called `name` and two agents connected to it (as named),
 * given to `body` under their names' last part, with the network's id; closes both after. */
async function withTwo(name, first, second, body) {
  const { id } = await createNetwork(edge.url, { name });
  const a = await Agent.connect({ url: edge.url, network: id, name: first });
  const b = await Agent.connect({ url: edge.url, network: id, name: second });
  try {
    await body({ id, [first.split(':')[1]]: a, [second.split(':')[1]]: b });
  } finally {
    a.close();
    b.close();
  }
}

test('the SDK keeps member secrets: a second connect as the same address works, only with a store', async () => {
  const { id } = await createNetwork(edge.url, { name: 'secrets' });
  const first = await Agent.connect({ url: edge.url, network: id, name: 'agent:kept' });
  first.close();
  const again = await Agent.connect({ url: edge.url, network: id, name: 'agent:kept' });
  again.close();
  const kept = JSON.parse(await readFile(process.env.AGENTNET_SECRETS, 'utf8'));
  assert.equal(kept[`${edge.url}/networks/${id} agent:kept`], first.memberSecret);
  assert.equal((await stat(process.env.AGENTNET_SECRETS)).mode & 0o777, 0o600, 'readable only by its owner');
  // Without a store the address is someone else's, and the error says what to pass.
  await assert.rejects(Agent.connect({ url: edge.url, network: id, name: 'agent:kept', secretStore: false, reconnect: false }),
    { code: 'address_in_use', message: /memberSecret/ });
  // Any object with get and set is a store.
  const store = new Map();
  (await Agent.connect({ url: edge.url, network: id, name: 'agent:mapped', secretStore: store })).close();
  assert.equal(store.size, 1);
  (await Agent.connect({ url: edge.url, network: id, name: 'agent:mapped', secretStore: store })).close();
});

test('the echo example runs twice and answers a direct message directly, not to everyone', () =>
  withTwo('echo', 'human:me', 'human:other', async ({ id, me, other }) => {
    const overheard = [];
    other.on('workspace.message.posted', (event) => overheard.push(event));
    await twice('echo.js', { AGENTNET_NETWORK: id }, /echo ready/, async (run) => {
      const answer = await me.request('agent:echo', 'workspace.message.posted', { content: `ping ${run}` }, { timeoutMs: 5000 });
      assert.equal(answer.payload.content, `echo: ping ${run}`);
      assert.equal(answer.target, 'human:me', 'a direct message is answered directly');
    });
    assert.deepEqual(overheard.filter((e) => e.source === 'agent:echo'), [], 'nothing was echoed to everyone');
  }));

test('event.reply answers a channel message in the channel, in its thread', () =>
  withTwo('room', 'human:me', 'agent:helper', async ({ id, me, helper }) => {
    await me.createChannel('room', { members: ['human:me', 'agent:helper'] });
    await helper.joinChannel('room');
    helper.on('workspace.message.posted', (event) => {
      if (event.source !== helper.address) event.reply(`seen: ${event.payload.content}`);
    });
    const heard = [];
    me.on('workspace.message.posted', (event) => heard.push(event));
    const asked = await me.post('channel/room', 'in the room');
    await until('the helper answers in the channel', () => heard.some((e) => e.source === 'agent:helper'));
    const reply = heard.find((e) => e.source === 'agent:helper');
    assert.equal(reply.target, 'channel/room');
    assert.equal(reply.payload.content, 'seen: in the room');
    assert.equal(reply.metadata.in_reply_to, asked.id, "in the message's thread");
  }));

test('the calculator example runs twice; bad arguments never reach its handler; its name says who offers it', async () => {
  const { id } = await createNetwork(edge.url, { name: 'calc' });
  const alice = await Agent.connect({ url: edge.url, network: id, name: 'agent:alice' });
  try {
    await twice('calculator.js', { AGENTNET_NETWORK: id }, /calculator ready/, async () => {
      assert.deepEqual(await alice.invoke('calculator', { op: 'add', a: 1, b: 2 }), { result: 3 });
      await assert.rejects(alice.invoke('calculator', { op: 'add', a: 'many', b: 2 }), { code: 'invalid_arguments', message: /input\/a must be number/ });
      await assert.rejects(alice.invoke('calculator', { op: 'add', a: 1 }), { code: 'invalid_arguments', message: /must have required property 'b'/ });
      await assert.rejects(alice.registerTool('calculator', {}, () => 0), { code: 'already_exists', message: /offered by agent:calculator/ });
    });
  } finally {
    alice.close();
  }
  // In one process: the handler is never called with input that does not fit.
  const owner = await Agent.connect({ url: edge.url, network: id, name: 'agent:owner' });
  const caller = await Agent.connect({ url: edge.url, network: id, name: 'agent:caller' });
  try {
    const seen = [];
    const schema = { type: 'object', properties: { days: { type: 'integer', minimum: 1 } }, required: ['days'] };
    await owner.registerTool('forecast', schema, (input) => { seen.push(input); return { days: input.days }; });
    for (const bad of [{ days: 'many' }, {}, { days: 0 }]) {
      await assert.rejects(caller.invoke('forecast', bad), { code: 'invalid_arguments' }, JSON.stringify(bad));
    }
    assert.deepEqual(await caller.invoke('forecast', { days: 3 }), { days: 3 });
    assert.deepEqual(seen, [{ days: 3 }]);
  } finally {
    owner.close();
    caller.close();
  }
});

test('the mod examples run twice: the guard rejects, the translator rewrites', async () => {
  for (const [example, ready, check] of [
    ['profanity-guard.js', /profanity guard ready/, async (alice) => {
      await assert.rejects(alice.post('agent:bob', 'well, darn it'), { code: 'rejected_by_mod', message: /darn/ });
    }],
    ['translator.js', /translator ready/, async (alice, heard) => {
      const before = heard.length;
      await alice.post('agent:bob', 'hola amigo');
      await until('bob hears the translation', () => heard.length > before);
      assert.equal(heard.at(-1).payload.content, 'hello friend');
    }],
  ]) {
    const { id, admin_token: token } = await createNetwork(edge.url, { name: example });
    const alice = await Agent.connect({ url: edge.url, network: id, name: 'agent:alice' });
    const bob = await Agent.connect({ url: edge.url, network: id, name: 'agent:bob' });
    const heard = [];
    bob.on('workspace.message.posted', (event) => heard.push(event));
    try {
      await twice(example, { AGENTNET_NETWORK: id, AGENTNET_ADMIN_TOKEN: token }, ready, () => check(alice, heard));
    } finally {
      alice.close();
      bob.close();
    }
  }
});

test('the bridge example runs twice and relays a request both times', async () => {
  const created = [await createNetwork(edge.url, { name: 'lab' }), await createNetwork(edge.url, { name: 'partner' })];
  const [lab, partner] = created.map((c) => c.id);
  for (const [mine, other] of [[created[0], partner], [created[1], lab]]) {
    const admin = await Agent.connect({ url: edge.url, network: mine.id, name: 'human:admin', credentials: { admin_token: mine.admin_token } });
    await admin.setBridge(other, 'agent:bridge');
    admin.close();
  }
  const alice = await Agent.connect({ url: edge.url, network: lab, name: 'agent:alice' });
  const dave = await Agent.connect({ url: edge.url, network: partner, name: 'agent:dave' });
  dave.on('question.asked', (event) => dave.reply(event, 'question.answered', { answer: `${event.payload.q}!` }));
  try {
    await twice('bridge.js', { AGENTNET_NETWORKS: `${lab},${partner}` }, /bridge ready/, async (run) => {
      const answer = await alice.request(`${partner}::agent:dave`, 'question.asked', { q: `hi ${run}` }, { timeoutMs: 10_000 });
      assert.equal(answer.payload.answer, `hi ${run}!`);
    });
  } finally {
    alice.close();
    dave.close();
  }
});

test('a task to an agent that takes no tasks fails at once; one whose worker went away is canceled after its time', () =>
  withTwo('tasks', 'agent:requester', 'agent:idle', async ({ requester, idle }) => {
    const started = Date.now();
    await assert.rejects(requester.startTask('agent:idle', 'do something'), { code: 'takes_no_tasks', message: /agent:idle takes no tasks/ });
    assert.ok(Date.now() - started < 5000, 'refused at once');
    const { agents } = await requester.discover();
    assert.equal(agents.find((a) => a.address === 'agent:idle').profile?.tasks, false);
    // Registering a handler says it takes them.
    idle.onTask((task) => `done: ${task.text}`);
    await until('the profile says it takes tasks', async () =>
      (await requester.discover()).agents.find((a) => a.address === 'agent:idle').profile?.tasks === true);
    const handle = await requester.startTask('agent:idle', 'now');
    await handle.done;
    assert.equal(handle.state, 'completed');
    // A worker that took tasks and went away: the task is canceled after startTimeoutMs.
    idle.close();
    await until('the worker is offline', async () =>
      (await requester.discover()).agents.find((a) => a.address === 'agent:idle').status === 'offline');
    const stranded = await requester.startTask('agent:idle', 'anyone?', { startTimeoutMs: 500 });
    await stranded.done;
    assert.equal(stranded.state, 'canceled');
    assert.equal(stranded.error?.code, 'timeout');
  }));

test("the main README's echo agent answers a direct message directly, twice over a restart", async () => {
  const root = join(pkg, '..', '..');
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const code = readme.split('A JavaScript agent (from this repository')[1].match(/```js\n([\s\S]*?)```/)[1]
    .replaceAll('http://127.0.0.1:8787', edge.url);
  const me = await Agent.connect({ url: edge.url, network: 'demo', name: 'human:reader' });
  try {
    for (const run of [1, 2]) {
      const echo = await startNode(['--input-type=module', '-e', code], { cwd: root });
      try {
        const answer = await until('the echo answers', () => me.request('agent:my-echo', 'workspace.message.posted', { content: `hi ${run}` }, { timeoutMs: 2000 })
          .catch(() => undefined));
        assert.equal(answer.payload.content, `echo: hi ${run}`);
        assert.equal(answer.target, 'human:reader');
      } finally {
        await echo.stop();
      }
    }
  } finally {
    me.close();
  }
});

test('closing with a send still unanswered ends the program cleanly; an awaited one says closed', async () => {
  // A handler's `event.reply(...)` is rarely awaited; closing the agent before its ack
  // came must not end the program with an unhandled rejection (exit code 1).
  const script = `import { Agent } from ${JSON.stringify(join(pkg, 'index.js'))};
const agent = await Agent.connect({ url: process.env.AGENTNET_URL, network: 'demo', name: 'agent:closes-early' });
agent.post('agent:broadcast', 'sent and forgotten');
const awaited = agent.post('agent:broadcast', 'awaited').then(() => 'acked', (err) => err.code);
agent.close();
console.log(await awaited);
`;
  const ran = await runNode(['--input-type=module', '-e', script], { env: { AGENTNET_URL: edge.url } });
  assert.equal(ran.code, 0, ran.stderr);
  assert.equal(ran.stdout.trim(), 'closed');
});
