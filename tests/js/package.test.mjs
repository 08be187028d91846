// Unit tests of the npm package `agentnet` running the wasm core in Node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  parseAddress, validateEvent, matchesPattern, networkSocketUrl, resolveNetwork, AgentnetError,
  addressInfo, formatAddress, isValidAddress, parseEventType, createEvent, KeyPair, Agent,
} from '../../core/js/index.js';

test('addresses parse to their canonical form', () => {
  assert.equal(parseAddress('alice'), 'agent:alice');
  assert.equal(parseAddress('local::channel/general'), 'channel/general');
  assert.equal(parseAddress('net1::openagents:bob'), 'net1::openagents:bob');
});

test('invalid addresses throw AgentnetError with the core code', () => {
  assert.throws(() => parseAddress('channel/'), (err) => {
    assert.ok(err instanceof AgentnetError);
    assert.ok(err instanceof Error);
    assert.equal(err.code, 'invalid_address');
    assert.match(err.message, /channel name is empty/);
    return true;
  });
});

test('events are validated field by field', () => {
  const event = {
    id: '01HQY7BR000000000000000000', type: 'workspace.message.posted', source: 'alice',
    target: 'agent:broadcast', payload: { content: 'hi' }, timestamp: 1709337600000,
  };
  const canonical = validateEvent(event);
  assert.equal(canonical.source, 'agent:alice');
  assert.deepEqual(canonical.metadata, {});
  assert.throws(() => validateEvent({ ...event, type: 'Bad' }), { code: 'invalid_event_type' });
  assert.throws(() => validateEvent({ ...event, id: 'x' }), { code: 'invalid_event_id' });
});

test('type patterns follow the core rules', () => {
  assert.equal(matchesPattern('workspace.message.*', 'workspace.message.posted'), true);
  assert.equal(matchesPattern('workspace.message.*', 'workspace.session.created'), false);
  assert.equal(matchesPattern('*', 'a.b'), true);
  assert.throws(() => matchesPattern('bad pattern', 'a.b'), { code: 'invalid_event_type' });
});

test('network socket URLs follow the edge layout', () => {
  assert.equal(networkSocketUrl('http://127.0.0.1:8787', 'demo'), 'ws://127.0.0.1:8787/networks/demo/v1/ws');
  assert.equal(networkSocketUrl('https://edge.example/x', 'a1'), 'wss://edge.example/networks/a1/v1/ws');
});

test('addresses are inspected and built from parts', () => {
  assert.deepEqual(addressInfo('lab::openagents:bob'), {
    address: 'lab::openagents:bob', network: 'lab', kind: 'registered', name: 'bob', registrar: 'openagents',
    uri: addressInfo('lab::openagents:bob').uri, did: 'did:openagents:bob',
  });
  assert.equal(addressInfo('resource/file/docs/a.md').name, 'docs/a.md');
  assert.equal(addressInfo('core').name, null);
  assert.equal(formatAddress({ kind: 'tool', name: 'calc', network: 'lab' }), 'lab::resource/tool/calc');
  assert.equal(formatAddress({ kind: 'registered', name: 'carol' }), 'openagents:carol');
  assert.throws(() => formatAddress({ kind: 'planet', name: 'x' }), { code: 'invalid_address' });
  assert.throws(() => formatAddress({ kind: 'agent', name: 'has space' }), { code: 'invalid_address' });
  assert.equal(isValidAddress('agent:ok'), true);
  assert.equal(isValidAddress('agent:'), false);
  assert.equal(parseEventType('chat.message'), 'chat.message');
  assert.throws(() => parseEventType('Chat'), { code: 'invalid_event_type' });
});

test('createEvent builds events the core accepts, with fresh ids', () => {
  const a = createEvent({ source: 'alice', network: 'demo', target: 'agent:bob', type: 'chat.message', payload: { text: 'hi' } });
  const b = createEvent({ source: 'alice', network: 'demo', target: 'agent:bob', type: 'chat.message' });
  assert.equal(a.source, 'agent:alice');
  assert.notEqual(a.id, b.id);
  assert.deepEqual(validateEvent(a), a);
  assert.throws(() => createEvent({ source: 'alice', network: 'demo', target: 'agent:bob', type: 'chat.message', metadata: [] }), { code: 'malformed_event' });
});

