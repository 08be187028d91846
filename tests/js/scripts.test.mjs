// The set-up scripts' portable parts (scripts/lib.sh): on a machine without
// GNU sha256sum (macOS has only shasum) the cache key and the lock stamp are
// the same; the first cargo step says it is the cold build and how long it
// takes; outside a terminal cargo stays quiet.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../support/process.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs `script` in bash after sourcing scripts/lib.sh, with `PATH` as given. */
const withLib = (script, env = {}) => runCommand('/bin/bash', ['-c', `source "${root}/scripts/lib.sh"; ${script}`], { env });

test('without sha256sum, lib.sh keys the build directory with shasum -a 256, as on macOS', async () => {
  const bin = await mkdtemp(join(tmpdir(), 'agentnet-macos-path-'));
  try {
    for (const tool of ['dirname', 'cut', 'shasum', 'perl', 'awk']) await symlink(`/usr/bin/${tool}`, join(bin, tool));
    const key = createHash('sha256').update(root).digest('hex').slice(0, 12);
    const run = await withLib('command -v sha256sum || echo "no sha256sum"; echo "$CLONE_KEY"; printf abc | sha256', { PATH: bin, CARGO_TARGET_DIR: '' });
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(run.stdout.trim().split('\n'), ['no sha256sum', key, createHash('sha256').update('abc').digest('hex')]);
  } finally {
    await rm(bin, { recursive: true, force: true });
  }
});

test('a cargo step says when it is the first build and roughly how long it takes; cargo is quiet outside a terminal', async () => {
  const run = await withLib('echo "quiet=$CARGO_QUIET"; first_build no/such/output "the thing" 7; first_build . "the thing" 7');
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(run.stdout.trim().split('\n').map((l) => l.trim()), [
    'quiet=--quiet',
    'compiling the thing for the first time: roughly 7 minutes on 2 cores, seconds on later runs',
    "(cargo's progress bar shows on a terminal; here it is quiet)",
    'compiling the thing (only what changed)',
  ]);
});

test('each step says how long it took, and the summary lists every step with its time', async () => {
  const run = await withLib('step "first"; sleep 1; step "second"; step_summary');
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g, '').trim()).filter(Boolean);
  assert.match(lines[0], /^==> first {2}\(at \d+s\)$/);
  assert.match(lines[1], /^took [1-9]\d*s$/, 'the first step slept a second');
  assert.match(lines[2], /^==> second/);
  assert.match(lines[3], /^took \d+s$/);
  assert.match(lines[4], /^==> Time by step \(\d+s in all\)$/);
  assert.match(lines[5], /^[1-9]\d*s {2}first$/);
  assert.match(lines[6], /^\d+s {2}second$/);
});

test('the size check passes within every budget and fails naming the output over its budget', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentnet-budgets-'));
  try {
    const budgets = async (budget) => {
      const file = join(dir, `budgets-${budget}.json`);
      const outputs = [{ path: 'tests/bench/size-budgets.json', what: 'a file every clone has', gzip_budget: budget }];
      await writeFile(file, JSON.stringify({ outputs }));
      return runCommand(process.execPath, [join(root, 'tests', 'bench', 'sizes.mjs'), '--check'], { env: { SIZE_BUDGETS: file } });
    };
    const within = await budgets(1_000_000);
    assert.equal(within.code, 0, within.stderr);
    assert.match(within.stdout, /tests\/bench\/size-budgets\.json +[\d,]+ +[\d,]+ +1,000,000/);
    const over = await budgets(10);
    assert.equal(over.code, 1);
    assert.match(over.stderr, /size-budgets\.json \(a file every clone has\) is [\d,]+ B gzip, over its budget of 10 B/);
    // A list of paths is one output, the files' sizes summed (what the first page fetches).
    const file = join(dir, 'budgets-list.json');
    const path = 'tests/bench/size-budgets.json';
    await writeFile(file, JSON.stringify({ outputs: [
      { path, what: 'once', gzip_budget: 1_000_000 },
      { label: 'twice', path: [path, path], what: 'twice', gzip_budget: 1_000_000 },
    ] }));
    const listed = await runCommand(process.execPath, [join(root, 'tests', 'bench', 'sizes.mjs')], { env: { SIZE_BUDGETS: file } });
    const size = (name) => listed.stdout.split('\n').find((l) => l.startsWith(name)).trim().split(/ +/).slice(-3, -1)
      .map((n) => Number(n.replaceAll(',', '')));
    assert.deepEqual(size('twice'), size(path).map((n) => 2 * n), listed.stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
