// Type declarations for the `agentnet-sdk` package: the JavaScript API.
// What the core hands over (events, answers, member records, tasks, error
// codes, …) is declared in ./types/generated/, generated from the core's
// Rust types; the rest of ./types is the JavaScript side.

export * from './types/generated/index.js';
export * from './types/answers.js';
export * from './types/agent.js';
export * from './types/llm.js';
import type { LlmAgent, LlmConfig, ApprovalRequest, ApprovalResult } from './types/llm.js';
import type { Sent } from './types/answers.js';
import type {
  Ack,
  Answer,
  ErrorCode,
  EventEnvelope,
  EventsPage,
  MemberProfile,
  NetworkProfile,
  OutboxEntry,
  Permission,
  ResourceContent,
  ResourceInfo,
  ResourceKind,
  Roster,
  TaskState,
} from './types/generated/index.js';
import type {
  TaskContent,
  TaskWork,
  OnTaskOptions,
  StartTaskOptions,
  TaskList,
  TaskHandle,
  SessionOptions,
  SessionChanges,
  ModOptions,
  ModHandler,
} from './types/agent.js';

/**
 * An event on the network (ONM §6): the core's `EventEnvelope`, with its
 * payload typed `P` and the metadata the network sets named.
 */
export type AgentnetEvent<P = any> = Omit<EventEnvelope, 'payload' | 'metadata'> & {
  payload: P;
  metadata: Record<string, any> & {
    in_reply_to?: string;
    delivery?: { seq: number; prev: number };
    bridged_from?: string;
  };
};

/** An event as handlers get it (`agent.on`): with `reply`. */
export type ReceivedEvent<P = any> = AgentnetEvent<P> & {
  /**
   * Posts `content` (text, or `{content, …}`) as `workspace.message.posted` where
   * this event was said — a direct message to its sender, a channel's or
   * everyone's in that conversation — with `in_reply_to` its id (its thread).
   */
  reply(content: ChatContent, options?: { metadata?: Record<string, unknown>; timeoutMs?: number }): Promise<Ack>;
};

/** A chat message's content: its text, or a payload whose `content` is the text. */
export type ChatContent = string | ({ content: string } & Record<string, unknown>);

/**
 * Where `Agent.connect` keeps each address's member secret between runs, by
 * key (`{network URL} {address}`): any object with `get` and `set`, sync or
 * async (a `Map` will do).
 */
export interface SecretStore {
  get(key: string): string | undefined | Promise<string | undefined>;
  set(key: string, secret: string): unknown;
}

/** An error from the core or the network, with a stable `code`. */
export class AgentnetError extends Error {
  constructor(code: string, message: string, options?: { cause?: unknown });
  readonly name: 'AgentnetError';
  /** A stable code: the core's (`invalid_address`, `forbidden`, `owner_offline`, …) or the package's own (`timeout`, `closed`, `invalid_argument`: a value of the wrong type, …). */
  code: ErrorCode | (string & {});
}

/** The parts of an address. */
export interface AddressInfo {
  address: string;
  network: string | null;
  kind: 'core' | 'broadcast' | 'agent' | 'registered' | 'human' | 'channel' | 'mod' | 'group' | 'tool' | 'file' | 'context';
  name: string | null;
  registrar: string | null;
  uri: string;
  did: string | null;
}

/** The canonical form of an address (`alice` → `agent:alice`); throws `AgentnetError`. */
export function parseAddress(address: string): string;
/** True when `address` is a valid address. */
export function isValidAddress(address: string): boolean;
/** The parts of an address; throws `AgentnetError` when it is invalid. */
export function addressInfo(address: string): AddressInfo;
/** Builds a canonical address from parts. */
export function formatAddress(parts: { kind: AddressInfo['kind']; name?: string; network?: string; registrar?: string }): string;
/** Validates an event type; returns it or throws `AgentnetError`. */
export function parseEventType(type: string): string;
/** True when `type` matches `pattern` (`*`, `prefix.*` or exact). */
export function matchesPattern(pattern: string, type: string): boolean;
/** Validates an event object; returns its canonical form or throws `AgentnetError`. */
export function validateEvent(event: object): AgentnetEvent;
/** Builds a valid event with a fresh id and timestamp. */
export function createEvent<P = Record<string, unknown>>(fields: {
  source: string;
  network: string;
  target: string;
  type: string;
  payload?: P;
  metadata?: Record<string, unknown>;
  timestamp?: number;
}): AgentnetEvent<P>;
/** A key as `register` and friends take it: a `KeyPair`, or what `KeyPair.import` reads. */
export type RegistryKey = KeyPair | string;