test('key pairs derive the RFC 8032 public key, export, import and keep the secret out of JSON', () => {
  // RFC 8032 section 7.1, test 1.
  const secretKey = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
  const pair = KeyPair.import(secretKey);
  assert.equal(pair.publicKey, 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
  assert.deepEqual(KeyPair.import(pair.export()).export(), pair.export());
  assert.equal(JSON.stringify(pair), JSON.stringify({ publicKey: pair.publicKey }));
  assert.throws(() => KeyPair.import({ secretKey, publicKey: '00'.repeat(32) }), { code: 'invalid_key' });
  assert.throws(() => KeyPair.import('abc'), { code: 'invalid_key' });
  const fresh = KeyPair.generate();
  assert.notEqual(fresh.publicKey, KeyPair.generate().publicKey);
  const signature = pair.signChallenge({ network: 'demo', address: 'openagents:alice', nonce: 'n1' });
  assert.match(signature, /^[0-9a-f]{128}$/);
  assert.equal(signature, pair.signChallenge({ network: 'demo', address: 'openagents:alice', nonce: 'n1' }));
  assert.notEqual(signature, pair.signChallenge({ network: 'demo', address: 'openagents:alice', nonce: 'n2' }));
});

test('network URLs, edge URLs and bad connect options resolve or fail with codes', async () => {
  assert.deepEqual(await resolveNetwork({ url: 'https://edge.example/networks/lab' }), { network: 'lab', socketUrl: 'wss://edge.example/networks/lab/v1/ws' });
  assert.deepEqual(await resolveNetwork({ url: 'http://127.0.0.1:1', network: 'x' }), { network: 'x', socketUrl: 'ws://127.0.0.1:1/networks/x/v1/ws' });
  await assert.rejects(resolveNetwork({ url: 'http://127.0.0.1:1' }), { code: 'invalid_request' });
  await assert.rejects(Agent.connect({ url: 'http://127.0.0.1:1', network: 'x' }), { code: 'invalid_request' });
  await assert.rejects(Agent.connect({ url: 'http://127.0.0.1:1', network: 'x', name: 'agent:' }), { code: 'invalid_address' });
  await assert.rejects(resolveNetwork({ profile: 'http://127.0.0.1:1/networks/x/v1/profile' }), { code: 'unreachable' });
});

test('sockets opened with the ws package never negotiate per-message compression', async () => {
  const { default: WebSocket, WebSocketServer } = await import('ws');
  const { openSocket, isWsPackage } = await import('../../core/js/lib/connect.js');
  assert.equal(isWsPackage(WebSocket), true);
  if (globalThis.WebSocket) assert.equal(isWsPackage(globalThis.WebSocket), false);
  // A server that offers compression, as workerd does: the client must decline it.
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: true });
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const socket = openSocket(WebSocket, `ws://127.0.0.1:${server.address().port}/`);
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    assert.equal(socket.extensions, '');
    socket.close();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a burst of frames sent with the ws package reaches the kernel in one write, in order', async () => {
  const { default: WebSocket, WebSocketServer } = await import('ws');
  const { openSocket, sendFrame } = await import('../../core/js/lib/connect.js');
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  let socket;
  try {
    const received = [];
    const all = new Promise((resolve) => server.once('connection', (peer) => peer.on('message', (m) => {
      received.push(String(m));
      if (received.length === 50) resolve();
    })));
    socket = openSocket(WebSocket, `ws://127.0.0.1:${server.address().port}/`);
    await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
    // Count what the connection hands to the kernel.
    const connection = socket._socket;
    let writes = 0;
    for (const method of ['_write', '_writev']) {
      const original = connection[method].bind(connection);
      connection[method] = (...args) => { writes += 1; return original(...args); };
    }
    const frames = Array.from({ length: 50 }, (_, i) => JSON.stringify({ i }));
    for (const frame of frames) sendFrame(socket, frame);
    await all;
    assert.deepEqual(received, frames);
    assert.equal(writes, 1, 'one write for the whole burst');
    // Without ws (a browser's WebSocket), frames are simply sent.
    const sent = [];
    sendFrame({ send: (frame) => sent.push(frame) }, 'x');
    assert.deepEqual(sent, ['x']);
  } finally {
    socket?.terminate();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a replica returns persist effects unless they are turned off, as agents do', async () => {
  const { core } = await import('../../core/js/lib/runtime.js');
  const kinds = (json) => JSON.parse(json).map((e) => e.kind);
  const post = (replica) => JSON.parse(replica.post('workspace.message.posted', 'agent:bob', '{"content":"hi"}', undefined, 1))
    .effects.map((e) => e.kind);
  const kept = new core.Replica('agent:alice', 'demo', new Uint8Array(32));
  assert.ok(post(kept).includes('persist'), 'an offline post is stored in the outbox row');
  const memoryOnly = new core.Replica('agent:alice', 'demo', new Uint8Array(32));
  memoryOnly.setPersistEffects(false);
  assert.deepEqual(post(memoryOnly).filter((k) => k === 'persist'), []);
  // Everything else still comes: the join to send when the connection opens.
  assert.deepEqual(kinds(memoryOnly.connected(undefined, 2)), kinds(kept.connected(undefined, 2)).filter((k) => k !== 'persist'));
  assert.ok(kinds(memoryOnly.connected(undefined, 3)).includes('send'));
});

