// Benchmark: A2A `SendMessage` to an npm agent that answers tasks, through
// `wrangler dev` on loopback, with the official A2A client (@a2a-js/sdk,
// protocol 1.0, JSON-RPC).
// Run: node tests/bench/a2a.mjs  (after ./scripts/test or ./scripts/run has built everything)
// Prints: round-trip p50/p99 of one client sending again and again (each
// send is a blocking SendMessage: a task.create, the agent's working and
// completed updates, then the answer), and completed tasks/s with 10
// concurrent clients.

import WebSocket from 'ws';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Agent } from '../../core/js/index.js';
import { createNetwork, startEdge } from '../support/edge.mjs';
import { joinToken } from '../support/http.mjs';
import { ms, roundTripsAndRate } from './stats.mjs';

/** Sends timed one after another (after a warmup), then concurrent clients' sends each. */
const LOAD = { runs: 200, warmup: 20, concurrent: 10, each: 50 };

async function client(url, network, name) {
  const token = await joinToken(url, network, name);
  const fetchImpl = (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl })],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
  }));
  const a2a = await factory.createFromUrl(`${url}/networks/${network}/a2a/agent:echo/`);
  return {
    call: async (n) => {
      const task = await a2a.sendMessage({
        message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: String(n) } }] },
      });
      if (task.status?.state !== TaskState.TASK_STATE_COMPLETED) throw new Error(`task ended ${task.status?.state}`);
    },
  };
}

const edge = await startEdge();
try {
  const { id } = await createNetwork(edge.url, { name: 'bench-a2a', mods: [] });
  const echo = await Agent.connect({ url: edge.url, network: id, name: 'agent:echo', WebSocket });
  await echo.registerTool('echo', { type: 'object' }, (input) => input, { description: 'echoes' });
  echo.onTask(async (task) => task.text);

  const sends = await roundTripsAndRate((name) => client(edge.url, id, `agent:client-${name}`), LOAD);
  echo.close();
  console.log(`A2A SendMessage to an npm agent (${LOAD.runs} sequential sends; ${LOAD.concurrent} clients x ${LOAD.each} sends):`);
  console.log(`  round trip p50 ${ms(sends.p50)}  p99 ${ms(sends.p99)}`);
  console.log(`  ${Math.round(sends.perSecond)} completed tasks/s with ${LOAD.concurrent} concurrent clients`);
} finally {
  await edge.stop();
}
