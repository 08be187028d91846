// A file kept across its owner's restart, through the real edge with the npm
// package: an agent that registers its file again on restart keeps a
// collaborator's edit; replacing the text is explicit (`replace: true`) and an
// edit everyone's open copy takes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentsOnAStatefulEdge } from '../../support/agents.mjs';
import { createNetwork } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';
import { expectNothingFor } from '../../support/waits.mjs';

const { start, connect } = agentsOnAStatefulEdge('agentnet-reregister-');

test('registering a file again on restart keeps a collaborator\'s line', async () => {
  const edge = await start();
  const network = (await createNetwork(edge.url, { name: 'notes', mods: ['access-control'] })).id;
  const text = '# Notes\n- first\n';
  const options = { contentType: 'text/markdown', permissions: { write: 'network' } };
  const owner = await connect(network, 'agent:owner');
  await owner.registerFile('notes.md', text, options);

  const collaborator = await connect(network, 'agent:collab');
  const open = await collaborator.document('resource/file/notes.md');
  assert.equal(open.text, text);
  open.insert(open.text.length, '- the collaborator\'s line\n');
  const edited = `${text}- the collaborator's line\n`;
  await until('the edit to reach the network', async () => (await owner.read('resource/file/notes.md')).content === edited);

  // The owner "restarts": a new connection registers the same file with its original text.
  const { memberSecret } = owner;
  owner.close();
  const restarted = await connect(network, 'agent:owner', { memberSecret });
  const ack = await restarted.registerFile('notes.md', text, options);
  assert.equal(ack.kept, true, JSON.stringify(ack));
  assert.equal((await restarted.read('resource/file/notes.md')).content, edited);
  await expectNothingFor(300, 'the registration again overwriting the open copy');
  assert.equal(open.text, edited, 'the open copy keeps the line');
  // The collaborator keeps typing into the same document.
  open.insert(open.text.length, '- more\n');
  await until('the next edit to merge', async () => (await restarted.read('resource/file/notes.md')).content === `${edited}- more\n`);

  // Replacing is explicit, and an edit the open copy takes.
  const replaced = await restarted.registerFile('notes.md', '# Fresh\n', { ...options, replace: true });
  assert.equal(replaced.kept, undefined);
  await until('the replacement to reach the open copy', () => open.text === '# Fresh\n');
  assert.equal((await restarted.read('resource/file/notes.md')).content, '# Fresh\n');
});
