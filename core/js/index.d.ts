// Type declarations for the `agentnet` package.

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
/** Runs a JSON conformance vector through the core; throws `AgentnetError` on a mismatch. */
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
  /** Reconnect and resume after a dropped connection (default true). */
  reconnect?: boolean;
}

/** The network's acknowledgement of an event. */
export interface Ack {
  id: string;
  /** The event's sequence number in the network's log (0 when not logged). */
  seq: number;
  [extra: string]: unknown;
}

export interface Roster {
  agents: { address: string; role: string; status: string; verification: number }[];
  channels: string[];
  groups: Record<string, string[]>;
  mods: string[];
  resources: { address: string; owner: string; type: string }[];
}

export interface ResourceInfo {
  address: string;
  type: 'tool' | 'file' | 'context';
  owner: string;
  description: string;
  schema: unknown;
  content_type: string | null;
  your_permissions?: string[];
}

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
  reply(event: AgentnetEvent, type: string, payload?: unknown): Promise<Ack>;
  /** Creates a channel with you as its member; `members` are invited (each joins itself); `private` channels admit only those. */
  createChannel(name: string, options?: { members?: string[]; private?: boolean }): Promise<Ack>;
  joinChannel(channel: string): Promise<Ack>;
  leaveChannel(channel: string): Promise<Ack>;
  setBridge(network: string, bridge: string | null): Promise<Ack>;
  discover(): Promise<Roster>;
  discoverResources(filter?: { type?: 'tool' | 'file' | 'context' }): Promise<ResourceInfo[]>;
  registerTool<I = any, O = any>(
    name: string,
    schema: unknown,
    handler: (input: I, event: AgentnetEvent<{ input: I }>) => O | Promise<O>,
    options?: { description?: string; permissions?: Permissions },
  ): Promise<Ack>;
  invoke<O = any>(tool: string, input?: unknown, options?: { timeoutMs?: number }): Promise<O>;
  registerFile(path: string, content: string, options?: { contentType?: string; description?: string; permissions?: Permissions }): Promise<Ack>;
  /** Text content is a live shared document (`text/markdown` by default); other JSON is structured (`application/json`). */
  registerContext(name: string, content: unknown, options?: { contentType?: string; description?: string; permissions?: Permissions }): Promise<Ack>;
  read(address: string, options?: { timeoutMs?: number }): Promise<ResourceInfo & { content: unknown }>;
  update(address: string, changes: { content?: unknown; permissions?: Permissions; description?: string }): Promise<Ack>;
  /** Opens a file's or context's shared text; resolves once synced (or at once, offline). */
  document(address: string, options?: { timeoutMs?: number }): Promise<SharedDocument>;
  history(query?: { after?: number; limit?: number; types?: string; source?: string; target?: string }): Promise<{
    events: { seq: number; event: AgentnetEvent }[];
    next_after: number;
    has_more: boolean;
  }>;
  leave(): Promise<void>;
  close(): void;
}
