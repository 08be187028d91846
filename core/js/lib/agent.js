// Agent: one member of one network over a WebSocket, with the core's replica inside.
//
// The replica (Rust) decides what to send and what arrived; this file moves
// frames, keeps timers and turns the replica's effects into promises and calls.

import { core, hasDocuments } from './runtime.js';
import { AgentnetError, callCore } from './errors.js';
import { functionArg, jsonArg, stringArg } from './args.js';
import { matchesPattern, parseAddress, traceCausedBy } from './address.js';
import { KeyPair } from './identity.js';
import { batchedUrl, openSocket, resolveNetwork, sendFrame, webSocketClass } from './connect.js';
import { SharedDocument } from './document.js';
import { readAnswer } from './answers.js';
import { serveTasks, startTask } from './tasks.js';
import { sendAdmin, serveAsMod } from './mods.js';

const INVOKE = 'network.resource.invoke';
const INVOKE_RESULT = 'network.resource.invoke.result';
const TOOL_PREFIX = 'resource/tool/';

function randomSeed() {
  return globalThis.crypto.getRandomValues(new Uint8Array(32));
}

/** A random 32-bit number: the jitter of the replica's reconnection backoff. */
function random32() {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0];
}

/** Closes a socket now: the `ws` package's `terminate` skips the closing handshake a dead link never answers. */
function drop(socket) {
  if (typeof socket?.terminate === 'function') socket.terminate();
  else socket?.close();
}

