// Agent: one member of one network over a WebSocket, with the core's replica inside.
// The replica (Rust) decides what to send and what arrived; this file is the
// API over it, `effects.js` carries out what the replica says, and `Link`
// moves the frames.

import { AgentnetError, callCore } from './errors.js';
import { jsonArg, stringArg } from './args.js';
import { traceCausedBy } from './address.js';
import { agentReplica, channelName, closedReplica, joinCredentials } from './join.js';
import { addressInUse, keepSecret, keptSecret, secretKey, secretStoreOf } from './secrets.js';
import { post, withReply } from './chat.js';
import { resolveNetwork, webSocketClass } from './connect.js';
import { openDocument } from './document.js';
import { readAnswer } from './answers.js';
import { listTasks, serveTasks, startTask } from './tasks.js';
import { sendAdmin, serveAsMod } from './mods.js';
import { createSession, delegate, onDelegated, onFirstResponse, updateSession } from './workspace.js';
import { Link } from './link.js';
import { Handlers } from './handlers.js';
import { Waiters } from './waiters.js';
import { applyEffects } from './effects.js';
import { Tools, discoverInNetwork, discoverResources, history, invokeTool, registerContext, registerFile } from './resources.js';

/**
 * An agent connected to one network. Create it with `Agent.connect`.
 *
 * Events it sends wait in the replica's outbox until the network acknowledges
 * them; deliveries are applied once and in order; after a dropped connection
 * it reconnects with backoff and resumes from its watermark, so nothing is
 * lost or seen twice; a link that stopped answering (a half-open socket) is
 * noticed by the replica's heartbeat, then closed and reopened like a dropped one.
 */
export class Agent {
  #replica;
  /** The member secret, kept once the agent is closed. */
  #memberSecret;
  #address;
  #network;
  #link;
  #tools = new Tools();
  #handlers = new Handlers((event) => this.#tools.answer(this, event), (event) => withReply(this, event));
  /** Events sent, waiting for their acks. */
  #pending = new Waiters();
  /** Requests made, waiting for their replies. */
  #requests = new Waiters();
  #documents = new Map();
  #closed = false;
  #takesTasks = false;