/** An agent's record in a deployment's identity registry. */
export interface RegisteredAgent {
  name: string;
  /** `openagents:{name}` */
  address: string;
  /** Its ACPs agent identity code. */
  aic: string;
  did: string;
  did_wba?: string;
  keys?: unknown[];
  /** Its capability document (ACS), when published. */
  acs?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Registers `openagents:{name}` with `key` at the deployment `url` (optionally with its ACS). */
export function register(options: { url: string; name: string; key: RegistryKey; acs?: Record<string, unknown> }): Promise<RegisteredAgent>;
/** A short-lived token (EdDSA JWT) for `name` and `audience` (a network id). */
export function requestToken(options: { url: string; name: string; key: RegistryKey; audience: string }): Promise<{ access_token: string; expires_in: number }>;
/** Replaces `name`'s key by `newKey`, signed by the current `key`. */
export function rotateKey(options: { url: string; name: string; key: RegistryKey; newKey: RegistryKey }): Promise<RegisteredAgent>;
/** Revokes `name`: its keys, DIDs and tokens stop verifying. */
export function revoke(options: { url: string; name: string; key: RegistryKey }): Promise<unknown>;
/** Publishes `acs` (ACPs ACS; `aic` may be left out) as `name`'s capabilities, signed by `key`; refusals carry a `reason` such as `acs_missing_field`. */
export function publishCapabilities(options: { url: string; name: string; key: RegistryKey; acs: Record<string, unknown> }): Promise<RegisteredAgent>;
/** One agent a capability search found, best first. */
export interface DiscoveredAgent {
  id: string;
  name: string;
  score: number;
  endpoints?: unknown[];
  description_url?: string;
  [field: string]: unknown;
}
/** A capability search: the query of `GET /registry/v1/discover` and of `network.discovery.query`. */
export interface DiscoveryQuery {
  q?: string;
  tags?: string[];
  mode?: string;
  transport?: string;
  verification?: number;
  network?: string;
  limit?: number;
}
/** `network.discovery.response`: the network's members and the registry's agents, ranked together. */
export interface NetworkDiscoveryAnswer {
  agents: DiscoveredAgent[];
  from_network: number;
  from_registry: number;
  registry: 'ok' | 'unavailable';
  registry_error?: string;
}
/** Searches the deployment at `url` for agents by capability (`q` text, `tags`, filters). */
export function discoverAgents(options: DiscoveryQuery & { url: string }): Promise<{ agents: DiscoveredAgent[]; total: number }>;
/** The DID document of `did` (`did:openagents:` from the registry at `url`, `did:wba:` from its own URL). */
export function resolveDid(options: { did: string; url?: string }): Promise<Record<string, unknown>>;
/**
 * The W3C trace context of an event `event` causes: `{traceparent, tracestate?}` naming
 * `event` as parent in its trace, or `{}` when it is not traced; put it in the `metadata`
 * of what you send because of it (`Agent.reply` does).
 */
export function traceCausedBy(event: AgentnetEvent): { traceparent?: string; tracestate?: string };
/** Runs a JSON conformance vector through the core; throws `AgentnetError` on a mismatch (`not_supported` in `agentnet-sdk/lite`). */
export function runConformanceVector(vector: string): void;

/** An Ed25519 key pair for proving an `openagents:{name}` address (verification level 1). */
export class KeyPair {
  private constructor(secretKey: string);
  /** A new key pair from `crypto.getRandomValues`. */
  static generate(): KeyPair;
  /** A key pair from `{secretKey}` (and optionally `publicKey`, which must match) or the secret key in hex. */
  static import(exported: string | { secretKey: string; publicKey?: string }): KeyPair;
  /** The public key, 64 hex characters: what a network registers in its `keys`. */
  readonly publicKey: string;
  /** The secret key in hex. */
  readonly secretKey: string;
  /** `{publicKey, secretKey}` for storage; treat it as a secret. */
  export(): { publicKey: string; secretKey: string };
  /** The hex signature over a network's join challenge. */
  signChallenge(challenge: { network: string; address: string; nonce: string }): string;
  /** The DID document (`did:wba:…` or `did:openagents:…`) listing this key as `key-1`. */
  didDocument(did: string): Record<string, unknown>;
  /**
   * A fresh, single-use `DIDWba …` Authorization header value for a request to
   * `url`, proving this key as `method` (default `key-1`) of `did`; `aud` signs the `v="1.1"` form.
   */
  didWbaHeader(options: { did: string; url: string; method?: string; aud?: boolean }): string;
  /** The hex signature of a registry key proof. */
  signRegistryProof(proof: { action: 'register' | 'rotate' | 'revoke' | 'token' | 'acs'; name: string; nonce: string; detail?: string }): string;
  /** Only the public key: a secret never ends up in JSON by accident. */
  toJSON(): { publicKey: string };
}

/** The WebSocket URL of `network` at edge `url`. */
export function networkSocketUrl(url: string, network: string): string;
/** Resolves where to connect from a network URL, an edge URL plus network id, or a profile URL. */
export function resolveNetwork(where: { url?: string; network?: string; profile?: string }): Promise<{ network: string; socketUrl: string }>;

export interface ConnectOptions {
  /** A network URL (`http://host/networks/demo`) or an edge URL together with `network`. */
  url?: string;
  /** The network id, when `url` is an edge URL. */
  network?: string;
  /** A network's profile URL, instead of `url`. */
  profile?: string;
  /** This agent's address: `agent:{name}`, `human:{name}` or `openagents:{name}`. */
  name: string;
  /** The access token of a token network. */
  token?: string;
  /** An invitation code of an invite-only network. */
  invite?: string;
  /** A key pair (or secret key hex) proving an `openagents:{name}` address. */
  key?: KeyPair | string | { secretKey: string };
  /** The `memberSecret` of an earlier connection as this address (an address belongs to its first holder); default: the one `secretStore` kept. */
  memberSecret?: string;
  /**
   * Where member secrets are kept between runs, so the program joins as the same
   * address every time: default the runtime's (a file in Node, Bun and Deno:
   * `AGENTNET_SECRETS`, else `agentnet/secrets.json` in the user's configuration
   * folder, 0600; IndexedDB in a browser; none in a Worker); `false` keeps nothing.
   */
  secretStore?: SecretStore | false;
  /** Further join credentials. */
  credentials?: Record<string, unknown>;
  /** The WebSocket class (default: the global one, else the `ws` package). */
  WebSocket?: any;
  /** How long to wait for the join (default 10000 ms). */
  timeoutMs?: number;
  /** Reconnect and resume after a dropped connection, or one whose heartbeat went unanswered (default true). */
  reconnect?: boolean;
  /**
   * Share a WebSocket with this process's other agents on the same network
   * that share (default true; false: a socket of its own): each agent is a
   * lane of the socket, up to 16 a socket, one socket per connection gateway on a network with gateways.
   * A socket costs the edge far more memory than a member does. On an edge
   * that takes no lanes each agent gets a socket of its own (docs/wire.md,
   * "Shared sockets").
   */
  shareSocket?: boolean;
}

/** The payload of an answer event from `core`, checked and in its typed shape; throws `AgentnetError` (`malformed_event`). */
export function readAnswer(event: AgentnetEvent | string): Answer;
/** A network profile, checked and in its typed shape; throws `AgentnetError` (`malformed_event`). */
export function readProfile(profile: unknown): NetworkProfile;

export type Permissions = Partial<Record<Permission, string>>;

/** What a document listener hears: others' edits, or the refusal of one of yours (undone). */
export type DocumentChange = { text: string; editors: string[]; error?: undefined } | { error: AgentnetError; text?: undefined; editors?: undefined };

/** The shared text of a file or context, edited together; from `agent.document(address)`. */
export class SharedDocument {
  private constructor();
  readonly address: string;
  /** The current text. */
  readonly text: string;
  /** Members with the document open, as the network last said. */
  readonly editors: string[];
  /** Deletes `deleteCount` UTF-16 units at `index` and inserts `insert`; throws `forbidden` once the network refused your edits. */
  splice(index: number, deleteCount: number, insert?: string): this;
  insert(index: number, text: string): this;
  /** Makes the text exactly `text`, recorded as the smallest edit. */
  setText(text: string): this;
  onChange(listener: (change: DocumentChange) => void): () => void;
  close(): void;
}

/** An agent connected to one network. */
export class Agent {
  private constructor();
  /** Connects and joins; resolves once the network has accepted the join. */
  static connect(options: ConnectOptions): Promise<Agent>;
  /** Connects an LLM member (docs/agents.md): the configuration and the key are checked before connecting. */
  static llm(options: ConnectOptions & LlmConfig): Promise<LlmAgent>;
  readonly address: string;
  readonly network: string;
  readonly online: boolean;
  /** The secret that makes this address this agent's: pass it as `memberSecret` to a later `connect` with the same name. */
  readonly memberSecret: string | undefined;
  /** Events not yet acknowledged by the network. */
  readonly outbox: OutboxEntry[];
  on<P = any>(pattern: string, handler: (event: ReceivedEvent<P>) => void | Promise<void>): this;
  off(pattern: string, handler: (event: AgentnetEvent) => void | Promise<void>): this;
  onConnectionChange(listener: (change: { online: boolean; error?: AgentnetError }) => void): () => void;
  /** Resolves with the network's ack; `id` is the sent event's id, known at once. */
  send(target: string, type: string, payload?: unknown, options?: { metadata?: Record<string, unknown>; timeoutMs?: number }): Sent;
  request<R = any>(target: string, type: string, payload?: unknown, options?: { timeoutMs?: number }): Promise<AgentnetEvent<R>>;
  /**
   * Posts a chat message (`workspace.message.posted {content}`) to an agent, a
   * channel or `agent:broadcast`; `inReplyTo` (an event or its id) threads it.
   */
  post(target: string, content: ChatContent, options?: { inReplyTo?: AgentnetEvent | string; metadata?: Record<string, unknown>; timeoutMs?: number }): Promise<Ack>;
  /** Answers `event` (`metadata.in_reply_to`); a traced event's reply is its child in the same W3C trace (`traceparent`). */
  reply(event: AgentnetEvent, type: string, payload?: unknown): Sent;
  /** Creates a channel with you as its member; `members` are invited (each joins itself); `private` channels admit only those. */
  createChannel(name: string, options?: { members?: string[]; private?: boolean }): Promise<Ack>;
  joinChannel(channel: string): Promise<Ack>;
  leaveChannel(channel: string): Promise<Ack>;
  setBridge(network: string, bridge: string | null): Promise<Ack>;
  discover(): Promise<Roster>;
  discoverResources(filter?: { type?: ResourceKind }): Promise<ResourceInfo[]>;
  /** Agents by capability over this network's members and the deployment's registry (`network.discovery.query`), best first. */
  discoverAgents(query?: DiscoveryQuery): Promise<NetworkDiscoveryAnswer>;
  /**
   * Answers tasks given to this agent; what the handler returns completes the task.
   * Until it is called, the agent's profile says it takes no tasks, and the network
   * refuses tasks sent to it at once (`takes_no_tasks`). With `{answer: 'message'}`
   * what it returns answers the request as one message (A2A: a Message, not a Task).
   */
  onTask(handler: (task: TaskWork) => unknown | Promise<unknown>, options?: OnTaskOptions): this;
  /** Starts a task at an agent (or a channel, for a group task). */
  startTask(target: string, message: TaskContent, options?: StartTaskOptions): Promise<TaskHandle>;
  /** Replaces your profile (shown in the roster and as your IOA node); resolves with the ack, whose `member` is your record. */
  setProfile(profile: MemberProfile): Promise<Ack>;
  /** Your tasks (requested or worked on), newest change first. */
  listTasks(filter?: { state?: TaskState; limit?: number }): Promise<TaskList>;
  /**
   * Offers `resource/tool/{name}`. Each call's input is checked against `schema`
   * (JSON Schema, Ajv) before `handler` runs; one that does not fit is answered
   * `invalid_arguments`. A name another member offers fails with `already_exists`.
   */
  registerTool<I = any, O = any>(
    name: string,
    schema: unknown,
    handler: (input: I, event: AgentnetEvent<{ input: I }>) => O | Promise<O>,
    options?: { description?: string; permissions?: Permissions },
  ): Promise<Ack>;
  /** Unregisters `resource/tool/{name}` (its owner may). */
  unregisterTool(name: string): Promise<Ack>;
  invoke<O = any>(tool: string, input?: unknown, options?: { timeoutMs?: number }): Promise<O>;
  registerFile(path: string, content: string, options?: { contentType?: string; description?: string; permissions?: Permissions; replace?: boolean }): Promise<Ack>;
  /** Text content is a live shared document (`text/markdown` by default); other JSON is structured (`application/json`). */
  registerContext(name: string, content: unknown, options?: { contentType?: string; description?: string; permissions?: Permissions; replace?: boolean }): Promise<Ack>;
  read(address: string, options?: { timeoutMs?: number }): Promise<ResourceContent>;
  update(address: string, changes: { content?: unknown; permissions?: Permissions; description?: string }): Promise<Ack>;
  /** Opens a file's or context's shared text; resolves once synced (or at once, offline). */
  document(address: string, options?: { timeoutMs?: number }): Promise<SharedDocument>;
  history(query?: { after?: number; limit?: number; types?: string; source?: string; target?: string; text?: string }): Promise<EventsPage>;
  /** Serves this agent as a mod (docs/mods.md); installs it unless `install: false`. */
  asMod(options: ModOptions, handler: ModHandler): Promise<{ spec: Record<string, unknown>; uninstall(): Promise<Ack> }>;
  /** Creates a Workspace session (`channel/session-{id}`); resolves with its id and channel. */
  createSession(options?: SessionOptions): Promise<{ id: string; channel: string; ack: Ack }>;
  /** Changes a session's title, status or master (its participants, its master, masters). */
  updateSession(session: string, changes: SessionChanges, options?: { to?: string }): Promise<Ack>;
  /** Hands a message (an event or its id) to another member to answer. */
  delegate(message: AgentnetEvent | string, to: string, options?: { note?: string }): Promise<Ack>;
  /** Answers the messages this agent is the first responder of; the result is posted as a reply where it was asked. */
  onFirstResponse(handler: (event: AgentnetEvent, tools: { delegate(to: string, note?: string): Promise<Ack> }) => unknown): this;
  /** Answers messages delegated to this agent; the result goes back where the message was asked. */
  onDelegated(handler: (delegation: AgentnetEvent) => unknown): this;
  /** Asks a person to approve a step (`workspace.approval.requested`) and waits for the decision; expired requests resolve `expired`. */
  approval(request: ApprovalRequest): Promise<ApprovalResult>;
  /** Decides a `workspace.approval.requested` event as one of its approvers. */
  decideApproval(request: AgentnetEvent, decision: 'approved' | 'denied', options?: { edited?: unknown; reason?: string }): Promise<Ack>;
  /** Sends `network.admin.{action}` (`pause`, `resume`, `archive`, `mod.load`, `member.ban`, `token.rotate`, `settings.update`, `config`, …); masters only. */
  admin(action: string, payload?: unknown): Promise<Ack>;
  leave(): Promise<void>;
  close(): void;
}