/** A channel name from `room` or `channel/room`. */
function channelName(channel) {
  return String(channel).replace(/^channel\//, '');
}

/**
 * An agent connected to one network. Create it with `Agent.connect`.
 *
 * Events it sends wait in the replica's outbox until the network acknowledges
 * them; deliveries are applied once and in order; after a dropped connection
 * it reconnects with backoff and resumes from its watermark, so nothing is
 * lost or seen twice. The replica also sends a heartbeat after a silence and
 * reports a link that stopped answering (a half-open socket), which is then
 * closed and reopened like a dropped one.
 */
export class Agent {
  #replica;
  /** The member secret, kept once the agent is closed. */
  #memberSecret;
  #address;
  #socketUrl;
  /** Frames of the current synchronous run, sent together as one batched frame. */
  #burst = [];
  #network;
  #WebSocket;
  #credentials;
  #reconnect;
  #socket = null;
  #handlers = [];
  #connectionListeners = new Set();
  #pending = new Map();
  #requests = new Map();
  #tools = new Map();
  #documents = new Map();
  #timer = null;
  /** When `#timer` fires (ms since the epoch); Infinity when none is set. */
  #timerAt = Infinity;
  #closed = false;
  #onJoin = null;
  /** Events that arrived with the first join, held until the caller of `connect` can register handlers. */
  #held = [];
  #holding = true;

  constructor(replica, { network, socketUrl, WebSocket, credentials, reconnect }) {
    this.#replica = replica;
    this.#address = replica.address;
    this.#network = network;
    this.#socketUrl = socketUrl;
    this.#WebSocket = WebSocket;
    this.#credentials = credentials;
    this.#reconnect = reconnect;
  }

  /**
   * Connects and joins; resolves once the network has accepted the join.
   *
   * Where: `url` (a network URL, or an edge URL with `network`) or `profile` (a
   * network's profile URL). Who: `name` (an address such as `agent:echo`).
   * Credentials: `token` (token networks), `key` (a `KeyPair` or secret key hex:
   * proves an `openagents:{name}` address), `invite` (an invitation code),
   * `memberSecret` (the `agent.memberSecret` of an earlier connection as this
   * address: an address belongs to its first holder), `jwt` (a registry's
   * token: verification level 2), `did` with `key` (a DID whose document lists
   * the key: level 3) or raw `credentials`. `WebSocket` overrides the WebSocket class (default: the global
   * one, else the `ws` package).
   */
  static async connect(options) {
    const { name, token, key, did, jwt, invite, memberSecret, credentials, WebSocket, timeoutMs = 10000, reconnect = true } = options ?? {};
    if (!name) throw new AgentnetError('invalid_request', 'connect needs a name (an address such as agent:echo)');
    stringArg(name, 'name');
    const where = await resolveNetwork(options);
    const replica = callCore(() => new core.Replica(name, where.network, randomSeed()));
    // The agent keeps its replica in memory: rows to persist would be JSON nobody reads.
    replica.setPersistEffects(false);
    // Events reach handlers as they come; nothing reads them back later.
    replica.setLogLimit(0);
    // The replica decides when to send a heartbeat, when the link is dead and when to reconnect.
    replica.setKeepalive(true);
    if (key) {
      const pair = key instanceof KeyPair ? key : KeyPair.import(key);
      callCore(() => replica.setSigningKey(pair.secretKey));
      if (did !== undefined) callCore(() => replica.setDid(stringArg(did, 'did')));
    } else if (did !== undefined) {
      throw new AgentnetError('invalid_request', 'a DID proof needs the key its document lists: pass key as well');
    }
    const merged = { ...(credentials ?? {}) };
    if (token) merged.token = token;
    if (jwt !== undefined) merged.jwt = stringArg(jwt, 'jwt');
    if (invite) merged.invite = invite;
    if (memberSecret !== undefined) merged.member_secret = stringArg(memberSecret, 'memberSecret');
    const agent = new Agent(replica, {
      ...where,
      WebSocket: await webSocketClass(WebSocket),
      credentials: Object.keys(merged).length ? merged : undefined,
      reconnect,
    });
    try {
      await agent.#open(timeoutMs);
    } catch (err) {
      agent.close();
      throw err;
    }
    // What arrived with the join (events missed while away) can come in the same
    // socket read as the join's answer, before the caller's `await` resumes: hold
    // it until the caller has had its turn to call `on`, then hand it over in order.
    setTimeout(() => agent.#release(), 0);
    return agent;
  }

  /**
   * The secret that makes this address this agent's: pass it as `memberSecret`
   * to a later `Agent.connect` with the same name (the agent resends it on its
   * own reconnects).
   */
  get memberSecret() {
    return this.#closed ? this.#memberSecret : this.#replica.memberSecret;
  }

  /** This agent's canonical address. */
  get address() {
    return this.#address;
  }

  /** The network's id. */
  get network() {
    return this.#network;
  }

  /** True while joined on a live connection. */
  get online() {
    return this.#replica.online;
  }

  /** Events created here and not yet acknowledged: `[{event, state, rejection?}]`. */
  get outbox() {
    return JSON.parse(this.#replica.outbox);
  }

  /** Calls `handler(event)` for every incoming event whose type matches `pattern` (`*`, `chat.*`, `chat.message`). */
  on(pattern, handler) {
    matchesPattern(pattern, 'a.b'); // validate the pattern now, not on the first event
    functionArg(handler, 'handler');
    this.#handlers.push({ pattern, handler });
    return this;
  }

  /** Removes a handler added with `on`. */
  off(pattern, handler) {
    this.#handlers = this.#handlers.filter((h) => h.pattern !== pattern || h.handler !== handler);
    return this;
  }

  /** Calls `listener({online, error?})` when the connection goes up or down. Returns an unsubscribe function. */
  onConnectionChange(listener) {
    this.#connectionListeners.add(listener);
    return () => this.#connectionListeners.delete(listener);
  }

  /**
   * Sends an event; resolves with the network's ack (`{id, seq, …}`: a new
   * channel's address, an invitation's code…) or rejects with its error.
   * While offline the event waits in the outbox and goes out on reconnect.
   */
  send(target, type, payload = {}, { metadata, timeoutMs = 30000 } = {}) {
    stringArg(target, 'target');
    stringArg(type, 'type (an event type such as chat.message)');
    const payloadText = jsonArg(payload, 'payload');
    const metadataText = metadata ? jsonArg(metadata, 'metadata') : undefined;
    const { id, effects } = JSON.parse(callCore(() =>
      this.#replica.post(type, target, payloadText, metadataText, Date.now()),
    ));
    const promise = this.#wait(this.#pending, id, timeoutMs);
    this.#apply(effects);
    return promise;
  }

  /**
   * Answers tasks given to this agent (`task.create`): `handler(task)` gets
   * `{id, requester, parts, text, skill}` with `progress(msg)`,
   * `askInput(question)` (resolves with the answer `{parts, text}`),
   * `artifact(name, content)`, `complete(msg)`, `fail(reason)`, `reject(reason)`;
   * the task is `working` before the handler runs, and what it returns completes it.
   */
  onTask(handler) {
    serveTasks(this, handler);
    return this;
  }

  /**
   * Starts a task at `target` (an agent; a channel for a group task) with
   * `message` (text, parts or `{parts}`); resolves with a handle whose
   * updates are an async iterator, with `send(msg)`, `cancel()` and `done`.
   */
  startTask(target, message, options = {}) {
    return startTask(this, target, message, options);
  }

  /**
   * Replaces your profile — `{description?, meta?, listed?}` — which the roster
   * shows (and IOA clients see as your node's `description` and `meta`). It is
   * kept across reconnects. Resolves with the ack; `member` in it is your record.
   */
  setProfile(profile) {
    return this.send('core', 'network.agent.profile', profile);
  }

  /**
   * Your tasks (you requested them or are a partner), newest change first:
   * `{tasks, total, more}`, each task with its state, history and artifacts;
   * `state` and `limit` (1–200, default 50) filter.
   */
  async listTasks({ state, limit } = {}) {
    const filters = {};
    if (state !== undefined) filters.state = state;
    if (limit !== undefined) filters.limit = limit;
    return (await this.request('core', 'task.list', filters)).payload;
  }

  /**
   * Serves this agent as a mod (a master installs it; with `install` unset
   * and this agent a master, it installs itself): `handler(event, {mode, deadline})`
   * decides on each event matching `patterns`. Guards return nothing or `true`
   * to allow, a reason (string) or `false` to reject; transforms return the
   * new payload (or `{payload, metadata}`), nothing to keep it; observers'
   * results are ignored. Resolves with `{spec, uninstall()}`.
   */
  asMod({ patterns, mode, priority, deadlineMs, onLate, install } = {}, handler) {
    return serveAsMod(this, { patterns, mode, priority, deadlineMs, onLate, install }, handler);
  }

  /** Sends `network.admin.{action}` (`pause`, `member.ban`, `mod.load`, …; masters only); resolves with its ack. */
  admin(action, payload = {}) {
    return sendAdmin(this, action, payload);
  }

  /** Sends an event and resolves with the event that answers it (`metadata.in_reply_to`), or rejects on error or timeout. */
  request(target, type, payload = {}, { timeoutMs = 30000 } = {}) {
    stringArg(target, 'target');
    stringArg(type, 'type (an event type such as chat.message)');
    const payloadText = jsonArg(payload, 'payload');
    const { id, effects } = JSON.parse(callCore(() =>
      this.#replica.request(type, target, payloadText, timeoutMs, Date.now()),
    ));
    const promise = this.#wait(this.#requests, id, timeoutMs + 1000);
    this.#apply(effects);
    return promise;
  }

  /**
   * Answers `event` with an event whose `metadata.in_reply_to` is its id, sent to its
   * source — or, for an event a bridge relayed, to `metadata.bridged_from` in the other network.
   * A traced event's reply is in its trace: `metadata.traceparent` names the event as its parent.
   */
  reply(event, type, payload = {}) {
    const to = event.metadata?.bridged_from ?? event.source;
    return this.send(to, type, payload, { metadata: { ...traceCausedBy(event), in_reply_to: event.id } });
  }

  /**
   * Creates `channel/{name}` with you as its member, inviting `members`
   * (addresses: each joins with `joinChannel`); `private: true` lets only
   * them, you and masters join. Resolves with the ack.
   */
  createChannel(name, { members = [], private: closed = false } = {}) {
    return this.send('core', 'network.channel.create', { channel: channelName(name), members, private: closed === true });
  }

  /** Joins an existing channel (`room` or `channel/room`). */
  joinChannel(channel) {
    return this.send('core', 'network.channel.join', { channel: channelName(channel) });
  }

  /** Leaves a channel. */
  leaveChannel(channel) {
    return this.send('core', 'network.channel.leave', { channel: channelName(channel) });
  }

  /**
   * Makes `bridge` (a member's address) carry events addressed `{network}::…`,
   * or stops bridging with `null`. Needs the master role (join with `credentials: {admin_token}`).
   */
  setBridge(network, bridge) {
    return this.send('core', 'network.bridge.update', { network, bridge });
  }

  /** The roster: `{agents: [{address, role, status, verification, did?}], channels, groups, mods, resources}`. */
  async discover() {
    return readAnswer(await this.request('core', 'network.agent.discover'));
  }

  /** Resources this agent may read, each with `your_permissions`; `type` filters (`tool`, `file`, `context`). */
  async discoverResources({ type } = {}) {
    return readAnswer(await this.request('core', 'network.resource.discover', type ? { type } : {})).resources;
  }

  /**
   * Agents by capability, over this network's own members and the deployment's
   * registry (`network.discovery.query`, the query of `GET /registry/v1/discover`):
   * `q` text, `tags`, and filters `mode`, `transport`, `verification` (least level),
   * `network`, `limit` (1–100). Resolves with `{agents, from_network, from_registry,
   * registry}`, best first (`registry` is `unavailable` when only the members answered).
   */
  async discoverAgents({ q, tags, mode, transport, verification, network, limit } = {}) {
    const query = Object.fromEntries(
      Object.entries({ q, tags, mode, transport, verification, network, limit }).filter(([, v]) => v !== undefined),
    );
    return (await this.request('core', 'network.discovery.query', query)).payload;
  }

  /**
   * Registers `resource/tool/{name}` and answers its invocations with `handler(input, event)`
   * (sync or async; what it returns is the result, what it throws goes back as an error).
   * `permissions` gives each permission an access rule, e.g. `{invoke: 'agents:[agent:alice]'}`
   * (rules: `network`, `owner`, `role:{role}`, `group/{name}`, `agents:[…]`).
   */
  async registerTool(name, schema, handler, { description = '', permissions } = {}) {
    const address = parseAddress(`${TOOL_PREFIX}${name}`);
    this.#tools.set(address, handler);
    try {
      return await this.send('core', 'network.resource.register', { address, schema, description, permissions });
    } catch (err) {
      this.#tools.delete(address);
      throw err;
    }
  }

  /**
   * Unregisters `resource/tool/{name}` (needs admin on it: its owner has it). Invocations
   * that arrive until the network has acknowledged it are still answered.
   */
  async unregisterTool(name) {
    const address = parseAddress(`${TOOL_PREFIX}${name}`);
    try {
      return await this.send('core', 'network.resource.unregister', { address });
    } finally {
      this.#tools.delete(address);
    }
  }

  /** Invokes a tool and resolves with its result; rejects with the network's or the tool's error. */
  async invoke(tool, input = {}, { timeoutMs = 30000 } = {}) {
    stringArg(tool, 'tool');
    const address = tool.includes('/') ? tool : `${TOOL_PREFIX}${tool}`;
    const reply = await this.request(address, INVOKE, { input }, { timeoutMs });
    if (reply.payload?.error) {
      const { code = 'tool_failed', message = 'the tool failed' } = reply.payload.error;
      throw new AgentnetError(code, message);
    }
    return reply.payload?.output;
  }

  /** Registers a shared file `resource/file/{path}` with `content`. */
  registerFile(path, content, { contentType = 'text/plain', description = '', permissions } = {}) {
    return this.send('core', 'network.resource.register', {
      address: `resource/file/${path}`, content, content_type: contentType, description, permissions,
    });
  }

  /**
   * Registers a shared context `resource/context/{name}` with `content`: text
   * (a SKILL.md-style brief, a live shared document; `text/markdown` unless
   * `contentType` says otherwise) or any other JSON (structured, `application/json`).
   */
  registerContext(name, content, { description = '', permissions, contentType } = {}) {
    const type = contentType ?? (typeof content === 'string' ? 'text/markdown' : 'application/json');
    return this.send('core', 'network.resource.register', {
      address: `resource/context/${name}`, content, content_type: type, description, permissions,
    });
  }

  /** Reads a resource: `{address, type, owner, description, content_type, schema, content}`. */
  async read(address, { timeoutMs } = {}) {
    return readAnswer(await this.request(address, 'network.resource.read', {}, { timeoutMs }));
  }

  /** Updates a file's or context's `content` (and, with admin, `permissions`). */
  update(address, changes) {
    return this.send(address, 'network.resource.update', changes);
  }

  /**
   * Opens the shared text of a file or context (`resource/file/notes.md`,
   * `resource/context/brief`) for reading and editing together. Resolves once
   * the network has sent its copy — or at once when offline, with the copy
   * this agent holds; edits made offline merge when it reconnects.
   */
  async document(address, { timeoutMs = 10000 } = {}) {
    if (!hasDocuments()) throw new AgentnetError('not_supported', 'shared documents are not in agentnet-sdk/lite: import agentnet-sdk');
    const canonical = parseAddress(address);
    const open = this.#documents.get(canonical);
    if (open) return open;
    const doc = new SharedDocument(canonical, {
      replica: () => this.#replica,
      apply: (call) => this.#apply(callCore(call)),
      forget: (closed) => {
        this.#documents.delete(closed);
        if (!this.#closed) this.#apply(callCore(() => this.#replica.closeDocument(closed, Date.now())));
      },
    });
    this.#documents.set(canonical, doc);
    const actor = globalThis.crypto.getRandomValues(new Uint8Array(16));
    const first = this.online
      ? new Promise((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        const stop = doc.onChange(done);
        function done() {
          clearTimeout(timer);
          stop();
          resolve();
        }
      })
      : null;
    try {
      this.#apply(callCore(() => this.#replica.openDocument(canonical, actor, Date.now())));
    } catch (err) {
      this.#documents.delete(canonical);
      throw err;
    }
    await first;
    return doc;
  }

  /** Logged events after `after` (networks with `mod/persistence`): `{events: [{seq, event}], next_after, has_more}`. */
  async history({ after = 0, limit = 100, types, source, target } = {}) {
    const query = { after, limit };
    if (types) query.types = types;
    if (source) query.source = source;
    if (target) query.target = target;
    return readAnswer(await this.request('core', 'network.events.query', query));
  }

  /** Leaves the network (it forgets nothing you sent) and closes the connection. */
  async leave() {
    if (this.online) await this.send('core', 'network.agent.leave', {}).catch(() => {});
    this.close();
  }

  /** Closes the connection for good; pending promises reject with `closed`. */
  close() {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#socket?.close(1000, 'bye');
    const error = new AgentnetError('closed', 'agent is closed');
    for (const map of [this.#pending, this.#requests]) {
      for (const [, waiter] of map) waiter.reject(error);
      map.clear();
    }
    // The secret outlives the connection: a later `connect` as this address needs it.
    if (this.#replica !== closedReplica) this.#memberSecret = this.#replica.memberSecret;
    this.#replica.free?.();
    this.#replica = closedReplica;
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

  #notify(change) {
    for (const listener of this.#connectionListeners) {
      try {
        listener(change);
      } catch (err) {
        reportHandlerError(err);
      }
    }
  }

  #open(timeoutMs) {
    return new Promise((resolve, reject) => {
      const socket = openSocket(this.#WebSocket, batchedUrl(this.#socketUrl));
      this.#socket = socket;
      let settled = false;
      const fail = (error) => {
        if (!settled) {
          settled = true;
          reject(error);
        }
      };
      const timer = setTimeout(() => {
        fail(new AgentnetError('timeout', `no join answer within ${timeoutMs} ms`));
        socket.close();
      }, timeoutMs);
      this.#onJoin = (error) => {
        clearTimeout(timer);
        if (error) return fail(error);
        if (!settled) {
          settled = true;
          resolve();
        }
        this.#notify({ online: true });
      };
      socket.addEventListener('open', () => {
        const credentials = this.#credentials ? JSON.stringify(this.#credentials) : undefined;
        this.#apply(callCore(() => this.#replica.connected(credentials, Date.now())));
      });
      socket.addEventListener('message', (message) => {
        if (this.#socket === socket && !this.#closed) this.#apply(this.#replica.receive(String(message.data), Date.now()));
      });
      socket.addEventListener('error', () => fail(new AgentnetError('unreachable', `cannot connect to ${this.#socketUrl}`)));
      socket.addEventListener('close', () => {
        clearTimeout(timer);
        fail(new AgentnetError('disconnected', 'the connection closed before the join was accepted'));
        if (this.#socket === socket) this.#lost();
      });
    });
  }

  /** The connection closed (or was dropped as dead): the replica schedules the next attempt. */
  #lost() {
    if (this.#closed) return;
    // With reconnection on, `reconnect` comes after the replica's backoff; it resumes from its watermark.
    if (this.#reconnect) this.#replica.lost(Date.now(), random32());
    else this.#replica.disconnected();
    this.#notify({ online: false });
    this.#schedule();
  }

  /**
   * Sends one frame. Once the network has sent a batched frame on this
   * connection, the frames of one synchronous run are gathered and go out as
   * one batched frame in a microtask; before that (or with an older network)
   * each frame goes alone.
   */
  #send(frame) {
    const socket = this.#socket;
    if (socket?.readyState !== 1) return;
    if (!this.#replica.sendsBatches) return sendFrame(socket, frame);
    this.#burst.push(frame);
    if (this.#burst.length > 1) return;
    queueMicrotask(() => {
      const burst = this.#burst;
      this.#burst = [];
      if (this.#socket !== socket || socket.readyState !== 1) return;
      for (const batched of this.#replica.batch(burst)) sendFrame(socket, batched);
    });
  }

  #apply(effectsJson) {
    if (this.#closed) return;
    const effects = typeof effectsJson === 'string' ? JSON.parse(effectsJson) : effectsJson;
    for (const effect of effects) {
      switch (effect.kind) {
        case 'send':
          this.#send(effect.frame);
          break;
        case 'online':
          this.#onJoin?.();
          break;
        case 'join_failed': {
          const error = new AgentnetError(effect.code, effect.message);
          this.#onJoin?.(error);
          this.#notify({ online: false, error });
          this.#reconnect = false;
          this.#socket?.close(1000, 'join refused');
          break;
        }
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
          this.#dispatch(effect.event);
          break;
        case 'document_changed':
          this.#documents.get(effect.address)?.notify({ text: effect.text, editors: effect.editors });
          break;
        case 'document_rejected':
          this.#documents.get(effect.address)?.notify({ error: new AgentnetError(effect.code, effect.message) });
          break;
        case 'disconnect': {
          // No frame since the heartbeat: the socket is half-open. Drop it and start again.
          const dead = this.#socket;
          this.#socket = null;
          drop(dead);
          this.#lost();
          break;
        }
        case 'reconnect':
          if (this.#reconnect) this.#open(10000).catch(() => {});
          break;
        default:
          break; // no `persist` effects come: this agent keeps its replica in memory
      }
      if (this.#closed) return;
    }
    this.#schedule();
  }

  #release() {
    this.#holding = false;
    const held = this.#held;
    this.#held = [];
    for (const event of held) {
      if (this.#closed) return;
      this.#dispatch(event);
    }
  }

  #dispatch(event) {
    if (this.#holding) {
      this.#held.push(event);
      return;
    }
    if (event.type === INVOKE && this.#tools.has(event.target)) {
      this.#answerInvocation(event, this.#tools.get(event.target));
      return;
    }
    for (const { pattern, handler } of this.#handlers) {
      if (!matchesPattern(pattern, event.type)) continue;
      // A failing handler must not stop the others or the replica's bookkeeping.
      try {
        const result = handler(event);
        if (result && typeof result.catch === 'function') result.catch(reportHandlerError);
      } catch (err) {
        reportHandlerError(err);
      }
    }
  }

  async #answerInvocation(event, handler) {
    let payload;
    try {
      payload = { output: await handler(event.payload?.input ?? {}, event) };
    } catch (err) {
      payload = { error: { code: err?.code ?? 'tool_failed', message: String(err?.message ?? err) } };
    }
    if (this.#closed) return;
    await this.reply(event, INVOKE_RESULT, payload).catch(() => {});
  }

  /**
   * Keeps a timer for the replica's next deadline. A timer already set for
   * that moment or earlier stays (waking early costs one call that finds
   * nothing due): re-arming after every event would cost a timer per event.
   */
  #schedule() {
    const at = this.#replica.pollTimeout();
    if (at < 0 || this.#closed) {
      clearTimeout(this.#timer);
      this.#timer = null;
      this.#timerAt = Infinity;
      return;
    }
    if (this.#timer !== null && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#timerAt = Infinity;
      this.#apply(this.#replica.handleTimeout(Date.now()));
    }, Math.max(0, at - Date.now()));
  }
}

/** Reports an error thrown by user code (a handler or listener) without stopping the agent. */
function reportHandlerError(err) {
  console.error('agentnet: an event handler failed:', err);
}

/** What a closed agent holds instead of its replica: every call fails with `closed`. */
const closedReplica = new Proxy({}, {
  get(_, property) {
    if (property === 'online') return false;
    if (property === 'free') return undefined;
    throw new AgentnetError('closed', 'agent is closed');
  },
});
