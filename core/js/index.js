// agentnet: put JavaScript agents on an agentnet network.
//
// The protocol work (addresses, event ids, validation, reading the network's
// answers) happens in the Rust core compiled to WebAssembly (./pkg); this file
// only moves frames over a WebSocket and turns core results into promises.

import initWasm, {
  initSync,
  Client,
  parseAddress as coreParseAddress,
  validateEvent as coreValidateEvent,
  matchesPattern as coreMatchesPattern,
  runConformanceVector as coreRunConformanceVector,
} from './pkg/agentnet_js.js';

const wasmUrl = new URL('./pkg/agentnet_js_bg.wasm', import.meta.url);
if (typeof process !== 'undefined' && process.versions?.node) {
  const { readFile } = await import('node:fs/promises');
  initSync({ module: await readFile(wasmUrl) });
} else {
  await initWasm({ module_or_path: wasmUrl });
}

/** An error from the agentnet core or network, with a stable `code`. */
export class AgentnetError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'AgentnetError';
    this.code = code;
  }
}

function core(fn) {
  try {
    return fn();
  } catch (err) {
    if (err && typeof err.code === 'string') throw new AgentnetError(err.code, err.message);
    throw err;
  }
}

/** The canonical form of an address (`alice` → `agent:alice`); throws on invalid input. */
export function parseAddress(address) {
  return core(() => coreParseAddress(address));
}

/** Validates an event object; returns it in canonical form or throws `AgentnetError`. */
export function validateEvent(event) {
  return JSON.parse(core(() => coreValidateEvent(JSON.stringify(event))));
}

/** True when `type` matches `pattern` (`*`, `prefix.*` or an exact type). */
export function matchesPattern(pattern, type) {
  return core(() => coreMatchesPattern(pattern, type));
}

/** Runs a conformance vector (JSON text) through the core; throws `AgentnetError` on a mismatch. */
export function runConformanceVector(vector) {
  core(() => coreRunConformanceVector(vector));
}

function randomSeed() {
  return globalThis.crypto.getRandomValues(new Uint8Array(32));
}

async function webSocketClass() {
  if (globalThis.WebSocket) return globalThis.WebSocket;
  const { default: WebSocket } = await import('ws');
  return WebSocket;
}

/** The WebSocket URL of network `network` at edge `url` (http(s) or ws(s)). */
export function networkSocketUrl(url, network) {
  const base = new URL(url);
  base.protocol = base.protocol === 'https:' || base.protocol === 'wss:' ? 'wss:' : 'ws:';
  base.pathname = `/networks/${encodeURIComponent(network)}/v1/ws`;
  return base.toString();
}

/** An agent connected to one network. Create it with `Agent.connect`. */
export class Agent {
  #client;
  #socket;
  #pending = new Map();
  #handlers = [];
  #closed = false;

  constructor(client, socket) {
    this.#client = client;
    this.#socket = socket;
    socket.addEventListener('message', (message) => this.#receive(String(message.data)));
    socket.addEventListener('close', () => this.#fail(new AgentnetError('disconnected', 'connection closed')));
  }

  /**
   * Connects to `network` at edge `url` as `name` (an address such as `agent:echo`)
   * and joins it; resolves when the network has accepted the join. `WebSocket` overrides
   * the WebSocket class (default: the global one, else the `ws` package).
   */
  static async connect({ url, network, name, credentials, WebSocket, timeoutMs = 10000 }) {
    const client = core(() => new Client(name, network, randomSeed()));
    const Socket = WebSocket ?? (await webSocketClass());
    const socket = new Socket(networkSocketUrl(url, network));
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', () => reject(new AgentnetError('unreachable', `cannot connect to ${url}`)), { once: true });
    });
    const agent = new Agent(client, socket);
    const frame = core(() => client.join(credentials ? JSON.stringify(credentials) : undefined, Date.now()));
    await agent.#submit(frame, timeoutMs);
    return agent;
  }

  /** This agent's address. */
  get address() {
    return this.#client.address;
  }

  /** Calls `handler(event)` for every incoming event whose type matches `pattern`. */
  on(pattern, handler) {
    matchesPattern(pattern, 'a.b'); // validate the pattern now, not on the first event
    this.#handlers.push({ pattern, handler });
    return this;
  }

  /** Sends an event; resolves with the network's ack `{id, seq}` or rejects with its error. */
  send(target, type, payload = {}, { metadata, timeoutMs = 10000 } = {}) {
    const frame = core(() =>
      this.#client.event(type, target, JSON.stringify(payload), metadata ? JSON.stringify(metadata) : undefined, Date.now()),
    );
    return this.#submit(frame, timeoutMs);
  }

  /** Closes the connection. */
  close() {
    this.#closed = true;
    this.#socket.close(1000, 'bye');
  }

  #submit(frame, timeoutMs) {
    if (this.#closed) return Promise.reject(new AgentnetError('disconnected', 'agent is closed'));
    const { id } = JSON.parse(frame);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new AgentnetError('timeout', `no answer to ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#pending.set(id, { resolve, reject, timer });
      this.#socket.send(frame);
    });
  }

  #settle(id, outcome) {
    const pending = this.#pending.get(id);
    if (!pending) return false;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    outcome(pending);
    return true;
  }

  #receive(frame) {
    let view;
    try {
      view = JSON.parse(this.#client.interpret(frame));
    } catch {
      return; // not an envelope: nothing a handler could use
    }
    if (view.kind === 'ack' && this.#settle(view.id, (p) => p.resolve({ id: view.id, seq: view.seq ?? null }))) return;
    if (view.kind === 'error' && view.in_reply_to &&
        this.#settle(view.in_reply_to, (p) => p.reject(new AgentnetError(view.code, view.message)))) return;
    const event = view.kind === 'event' ? view.event : JSON.parse(frame);
    for (const { pattern, handler } of this.#handlers) {
      if (matchesPattern(pattern, event.type)) handler(event);
    }
  }

  #fail(error) {
    this.#closed = true;
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
      this.#pending.delete(id);
    }
  }
}