test('a replica with a keepalive sends heartbeats, gives a silent link up and says when to reconnect', async () => {
  const { core } = await import('../../core/js/lib/runtime.js');
  const effects = (json) => JSON.parse(json);
  const replica = new core.Replica('agent:alice', 'demo', new Uint8Array(32));
  replica.setPersistEffects(false);
  replica.setKeepalive(true);
  replica.connected(undefined, 1000);
  // Nothing heard for 15 s: a heartbeat (the join is resent meanwhile, as ever).
  const beat = effects(replica.handleTimeout(16000));
  assert.ok(beat.some((e) => e.kind === 'send' && e.frame === 'ping'), JSON.stringify(beat));
  assert.equal(replica.pollTimeout(), 21000);
  // Nothing answers within 10 s: the link is dead.
  assert.deepEqual(effects(replica.handleTimeout(26000)).map((e) => e.kind), ['disconnect']);
  // Reported lost: the first attempt within 125–250 ms, as the randomness says.
  replica.lost(26000, 0);
  assert.equal(replica.pollTimeout(), 26125);
  assert.deepEqual(effects(replica.handleTimeout(26125)).map((e) => e.kind), ['reconnect']);
  replica.free();
});

/**
 * A stand-in network on 127.0.0.1: it accepts every join, answers heartbeats,
 * and `answer(frame, peer)` decides what else to do with each frame. Returns its URL and `close`.
 */
async function fakeNetwork(answer) {
  const { WebSocketServer } = await import('ws');
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const ackOf = (frame, extra = {}) => {
    const ack = createEvent({ source: 'core', network: 'fake', target: frame.source, type: 'network.event.ack', payload: { id: frame.id, ...extra } });
    return JSON.stringify({ ...ack, metadata: { in_reply_to: frame.id } });
  };
  server.on('connection', (peer) => peer.on('message', (data) => {
    // The agent's heartbeat, answered as the edge does.
    if (String(data) === 'ping') return peer.send('pong');
    const frame = JSON.parse(String(data));
    if (frame.type === 'network.agent.join') peer.send(ackOf(frame, { resume_after: 0 }));
    else answer(frame, peer, ackOf);
  }));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => {
      for (const client of server.clients) client.terminate();
      server.close(resolve);
    }),
  };
}

