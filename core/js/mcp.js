// agentnet-sdk/mcp: MCP (Model Context Protocol) and agentnet networks.
//
// `McpBridge` brings an MCP server's tools into a network; `serveNetworkOverStdio`
// serves a network to an MCP client over stdio. Both use the official MCP SDK
// (`@modelcontextprotocol/sdk`, an optional peer dependency), imported only when
// one of them runs: neither this file nor `agentnet` itself loads it.

export { McpBridge } from './lib/mcp/bridge.js';
export { serveNetworkOverStdio } from './lib/mcp/stdio.js';
