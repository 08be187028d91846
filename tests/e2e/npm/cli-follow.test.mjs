// `agentnet-sdk follow` stops for good, with exit 1 and the error's code,
// when the network refuses its rejoin: the edge comes back (on the same port)
// with a state in which someone else holds the follower's address.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../../../core/js/index.js';
import { startEdge } from '../../support/edge.mjs';
import { startNode, until } from '../../support/process.mjs';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'core', 'js', 'bin', 'agentnet-sdk.js');
const cleanup = [];

after(async () => {
  for (const step of cleanup.reverse()) await step();
});

test('follow exits 1 with the code when the network refuses its rejoin', async () => {
  // A state in which agent:follower belongs to someone else (another member secret).
  const taken = await mkdtemp(join(tmpdir(), 'agentnet-taken-'));
  cleanup.push(() => rm(taken, { recursive: true, force: true }));
  const other = await startEdge({ stateDir: taken });
  const squatter = await Agent.connect({ url: other.url, network: 'demo', name: 'agent:follower' });
  squatter.close();
  await other.stop();

  const edge = await startEdge();
  cleanup.push(() => edge.stop());
  const secrets = join(taken, 'cli-secrets.json');
  const follow = await startNode([cli, 'follow', '--url', edge.url, '--network', 'demo', '--as', 'agent:follower'],
    { env: { AGENTNET_SECRETS: secrets } });
  cleanup.push(() => follow.stop());
  await until('the follower is online', () => follow.output.stderr.includes('following'));

  await edge.stop();
  assert.equal(follow.child.exitCode, null, 'a dropped connection is retried, not the end');
  const back = await startEdge({ stateDir: taken, port: edge.port });
  cleanup.push(() => back.stop());
  await until('follow gives up', () => follow.child.exitCode !== null, 60_000);
  assert.equal(follow.child.exitCode, 1, follow.output.stderr);
  assert.match(follow.output.stderr, /offline \(address_in_use\)/);
  assert.match(follow.output.stderr, /agentnet-sdk: address_in_use: /);
});
