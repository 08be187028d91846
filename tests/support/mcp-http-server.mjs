// An MCP server over Streamable HTTP, built with the official SDK (`McpServer`,
// `StreamableHTTPServerTransport`), on 127.0.0.1 in the test's own process:
// one stateful session, so server notifications (`list_changed`) reach its client.

import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Starts a server named `name`; `build(server)` registers its tools. Resolves with `{server, url, stop}`. */
export async function startHttpMcpServer(name, build) {
  const server = new McpServer({ name, version: '1.0.0' });
  build(server);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  await server.connect(transport);
  const http = createServer((req, res) => {
    transport.handleRequest(req, res).catch((err) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${http.address().port}/mcp`,
    stop: async () => {
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
