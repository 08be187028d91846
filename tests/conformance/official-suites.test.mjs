// The official conformance suites, run by tests/conformance/run.mjs against a
// local edge (see docs/conformance.md):
// * the MCP conformance suite (@modelcontextprotocol/conformance, from npm):
//   always, so CI runs it;
// * the A2A TCK (1.0-dev --level must, 0.3.x mandatory): only when
//   A2A_TCK_DIR names a clone of github.com/a2aproject/a2a-tck (it is not on
//   PyPI or npm), otherwise skipped with how to get it.
// Each passes when every failure is a known one (known-failures.mjs: the
// suites' own, each with the reason).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TCK_HOWTO } from './run.mjs';

const runner = join(dirname(fileURLToPath(import.meta.url)), 'run.mjs');

function runSuite(which) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [runner, which], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('close', (code) => resolve({ code, output }));
  });
}

const summaryOf = (output) => output.slice(output.lastIndexOf('== Summary'));

test('the MCP conformance suite (server scenarios): every failure is a known one', { timeout: 900_000 }, async (t) => {
  const { code, output } = await runSuite('mcp');
  t.diagnostic(summaryOf(output));
  assert.equal(code, 0, output.slice(-6000));
});

test('the A2A TCK (1.0-dev --level must, 0.3.x mandatory): every failure is a known one', {
  timeout: 1_800_000,
  skip: process.env.A2A_TCK_DIR ? false : `A2A_TCK_DIR is not set. ${TCK_HOWTO}`,
}, async (t) => {
  const { code, output } = await runSuite('a2a');
  t.diagnostic(summaryOf(output));
  assert.equal(code, 0, output.slice(-6000));
});
