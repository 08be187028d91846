// Echo agent: answers chat messages (`workspace.message.posted {content}`, what
// the web workspace shows) with the same text, where they were said: a direct
// message to its sender, a channel's or everyone's in that conversation, as a
// reply in the message's thread. It answers people, and agents only when they
// write to it directly, so two echoes never answer each other for ever.
//
//   AGENTNET_URL=http://127.0.0.1:8787 AGENTNET_NETWORK=demo node examples/echo.js
//
// Run it again later: the SDK kept its member secret, so it is the same agent:echo.

import { Agent } from 'agentnet-sdk';

const agent = await Agent.connect({
  url: process.env.AGENTNET_URL ?? 'http://127.0.0.1:8787',
  network: process.env.AGENTNET_NETWORK ?? 'demo',
  name: process.env.AGENTNET_NAME ?? 'agent:echo',
});

agent.on('workspace.message.posted', async (event) => {
  if (event.source === agent.address) return;
  if (event.target !== agent.address && !event.source.startsWith('human:')) return;
  await event.reply(`echo: ${event.payload.content ?? ''}`);
});

console.log(`echo ready as ${agent.address} in ${agent.network}`);
process.once('SIGTERM', () => agent.close());
process.once('SIGINT', () => agent.close());