test('an agent resends an event the network did not answer, and fails a request when its own deadline comes first', async () => {
  const { default: WebSocket } = await import('ws');
  const copies = new Map();
  const network = await fakeNetwork((frame, peer, ackOf) => {
    copies.set(frame.id, (copies.get(frame.id) ?? 0) + 1);
    // The first copy of each event is lost; the resent one is acknowledged.
    if (frame.type === 'test.lost' && copies.get(frame.id) === 2) peer.send(ackOf(frame, { seq: 1 }));
    // Requests are never answered.
  });
  const agent = await Agent.connect({ url: network.url, network: 'fake', name: 'agent:resender', WebSocket });
  try {
    const started = Date.now();
    const sent = agent.send('agent:other', 'test.lost', {});
    // The agent's timer is now set for the resend, five seconds out; a request
    // due much sooner must move it earlier, or the request fails only when the
    // agent's own fallback gives up, a second after its deadline.
    const failure = await agent.request('agent:other', 'test.question', {}, { timeoutMs: 300 }).then(
      () => assert.fail('the request was never answered'),
      (err) => ({ err, after: Date.now() - started }),
    );
    assert.equal(failure.err.code, 'timeout');
    assert.equal(failure.err.message, 'no reply arrived in time', 'failed by the replica at its deadline');
    assert.ok(failure.after < 1000, `failed after ${failure.after} ms`);
    const ack = await sent;
    assert.equal(ack.seq, 1);
    const [lostId] = [...copies].find(([, n]) => n === 2) ?? [];
    assert.ok(lostId, 'the lost event was sent a second time');
    assert.ok(Date.now() - started >= 5000, 'resent once its time was up, not before');
  } finally {
    agent.close();
    await network.close();
  }
});

test('a sent event\'s id is known at once, so an answer that comes before the ack is matched', async () => {
  const { default: WebSocket } = await import('ws');
  const network = await fakeNetwork((frame, peer, ackOf) => {
    if (frame.type !== 'test.asked') return;
    // The answer leaves before the ack, as a busy network may deliver them.
    const answer = createEvent({ source: 'agent:other', network: 'fake', target: frame.source, type: 'test.answered', payload: {} });
    peer.send(JSON.stringify({ ...answer, metadata: { in_reply_to: frame.id } }));
    peer.send(ackOf(frame, { seq: 1 }));
  });
  const agent = await Agent.connect({ url: network.url, network: 'fake', name: 'agent:relay', WebSocket });
  try {
    const asked = new Set();
    const matched = new Promise((resolve) => {
      agent.on('test.answered', (event) => resolve(asked.has(event.metadata.in_reply_to)));
    });
    const sent = agent.send('agent:other', 'test.asked', {});
    assert.match(sent.id, /\S/, 'the id is there before the ack');
    asked.add(sent.id);
    assert.equal(await matched, true, 'the answer named the id the sender knew');
    assert.equal((await sent).id, sent.id, 'the ack is for the same event');
  } finally {
    agent.close();
    await network.close();
  }
});

