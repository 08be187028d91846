// The CLI's own answers, without a network: `--version`, the overview and
// one help page per command, each naming the command's options.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runNode } from '../support/process.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'core', 'js');
const cli = join(pkg, 'bin', 'agentnet-sdk.js');
const COMMANDS = ['send', 'read', 'follow', 'discover', 'invoke', 'keygen', 'register', 'did', 'mcp', 'mcp-bridge'];

test('--version prints the package version', async () => {
  const { version } = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8'));
  const run = await runNode([cli, '--version']);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stdout, `${version}\n`);
});

test('--help lists every command and option', async () => {
  const run = await runNode([cli, '--help']);
  assert.equal(run.code, 0, run.stderr);
  for (const command of COMMANDS) assert.match(run.stdout, new RegExp(`^  ${command}( |$)`, 'm'), command);
  for (const option of ['--url', '--count', '--server-url', '--version']) assert.ok(run.stdout.includes(option), option);
});

test('each command has its own help page with its usage and only its options', async () => {
  for (const command of COMMANDS) {
    for (const args of [[command, '--help'], ['help', command]]) {
      const run = await runNode([cli, ...args]);
      assert.equal(run.code, 0, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stdout, new RegExp(`^usage: agentnet-sdk ${command}\\b`), args.join(' '));
    }
  }
  const follow = (await runNode([cli, 'follow', '--help'])).stdout;
  assert.match(follow, /--count N/);
  assert.match(follow, /exit 1/, 'follow says when it fails');
  assert.doesNotMatch(follow, /--server-url/, "follow's page has only follow's options");
  const keygen = (await runNode([cli, 'keygen', '--help'])).stdout;
  assert.doesNotMatch(keygen, /--url/);
  const bridge = (await runNode([cli, 'mcp-bridge', '--help'])).stdout;
  assert.match(bridge, /--server-url URL/);
});

test('help for a command that does not exist fails with the overview', async () => {
  const run = await runNode([cli, 'nonsense', '--help']);
  assert.equal(run.code, 2);
  assert.match(run.stderr, /unknown command nonsense/);
  assert.match(run.stderr, /usage: agentnet-sdk <command>/);
});
