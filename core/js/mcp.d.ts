// Type declarations for `agentnet-sdk/mcp`. They name no type of the MCP SDK, so
// they type-check where `@modelcontextprotocol/sdk` is not installed.

import type { Agent, AgentnetError, Permissions } from './index.js';

/** An MCP tool as its server lists it (`tools/list`): what the bridge carries over. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations?: { title?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** An MCP transport (the SDK's `Transport`), for a server reached some other way. */
export interface McpTransport {
  start(): Promise<void>;
  send(message: unknown, options?: unknown): Promise<void>;
  close(): Promise<void>;
}

/** Where the MCP server is: exactly one of `url`, `command` or `transport`. */
export type McpServerLocation =
  /** Streamable HTTP, with extra request headers (e.g. `Authorization`). */
  | { url: string | URL; headers?: Record<string, string>; command?: undefined; transport?: undefined }
  /** A process spoken to over stdio; `stderr` as `child_process.spawn` takes it (`inherit` by default). */
  | {
    command: string;
    args?: string[];
    env?: Record<string, string>;
    cwd?: string;
    stderr?: 'inherit' | 'pipe' | 'ignore' | 'overlapped' | number;
    url?: undefined;
    transport?: undefined;
  }
  | { transport: McpTransport; url?: undefined; command?: undefined };

export type McpBridgeOptions = McpServerLocation & {
  /** The tools' names are `{prefix}.{MCP tool name}` (`resource/tool/{prefix}.{name}`). */
  prefix: string;
  /** Each tool's permissions, like `registerTool`'s; a function gives them per MCP tool. */
  permissions?: Permissions | ((tool: McpTool) => Permissions | undefined);
  /** How long one `tools/call` may take (60 000 ms). */
  timeoutMs?: number;
  /** Hears tools that could not be bridged, and registrations refused after a `list_changed` (default: `console.error`). */
  onError?: (error: AgentnetError) => void;
};

/**
 * An MCP server's tools offered in a network by an agent: each tool is
 * `resource/tool/{prefix}.{name}`, and each invocation a `tools/call` whose
 * result is the invocation's output (`structuredContent`; else the text; else
 * `{content}`) and whose `isError` is a `tool_failed` error with its text.
 */
export class McpBridge {
  private constructor();
  /** Connects `agent` to the MCP server as its client and registers its tools; resolves once they are registered. */
  static connect(agent: Agent, options: McpBridgeOptions): Promise<McpBridge>;
  /** The addresses this bridge has registered. */
  readonly tools: string[];
  /** The MCP server's name and version, from its `initialize` answer. */
  readonly server: { name: string; version: string; title?: string } | undefined;
  /** Resolves when the bridge has closed: by `close()`, or because the MCP server went away. */
  readonly closed: Promise<void>;
  /** Lists the server's tools again and registers, re-registers and unregisters to match (done on every `list_changed`). */
  refresh(): Promise<void>;
  /** Unregisters this bridge's tools and closes the MCP client (a stdio server's process ends). */
  close(): Promise<void>;
}

/** A stream the relay reads MCP messages from (a Node `Readable`, such as `process.stdin`). */
export interface StdioInput {
  on(event: string, listener: (...args: any[]) => void): unknown;
  once(event: string, listener: (...args: any[]) => void): unknown;
  off(event: string, listener: (...args: any[]) => void): unknown;
  pause(): unknown;
  listenerCount(event: string): number;
}

/** A stream the relay writes MCP messages to (a Node `Writable`, such as `process.stdout`). */
export interface StdioOutput {
  write(chunk: string): boolean;
  once(event: string, listener: (...args: any[]) => void): unknown;
}

export interface StdioServeOptions {
  /** An edge URL together with `network`, or a network URL (`http://127.0.0.1:8787/networks/demo`). */
  url: string;
  network?: string;
  /** Who the MCP client is in the network: an address such as `agent:assistant`. */
  name: string;
  /** The access token of a token network. */
  token?: string;
  /** The address's member secret from its first join. */
  memberSecret?: string;
  /** Further join credentials (`invite`, `admin_token`, …). */
  credentials?: Record<string, unknown>;
  /** Default: `process.stdin`. */
  input?: StdioInput;
  /** Default: `process.stdout`. */
  output?: StdioOutput;
  /** Hears the relay's transport errors (default: written to stderr). */
  onError?: (error: Error) => void;
}

/** A running relay. */
export interface StdioServing {
  /** The address it joined as. */
  address: string;
  /** The address's member secret (pass it as `memberSecret` next time). */
  memberSecret: string | undefined;
  /** Resolves when the relay has stopped (its input ended, or `stop()`). */
  closed: Promise<void>;
  /** Ends the MCP session and stops relaying. */
  stop(): Promise<void>;
}

/**
 * Serves a network over MCP stdio: joins it over HTTP and relays every
 * message between `input`/`output` and the network's `/networks/{id}/mcp`
 * endpoint, authenticated with the join's session token.
 */
export function serveNetworkOverStdio(options: StdioServeOptions): Promise<StdioServing>;
