// Tool provider: offers resource/tool/calculator with an input schema. The
// SDK checks each call's input against the schema before `calculate` runs
// (a call that does not fit is answered `invalid_arguments`). Only the agents
// in AGENTNET_CALLERS (comma-separated) may invoke it, when set.
//
//   AGENTNET_URL=http://127.0.0.1:8787 AGENTNET_NETWORK=demo node examples/calculator.js

import { Agent, AgentnetError } from 'agentnet-sdk';

const schema = {
  type: 'object',
  properties: {
    op: { enum: ['add', 'subtract', 'multiply', 'divide'] },
    a: { type: 'number' },
    b: { type: 'number' },
  },
  required: ['op', 'a', 'b'],
  additionalProperties: false,
};

const operations = {
  add: (a, b) => a + b,
  subtract: (a, b) => a - b,
  multiply: (a, b) => a * b,
  divide: (a, b) => {
    if (b === 0) throw new AgentnetError('invalid_request', 'division by zero');
    return a / b;
  },
};

// Only input that fits the schema reaches here.
function calculate({ op, a, b }) {
  return { result: operations[op](a, b) };
}

const agent = await Agent.connect({
  url: process.env.AGENTNET_URL ?? 'http://127.0.0.1:8787',
  network: process.env.AGENTNET_NETWORK ?? 'demo',
  name: process.env.AGENTNET_NAME ?? 'agent:calculator',
});

const callers = process.env.AGENTNET_CALLERS;
await agent.registerTool('calculator', schema, calculate, {
  description: 'adds, subtracts, multiplies and divides two numbers',
  permissions: callers ? { invoke: `agents:[${callers}]` } : undefined,
});

console.log(`calculator ready as ${agent.address}: resource/tool/calculator`);
process.once('SIGTERM', () => agent.close());
process.once('SIGINT', () => agent.close());
