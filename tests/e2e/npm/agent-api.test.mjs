// The npm package `agentnet-sdk` against a real edge (wrangler dev): the Agent API,
// key-proof joins, the examples and the CLI, each as a user would run them.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { Agent, AgentnetError, KeyPair } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { startNode, runNode, until } from '../../support/process.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'core', 'js');
const edge = edgeForFile();

const create = async (body) => (await createNetwork(edge.url, body)).id;

test('two agents chat, request and reply, and see each other in the roster', async () => {
  const network = await create({ name: 'chat' });
  // By network URL and by profile URL: both find the same network.
  const alice = await Agent.connect({ url: `${edge.url}/networks/${network}`, name: 'agent:alice' });
  const bob = await Agent.connect({ profile: `${edge.url}/networks/${network}/v1/profile`, name: 'agent:bob' });
  assert.equal(bob.network, network);
  try {
    const heard = [];
    bob.on('chat.*', (event) => heard.push(event));
    bob.on('question.asked', (event) => bob.reply(event, 'question.answered', { answer: event.payload.a * 2 }));

    const ack = await alice.send('agent:bob', 'chat.message', { text: 'hello bob' });
    assert.ok(ack.seq > 0);
    await until('bob hears alice', () => heard.length === 1);
    assert.equal(heard[0].source, 'agent:alice');
    assert.equal(heard[0].payload.text, 'hello bob');

    const answer = await alice.request('agent:bob', 'question.asked', { a: 21 }, { timeoutMs: 5000 });
    assert.equal(answer.payload.answer, 42);
    assert.equal(answer.metadata.in_reply_to !== undefined, true);

    const roster = await alice.discover();
    assert.deepEqual(roster.agents.map((a) => a.address).sort(), ['agent:alice', 'agent:bob']);

    // Channels: create inviting a member, who joins; leave, and the channel no longer reaches bob.
    await alice.createChannel('room', { members: ['agent:alice', 'agent:bob'] });
    await bob.joinChannel('room');
    await alice.send('channel/room', 'chat.message', { text: 'in the room' });
    await until('bob hears the room', () => heard.length === 2);
    await bob.leaveChannel('room');
    await alice.send('channel/room', 'chat.message', { text: 'after bob left' });
    await bob.joinChannel('channel/room');
    await alice.send('channel/room', 'chat.message', { text: 'bob is back' });
    await until('bob hears the room again', () => heard.length === 3);
    assert.deepEqual(heard.map((e) => e.payload.text), ['hello bob', 'in the room', 'bob is back']);

    // A request nobody answers times out with a stable code.
    await assert.rejects(alice.request('agent:bob', 'nobody.answers', {}, { timeoutMs: 300 }), { code: 'timeout' });
    // Bad input is an AgentnetError with the core's code, before anything is sent.
    assert.throws(() => alice.send('channel/', 'chat.message', {}), (err) => err instanceof AgentnetError && err.code === 'invalid_address');
    await assert.rejects(alice.send('agent:nobody', 'chat.message', {}), { code: 'unknown_target' });
  } finally {
    alice.close();
    bob.close();
  }
});

