// Type declarations for the `agentnet-sdk` package.

/** An event on the network (seed 000 §6). */
export interface AgentnetEvent<P = any> {
  id: string;
  type: string;
  source: string;
  target: string;
  payload: P;
  metadata: Record<string, any> & {
    in_reply_to?: string;
    delivery?: { seq: number; prev: number };
    bridged_from?: string;
  };
  timestamp: number;
  network?: string;
}

/** An error from the core or the network, with a stable `code`. */
export class AgentnetError extends Error {
  constructor(code: string, message: string, options?: { cause?: unknown });
  readonly name: 'AgentnetError';
  /** A stable code: `invalid_address`, `forbidden`, `owner_offline`, `timeout`, `closed`, `invalid_argument` (a value of the wrong type), … */
  code: string;
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
export function discoverAgents(options: {
  url: string;
  q?: string;
  tags?: string[];
  mode?: string;
  transport?: string;
  verification?: number;
  network?: string;
  limit?: number;
}): Promise<{ agents: DiscoveredAgent[]; total: number }>;
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
  /** The `memberSecret` of an earlier connection as this address (an address belongs to its first holder). */
  memberSecret?: string;
  /** Further join credentials. */
  credentials?: Record<string, unknown>;
  /** The WebSocket class (default: the global one, else the `ws` package). */
  WebSocket?: any;
  /** How long to wait for the join (default 10000 ms). */
  timeoutMs?: number;
  /** Reconnect and resume after a dropped connection, or one whose heartbeat went unanswered (default true). */
  reconnect?: boolean;
}

// The payloads of the network's answers. Each interface mirrors a struct of
// the Rust core (`agentnet_core::model::payloads`), which builds and reads
// them; `tests/js/types.test.mjs` checks real answers against these keys.

/** A resource kind. */
export type ResourceKind = 'tool' | 'file' | 'context';
/** A permission on a resource. */
export type Permission = 'read' | 'write' | 'invoke' | 'admin';
/** A member's role. */
export type Role = 'master' | 'member' | 'observer';
/** A verification level (seed 000 §5): 0 anonymous, 1 key proof, 2 token, 3 DID. */
export type VerificationLevel = 0 | 1 | 2 | 3;

/** A membership record (a joiner's ack carries its own). */
export interface MemberRecord {
  address: string;
  role: Role;
  verification: VerificationLevel;
  status: 'online' | 'offline';
  /** Unix milliseconds of the last sign of life. */
  last_seen: number;
  /** The DID the member's join proved, if any. */
  did?: string;
  /** What the member says about itself, when it said anything. */
  profile?: MemberProfile;
}

/** The network's acknowledgement of an event (`network.event.ack`, core's `AckPayload`). */
export interface Ack {
  /** The acknowledged event's id. */
  id: string;
  /** The event's sequence number in the network's log (0 when not logged). */
  seq: number;
  /** The event was a resubmission of one already accepted. */
  duplicate?: boolean;
  /** A registered resource's address. */
  address?: string;
  /** A new channel (`channel/{name}`). */
  channel?: string;
  /** An invitation's code, and when it expires. */
  code?: string;
  expires_at?: number;
  /** A joiner's membership record, the network and where its delivery resumes. */
  member?: MemberRecord;
  network?: string;
  resume_after?: number;
}

/** One member in the roster (core's `RosterMember`). */
export interface RosterMember {
  address: string;
  role: Role;
  status: 'online' | 'offline';
  verification: VerificationLevel;
  /** The DID the member's join proved, if any. */
  did?: string;
  /** What the member says about itself, when it said anything. */
  profile?: MemberProfile;
}

/** What a member says about itself (`network.agent.profile`; IOA's node `description` and `meta`). */
export interface MemberProfile {
  /** At most 1,000 characters. */
  description?: string;
  /** Free-form fields, at most 4,096 bytes of JSON. */
  meta?: Record<string, unknown>;
  /** Agrees to be listed outside the network (public agent descriptions). */
  listed?: boolean;
}

/** One resource in the roster (core's `RosterResource`). */
export interface RosterResource {
  address: string;
  owner: string;
  type: ResourceKind;
}

