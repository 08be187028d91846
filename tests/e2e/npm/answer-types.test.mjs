// The network's real answers, as the npm package hands them over, have the
// shapes core/js/index.d.ts declares: what a real edge answers type-checks
// against the declared interfaces, and reading it through the core's typed
// payloads (`readAnswer`) changes nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, readAnswer, readProfile } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { checkTypes } from '../../support/types.mjs';

const edge = edgeForFile();

test('real answers match the declared types and read back unchanged', async () => {
  const { id: network } = await createNetwork(edge.url, { name: 'answers', mods: ['persistence'] });
  const alice = await Agent.connect({ url: edge.url, network, name: 'agent:alice' });
  try {
    const samples = [];
    const ack = await alice.createChannel('room');
    samples.push(['Ack', ack]);
    samples.push(['Ack', await alice.registerFile('notes.md', '# notes', { contentType: 'text/markdown' })]);
    await alice.registerTool('calc', { type: 'object' }, () => 0, { description: 'adds' });
    await alice.send('channel/room', 'chat.message', { text: 'hi' });

    const asked = [
      ['Roster', 'core', 'network.agent.discover', {}],
      ['ResourceList', 'core', 'network.resource.discover', {}],
      ['ResourceContent', 'resource/file/notes.md', 'network.resource.read', {}],
      ['ResourceContent', 'resource/tool/calc', 'network.resource.read', {}],
      ['EventsPage', 'core', 'network.events.query', { limit: 10 }],
      ['Pong', 'core', 'network.ping', {}],
    ];
    for (const [type, target, eventType, payload] of asked) {
      const reply = await alice.request(target, eventType, payload);
      assert.deepEqual(readAnswer(reply), reply.payload, eventType);
      samples.push([type, reply.payload]);
    }
    // The Agent's own methods resolve with the same shapes.
    const roster = await alice.discover();
    assert.deepEqual(roster.channels, ['channel/room']);
    samples.push(['Roster', roster], ['EventsPage', await alice.history({ limit: 5 })]);
    for (const resource of await alice.discoverResources()) samples.push(['ResourceInfo', resource]);
    samples.push(['ResourceContent', await alice.read('resource/file/notes.md')]);

    const profile = await (await fetch(`${edge.url}/networks/${network}/v1/profile`)).json();
    assert.deepEqual(readProfile(profile), profile);
    samples.push(['NetworkProfile', profile]);

    const { ok, output } = checkTypes(samples);
    assert.ok(ok, output);
  } finally {
    alice.close();
  }
});
