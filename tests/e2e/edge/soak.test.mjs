// Proof under load and faults, sized for the test run: 30 agents for
// 45 s sending direct and channel messages, leaving, rejoining and dropping
// connections at random while wrangler dev is killed with SIGKILL once and
// restarted on its state. Every acknowledged message reaches every member it
// was owed to, and no connection's handler sees one twice. The full soak
// (200 agents, 10 minutes, 5 kills) is `node tests/bench/soak.mjs --kills 5`
// (figures in BENCHMARKS.md).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { soak } from '../../support/soak.mjs';

test('a short soak with a kill -9: nothing acknowledged lost, nothing twice', async () => {
  const figures = await soak({ agents: 30, churners: 5, channels: 3, durationMs: 45_000, kills: 1, ratePerAgent: 1, seed: 28 });
  assert.ok(figures.acked > 500, `only ${figures.acked} messages acknowledged`);
  assert.ok(figures.reconnects > 20 && figures.leaves > 2, JSON.stringify(figures));
  assert.equal(figures.kills, 1);
  assert.equal(figures.unacked, 0, 'every send settled');
  assert.equal(figures.lost, 0, 'acknowledged messages lost');
  assert.equal(figures.duplicates, 0, 'messages one connection saw twice');
});