test('the calculator example answers invocations it permits, refuses the rest, and goes offline', async () => {
  const network = await create({ name: 'tools', mods: ['access-control'] });
  const calculator = await startNode([join(pkg, 'examples', 'calculator.js')], {
    env: { AGENTNET_URL: edge.url, AGENTNET_NETWORK: network, AGENTNET_CALLERS: 'agent:alice' },
    ready: /calculator ready/,
  });
  const alice = await Agent.connect({ url: edge.url, network, name: 'agent:alice' });
  const mallory = await Agent.connect({ url: edge.url, network, name: 'agent:mallory' });
  try {
    const [tool] = await alice.discoverResources({ type: 'tool' });
    assert.equal(tool.address, 'resource/tool/calculator');
    assert.equal(tool.schema.required.length, 3);
    assert.ok(tool.your_permissions.includes('invoke'));

    assert.deepEqual(await alice.invoke('calculator', { op: 'multiply', a: 6, b: 7 }), { result: 42 });
    await assert.rejects(alice.invoke('resource/tool/calculator', { op: 'divide', a: 1, b: 0 }), { code: 'invalid_request', message: /division by zero/ });
    await assert.rejects(alice.invoke('calculator', { op: 'root', a: 1, b: 2 }), { code: 'invalid_arguments', message: /allowed values/ });
    await assert.rejects(mallory.invoke('calculator', { op: 'add', a: 1, b: 1 }), { code: 'forbidden' });

    await calculator.stop();
    await until('the owner is offline', async () => {
      const { agents } = await alice.discover();
      return agents.find((a) => a.address === 'agent:calculator')?.status === 'offline';
    });
    await assert.rejects(alice.invoke('calculator', { op: 'add', a: 1, b: 1 }), { code: 'owner_offline' });
  } finally {
    await calculator.stop();
    alice.close();
    mallory.close();
  }
});

test('files and context are registered, read and updated with their permissions', async () => {
  const network = await create({ name: 'files', mods: ['access-control'] });
  const owner = await Agent.connect({ url: edge.url, network, name: 'agent:owner' });
  const reader = await Agent.connect({ url: edge.url, network, name: 'agent:reader' });
  try {
    await owner.registerFile('notes/plan.md', '# plan', { contentType: 'text/markdown' });
    await owner.registerContext('brief', { goal: 'ship' }, { permissions: { write: 'network' } });
    const file = await reader.read('resource/file/notes/plan.md');
    assert.equal(file.content, '# plan');
    assert.equal(file.content_type, 'text/markdown');
    await assert.rejects(reader.update('resource/file/notes/plan.md', { content: 'mine now' }), { code: 'forbidden' });
    await reader.update('resource/context/brief', { content: { goal: 'ship it' } });
    assert.deepEqual((await owner.read('resource/context/brief')).content, { goal: 'ship it' });
  } finally {
    owner.close();
    reader.close();
  }
});

test('an openagents: address joins with a key proof; a wrong key is refused', async () => {
  const key = KeyPair.generate();
  const network = await create({
    name: 'keys', access: { policy: 'open', min_verification: 1 },
    keys: { 'openagents:alice': key.publicKey },
  });
  const alice = await Agent.connect({ url: edge.url, network, name: 'openagents:alice', key });
  try {
    const { agents } = await alice.discover();
    assert.equal(agents.find((a) => a.address === 'openagents:alice').verification, 1);
  } finally {
    alice.close();
  }
  await assert.rejects(
    Agent.connect({ url: edge.url, network, name: 'openagents:alice', key: KeyPair.generate(), reconnect: false }),
    { code: 'verification_failed' },
  );
  await assert.rejects(
    Agent.connect({ url: edge.url, network, name: 'agent:anonymous', reconnect: false }),
    (err) => err instanceof AgentnetError && err.code !== 'timeout',
  );
  // A bad registered key is refused when the network is created.
  const res = await fetch(`${edge.url}/v1/networks`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bad', keys: { 'openagents:x': 'abcd' } }),
  });
  assert.equal(res.status, 400);
});

test('the echo example answers chat messages', async () => {
  const network = await create({ name: 'echo' });
  const echo = await startNode([join(pkg, 'examples', 'echo.js')], {
    env: { AGENTNET_URL: edge.url, AGENTNET_NETWORK: network }, ready: /echo ready/,
  });
  const me = await Agent.connect({ url: edge.url, network, name: 'human:me' });
  try {
    const reply = await me.request('agent:echo', 'workspace.message.posted', { content: 'ping' }, { timeoutMs: 5000 });
    assert.equal(reply.payload.content, 'echo: ping');
  } finally {
    me.close();
    await echo.stop();
  }
});

