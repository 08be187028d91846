// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

import type { Permission } from './access.js';
import type { AccessPolicy, DeliveryMode, NetworkStatus } from './config.js';
import type { ErrorCode } from './error.js';
import type { EventEnvelope } from './event.js';
import type { Address, EventId, NetworkId, ResourceKind, Role, Timestamp, VerificationLevel } from './ids.js';
import type { JsonValue } from './json.js';
import type { MemberRecord, Presence } from './membership.js';
import type { MemberProfile } from './profile.js';

/**
 * The `network.event.ack` payload: the acknowledged event's `id`, its `seq`
 * when logged, and what the handler added (a joiner's `member`, a new
 * channel's address, an invitation's `code`, …). Absent fields are omitted.
 */
export type Ack = {
  /**
   * A registered resource's address.
   */
  address?: Address | null,
  /**
   * A new channel, as `channel/{name}`.
   */
  channel?: Address | null,
  /**
   * An invitation's code.
   */
  code?: string | null,
  /**
   * The event was a resubmission of one already accepted.
   */
  duplicate?: boolean,
  /**
   * When the invitation expires.
   */
  expires_at?: Timestamp | null,
  /**
   * The acknowledged event.
   */
  id: EventId,
  /**
   * A joiner's membership record.
   */
  member?: MemberRecord | null,
  /**
   * The network joined.
   */
  network?: NetworkId | null,
  /**
   * Where a joiner's delivery resumes.
   */
  resume_after?: number | null,
  /**
   * The acknowledged event's sequence number, when it was logged.
   */
  seq?: number | null, };

/**
 * The `network.agent.challenge.response` payload: a nonce to sign for a key proof.
 */
export type Challenge = {
  /**
   * The address the proof is for.
   */
  address: Address,
  /**
   * When the nonce expires.
   */
  expires_at: Timestamp,
  /**
   * The network that issued it.
   */
  network: NetworkId,
  /**
   * The nonce (hex).
   */
  nonce: string, };

/**
 * The `network.event.error` payload: `{code, message, event_id}`.
 */
export type ErrorPayload = {
  /**
   * The stable code (an unknown one reads as `malformed_event`).
   */
  code: ErrorCode,
  /**
   * The refused event, when its id could be read (`null` otherwise).
   */
  event_id: EventId | null,
  /**
   * Explanation for people.
   */
  message: string, };

/**
 * A page of the log: the `network.events.response` payload (and the HTTP
 * binding's pages): `{events: [{seq, event}], next_after, has_more}`.
 */
export type EventsPage = {
  /**
   * The visible events, in `seq` order.
   */
  events: Array<LoggedEvent>,
  /**
   * True when the log may hold more after `next_after`.
   */
  has_more: boolean,
  /**
   * The cursor to read on from: the last row read, visible or not.
   */
  next_after: number, };

/**
 * One logged event of an `EventsPage`.
 */
export type LoggedEvent = {
  /**
   * The event.
   */
  event: EventEnvelope,
  /**
   * Its sequence number in the network's log.
   */
  seq: number, };

/**
 * The network profile of ONM §9 (`GET /v1/profile`).
 */
export type NetworkProfile = {
  /**
   * Who may join.
   */
  access: ProfileAccess,
  /**
   * How many members are online now.
   */
  agents_online: number,
  /**
   * The event families it handles (`network.agent`, `workspace.message`, …).
   */
  capabilities: Array<string>,
  /**
   * Its delivery guarantee.
   */
  delivery: DeliveryMode,
  /**
   * `metadata.description` of its configuration (empty when none).
   */
  description: string,
  /**
   * The network id.
   */
  id: NetworkId,
  /**
   * How many members it has, online or not (the Directory shows it).
   */
  members: number,
  /**
   * The loaded mods, in pipeline order.
   */
  mods: Array<Address>,
  /**
   * Its name.
   */
  name: string,
  /**
   * Active, paused or archived.
   */
  status: NetworkStatus,
  /**
   * How to reach it, from the host.
   */
  transports: Array<Transport>, };

