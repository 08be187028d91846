// Mods written by developers with the npm package (`agent.asMod`) against a
// real edge: the examples (a profanity guard, a translating transform) run as
// their users would run them, a late mod meets its policy, observers watch.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { startNode, until } from '../../support/process.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'core', 'js');
const edge = edgeForFile();

async function chat() {
  const created = await createNetwork(edge.url, { name: 'mods' });
  const alice = await Agent.connect({ url: edge.url, network: created.id, name: 'agent:alice' });
  const bob = await Agent.connect({ url: edge.url, network: created.id, name: 'agent:bob' });
  const heard = [];
  bob.on('chat.*', (event) => heard.push(event));
  bob.on('workspace.message.posted', (event) => heard.push(event));
  return { ...created, alice, bob, heard };
}

/** Runs `body` with a chat where the package's example `script` runs as a mod (started once its
 * output matches `ready`); stops it and closes the chat's agents after. */
async function withExample(script, ready, body) {
  const { id, admin_token, alice, bob, heard } = await chat();
  const example = await startNode([join(pkg, 'examples', script)], {
    env: { AGENTNET_URL: edge.url, AGENTNET_NETWORK: id, AGENTNET_ADMIN_TOKEN: admin_token },
    ready,
  });
  try {
    await body({ alice, heard, example });
  } finally {
    await example.stop();
    alice.close();
    bob.close();
  }
}

test('the profanity guard example rejects a rude message with its reason and lets the rest through', () =>
  withExample('profanity-guard.js', /profanity guard ready/, async ({ alice, heard, example: guard }) => {
    await assert.rejects(
      alice.post('agent:bob', 'well, darn it'),
      (err) => err.code === 'rejected_by_mod' && /darn/.test(err.message) && /agent:profanity-guard/.test(err.message),
    );
    const ack = await alice.post('agent:bob', 'good morning');
    assert.ok(ack.seq > 0);
    await until('bob hears the clean message', () => heard.length === 1);
    assert.equal(heard[0].payload.content, 'good morning');
    // Events it does not intercept never wait for it.
    assert.ok((await alice.send('agent:bob', 'note.left', { text: 'darn' })).seq > 0);

    // Offline, the guard (fail-closed by default) refuses at once.
    await guard.stop();
    await until('the guard is offline', async () => {
      const { agents } = await alice.discover();
      return agents.find((a) => a.address === 'agent:profanity-guard')?.status === 'offline';
    });
    await assert.rejects(alice.post('agent:bob', 'hello?'), { code: 'mod_unavailable' });
  }));

test('the translator example rewrites the message everyone receives', () =>
  withExample('translator.js', /translator ready/, async ({ alice, heard }) => {
    await alice.post('agent:bob', 'hola mundo');
    await until('bob hears the translation', () => heard.length === 1);
    assert.equal(heard[0].payload.content, 'hello world');
    assert.equal(heard[0].payload.original, 'hola mundo');
    assert.equal(heard[0].source, 'agent:alice');
  }));

test('a late mod meets its policy: fail-closed refuses, fail-open lets the event on; observers watch without holding', async () => {
  const { id, admin_token, alice, bob, heard } = await chat();
  const slow = await Agent.connect({ url: edge.url, network: id, name: 'agent:slow', credentials: { admin_token } });
  const watcher = await Agent.connect({ url: edge.url, network: id, name: 'agent:watcher', credentials: { admin_token } });
  try {
    const never = () => new Promise(() => {});
    const { uninstall } = await slow.asMod({ patterns: ['chat.*'], mode: 'guard', deadlineMs: 300, onLate: 'fail-closed' }, never);
    const seen = [];
    await watcher.asMod({ patterns: ['chat.*'], mode: 'observe' }, (event) => { seen.push(event); });

    const started = Date.now();
    await assert.rejects(alice.send('agent:bob', 'chat.message', { text: 'one' }), { code: 'mod_unavailable', message: /300 ms/ });
    assert.ok(Date.now() - started >= 300);
    assert.equal(seen.length, 0, 'observers see only accepted events');

    await uninstall();
    await slow.asMod({ patterns: ['chat.*'], mode: 'guard', deadlineMs: 300, onLate: 'fail-open' }, never);
    assert.ok((await alice.send('agent:bob', 'chat.message', { text: 'two' })).seq > 0);
    await until('bob hears it after the deadline', () => heard.length === 1);
    await until('the observer sees it', () => seen.length === 1);
    assert.equal(seen[0].payload.text, 'two');
    assert.equal(seen[0].source, 'agent:alice');

    // Only masters install mods.
    await assert.rejects(alice.asMod({ patterns: ['*'], mode: 'guard' }, () => {}), { code: 'forbidden' });
  } finally {
    slow.close();
    watcher.close();
    alice.close();
    bob.close();
  }
});