test('the bridge example relays {network}::{entity} events both ways, requests included', async () => {
  // Ids are generated, so each network learns its bridge to the other from its administrator.
  const created = [];
  for (const name of ['lab', 'partner']) created.push(await createNetwork(edge.url, { name }));
  const [lab, partner] = created.map((c) => c.id);
  for (const [mine, other] of [[created[0], partner], [created[1], lab]]) {
    const admin = await Agent.connect({ url: edge.url, network: mine.id, name: 'human:admin', credentials: { admin_token: mine.admin_token } });
    try {
      await admin.setBridge(other, 'agent:bridge');
    } finally {
      admin.close();
    }
  }
  const bridge = await startNode([join(pkg, 'examples', 'bridge.js')], {
    env: { AGENTNET_URL: edge.url, AGENTNET_NETWORKS: `${lab},${partner}` }, ready: /bridge ready/,
  });
  const alice = await Agent.connect({ url: edge.url, network: lab, name: 'agent:alice' });
  const dave = await Agent.connect({ url: edge.url, network: partner, name: 'agent:dave' });
  try {
    dave.on('question.asked', (event) => dave.reply(event, 'question.answered', { answer: `${event.payload.q}!` }));
    const answer = await alice.request(`${partner}::agent:dave`, 'question.asked', { q: 'hi' }, { timeoutMs: 10_000 });
    assert.equal(answer.payload.answer, 'hi!');
    assert.equal(answer.metadata.bridged_from, `${partner}::agent:dave`);

    const heard = [];
    alice.on('chat.message', (event) => heard.push(event));
    await dave.send(`${lab}::agent:alice`, 'chat.message', { text: 'from the partner network' });
    await until('alice hears dave', () => heard.length === 1);
    assert.equal(heard[0].source, 'agent:bridge');
    assert.equal(heard[0].metadata.bridged_from, `${partner}::agent:dave`);
  } finally {
    alice.close();
    dave.close();
    await bridge.stop();
  }
});

test('the CLI makes keys, sends, follows, reads and discovers', async () => {
  const cli = join(pkg, 'bin', 'agentnet-sdk.js');
  const network = await create({ name: 'cli', mods: ['persistence'] });
  // The CLI keeps each address's member secret between runs (here, in a file of this test's own).
  const secrets = join(tmpdir(), `agentnet-cli-secrets-${process.pid}.json`);
  const env = { AGENTNET_URL: edge.url, AGENTNET_NETWORK: network, AGENTNET_SECRETS: secrets };

  const keygen = await runNode([cli, 'keygen']);
  assert.equal(keygen.code, 0);
  const pair = JSON.parse(keygen.stdout);
  assert.equal(KeyPair.import(pair).publicKey, pair.publicKey);

  const follow = await startNode([cli, 'follow', '--as', 'agent:follower', '--count', '1'], { env });
  await until('the follower is online', () => follow.output.stderr.includes('following'));
  const sent = await runNode([cli, 'send', '--as', 'agent:sender', 'agent:follower', 'chat.message', '{"text":"from the shell"}'], { env });
  assert.equal(sent.code, 0, sent.stderr);
  assert.ok(JSON.parse(sent.stdout).seq > 0);
  await until('follow exits after one event', () => follow.child.exitCode !== null);
  const followed = JSON.parse(follow.output.stdout.trim());
  assert.equal(followed.payload.text, 'from the shell');

  const read = await runNode([cli, 'read', '--as', 'agent:follower', '--types', 'chat.*'], { env });
  assert.equal(read.code, 0, read.stderr);
  const rows = read.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(rows.map((r) => r.event.payload.text), ['from the shell']);

  const roster = await runNode([cli, 'discover'], { env });
  assert.ok(JSON.parse(roster.stdout).agents.some((a) => a.address === 'agent:follower'));

  const bad = await runNode([cli, 'send', 'channel/', 'chat.message'], { env });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /invalid_address/);

  // A count that is not a whole number is refused before joining (it read nothing, or followed for ever).
  for (const args of [['read', '--limit', 'abc'], ['follow', '--count', 'x'], ['read', '--after=-5']]) {
    const wrong = await runNode([cli, ...args], { env });
    assert.equal(wrong.code, 2, args.join(' '));
    assert.match(wrong.stderr, /takes a whole number/);
  }
});