test('values of the wrong type fail with invalid_argument before the core, and the agent keeps working', async () => {
  const wrongType = { code: 'invalid_argument' };
  assert.throws(() => matchesPattern(7, 'a.b'), wrongType);
  assert.throws(() => matchesPattern('*', { type: 'a.b' }), wrongType);
  assert.throws(() => validateEvent(undefined), wrongType);
  assert.throws(() => createEvent({ source: 'agent:a', network: 'demo', target: 'agent:b', type: 5 }), wrongType);
  assert.throws(() => KeyPair.generate().signChallenge({ network: 'demo', address: 'openagents:a', nonce: 12 }), wrongType);
  await assert.rejects(resolveNetwork({ url: 'http://127.0.0.1:1', network: 5 }), wrongType);
  await assert.rejects(resolveNetwork({ url: 'not a url', network: 'x' }), wrongType);
  assert.throws(() => networkSocketUrl('edge.example', 'x'), wrongType);
  assert.throws(() => createEvent({ source: 'agent:a', network: 'demo', target: 'agent:b', type: 'a.b', payload: { n: 1n } }), wrongType);
  assert.throws(() => createEvent({ source: 'agent:a', network: 'demo', target: 'agent:b', type: 'a.b', payload: () => {} }), wrongType);
  await assert.rejects(Agent.connect({ url: 'http://127.0.0.1:1', network: 'x', name: { address: 'agent:a' } }), wrongType);
  // A profile is the network's word, not the caller's: an id that is not a string is refused too.
  const { createServer } = await import('node:http');
  const profiles = createServer((_, res) => res.end(JSON.stringify({ id: 5, transports: [{ type: 'websocket', endpoint: 'ws://127.0.0.1:1/' }] })));
  await new Promise((resolve) => profiles.listen(0, '127.0.0.1', resolve));
  try {
    await assert.rejects(resolveNetwork({ profile: `http://127.0.0.1:${profiles.address().port}/` }), { code: 'not_supported' });
  } finally {
    await new Promise((resolve) => profiles.close(resolve));
  }

  const { default: WebSocket } = await import('ws');
  const network = await fakeNetwork((frame, peer, ackOf) => peer.send(ackOf(frame, { seq: 1 })));
  const agent = await Agent.connect({ url: network.url, network: 'fake', name: 'agent:careless', WebSocket });
  try {
    // Passing the payload where the type goes is the likely mistake; passed on,
    // wasm-bindgen's glue would copy the object into wasm memory as a string
    // and break the core's heap.
    for (let i = 0; i < 50; i += 1) {
      assert.throws(() => agent.send('channel/general', { text: 'hello' }), (err) => err.code === 'invalid_argument' && /type/.test(err.message));
      assert.throws(() => agent.send(42, 'test.message'), wrongType);
      assert.throws(() => agent.request('agent:other', ['test.question']), wrongType);
      assert.throws(() => agent.on(null, () => {}), wrongType);
      assert.throws(() => agent.on('test.*', 'not a function'), wrongType);
      await assert.rejects(agent.invoke({ name: 'calc' }), wrongType);
      const cycle = {};
      cycle.self = cycle;
      assert.throws(() => agent.send('agent:other', 'test.message', cycle), (err) => err.code === 'invalid_argument' && /payload must be JSON/.test(err.message));
    }
    const ack = await agent.send('channel/general', 'test.message', { text: 'hello' });
    assert.equal(ack.seq, 1);
  } finally {
    agent.close();
    await network.close();
  }
});

test('a task handle is working from the answer it sends, even when the partner\'s updates arrive with the ack', async () => {
  const { TaskHandle } = await import('../../core/js/lib/tasks.js');
  let acked;
  let refused;
  const agent = {
    address: 'agent:asker',
    send: () => new Promise((resolve, reject) => { acked = resolve; refused = reject; }),
  };
  const handle = new TaskHandle(agent, 'agent:planner');
  handle.id = 'T1';
  const update = (state) => ({ type: 'task.update', source: 'agent:planner', payload: { task: 'T1', state } });
  handle.push(update('awaiting-input'));
  const answered = handle.send('July');
  // One frame: the ack and the partner's artifact, handled before `send` resumes.
  acked({ id: 'A1' });
  handle.push({ type: 'task.artifact', source: 'agent:planner', payload: { task: 'T1', artifact: { name: 'plan', parts: [{ text: 'x' }] } } });
  handle.push(update('completed'));
  await answered;
  const states = [];
  for await (const u of handle) states.push(u.state);
  assert.deepEqual(states, ['awaiting-input', 'working', 'completed']);

  // A refused answer leaves the task awaiting input.
  const again = new TaskHandle(agent, 'agent:planner');
  again.id = 'T1';
  again.push(update('awaiting-input'));
  const failed = again.send('July');
  refused(Object.assign(new Error('no'), { code: 'forbidden' }));
  await assert.rejects(failed, { code: 'forbidden' });
  assert.equal(again.state, 'awaiting-input');
});
