// Type declarations of agentnet-sdk: what the Agent's task, session and mod
// methods take and give.

// Task states, tasks as listed, mod modes and late policies are generated
// from the core's Rust types (./generated/).

import type { AgentnetEvent } from '../index.js';
import type { Ack, LatePolicy, ModMode, Task, TaskState } from './generated/index.js';

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
  /** Answers the request with one message (A2A: a Message result), while the task is still `accepted`. */
  answer(message: TaskContent): Promise<Ack>;
  fail(reason: TaskContent): Promise<Ack>;
  reject(reason: TaskContent): Promise<Ack>;
}

/** How `onTask` answers: `task` (default: moved `working`, then completed) or `message` (what the handler returns is one message). */
export interface OnTaskOptions {
  answer?: 'task' | 'message';
}

export interface StartTaskOptions {
  skill?: string;
  context?: string;
  /** The requester confirms completion itself (AIP's `complete`). */
  confirm?: boolean;
  /** Hybrid tasks: the channel members that work on it. */
  partners?: string[];
  /** The member the task is asked for (a person an assistant works for): it may read the task (`task.list`), taking no part in it. */
  onBehalfOf?: string;
  /** Metadata of the `task.create` event, e.g. a W3C `traceparent`: the worker's updates are then its children in that trace. */
  metadata?: Record<string, unknown>;
  /** Cancels the task when its partner has not started it within this many ms (default 60000): the handle's `error` is then a `timeout`. */
  startTimeoutMs?: number;
}

export interface TaskUpdate {
  type: 'update' | 'message' | 'artifact' | 'cancel';
  state: TaskState;
  parts: TaskPart[];
  text: string;
  event: AgentnetEvent;
}

/** One task as `listTasks` gives it: the network's record of it. */
export type ListedTask = Task;

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
  /** Set (code `timeout`) when the task was canceled because its partner did not start it in time. */
  readonly error?: { code: string; message: string };
  send(message: TaskContent): Promise<Ack>;
  complete(): Promise<Ack>;
  cancel(): Promise<Ack>;
}

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
  onLate?: LatePolicy;
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