/** The roster of seed 000 §9: `network.agent.discover.response` (core's `Roster`). */
export interface Roster {
  agents: RosterMember[];
  /** `channel/{name}` */
  channels: string[];
  /** Members by group (`group/{name}`). */
  groups: Record<string, string[]>;
  mods: string[];
  resources: RosterResource[];
}

/** A resource the asker may read (core's `ResourceInfo`). */
export interface ResourceInfo {
  address: string;
  type: ResourceKind;
  owner: string;
  description: string;
  /** Tools: the input schema. */
  schema: unknown | null;
  content_type: string | null;
  /** What the asker may do with it. */
  your_permissions: Permission[];
}

/** `network.resource.discover.response` (core's `ResourceList`). */
export interface ResourceList {
  resources: ResourceInfo[];
}

/** `network.resource.read.response`: a resource and its content (core's `ResourceContent`). */
export interface ResourceContent {
  address: string;
  type: ResourceKind;
  owner: string;
  description: string;
  content_type: string | null;
  schema: unknown | null;
  /** A document's text, structured JSON, or null (tools). */
  content: unknown;
}

/** One logged event of a page (core's `LoggedEvent`). */
export interface LoggedEvent {
  seq: number;
  event: AgentnetEvent;
}

/** A page of the log: `network.events.response` (core's `EventsPage`). */
export interface EventsPage {
  events: LoggedEvent[];
  /** The cursor to read on from. */
  next_after: number;
  has_more: boolean;
}

/** `network.event.error` (core's `ErrorPayload`). */
export interface ErrorPayload {
  /** A stable code (`forbidden`, `unknown_target`, …). */
  code: string;
  message: string;
  /** The refused event, when its id could be read. */
  event_id: string | null;
}

/** `network.agent.challenge.response`: a nonce to sign for a key proof (core's `Challenge`). */
export interface Challenge {
  address: string;
  expires_at: number;
  network: string;
  nonce: string;
}

/** `network.pong` (core's `Pong`). */
export interface Pong {
  time: number;
}

/** One way to reach a network (core's `Transport`). */
export interface Transport {
  type: string;
  endpoint: string;
}

/** The network profile of seed 000 §9, `GET /v1/profile` (core's `NetworkProfile`). */
export interface NetworkProfile {
  id: string;
  name: string;
  description: string;
  access: { policy: 'open' | 'token' | 'invite' | 'did-verify'; min_verification: VerificationLevel };
  delivery: 'at-least-once' | 'at-most-once';
  status: 'active' | 'paused' | 'archived';
  transports: Transport[];
  capabilities: string[];
  mods: string[];
  agents_online: number;
}

/** Any answer from `core`, as `readAnswer` returns it. */
export type Answer = Roster | ResourceList | ResourceContent | EventsPage | ErrorPayload | Ack | Challenge | Pong;

/** The payload of an answer event from `core`, checked and in its typed shape; throws `AgentnetError` (`malformed_event`). */
export function readAnswer(event: AgentnetEvent | string): Answer;
/** A network profile, checked and in its typed shape; throws `AgentnetError` (`malformed_event`). */
export function readProfile(profile: unknown): NetworkProfile;

export type Permissions = Partial<Record<'read' | 'write' | 'invoke' | 'admin', string>>;

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
/** ACPs AIP task states. */
export type TaskState = 'accepted' | 'working' | 'awaiting-input' | 'awaiting-completion'
  | 'completed' | 'canceled' | 'failed' | 'rejected';
/** A part of a task message or artifact (A2A 1.0's shape). */
export type TaskPart = { text: string } | { data: unknown } | { url: string; mediaType?: string; filename?: string };
/** Text, a list of parts or `{parts}`. */
export type TaskContent = string | TaskPart[] | { parts: TaskPart[] };

/** A task given to this agent (`onTask`). */
export interface TaskWork {
  readonly id: string;
  readonly requester: string;
  readonly parts: TaskPart[];
  readonly text: string;
  readonly skill: string | null;
  readonly state: TaskState;
  readonly canceled: boolean;
  progress(message: TaskContent): Promise<Ack>;
  askInput(question: TaskContent): Promise<{ parts: TaskPart[]; text: string }>;
  artifact(name: string, content: TaskContent, options?: { id?: string }): Promise<Ack>;
  complete(message?: TaskContent): Promise<Ack>;
  fail(reason: TaskContent): Promise<Ack>;
  reject(reason: TaskContent): Promise<Ack>;
}

