// Web Push against the real local edge: a person registers a browser's
// subscription, and the edge's signed, encrypted POSTs reach a local push
// service (tests/support/push-receiver.mjs, which checks the VAPID token and
// decrypts with Node's crypto, independently of agentnet's code) when an
// agent writes to them or answers them, a task they started needs their
// input or ends, and an approval is asked of them. A gone subscription
// (410) is forgotten; the keys are never answered back.

import { test, before, after } from 'node:test';
import { createECDH } from 'node:crypto';
import assert from 'node:assert/strict';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { call, joinToken } from '../../support/http.mjs';
import { makeSubscription, startReceiver, vapidClaims } from '../../support/push-receiver.mjs';

let edge;
let receiver;
let network;
let ann;
let bot;
let key;
let annSub;
const path = (tail) => `/networks/${network}${tail}`;

async function send(token, type, target, payload, metadata) {
  const sent = await call(edge.url, 'POST', path('/v1/events'), { token, body: { type, target, payload, ...(metadata ? { metadata } : {}) } });
  assert.equal(sent.status, 200, JSON.stringify(sent.json));
  return sent.json;
}

/** The next notification pushed to ann, checked (VAPID) and decrypted. */
async function nextForAnn() {
  const from = receiver.received.length;
  return async () => {
    const push = await receiver.next('/push/ann', from);
    assert.equal(push.method, 'POST');
    assert.equal(push.headers['content-encoding'], 'aes128gcm');
    assert.ok(Number(push.headers.ttl) > 0);
    const claims = vapidClaims(push, key);
    assert.equal(claims.aud, receiver.origin, 'the audience is the push service origin');
    assert.ok(claims.exp > Date.now() / 1000, 'the token has not expired');
    assert.ok(claims.exp <= Date.now() / 1000 + 24 * 3600, 'it lives at most a day');
    return annSub.decrypt(push.body);
  };
}

// The deployment's VAPID key, as an operator sets it (a Worker secret; a var here).
const operator = createECDH('prime256v1');
operator.generateKeys();
const scalar = operator.getPrivateKey();
const VAPID_PRIVATE = Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString('base64url');

before(async () => {
  receiver = await startReceiver({ status: (p) => (p === '/push/gone' ? 410 : 201) });
  edge = await startEdge({ allowLocalFetches: true, vars: { AGENTNET_VAPID_PRIVATE_KEY: VAPID_PRIVATE } });
  ({ id: network } = await createNetwork(edge.url, { name: 'pushes', mods: ['workspace'] }));
  ann = await joinToken(edge.url, network, 'human:ann');
  bot = await joinToken(edge.url, network, 'agent:bot');
  const got = await call(edge.url, 'GET', path('/v1/push/key'));
  assert.equal(got.status, 200);
  key = got.json.key;
  assert.equal(key, operator.getPublicKey().toString('base64url'), "the deployment's key");
  annSub = makeSubscription(`${receiver.origin}/push/ann`);
  const added = await call(edge.url, 'POST', path('/v1/push/subscriptions'), { token: ann, body: annSub.json });
  assert.equal(added.status, 201, JSON.stringify(added.json));
  assert.deepEqual(added.json, { endpoint: annSub.json.endpoint }, 'the keys are not answered back');
});

after(async () => {
  await edge?.stop();
  await receiver?.close();
});

test('a subscription needs a member session and a checked endpoint and keys', async () => {
  const anonymous = await call(edge.url, 'POST', path('/v1/push/subscriptions'), { body: annSub.json });
  assert.equal(anonymous.status, 401, JSON.stringify(anonymous.json));
  const badKeys = await call(edge.url, 'POST', path('/v1/push/subscriptions'), {
    token: ann, body: { endpoint: `${receiver.origin}/push/x`, keys: { p256dh: 'AAAA', auth: 'AAAA' } },
  });
  assert.equal(badKeys.status, 400);
  const privateHost = await call(edge.url, 'POST', path('/v1/push/subscriptions'), {
    token: ann, body: { ...annSub.json, endpoint: 'http://10.0.0.1/push' },
  });
  assert.equal(privateHost.status, 400);
  assert.match(privateHost.json.message, /endpoint refused/);
  // Neither the subscription's keys nor the VAPID private key are in any event a member reads.
  const polled = await call(edge.url, 'GET', path('/v1/events?after=0&limit=200'), { token: bot });
  assert.equal(polled.status, 200);
  const seen = JSON.stringify(polled.json);
  for (const secret of [annSub.json.keys.p256dh, annSub.json.keys.auth, VAPID_PRIVATE]) assert.ok(!seen.includes(secret));
  assert.ok(!edge.log.join('').includes(VAPID_PRIVATE), 'the private key is never logged');
});

