// McpBridge: an MCP server's tools as network tools. An agent connects to the
// server as an MCP client (the official SDK's `Client`, over Streamable HTTP
// for a URL or stdio for a command) and registers each of its tools as
// `resource/tool/{prefix}.{name}` with the permissions it chooses; each
// invocation is a `tools/call` to the server, and its result (or error) the
// invocation's answer. The bridge follows `notifications/tools/list_changed`
// and, when it closes (or the server goes away), unregisters what it registered.

import { AgentnetError } from '../errors.js';
import { functionArg, numberArg, objectArg, stringArg, urlArg } from '../args.js';
import { bridgedToolName, invocationError, invocationOutput, toolArguments, toolRegistration } from './results.js';
import { clientSdk, httpClientTransport, stdioClientTransport } from './sdk.js';

const CLIENT_INFO = { name: 'agentnet-mcp-bridge', version: '0.1.0' };

/** The transport to the MCP server that `options` name: exactly one of `url`, `command` or `transport`. */
async function serverTransport({ url, headers, command, args = [], env, cwd, stderr, transport }) {
  const given = [url, command, transport].filter((x) => x !== undefined).length;
  if (given !== 1) throw new AgentnetError('invalid_argument', 'an MCP bridge needs exactly one of url, command or transport');
  if (transport !== undefined) return objectArg(transport, 'transport');
  if (url !== undefined) {
    const StreamableHTTPClientTransport = await httpClientTransport();
    return new StreamableHTTPClientTransport(urlArg(url, 'url'), headers ? { requestInit: { headers: objectArg(headers, 'headers') } } : undefined);
  }
  const StdioClientTransport = await stdioClientTransport();
  if (!Array.isArray(args)) throw new AgentnetError('invalid_argument', 'args must be an array of strings');
  args.forEach((arg, i) => stringArg(arg, `args[${i}]`));
  return new StdioClientTransport({ command: stringArg(command, 'command'), args, env, cwd, stderr });
}

/** An MCP server's tools offered in a network by an agent. Create it with `McpBridge.connect`. */
export class McpBridge {
  #agent;
  #client;
  #prefix;
  #permissions;
  #timeoutMs;
  #onError;
  /** MCP tool name → `{name, signature}`: what is registered, under which network tool name. */
  #registered = new Map();
  #syncing = null;
  #again = false;
  #closing = null;
  #closed;
  #resolveClosed;

  constructor(agent, client, { prefix, permissions, timeoutMs, onError }) {
    this.#agent = agent;
    this.#client = client;
    this.#prefix = prefix;
    this.#permissions = permissions;
    this.#timeoutMs = timeoutMs;
    this.#onError = onError;
    this.#closed = new Promise((resolve) => { this.#resolveClosed = resolve; });
  }

