// The CLI as a person meets it, against a real edge: one default
// identity across commands, `unknown_network` for a network that does not
// exist, `read --last N`, `send --wait` printing the answer, `address_in_use`
// in the CLI's terms, and every line of the package README's command-line
// block run as it is written (with the test edge's URL).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, edgeWithSecrets } from '../../support/cli-edge.mjs';
import { runNode, startNode, until } from '../../support/process.mjs';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'core', 'js');
const setup = edgeWithSecrets('agentnet-cli-first-');
/** The environment of a CLI run: the test edge and this file's own secrets. */
const env = () => ({ AGENTNET_SECRETS: join(setup.secrets, 'secrets.json') });
const run = (args, extra = {}) => runNode([cli, ...args], { env: { ...env(), ...extra } });
const where = () => ['--url', setup.edge.url, '--network', 'demo'];

test('without --as every command is the same member, kept between runs', async () => {
  const first = await run(['discover', ...where()]);
  assert.equal(first.code, 0, first.stderr);
  const again = await run(['send', ...where(), 'agent:broadcast', 'workspace.message.posted', '{"content":"me again"}']);
  assert.equal(again.code, 0, again.stderr);
  const roster = JSON.parse((await run(['discover', ...where()])).stdout);
  const cliMembers = roster.agents.filter((a) => a.address.startsWith('agent:cli-'));
  assert.equal(cliMembers.length, 1, JSON.stringify(cliMembers));
  assert.match(cliMembers[0].address, /^agent:cli-[a-z0-9]{6}$/);
});

test('a network that does not exist is unknown_network, asked before joining', async () => {
  const missing = await run(['send', '--url', setup.edge.url, '--network', 'nope', 'agent:x', 'workspace.message.posted', '{"content":"hi"}']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /unknown_network: there is no network nope/);
  const profile = await run(['discover', '--profile', `${setup.edge.url}/networks/nope/v1/profile`]);
  assert.match(profile.stderr, /unknown_network/);
  const down = await run(['discover', '--url', 'http://127.0.0.1:9', '--network', 'demo']);
  assert.equal(down.code, 1);
  assert.match(down.stderr, /unreachable: cannot reach http:\/\/127\.0\.0\.1:9/);
});

test('read --last N prints only the newest N; send --wait prints the answer', async () => {
  for (const n of [1, 2, 3]) {
    const sent = await run(['send', ...where(), '--as', 'human:counter', 'agent:broadcast', 'workspace.message.posted', `{"content":"count ${n}"}`]);
    assert.equal(sent.code, 0, sent.stderr);
  }
  const read = await run(['read', ...where(), '--types', 'workspace.*', '--last', '2']);
  assert.equal(read.code, 0, read.stderr);
  const rows = read.stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(rows.map((r) => r.event.payload.content), ['count 2', 'count 3']);

  const echo = await startNode([join(pkg, 'examples', 'echo.js')], {
    env: { AGENTNET_URL: setup.edge.url, AGENTNET_NETWORK: 'demo', AGENTNET_NAME: 'agent:cli-echo', ...env() }, ready: /echo ready/,
  });
  try {
    const answered = await run(['send', ...where(), 'agent:cli-echo', 'workspace.message.posted', '{"content":"hi"}', '--wait']);
    assert.equal(answered.code, 0, answered.stderr);
    const answer = JSON.parse(answered.stdout);
    assert.equal(answer.payload.content, 'echo: hi');
    assert.equal(answer.source, 'agent:cli-echo');
    assert.ok(answer.metadata.in_reply_to);
  } finally {
    await echo.stop();
  }
  const nobody = await run(['send', ...where(), 'agent:broadcast', 'workspace.message.posted', '{"content":"anyone?"}', '--wait', '--timeout', '500']);
  assert.equal(nobody.code, 1);
  assert.match(nobody.stderr, /timeout/);
});

test('an address someone else holds says to pass --secret or choose another --as', async () => {
  const mine = await run(['discover', ...where(), '--as', 'agent:held']);
  assert.equal(mine.code, 0, mine.stderr);
  const other = await runNode([cli, 'discover', ...where(), '--as', 'agent:held'], { env: { AGENTNET_SECRETS: join(setup.secrets, 'other.json') } });
  assert.equal(other.code, 1);
  assert.match(other.stderr, /address_in_use: agent:held is taken in network demo/);
  assert.match(other.stderr, /--secret SECRET/);
  assert.match(other.stderr, /another address with --as/);
});

test("every line of the README's command-line block runs as written", async () => {
  const readme = await readFile(join(pkg, 'README.md'), 'utf8');
  const block = readme.split('## Command line')[1].match(/```sh\n([\s\S]*?)```/)[1];
  const lines = block.trim().split('\n').map((line) => line.replace(/\s+# .*$/, ''));
  assert.ok(lines.length >= 7);
  const echo = await startNode([join(pkg, 'examples', 'echo.js')], {
    env: { AGENTNET_URL: setup.edge.url, AGENTNET_NETWORK: 'demo', ...env() }, ready: /echo ready/,
  });
  try {
    for (const line of lines) {
      // Shell words: single-quoted strings stay whole.
      const words = [...line.replaceAll('http://127.0.0.1:8787', setup.edge.url).matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
      assert.deepEqual(words.slice(0, 2), ['npx', 'agentnet-sdk'], line);
      const args = words.slice(2);
      if (args[0] === 'follow') {
        const follow = await startNode([cli, ...args], { env: env() });
        await until('the listener follows', () => follow.output.stderr.includes('following'));
        assert.equal((await run(['send', ...where(), 'agent:listener', 'workspace.message.posted', '{"content":"for you"}'])).code, 0);
        await until('follow exits after its one event', () => follow.child.exitCode !== null);
        assert.equal(follow.child.exitCode, 0, follow.output.stderr);
        assert.equal(JSON.parse(follow.output.stdout).payload.content, 'for you', follow.output.stdout);
        continue;
      }
      const ran = await run(args);
      assert.equal(ran.code, 0, `${line}\n${ran.stderr}`);
      assert.ok(ran.stdout.trim().length > 0, line);
      if (args.includes('--wait')) assert.equal(JSON.parse(ran.stdout).payload.content, 'echo: hi', line);
      if (args.includes('--last')) assert.ok(ran.stdout.trim().split('\n').length <= 5, line);
    }
  } finally {
    await echo.stop();
  }
});