test('an agent writing to a person, mentioning them or answering them notifies them', async () => {
  let next = await nextForAnn();
  await send(bot, 'workspace.message.posted', 'human:ann', { content: 'Your table is booked' });
  let shown = await next();
  assert.equal(shown.title, 'agent:bot wrote to you');
  assert.equal(shown.body, 'Your table is booked');
  assert.match(shown.url, new RegExp(`^/n/${network}/with/agent:bot\\?message=`));

  // Ann asks everyone; the bot's plain talk notifies nobody, its answer does.
  const asked = await send(ann, 'workspace.message.posted', 'agent:broadcast', { content: 'what time is it?' });
  next = await nextForAnn();
  await send(bot, 'workspace.message.posted', 'agent:broadcast', { content: 'news for everyone' });
  await send(bot, 'workspace.message.posted', 'agent:broadcast', { content: 'noon', answers: asked.id });
  shown = await next();
  assert.equal(shown.title, 'agent:bot answered you');
  assert.equal(shown.body, 'noon');
  assert.equal(shown.url, `/n/${network}?message=${shown.tag}`);

  next = await nextForAnn();
  await send(bot, 'workspace.message.posted', 'agent:broadcast', { content: 'see @human:ann about it' });
  shown = await next();
  assert.equal(shown.title, 'agent:bot mentioned you');
});

test('a task the person started notifies them when it needs input and when it is done', async () => {
  const created = await send(ann, 'task.create', 'agent:bot', { parts: [{ kind: 'text', text: 'book a table' }] });
  const task = created.task ?? created.id;
  assert.ok(task, JSON.stringify(created));
  let next = await nextForAnn();
  await send(bot, 'task.update', 'human:ann', { task, state: 'working' });
  await send(bot, 'task.update', 'human:ann', { task, state: 'awaiting-input', parts: [{ kind: 'text', text: 'For how many?' }] });
  let shown = await next();
  assert.equal(shown.title, 'agent:bot needs your input on a task');
  assert.equal(shown.body, 'For how many?');
  assert.equal(shown.url, `/n/${network}/tasks/${task}`);
  await send(ann, 'task.message', 'agent:bot', { task, parts: [{ kind: 'text', text: 'two' }] });
  next = await nextForAnn();
  await send(bot, 'task.update', 'human:ann', { task, state: 'completed', parts: [{ kind: 'text', text: 'Booked for two at 8' }] });
  shown = await next();
  assert.equal(shown.title, 'agent:bot finished your task');
  assert.equal(shown.body, 'Booked for two at 8');
});

test('an approval asked of a person notifies them', async () => {
  const next = await nextForAnn();
  const asked = await call(edge.url, 'POST', path('/v1/events'), {
    token: bot,
    body: {
      type: 'workspace.approval.requested', target: 'human:ann',
      payload: { action: { kind: 'tool_call', subject: 'pay', summary: 'Pay the 40 EUR deposit?', detail: { eur: 40 } }, expires_at: Date.now() + 600_000 },
    },
  });
  assert.equal(asked.status, 200, `the network takes workspace.approval.requested: ${JSON.stringify(asked.json)}`);
  const shown = await next();
  assert.equal(shown.title, 'agent:bot asks for your approval');
  assert.equal(shown.body, 'Pay the 40 EUR deposit?');
  assert.match(shown.tag, /^approval:[0-9A-Z]{26}$/);
});

test('a gone subscription (410) is forgotten; one can be removed', async () => {
  const cy = await joinToken(edge.url, network, 'human:cy');
  const gone = makeSubscription(`${receiver.origin}/push/gone`);
  const live = makeSubscription(`${receiver.origin}/push/cy`);
  for (const sub of [gone, live]) {
    const added = await call(edge.url, 'POST', path('/v1/push/subscriptions'), { token: cy, body: sub.json });
    assert.equal(added.status, 201);
  }
  // A notice goes to each subscription in turn, the older first: the 410 is
  // read (and the subscription forgotten) before cy's live one is sent to.
  let from = receiver.received.length;
  await send(bot, 'workspace.message.posted', 'human:cy', { content: 'ping' });
  await receiver.next('/push/gone', from);
  assert.equal(live.decrypt((await receiver.next('/push/cy', from)).body).body, 'ping');
  from = receiver.received.length;
  await send(bot, 'workspace.message.posted', 'human:cy', { content: 'pong' });
  assert.equal(live.decrypt((await receiver.next('/push/cy', from)).body).body, 'pong');
  assert.ok(!receiver.received.slice(from).some((p) => p.path === '/push/gone'), 'nothing more to the gone subscription');
  const removed = await call(edge.url, 'DELETE', path('/v1/push/subscriptions'), { token: cy, body: { endpoint: gone.json.endpoint } });
  assert.deepEqual(removed.json, { removed: false }, 'already forgotten');
  const mine = await call(edge.url, 'DELETE', path('/v1/push/subscriptions'), { token: cy, body: { endpoint: live.json.endpoint } });
  assert.deepEqual(mine.json, { removed: true });
});
