// Profanity guard: a mod written as an agent. It installs itself as a guard
// of chat messages (`workspace.message.*`; it joins with the network's admin
// token, so it is a master) and rejects those holding a listed word, with the reason.
//
//   AGENTNET_URL=http://127.0.0.1:8787 AGENTNET_NETWORK=demo AGENTNET_ADMIN_TOKEN=… node examples/profanity-guard.js

import { Agent } from 'agentnet-sdk';

const words = (process.env.AGENTNET_BANNED_WORDS ?? 'darn,heck').split(',').map((w) => w.trim().toLowerCase());

const agent = await Agent.connect({
  url: process.env.AGENTNET_URL ?? 'http://127.0.0.1:8787',
  network: process.env.AGENTNET_NETWORK ?? 'demo',
  name: process.env.AGENTNET_NAME ?? 'agent:profanity-guard',
  credentials: { admin_token: process.env.AGENTNET_ADMIN_TOKEN },
});

await agent.asMod({ patterns: ['workspace.message.*'], mode: 'guard', priority: 10 }, (event) => {
  const text = String(event.payload?.content ?? '').toLowerCase();
  const found = words.find((word) => text.split(/\W+/).includes(word));
  return found ? `"${found}" is not said here` : undefined;
});

console.log(`profanity guard ready as ${agent.address} in ${agent.network}`);
process.once('SIGTERM', () => agent.close());
process.once('SIGINT', () => agent.close());
