// agentnet: put JavaScript agents on an agentnet network.
//
// The protocol work (addresses, event ids, validation, reading the network's
// answers) happens in the Rust core compiled to WebAssembly (./pkg); this file
// only moves frames over a WebSocket and turns core results into promises.

import initWasm, {
  initSync,
  Replica,
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

/** An agent connected to one network. Create it with `Agent.connect`.
 *
 * The agent keeps a replica of the network (the Rust core's `Replica`): events
 * it sends wait in an outbox until the network acknowledges them, deliveries
 * are applied once and in order, and after a dropped connection it reconnects
 * with backoff and resumes where it left off.
 */
export class Agent {
  #replica;
  #url;
  #WebSocket;
  #credentials;
  #socket = null;
  #handlers = [];
  #pending = new Map();
  #requests = new Map();
  #timer = null;
  #closed = false;
  #attempt = 0;
  #onOnline = null;

  constructor(replica, url, WebSocket, credentials) {
    this.#replica = replica;
    this.#url = url;
    this.#WebSocket = WebSocket;
    this.#credentials = credentials;
  }

  /**
   * Connects to `network` at edge `url` as `name` (an address such as `agent:echo`)
   * and joins it; resolves when the network has accepted the join. `WebSocket`
   * overrides the WebSocket class (default: the global one, else the `ws` package).
   */
  static async connect({ url, network, name, credentials, WebSocket, timeoutMs = 10000 }) {
    const replica = core(() => new Replica(name, network, randomSeed()));
    const Socket = WebSocket ?? (await webSocketClass());
    const agent = new Agent(replica, networkSocketUrl(url, network), Socket, credentials);
    await agent.#open(timeoutMs);
    return agent;
  }

  /** This agent's address. */
  get address() {
    return this.#replica.address;
  }

  /** True while joined on a live connection. */
  get online() {
    return this.#replica.online;
  }

  /** Calls `handler(event)` for every incoming event whose type matches `pattern`. */
  on(pattern, handler) {
    matchesPattern(pattern, 'a.b'); // validate the pattern now, not on the first event
    this.#handlers.push({ pattern, handler });
    return this;
  }

  /**
   * Sends an event; resolves with the network's ack (`{id, seq, …}`: an invitation's `code`,
   * a new channel's address…) or rejects with its error.
   * While offline the event waits in the outbox and goes out on reconnect.
   */
  send(target, type, payload = {}, { metadata, timeoutMs = 30000 } = {}) {
    const { id, effects } = JSON.parse(core(() =>
      this.#replica.post(type, target, JSON.stringify(payload), metadata ? JSON.stringify(metadata) : undefined, Date.now()),
    ));
    const promise = this.#wait(this.#pending, id, timeoutMs);
    this.#apply(effects);
    return promise;
  }

  /** Sends an event and resolves with the event that answers it (`metadata.in_reply_to`). */
  request(target, type, payload = {}, { timeoutMs = 30000 } = {}) {
    const { id, effects } = JSON.parse(core(() =>
      this.#replica.request(type, target, JSON.stringify(payload), timeoutMs, Date.now()),
    ));
    const promise = this.#wait(this.#requests, id, timeoutMs + 1000);
    this.#apply(effects);
    return promise;
  }

  /** Answers `event` with an event whose `metadata.in_reply_to` is its id. */
  reply(event, type, payload = {}) {
    return this.send(event.source, type, payload, { metadata: { in_reply_to: event.id } });
  }

  /** Closes the connection for good. */
  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#socket?.close(1000, 'bye');
    const error = new AgentnetError('closed', 'agent is closed');
    for (const map of [this.#pending, this.#requests]) {
      for (const [, waiter] of map) waiter.reject(error);
      map.clear();
    }
  }

  #wait(map, id, timeoutMs) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        map.delete(id);
        reject(new AgentnetError('timeout', `no answer to ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      map.set(id, {
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
    });
  }

  #settle(map, id, outcome) {
    const waiter = map.get(id);
    if (waiter) {
      map.delete(id);
      outcome(waiter);
    }
  }

  #open(timeoutMs) {
    return new Promise((resolve, reject) => {
      const socket = new this.#WebSocket(this.#url);
      this.#socket = socket;
      let settled = false;
      const fail = (error) => {
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      const timer = setTimeout(() => fail(new AgentnetError('timeout', `no join answer within ${timeoutMs} ms`)), timeoutMs);
      this.#onOnline = (error) => {
        clearTimeout(timer);
        if (error) fail(error);
        else if (!settled) {
          settled = true;
          this.#attempt = 0;
          resolve();
        }
      };
      socket.addEventListener('open', () => {
        const credentials = this.#credentials ? JSON.stringify(this.#credentials) : undefined;
        this.#apply(core(() => this.#replica.connected(credentials, Date.now())));
      });
      socket.addEventListener('message', (message) => this.#apply(this.#replica.receive(String(message.data), Date.now())));
      socket.addEventListener('error', () => fail(new AgentnetError('unreachable', `cannot connect to ${this.#url}`)));
      socket.addEventListener('close', () => {
        clearTimeout(timer);
        fail(new AgentnetError('disconnected', 'the connection closed before the join was accepted'));
        if (this.#socket === socket) this.#lost();
      });
    });
  }

  #lost() {
    this.#replica.disconnected();
    if (this.#closed) return;
    // Reconnect with exponential backoff and jitter; the replica resumes from its watermark.
    const delay = Math.min(10000, 250 * 2 ** this.#attempt) * (0.5 + Math.random() / 2);
    this.#attempt += 1;
    setTimeout(() => {
      if (!this.#closed) this.#open(10000).catch(() => {});
    }, delay);
  }

  #apply(effectsJson) {
    const effects = typeof effectsJson === 'string' ? JSON.parse(effectsJson) : effectsJson;
    for (const effect of effects) {
      switch (effect.kind) {
        case 'send':
          if (this.#socket?.readyState === 1) this.#socket.send(effect.frame);
          break;
        case 'online':
          this.#onOnline?.();
          break;
        case 'join_failed':
          this.#onOnline?.(new AgentnetError(effect.code, effect.message));
          this.#closed = true;
          this.#socket?.close(1000, 'join refused');
          break;
        case 'accepted':
          this.#settle(this.#pending, effect.id, (w) => w.resolve({ ...(effect.ack ?? {}), id: effect.id, seq: effect.seq }));
          break;
        case 'rejected':
          this.#settle(this.#pending, effect.id, (w) => w.reject(new AgentnetError(effect.code, effect.message)));
          break;
        case 'replied':
          this.#settle(this.#requests, effect.request, (w) => w.resolve(effect.reply));
          break;
        case 'request_failed':
          this.#settle(this.#requests, effect.request, (w) => w.reject(new AgentnetError(effect.code, effect.message)));
          break;
        case 'received':
          for (const { pattern, handler } of this.#handlers) {
            if (matchesPattern(pattern, effect.event.type)) handler(effect.event);
          }
          break;
        default:
          break; // `persist`: this agent keeps its replica in memory
      }
    }
    this.#schedule();
  }

  #schedule() {
    clearTimeout(this.#timer);
    const at = this.#replica.pollTimeout();
    if (at < 0 || this.#closed) return;
    this.#timer = setTimeout(() => this.#apply(this.#replica.handleTimeout(Date.now())), Math.max(0, at - Date.now()));
  }
}
