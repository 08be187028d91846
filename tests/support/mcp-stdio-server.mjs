// An MCP server over stdio, built with the official SDK (`McpServer`,
// `StdioServerTransport`), for tests that bring a local MCP server into a
// network. Its tools: `shout` (upper-cases text), `whoami` (its process id)
// and `quit` (answers, then exits: the server going away).

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'text-tools', version: '1.0.0' });

server.registerTool('shout', {
  description: 'upper-cases text',
  inputSchema: { text: z.string() },
}, ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }));

server.registerTool('whoami', {
  description: 'the process id of this server',
  outputSchema: { pid: z.number() },
}, () => ({ content: [{ type: 'text', text: String(process.pid) }], structuredContent: { pid: process.pid } }));

server.registerTool('quit', { description: 'exits this server' }, () => {
  setTimeout(() => process.exit(0), 50);
  return { content: [{ type: 'text', text: 'bye' }] };
});

await server.connect(new StdioServerTransport());