  /**
   * Connects `agent` to an MCP server as its client and registers the server's
   * tools as `resource/tool/{prefix}.{name}`; resolves once they are registered.
   *
   * The server: `url` (Streamable HTTP, with optional `headers`), `command`
   * with `args`, `env`, `cwd`, `stderr` (a process spoken to over stdio), or
   * an SDK `transport`. `permissions` (an object like `registerTool`'s, or a
   * function of the MCP tool giving one) apply to each tool; `timeoutMs` bounds
   * each call (60 000). A tool whose registration the network refuses fails
   * `connect`; one whose name makes no address is skipped and, like failures
   * after a `list_changed`, goes to `onError(error)` (default: `console.error`).
   */
  static async connect(agent, options) {
    const given = objectArg(options ?? {}, 'options');
    const { prefix, permissions, timeoutMs = 60000, onError = reportError } = given;
    if (typeof agent?.registerTool !== 'function') throw new AgentnetError('invalid_argument', 'McpBridge.connect needs an Agent');
    bridgedToolName(stringArg(prefix, 'prefix'), 'tool'); // the prefix makes addresses
    numberArg(timeoutMs, 'timeoutMs');
    functionArg(onError, 'onError');
    const transport = await serverTransport(given);
    const { Client, ToolListChangedNotificationSchema } = await clientSdk();
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const bridge = new McpBridge(agent, client, { prefix, permissions, timeoutMs, onError });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      bridge.refresh().catch((err) => bridge.#report(err));
    });
    client.onclose = () => { bridge.close(); };
    try {
      await client.connect(transport);
    } catch (err) {
      await client.close().catch(() => {});
      throw new AgentnetError('unreachable', `cannot reach the MCP server: ${err.message}`, { cause: err });
    }
    try {
      await bridge.#refresh(true);
    } catch (err) {
      await bridge.close();
      throw err;
    }
    return bridge;
  }

  /** The network tool addresses this bridge has registered (`resource/tool/{prefix}.{name}`). */
  get tools() {
    return [...this.#registered.values()].map(({ name }) => `resource/tool/${name}`);
  }

  /** The MCP server's `{name, version}`, from its `initialize` answer. */
  get server() {
    return this.#client.getServerVersion();
  }

  /** Resolves when the bridge has closed: by `close()`, or because the MCP server went away. */
  get closed() {
    return this.#closed;
  }

  /**
   * Lists the server's tools again and brings the network in line: new tools
   * registered, removed ones unregistered, changed ones registered anew.
   * Runs on every `list_changed`; calls made meanwhile wait for one more pass.
   * Registrations the network refuses go to `onError`.
   */
  refresh() {
    return this.#refresh(false);
  }

  /** `refresh`; when `strict`, the first refused registration is thrown instead. */
  #refresh(strict) {
    if (this.#syncing) {
      this.#again = true;
      return this.#syncing;
    }
    this.#syncing = (async () => {
      try {
        do {
          this.#again = false;
          await this.#sync(strict);
        } while (this.#again && !this.#closing);
      } finally {
        this.#syncing = null;
      }
    })();
    return this.#syncing;
  }

  /** Unregisters every tool of this bridge and closes the MCP client (a stdio server's process ends). */
  close() {
    this.#closing ??= (async () => {
      await this.#syncing?.catch(() => {});
      const registered = [...this.#registered.values()];
      this.#registered.clear();
      await Promise.allSettled(registered.map(({ name }) => this.#agent.unregisterTool(name)));
      await this.#client.close().catch(() => {});
      this.#resolveClosed();
    })();
    return this.#closing;
  }

  async #sync(strict) {
    const wanted = new Map();
    for (const tool of await this.#listTools()) {
      try {
        const name = bridgedToolName(this.#prefix, tool.name);
        const permissions = typeof this.#permissions === 'function' ? this.#permissions(tool) : this.#permissions;
        const registration = { ...toolRegistration(tool), permissions };
        wanted.set(tool.name, { name, registration, signature: JSON.stringify(registration) });
      } catch (err) {
        this.#report(new AgentnetError(err.code ?? 'invalid_argument', `MCP tool ${JSON.stringify(tool.name)} not bridged: ${err.message}`, { cause: err }));
      }
    }
    if (this.#closing) return;
    const gone = [...this.#registered].filter(([tool, held]) => wanted.get(tool)?.name !== held.name);
    const fresh = [...wanted].filter(([tool, want]) => this.#registered.get(tool)?.signature !== want.signature);
    const outcomes = await Promise.allSettled([
      ...gone.map(async ([tool, held]) => {
        this.#registered.delete(tool);
        await this.#agent.unregisterTool(held.name);
      }),
      ...fresh.map(async ([tool, want]) => {
        const { schema, description, permissions } = want.registration;
        await this.#agent.registerTool(want.name, schema, (input) => this.#call(tool, input), { description, permissions });
        this.#registered.set(tool, want);
      }),
    ]);
    const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => o.reason);
    if (strict && failures.length) throw failures[0];
    failures.forEach((err) => this.#report(err));
  }

  /** Every tool the server lists, page by page. */
  async #listTools() {
    if (!this.#client.getServerCapabilities()?.tools) return [];
    const tools = [];
    let cursor;
    do {
      const page = await this.#client.listTools(cursor ? { cursor } : undefined);
      tools.push(...(page.tools ?? []));
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async #call(tool, input) {
    let result;
    try {
      result = await this.#client.callTool({ name: tool, arguments: toolArguments(input) }, undefined, { timeout: this.#timeoutMs });
    } catch (err) {
      throw invocationError(err);
    }
    return invocationOutput(result);
  }

  #report(err) {
    try {
      this.#onError(err);
    } catch (thrown) {
      reportError(thrown);
    }
  }
}

function reportError(err) {
  console.error('agentnet: MCP bridge:', err?.message ?? err);
}
