// Shared documents through the real edge: JS agents edit a file's text
// together, a read-only member's edit is refused everywhere, and the
// document survives a crash of `wrangler dev`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { agentsOnAStatefulEdge } from '../../support/agents.mjs';
import { createNetwork } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';
import { expectNothingFor } from '../../support/waits.mjs';

const { start, connect } = agentsOnAStatefulEdge('agentnet-documents-');

test('agents edit one text together; a read-only edit is refused; a crash keeps the document', async () => {
  let edge = await start();
  const { port } = edge;
  const network = (await createNetwork(edge.url, { name: 'docs', mods: ['access-control'] })).id;
  const owner = await connect(network, 'agent:owner');
  const writer = await connect(network, 'agent:writer');
  const reader = await connect(network, 'agent:reader');
  await owner.registerFile('plan.md', '# Plan\n', {
    contentType: 'text/markdown',
    permissions: { write: 'agents:[agent:owner,agent:writer]' },
  });

  const a = await owner.document('resource/file/plan.md');
  const b = await writer.document('resource/file/plan.md');
  const r = await reader.document('resource/file/plan.md');
  assert.equal(b.text, '# Plan\n');
  assert.equal(r.text, '# Plan\n');
  await until('everyone to see three editors', () => a.editors.length === 3);
  assert.deepEqual(a.editors, ['agent:owner', 'agent:reader', 'agent:writer']);

  // Concurrent edits at both ends of the text.
  a.insert(a.text.length, '- ship the edge\n');
  b.insert(0, '<!-- draft -->\n');
  const both = '<!-- draft -->\n# Plan\n- ship the edge\n';
  await until('both copies to converge', () => a.text === both && b.text === both && r.text === both);
  // Positions that are not numbers, or outside the text, change nothing.
  assert.throws(() => a.splice(2n, 0, 'x'), { code: 'invalid_argument' });
  assert.throws(() => a.insert('3', 'x'), { code: 'invalid_argument' });
  assert.throws(() => a.insert(both.length + 1, 'x'), (err) => err.code !== 'internal');
  assert.equal(a.text, both);

  // The reader's edit shows locally, is refused by the network and undone.
  const refusals = [];
  r.onChange((change) => change.error && refusals.push(change.error.code));
  r.setText('defaced');
  await until('the refusal', () => refusals.length === 1);
  assert.deepEqual(refusals, ['forbidden']);
  assert.equal(r.text, both);
  assert.throws(() => r.insert(0, 'again'), { code: 'forbidden' });
  await expectNothingFor(300, 'the refused edit reaching the others');
  assert.equal(a.text, both);
  assert.equal((await owner.read('resource/file/plan.md')).content, both);

  // Crash the edge while a writer is offline with an edit; the stored document survives.
  await edge.kill();
  await until('the agents to notice', () => !owner.online && !writer.online);
  b.insert(b.text.length, '- written offline\n');
  edge = await start({ port });
  await until('the offline edit to reach the owner', () => a.text.endsWith('- written offline\n'), 30_000);
  const late = await connect(network, 'agent:late');
  const restored = await late.document('resource/file/plan.md');
  assert.equal(restored.text, `${both}- written offline\n`);
  assert.equal((await late.read('resource/file/plan.md')).content, restored.text);
});