export interface StartTaskOptions {
  skill?: string;
  context?: string;
  /** The requester confirms completion itself (AIP's `complete`). */
  confirm?: boolean;
  /** Hybrid tasks: the channel members that work on it. */
  partners?: string[];
  /** Metadata of the `task.create` event, e.g. a W3C `traceparent`: the worker's updates are then its children in that trace. */
  metadata?: Record<string, unknown>;
}

export interface TaskUpdate {
  type: 'update' | 'message' | 'artifact' | 'cancel';
  state: TaskState;
  parts: TaskPart[];
  text: string;
  event: AgentnetEvent;
}

/** One task as `listTasks` gives it. */
export interface ListedTask {
  id: string;
  context: string;
  requester: string;
  partners: string[];
  mode: 'direct' | 'group' | 'hybrid';
  channel?: string;
  skill?: string;
  state: TaskState;
  history: { id: string; from: string; role: 'leader' | 'partner'; parts: unknown[]; at: number }[];
  artifacts: { id: string; name: string; resource: string; parts: unknown[] }[];
  created_at: number;
  updated_at: number;
}

/** The answer of `listTasks`: `more` when tasks were left out (`limit`, or the answer's size). */
export interface TaskList {
  tasks: ListedTask[];
  total: number;
  more: boolean;
}

/** A task this agent started. */
export interface TaskHandle extends AsyncIterable<TaskUpdate> {
  readonly id: string;
  readonly state: TaskState;
  readonly artifacts: { name: string; parts: TaskPart[] }[];
  readonly messages: { from: string; parts: TaskPart[] }[];
  /** Resolves once the task is over. */
  readonly done: Promise<TaskHandle>;
  send(message: TaskContent): Promise<Ack>;
  complete(): Promise<Ack>;
  cancel(): Promise<Ack>;
}

/** How an agent installed as a mod takes part in the pipeline. */
export type ModMode = 'guard' | 'transform' | 'observe';

/** What `createSession` takes. */
export interface SessionOptions {
  /** The session id (`{id}` or `session-{id}`); default: the event's id. */
  session?: string;
  title?: string;
  /** The session's master: the agent that answers first in it (default: the network's, if set). */
  master?: string;
  /** Where the `workspace.session.created` goes (default `agent:broadcast`). */
  to?: string;
}

/** What `updateSession` changes. */
export interface SessionChanges {
  title?: string;
  status?: 'open' | 'closed' | 'archived';
  /** A member's address, or null for none. */
  master?: string | null;
}

/** What `asMod` declares: the patterns it intercepts, its mode and priority, its deadline and late policy. */
export interface ModOptions {
  /** Event type patterns: `*`, `chat.*`, `chat.message` (the network's own `network.*` types never reach a mod). */
  patterns: string[];
  mode: ModMode;
  /** Lower runs earlier among the agent mods of its mode (default 0). */
  priority?: number;
  /** How long the network waits for a verdict (default 5000, at most 60000). */
  deadlineMs?: number;
  /** What the network does when the mod is offline or late (default `fail-closed`). */
  onLate?: 'fail-open' | 'fail-closed';
  /** Send `network.admin.mod.load` for this agent (it must be a master); default true. */
  install?: boolean;
}

/**
 * Decides on one intercepted event. Guards: nothing or `true` allows, a reason
 * (string), `{reject: reason}` or `false` rejects. Transforms: the new payload
 * (or `{payload, metadata}`), nothing keeps the event. Observers: ignored.
 */
export type ModHandler = (
  event: AgentnetEvent,
  context: { mode: ModMode; deadline?: number },
) => unknown | Promise<unknown>;

