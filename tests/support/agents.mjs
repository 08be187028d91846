// Agents of the npm package on an edge that keeps its state in a folder of its own, for the
// test files that stop the edge and start it again over that state.

import { after } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { Agent } from '../../core/js/index.js';
import { createNetwork, startEdge } from './edge.mjs';

/**
 * Registers the file's cleanup (its agents closed, its edge stopped, its folder removed).
 * `start(options)` starts the edge over a new folder named for `prefix` (again over the same
 * folder once there is one); `connect(network, name, more)` connects an agent to the edge, with
 * `more` of `Agent.connect`'s options.
 */
export function agentsOnAStatefulEdge(prefix) {
  const setup = { edge: undefined, stateDir: undefined, agents: [] };
  setup.start = async (options = {}) => {
    setup.stateDir ??= await mkdtemp(join(tmpdir(), prefix));
    setup.edge = await startEdge({ stateDir: setup.stateDir, ...options });
    return setup.edge;
  };
  setup.connect = async (network, name, more = {}) => {
    const agent = await Agent.connect({ url: setup.edge.url, network, name, WebSocket, ...more });
    setup.agents.push(agent);
    return agent;
  };
  after(async () => {
    for (const agent of setup.agents) agent.close();
    await setup.edge?.stop();
    if (setup.stateDir) await rm(setup.stateDir, { recursive: true, force: true });
  });
  return setup;
}

/**
 * A new invite-only workspace network called `name` on `edge`, and its master `agent:host`
 * joined with the network's admin token.
 */
export async function inviteNetworkWithHost(edge, name) {
  const { id, admin_token } = await createNetwork(edge.url, {
    name, access: { policy: 'invite' }, mods: ['workspace', 'persistence'],
  });
  const host = await Agent.connect({ url: edge.url, network: id, name: 'agent:host', credentials: { admin_token } });
  return { id, admin_token, host };
}
