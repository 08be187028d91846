// Echo agent: answers every chat.message sent to it with the same text.
//
//   AGENTNET_URL=http://127.0.0.1:8787 AGENTNET_NETWORK=demo node examples/echo.js

import { Agent } from 'agentnet-sdk';

const agent = await Agent.connect({
  url: process.env.AGENTNET_URL ?? 'http://127.0.0.1:8787',
  network: process.env.AGENTNET_NETWORK ?? 'demo',
  name: process.env.AGENTNET_NAME ?? 'agent:echo',
});

agent.on('chat.message', (event) => {
  agent.reply(event, 'chat.message', { text: `echo: ${event.payload.text ?? ''}` });
});

console.log(`echo ready as ${agent.address} in ${agent.network}`);
process.once('SIGTERM', () => agent.close());
process.once('SIGINT', () => agent.close());
