// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

import type { Address, Timestamp } from './ids.js';
import type { JsonValue } from './json.js';

/**
 * A task of the network.
 */
export type Task = {
  /**
   * Its id: the id of the `task.create` event.
   */
  id: string,
  /**
   * A2A's `contextId`: tasks of one conversation share it (default: the
   * id). A requester may name an empty context: `None`, written `""`
   * (`Task::context_text`).
   */
  context: string,
  /**
   * Who asked for it.
   */
  requester: Address,
  /**
   * Who works on it.
   */
  partners: Array<Address>,
  /**
   * Direct, group or hybrid.
   */
  mode: TaskMode,
  /**
   * The channel of a group or hybrid task.
   */
  channel?: string,
  /**
   * The skill it asks for, when named.
   */
  skill?: string | null,
  /**
   * Where it stands.
   */
  state: TaskState,
  /**
   * The message that came with the last state change.
   */
  status?: TaskMessage | null,
  /**
   * The requester confirms completion itself (AIP's `complete`); when
   * false, a partner's `completed` passes through `awaiting-completion`.
   */
  confirm: boolean,
  /**
   * The conversation, oldest first (the last `MAX_HISTORY`).
   */
  history: Array<TaskMessage>,
  /**
   * Its results.
   */
  artifacts: Array<TaskArtifact>,
  /**
   * The task's id at an external A2A partner (`crate::model::remote`).
   */
  external?: string | null,
  /**
   * Its partner answered the request with one message instead of
   * working on a task (a `task.update` to `completed` with `answer:
   * "message"`, its first answer): A2A clients get that message as the
   * result (`crate::bindings::a2a::wire::message_answer`).
   */
  answered_by_message?: boolean,
  /**
   * The member the requester asked for (an assistant's task given for a
   * person, `payload.on_behalf_of`): it may read the task (`task.list`),
   * which its links open, but takes no part in it.
   */
  on_behalf_of?: Address | null,
  /**
   * Created at.
   */
  created_at: Timestamp,
  /**
   * Last changed at.
   */
  updated_at: Timestamp, };

/**
 * A result a partner produced, stored as a `resource/file/…` document.
 */
export type TaskArtifact = {
  /**
   * Its id within the task.
   */
  id: string,
  /**
   * Its name for people.
   */
  name: string,
  /**
   * The file resource that holds it.
   */
  resource: Address,
  /**
   * Its parts, as the partner sent them.
   */
  parts: Array<JsonValue>, };

/**
 * One message of a task's conversation.
 */
export type TaskMessage = {
  /**
   * The id of the event that carried it.
   */
  id: string,
  /**
   * Who sent it.
   */
  from: Address,
  /**
   * Leader or partner.
   */
  role: TaskRole,
  /**
   * Its parts (`{text}`, `{data}`, `{file}`: AIP's data items).
   */
  parts: Array<JsonValue>,
  /**
   * When it arrived.
   */
  at: Timestamp,
  /**
   * The sender's own id for it (A2A's `messageId`, at most
   * `MAX_CLIENT_ID` characters): a message sent again under the same
   * id is the same message (`crate::bindings::a2a::methods`).
   */
  client_id?: string | null, };

/**
 * How the partners share a task (AIP's interaction modes).
 */
export type TaskMode = "direct" | "group" | "hybrid";

/**
 * Who said something in a task.
 */
export type TaskRole = "leader" | "partner";

/**
 * AIP's task states.
 */
export type TaskState = "accepted" | "working" | "awaiting-input" | "awaiting-completion" | "completed" | "canceled" | "failed" | "rejected";