/**
 * The `network.pong` payload.
 */
export type Pong = {
  /**
   * The network's time.
   */
  time: Timestamp, };

/**
 * The access section of a `NetworkProfile` (no secrets).
 */
export type ProfileAccess = {
  /**
   * Lowest verification level accepted at join.
   */
  min_verification: VerificationLevel,
  /**
   * The join policy.
   */
  policy: AccessPolicy, };

/**
 * The `network.resource.read.response` payload: a resource and its content.
 */
export type ResourceContent = {
  /**
   * `resource/{type}/{name}`.
   */
  address: Address,
  /**
   * The content: a document's text, structured JSON, or `null` (tools).
   */
  content: JsonValue | null,
  /**
   * The MIME type (`null` when none was given).
   */
  content_type: string | null,
  /**
   * What it is.
   */
  description: string,
  /**
   * The member that registered it.
   */
  owner: Address,
  /**
   * Tools: the input schema (`null` when none).
   */
  schema: JsonValue | null,
  /**
   * Tool, file or context.
   */
  type: ResourceKind, };

/**
 * One resource the asker may read, with what it may do: an entry of
 * `ResourceList`.
 */
export type ResourceInfo = {
  /**
   * `resource/{type}/{name}`.
   */
  address: Address,
  /**
   * Files: the MIME type (`null` when none was given).
   */
  content_type: string | null,
  /**
   * What it is, for people and agents.
   */
  description: string,
  /**
   * The member that registered it.
   */
  owner: Address,
  /**
   * Tools: the input schema (`null` when none).
   */
  schema: JsonValue | null,
  /**
   * Tool, file or context.
   */
  type: ResourceKind,
  /**
   * What the asker may do with it, in the order read, write, invoke, admin.
   */
  your_permissions: Array<Permission>, };

/**
 * The `network.resource.discover.response` payload: `{resources: [...]}`.
 */
export type ResourceList = {
  /**
   * The resources the asker may read, by address.
   */
  resources: Array<ResourceInfo>, };

/**
 * The roster of ONM §9: the `network.agent.discover.response` payload
 * (also `GET /v1/discover`).
 */
export type Roster = {
  /**
   * Every member, by address.
   */
  agents: Array<RosterMember>,
  /**
   * Every channel, as `channel/{name}`.
   */
  channels: Array<Address>,
  /**
   * The channels' display names (`channel/{name}` → the name its creator
   * typed), for those that have one.
   */
  titles?: { [key in string]: string },
  /**
   * Every group (`group/{name}`) with its members.
   */
  groups: { [key in string]: Array<Address> },
  /**
   * The loaded mods, in pipeline order.
   */
  mods: Array<Address>,
  /**
   * Every resource.
   */
  resources: Array<RosterResource>, };

/**
 * One member in the roster: `{address, role, status, verification}`.
 */
export type RosterMember = {
  /**
   * The member's address.
   */
  address: Address,
  /**
   * Master, member or observer.
   */
  role: Role,
  /**
   * Online or offline.
   */
  status: Presence,
  /**
   * Verification level 0–3.
   */
  verification: VerificationLevel,
  /**
   * The DID the member's join proved, if any.
   */
  did?: string | null,
  /**
   * What the member says about itself, when it said anything.
   */
  profile?: MemberProfile, };

/**
 * One resource in the roster: `{address, owner, type}`.
 */
export type RosterResource = {
  /**
   * `resource/{type}/{name}`.
   */
  address: Address,
  /**
   * The member that registered it.
   */
  owner: Address,
  /**
   * Tool, file or context.
   */
  type: ResourceKind, };

/**
 * One way to reach a network, as its host offers it.
 */
export type Transport = {
  /**
   * Where: a URL.
   */
  endpoint: string,
  /**
   * `http`, `websocket`, `sse`, …
   */
  type: string, };
