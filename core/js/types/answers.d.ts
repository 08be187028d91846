// Type declarations of agentnet-sdk: the payloads of the network's answers.

import type { AgentnetEvent } from '../index.js';

// Each interface mirrors a struct of the Rust core (`agentnet_core::model::payloads`),
// which builds and reads them; `tests/js/types.test.mjs` checks real answers against these keys.

/** A resource kind. */
export type ResourceKind = 'tool' | 'file' | 'context';
/** A permission on a resource. */
export type Permission = 'read' | 'write' | 'invoke' | 'admin';
/** A member's role. */
export type Role = 'master' | 'member' | 'observer';
/** A verification level (ONM §5): 0 anonymous, 1 key proof, 2 token, 3 DID. */
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

/** What `send` returns: the ack to come, with the sent event's `id` known at once. */
export type Sent = Promise<Ack> & { readonly id: string };

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
  /** Whether the member takes tasks (`false`: tasks to it are refused with `takes_no_tasks`; the SDK sets it). */
  tasks?: boolean;
}

/** One resource in the roster (core's `RosterResource`). */
export interface RosterResource {
  address: string;
  owner: string;
  type: ResourceKind;
}

/** The roster of ONM §9: `network.agent.discover.response` (core's `Roster`). */
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

/** The network profile of ONM §9, `GET /v1/profile` (core's `NetworkProfile`). */
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
  /** How many members it has, online or not. */
  members: number;
}