/**
 * A connected `agent:sender`, once `agent:receiver` has joined `network` and gone
 * offline, and the receiver's member secret, which its next connection presents.
 */
async function senderWithAwayReceiver(network) {
  const sender = await Agent.connect({ url: edge.url, network, name: 'agent:sender' });
  const receiver = await Agent.connect({ url: edge.url, network, name: 'agent:receiver' });
  const { memberSecret } = receiver;
  receiver.close();
  await until('the receiver is offline', async () => {
    const { agents } = await sender.discover();
    return agents.find((a) => a.address === 'agent:receiver')?.status === 'offline';
  });
  return { sender, memberSecret };
}

/**
 * The receiver comes back with its member secret and registers its `type` handler right after
 * connecting: what `pick` takes from each payload is `expected`, in order. Closes both after.
 */
async function assertCaughtUp(network, sender, memberSecret, type, pick, expected) {
  const receiver = await Agent.connect({ url: edge.url, network, name: 'agent:receiver', memberSecret });
  const got = [];
  receiver.on(type, (event) => got.push(pick(event.payload)));
  try {
    await until('every missed event', () => got.length >= expected.length, 8_000);
    assert.deepEqual(got, expected);
  } finally {
    sender.close();
    receiver.close();
  }
}

test('handlers registered right after connect get every event missed while away, in order', async () => {
  const network = await create({ name: 'missed' });
  const { sender, memberSecret } = await senderWithAwayReceiver(network);
  const total = 1000;
  const sends = [];
  for (let n = 0; n < total; n += 1) sends.push(sender.send('agent:receiver', 'note.missed', { n }));
  await Promise.all(sends);
  // The catch-up's first frames arrive in the same socket read as the join's answer.
  await assertCaughtUp(network, sender, memberSecret, 'note.missed', (payload) => payload.n, [...Array(total).keys()]);
});

test('missed events come back from the log exactly as they were sent, whatever their text', async () => {
  const network = await create({ name: 'fidelity' });
  const { sender, memberSecret } = await senderWithAwayReceiver(network);
  // Sent in one burst, so the edge writes them in shared batches, with a
  // large event (written on its own) in the middle of the small ones.
  const texts = [
    'quote " and backslash \\ and slash /', 'newline \n tab \t return \r', 'nul \u0000 bell \u0007 escape \u001b',
    'é ü ß 日本語 🎉', '"}]},{"id":"not-an-event"', 'x'.repeat(70 * 1024), '\u2028 line and paragraph \u2029 separators',
  ];
  const payloads = texts.map((text, n) => ({ n, text, nested: { list: [text, n, null, true] } }));
  await Promise.all(payloads.map((payload) => sender.send('agent:receiver', 'note.exact', payload)));
  await assertCaughtUp(network, sender, memberSecret, 'note.exact', (payload) => payload, payloads);
});

test('a catch-up of large events is paged by bytes and arrives complete and in order', async () => {
  const network = await create({ name: 'large' });
  const { sender, memberSecret } = await senderWithAwayReceiver(network);
  // 12 events of about 400 KB: more than two 4 MB pages' worth.
  const blob = 'x'.repeat(400 * 1024);
  for (let n = 0; n < 12; n += 1) await sender.send('agent:receiver', 'blob.stored', { n, blob });
  const got = [];
  const receiver = await Agent.connect({ url: edge.url, network, name: 'agent:receiver', memberSecret });
  receiver.on('blob.stored', (event) => got.push(event.payload.n));
  try {
    // Sooner than the network's 10 s redelivery: the pages themselves must carry everything.
    await until('every large event', () => got.length >= 12, 8_000);
    assert.deepEqual(got, [...Array(12).keys()]);
  } finally {
    sender.close();
    receiver.close();
  }
});
