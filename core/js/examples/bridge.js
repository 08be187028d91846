// Bridge agent: a member of two networks that relays events addressed
// `{network}::{entity}` from one to the other. Each network names this agent
// as its bridge for the other (`bridges` when the network is created).
//
//   AGENTNET_URL=http://127.0.0.1:8787 AGENTNET_NETWORKS=lab,partner node examples/bridge.js
//
// A relayed event keeps its type and payload; its source in the other network
// is the bridge, and `metadata.bridged_from` says who sent it where, so an
// answer to `bridged_from` finds its way back (with `in_reply_to` translated).

import { Agent, addressInfo } from 'agentnet-sdk';

const url = process.env.AGENTNET_URL ?? 'http://127.0.0.1:8787';
const name = process.env.AGENTNET_NAME ?? 'agent:bridge';
const [first, second] = (process.env.AGENTNET_NETWORKS ?? 'lab,partner').split(',');

const agents = {
  [first]: await Agent.connect({ url, network: first, name }),
  [second]: await Agent.connect({ url, network: second, name }),
};

// Ids differ per network: remember which relayed id stands for which original,
// so an answer's `in_reply_to` can be translated back.
const originals = new Map();

async function relay(from, event) {
  const { network: to } = addressInfo(event.target);
  const destination = agents[to];
  if (!destination || to === from) return; // not ours to carry
  const local = event.target.slice(`${to}::`.length);
  const metadata = { bridged_from: `${from}::${event.source}` };
  const answered = originals.get(event.metadata?.in_reply_to);
  if (answered) metadata.in_reply_to = answered;
  // Known before the answer can come: an answer may arrive before the ack.
  const sent = destination.send(local, event.type, event.payload, { metadata });
  originals.set(sent.id, event.id);
  try {
    await sent;
  } catch (err) {
    console.error(`bridge: ${from} -> ${to} failed: ${err.code} ${err.message}`);
  }
}

for (const [network, agent] of Object.entries(agents)) {
  agent.on('*', (event) => {
    if (event.target.includes('::')) relay(network, event);
  });
}

console.log(`bridge ready between ${first} and ${second} as ${name}`);
const close = () => Object.values(agents).forEach((agent) => agent.close());
process.once('SIGTERM', close);
process.once('SIGINT', close);
