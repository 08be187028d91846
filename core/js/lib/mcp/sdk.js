// The official MCP SDK (`@modelcontextprotocol/sdk`), an optional peer
// dependency: each part is imported the first time something needs it, so an
// agent that does not use MCP never loads it, and a missing SDK is an
// `AgentnetError` (`not_supported`) saying what to install. Each import is a
// literal so bundlers can still see it; the stdio client transport (which
// spawns processes) is loaded only for a `command`, so a URL bridge also runs
// where there is no `node:child_process`.

import { AgentnetError } from '../errors.js';

export const SDK_PACKAGE = '@modelcontextprotocol/sdk';

async function load(importer) {
  try {
    return await importer();
  } catch (err) {
    throw new AgentnetError('not_supported', `MCP needs the ${SDK_PACKAGE} package (npm install ${SDK_PACKAGE}): ${err.message}`, { cause: err });
  }
}

/** `{Client}` and the message schemas the bridge listens for. */
export async function clientSdk() {
  const [{ Client }, { ToolListChangedNotificationSchema }] = await Promise.all([
    load(() => import('@modelcontextprotocol/sdk/client/index.js')),
    load(() => import('@modelcontextprotocol/sdk/types.js')),
  ]);
  return { Client, ToolListChangedNotificationSchema };
}

/** The Streamable HTTP client transport class. */
export async function httpClientTransport() {
  return (await load(() => import('@modelcontextprotocol/sdk/client/streamableHttp.js'))).StreamableHTTPClientTransport;
}

/** The stdio client transport class (Node: it spawns the server's process). */
export async function stdioClientTransport() {
  return (await load(() => import('@modelcontextprotocol/sdk/client/stdio.js'))).StdioClientTransport;
}

/** The stdio server transport class (Node: it reads stdin and writes stdout). */
export async function stdioServerTransport() {
  return (await load(() => import('@modelcontextprotocol/sdk/server/stdio.js'))).StdioServerTransport;
}