  constructor(replica, { network, socketUrl, WebSocket, credentials, reconnect, shareSocket }) {
    this.#replica = replica;
    this.#address = replica.address;
    this.#network = network;
    this.#link = new Link({
      WebSocket,
      socketUrl,
      credentials,
      reconnect, shareSocket,
      replica: () => this.#replica,
      apply: (effects) => this.#apply(effects),
      closed: () => this.#closed,
    });
  }

  /**
   * Connects and joins; resolves once the network has accepted the join.
   *
   * Where: `url` (a network URL, or an edge URL with `network`) or `profile` (a
   * network's profile URL). Who: `name` (an address such as `agent:echo`).
   * Credentials: `token`, `key` (a `KeyPair` or secret key hex: proves an
   * `openagents:{name}` address), `invite`, `memberSecret` (an address belongs
   * to its first holder: its secret, else the one `secretStore` kept — by
   * default the runtime's store, `false` for none), `jwt` (level 2), `did`
   * with `key` (level 3) or raw `credentials`. `WebSocket` overrides the class;
   * agents share sockets (lanes) unless `shareSocket` is false. See the README's table of options.
   */
  static async connect(options) {
    const { name, token, key, did, jwt, invite, memberSecret, credentials, WebSocket, timeoutMs = 10000, reconnect = true, shareSocket = true, secretStore } = options ?? {};
    if (!name) throw new AgentnetError('invalid_request', 'connect needs a name (an address such as agent:echo)');
    stringArg(name, 'name');
    const where = await resolveNetwork(options);
    const store = await secretStoreOf(secretStore);
    const replica = agentReplica(name, where.network, { key, did });
    const { address } = replica;
    const slot = secretKey(where.socketUrl, address);
    const kept = memberSecret ?? await keptSecret(store, slot);
    const agent = new Agent(replica, {
      ...where,
      WebSocket: await webSocketClass(WebSocket),
      credentials: joinCredentials({ credentials, token, jwt, invite, memberSecret: kept }),
      reconnect, shareSocket,
    });
    try {
      await agent.#link.open(timeoutMs);
    } catch (err) {
      agent.close();
      throw err?.code === 'address_in_use' ? addressInUse(err, address, where.network, { presented: kept !== undefined }) : err;
    }
    await keepSecret(store, slot, agent.memberSecret, kept);
    // What arrived with the join (events missed while away) can come in the same
    // socket read as the join's answer, before the caller's `await` resumes: hold
    // it until the caller has had its turn to call `on`, then hand it over in order.
    setTimeout(() => agent.#handlers.release(() => !agent.#closed), 0);
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
    this.#handlers.add(pattern, handler);
    return this;
  }

  /** Removes a handler added with `on`. */
  off(pattern, handler) {
    this.#handlers.remove(pattern, handler);
    return this;
  }

  /** Calls `listener({online, error?})` when the connection goes up or down. Returns an unsubscribe function. */
  onConnectionChange(listener) {
    return this.#link.onChange(listener);
  }

  /**
   * Sends an event; resolves with the network's ack (`{id, seq, …}`: a new
   * channel's address, an invitation's code…) or rejects with its error; the
   * promise carries the event's `id` at once, before any answer can come.
   * While offline the event waits in the outbox and goes out on reconnect;
   * if the network refuses the rejoin for good, it rejects with that refusal.
   */
  send(target, type, payload = {}, { metadata, timeoutMs = 30000 } = {}) {
    stringArg(target, 'target');
    stringArg(type, 'type (an event type such as chat.message)');
    const payloadText = jsonArg(payload, 'payload');
    const metadataText = metadata ? jsonArg(metadata, 'metadata') : undefined;
    const { id, effects } = JSON.parse(callCore(() =>
      this.#replica.post(type, target, payloadText, metadataText, Date.now()),
    ));
    const promise = Object.assign(this.#pending.wait(id, timeoutMs), { id });
    this.#apply(effects);
    return promise;
  }

  /**
   * Answers tasks given to this agent (`task.create`): `handler(task)` gets
   * `{id, requester, parts, text, skill}` with `progress(msg)`,
   * `askInput(question)` (resolves with the answer `{parts, text}`),
   * `artifact(name, content)`, `complete(msg)`, `fail(reason)`, `reject(reason)`;
   * the task is `working` before the handler runs, and what it returns completes it.
   * With `{answer: 'message'}` what it returns answers the request as one
   * message (A2A clients get a Message result, not a Task).
   */
  onTask(handler, options = {}) {
    serveTasks(this, handler, options);
    if (!this.#takesTasks) {
      // The network refuses tasks to an agent whose profile says it takes none (`takes_no_tasks`).
      this.#takesTasks = true;
      this.#replica.setTakesTasks(true);
      if (this.online) this.send('core', 'network.agent.profile', { tasks: true }).catch(() => {});
    }
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
   * Creates a Workspace session (a thread, `channel/session-{id}`):
   * `{session?, title?, master?, to?}`; resolves with `{id, channel, ack}`.
   */
  createSession(options = {}) {
    return createSession(this, options);
  }

  /** Changes a session's `title`, `status` (`open`, `closed`, `archived`) or `master` (participants, its master, masters). */
  updateSession(session, changes, options = {}) {
    return updateSession(this, session, changes, options);
  }

  /** Hands `message` (an event or its id) to the member `to` to answer, with an optional `note`. */
  delegate(message, to, { note } = {}) {
    return delegate(this, message, to, { note });
  }

  /**
   * Answers the messages this agent is the first responder of (a thread's
   * master): `handler(event, {delegate(to, note?)})` returns the answer, posted
   * where the message was asked as a reply; nothing to post nothing.
   */
  onFirstResponse(handler) {
    onFirstResponse(this, handler);
    return this;
  }

  /** Answers messages delegated to this agent: what `handler(delegation)` returns goes back to where the message was asked. */
  onDelegated(handler) {
    onDelegated(this, handler);
    return this;
  }

  /**
   * Replaces your profile — `{description?, meta?, listed?}` — which the roster
   * shows (and IOA clients see as your node's `description` and `meta`); `tasks`,
   * which `onTask` sets, is kept. Resolves with the ack (`member`: your record).
   */
  setProfile(profile) {
    return this.send('core', 'network.agent.profile', profile);
  }

  /**
   * Your tasks (you requested them or are a partner), newest change first:
   * `{tasks, total, more}`, each task with its state, history and artifacts;
   * `state` and `limit` (1–200, default 50) filter.
   */
  listTasks(filters = {}) {
    return listTasks(this, filters);
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
    const promise = this.#requests.wait(id, timeoutMs + 1000);
    this.#apply(effects);
    return promise;
  }

  /**
   * Posts a chat message (`workspace.message.posted {content}`, what the workspace
   * shows) to `target`: `content` is text (or `{content, …}`); `inReplyTo` (an event
   * or its id) threads it. Resolves with the ack. To answer an event where it was
   * said, handlers call `event.reply(content)`.
   */
  post(target, content, options = {}) {
    return post(this, target, content, options);
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
  discoverResources({ type } = {}) {
    return discoverResources(this, type);
  }

  /**
   * Agents by capability, over this network's own members and the deployment's
   * registry (`network.discovery.query`, the query of `GET /registry/v1/discover`):
   * `q` text, `tags`, and filters `mode`, `transport`, `verification` (least level),
   * `network`, `limit` (1–100). Resolves with `{agents, from_network, from_registry,
   * registry}`, best first (`registry` is `unavailable` when only the members answered).
   */
  discoverAgents(query = {}) {
    return discoverInNetwork(this, query);
  }

  /**
   * Registers `resource/tool/{name}` and answers its invocations with `handler(input, event)`
   * (sync or async; what it returns is the result, what it throws goes back as an error).
   * `permissions` gives each permission an access rule, e.g. `{invoke: 'agents:[agent:alice]'}`
   * (rules: `network`, `owner`, `role:{role}`, `group/{name}`, `channel/{name}`, `agents:[…]`).
   */
  registerTool(name, schema, handler, options = {}) {
    return this.#tools.register(this, name, schema, handler, options);
  }

  /**
   * Unregisters `resource/tool/{name}` (needs admin on it: its owner has it). Invocations
   * that arrive until the network has acknowledged it are still answered.
   */
  unregisterTool(name) {
    return this.#tools.unregister(this, name);
  }

  /** Invokes a tool and resolves with its result; rejects with the network's or the tool's error. */
  invoke(tool, input = {}, options = {}) {
    return invokeTool(this, tool, input, options);
  }

  /** Registers a shared file `resource/file/{path}` with `content`. */
  registerFile(path, content, options = {}) {
    return registerFile(this, path, content, options);
  }

  /**
   * Registers a shared context `resource/context/{name}` with `content`: text
   * (a SKILL.md-style brief, a live shared document; `text/markdown` unless
   * `contentType` says otherwise) or any other JSON (structured, `application/json`).
   */
  registerContext(name, content, options = {}) {
    return registerContext(this, name, content, options);
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
    return openDocument(address, {
      documents: this.#documents,
      replica: () => this.#replica,
      apply: (call) => this.#apply(callCore(call)),
      online: this.online,
      closed: () => this.#closed,
    }, timeoutMs);
  }

  /** Logged events after `after` (networks with `mod/persistence`): `{events: [{seq, event}], next_after, has_more}`. */
  history(query = {}) {
    return history(this, query);
  }

  /** Leaves the network (it forgets nothing you sent) and closes the connection. */
  async leave() {
    if (this.online) await this.send('core', 'network.agent.leave', {}).catch(() => {});
    this.close();
  }

  /** Closes the connection for good; pending promises reject with `closed`. */
  close() {
    this.#closed = true;
    this.#link.close();
    const error = new AgentnetError('closed', 'agent is closed');
    this.#pending.rejectAll(error);
    this.#requests.rejectAll(error);
    // The secret outlives the connection: a later `connect` as this address needs it.
    if (this.#replica !== closedReplica) this.#memberSecret = this.#replica.memberSecret;
    this.#replica.free?.();
    this.#replica = closedReplica;
  }

  #apply(effects) {
    if (this.#closed) return;
    applyEffects(effects, {
      link: this.#link,
      pending: this.#pending,
      requests: this.#requests,
      handlers: this.#handlers,
      documents: this.#documents,
      closed: () => this.#closed,
    });
  }
}
