// Translator: a transform mod written as an agent. It rewrites the content of
// chat messages (`workspace.message.posted`) from a small Spanish phrase book
// into English before anyone receives them (it installs itself: it joins with
// the admin token).
//
//   AGENTNET_URL=http://127.0.0.1:8787 AGENTNET_NETWORK=demo AGENTNET_ADMIN_TOKEN=… node examples/translator.js

import { Agent } from 'agentnet-sdk';

const phrases = { hola: 'hello', adios: 'goodbye', gracias: 'thank you', amigo: 'friend', mundo: 'world' };

const agent = await Agent.connect({
  url: process.env.AGENTNET_URL ?? 'http://127.0.0.1:8787',
  network: process.env.AGENTNET_NETWORK ?? 'demo',
  name: process.env.AGENTNET_NAME ?? 'agent:translator',
  credentials: { admin_token: process.env.AGENTNET_ADMIN_TOKEN },
});

await agent.asMod({ patterns: ['workspace.message.posted'], mode: 'transform', priority: 20, onLate: 'fail-open' }, (event) => {
  const text = String(event.payload?.content ?? '');
  const translated = text.replace(/\p{L}+/gu, (word) => phrases[word.toLowerCase()] ?? word);
  if (translated === text) return undefined;
  return { ...event.payload, content: translated, original: text };
});

console.log(`translator ready as ${agent.address} in ${agent.network}`);
process.once('SIGTERM', () => agent.close());
process.once('SIGINT', () => agent.close());