export class Agent {
  private constructor();
  /** Connects and joins; resolves once the network has accepted the join. */
  static connect(options: ConnectOptions): Promise<Agent>;
  readonly address: string;
  readonly network: string;
  readonly online: boolean;
  /** The secret that makes this address this agent's: pass it as `memberSecret` to a later `connect` with the same name. */
  readonly memberSecret: string | undefined;
  /** Events not yet acknowledged by the network. */
  readonly outbox: { event: AgentnetEvent; state: 'pending' | 'sent' | 'rejected'; rejection?: { code: string; message: string } }[];
  on<P = any>(pattern: string, handler: (event: AgentnetEvent<P>) => void | Promise<void>): this;
  off(pattern: string, handler: (event: AgentnetEvent) => void | Promise<void>): this;
  onConnectionChange(listener: (change: { online: boolean; error?: AgentnetError }) => void): () => void;
  send(target: string, type: string, payload?: unknown, options?: { metadata?: Record<string, unknown>; timeoutMs?: number }): Promise<Ack>;
  request<R = any>(target: string, type: string, payload?: unknown, options?: { timeoutMs?: number }): Promise<AgentnetEvent<R>>;
  /** Answers `event` (`metadata.in_reply_to`); a traced event's reply is its child in the same W3C trace (`traceparent`). */
  reply(event: AgentnetEvent, type: string, payload?: unknown): Promise<Ack>;
  /** Creates a channel with you as its member; `members` are invited (each joins itself); `private` channels admit only those. */
  createChannel(name: string, options?: { members?: string[]; private?: boolean }): Promise<Ack>;
  joinChannel(channel: string): Promise<Ack>;
  leaveChannel(channel: string): Promise<Ack>;
  setBridge(network: string, bridge: string | null): Promise<Ack>;
  discover(): Promise<Roster>;
  discoverResources(filter?: { type?: ResourceKind }): Promise<ResourceInfo[]>;
  /** Agents by capability over this network's members and the deployment's registry (`network.discovery.query`), best first. */
  discoverAgents(query?: DiscoveryQuery): Promise<NetworkDiscoveryAnswer>;
  /** Answers tasks given to this agent; what the handler returns completes the task. */
  onTask(handler: (task: TaskWork) => unknown | Promise<unknown>): this;
  /** Starts a task at an agent (or a channel, for a group task). */
  startTask(target: string, message: TaskContent, options?: StartTaskOptions): Promise<TaskHandle>;
  /** Replaces your profile (shown in the roster and as your IOA node); resolves with the ack, whose `member` is your record. */
  setProfile(profile: MemberProfile): Promise<Ack>;
  /** Your tasks (requested or worked on), newest change first. */
  listTasks(filter?: { state?: TaskState; limit?: number }): Promise<TaskList>;
  registerTool<I = any, O = any>(
    name: string,
    schema: unknown,
    handler: (input: I, event: AgentnetEvent<{ input: I }>) => O | Promise<O>,
    options?: { description?: string; permissions?: Permissions },
  ): Promise<Ack>;
  /** Unregisters `resource/tool/{name}` (its owner may). */
  unregisterTool(name: string): Promise<Ack>;
  invoke<O = any>(tool: string, input?: unknown, options?: { timeoutMs?: number }): Promise<O>;
  registerFile(path: string, content: string, options?: { contentType?: string; description?: string; permissions?: Permissions }): Promise<Ack>;
  /** Text content is a live shared document (`text/markdown` by default); other JSON is structured (`application/json`). */
  registerContext(name: string, content: unknown, options?: { contentType?: string; description?: string; permissions?: Permissions }): Promise<Ack>;
  read(address: string, options?: { timeoutMs?: number }): Promise<ResourceContent>;
  update(address: string, changes: { content?: unknown; permissions?: Permissions; description?: string }): Promise<Ack>;
  /** Opens a file's or context's shared text; resolves once synced (or at once, offline). */
  document(address: string, options?: { timeoutMs?: number }): Promise<SharedDocument>;
  history(query?: { after?: number; limit?: number; types?: string; source?: string; target?: string }): Promise<EventsPage>;
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
  /** Sends `network.admin.{action}` (`pause`, `resume`, `archive`, `mod.load`, `member.ban`, `token.rotate`, `settings.update`, `config`, …); masters only. */
  admin(action: string, payload?: unknown): Promise<Ack>;
  leave(): Promise<void>;
  close(): void;
}
