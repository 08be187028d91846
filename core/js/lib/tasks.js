// Tasks (ACPs AIP) for the npm `Agent`: answering them (`onTask`) and
// starting them (`startTask`), over the network's `task.*` events.
//
// A task's id is the id of its `task.create` event. The partner that answers
// one moves it `working`, may ask for input (`awaiting-input`, which the
// requester's next message ends), adds artifacts (stored by the network as
// `resource/file/tasks/{id}/…` documents) and completes, fails or rejects it;
// either side may cancel it. States and legal moves are the core's.

import { AgentnetError } from './errors.js';
import { functionArg, stringArg } from './args.js';
import { traceCausedBy } from './address.js';

const TERMINAL = new Set(['completed', 'canceled', 'failed', 'rejected']);

/** Parts from a string (one text part), a list of parts or `{parts}`. */
export function partsOf(message) {
  if (message === undefined || message === null) return [];
  if (typeof message === 'string') return [{ text: message }];
  if (Array.isArray(message)) return message;
  if (Array.isArray(message.parts)) return message.parts;
  throw new AgentnetError('invalid_request', 'a message is a string, a list of parts or {parts}');
}

/** The text parts of `parts`, joined by newlines. */
export function textOf(parts) {
  return (parts ?? []).filter((p) => typeof p?.text === 'string').map((p) => p.text).join('\n');
}

function canceledError(id) {
  return new AgentnetError('invalid_transition', `task ${id} was canceled`);
}

/** A task given to this agent: what `onTask` handlers work with. */
class TaskWork {
  #agent;
  #to;
  #trace;
  #inputs = [];
  #waiting = null;

  constructor(agent, event) {
    this.#agent = agent;
    this.id = event.id;
    this.requester = event.source;
    // Group and hybrid tasks talk in their channel; direct ones with the requester.
    this.#to = event.target.startsWith('channel/') ? event.target : event.source;
    // A traced task's updates, messages and artifacts are the task.create's children in its trace.
    this.#trace = traceCausedBy(event);
    this.parts = Array.isArray(event.payload?.parts) ? event.payload.parts : [];
    this.text = textOf(this.parts);
    this.skill = event.payload?.skill ?? null;
    this.state = 'accepted';
    this.canceled = false;
  }

  get finished() {
    return TERMINAL.has(this.state);
  }

  async #update(state, message) {
    const ack = await this.#send('task.update', { task: this.id, state, parts: partsOf(message) });
    this.state = state;
    return ack;
  }

  #send(type, payload) {
    return this.#agent.send(this.#to, type, payload, { metadata: this.#trace });
  }

  /** Says the work started (`working`); `onTask` does it before calling the handler. */
  working(message) {
    return this.#update('working', message);
  }

  /** Moves a task still `accepted` (a message-answer handler's) to `working` first. */
  async #started() {
    if (this.state === 'accepted') await this.working();
  }

  /**
   * Answers the request with one message instead of a task (`accepted` to
   * `completed` at once, `answer: "message"`): A2A clients get a Message
   * result. Only a task not yet worked on can be answered so.
   */
  async answer(message) {
    const ack = await this.#send('task.update', {
      task: this.id, state: 'completed', answer: 'message', parts: partsOf(message),
    });
    this.state = 'completed';
    return ack;
  }

  /** A progress message in the task's conversation. */
  async progress(message) {
    await this.#started();
    return this.#send('task.message', { task: this.id, parts: partsOf(message) });
  }

  /** Asks the requester for input (`awaiting-input`); resolves with its answer `{parts, text}`. */
  async askInput(question) {
    if (this.canceled) throw canceledError(this.id);
    await this.#started();
    const answer = new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
    await this.#update('awaiting-input', question);
    const queued = this.#inputs.shift();
    if (queued) this.#deliver(queued);
    return answer;
  }

  /** Adds an artifact (text, parts or `{parts}`) named `name`. */
  async artifact(name, content, { id } = {}) {
    stringArg(name, 'name');
    const artifact = { name, parts: partsOf(content) };
    if (id) artifact.id = id;
    await this.#started();
    return this.#send('task.artifact', { task: this.id, artifact });
  }

  /** Completes the task, with a final message when given. */
  async complete(message) {
    await this.#started();
    return this.#update('completed', message);
  }

  /** Fails the task with a reason. */
  async fail(reason) {
    await this.#started();
    return this.#update('failed', reason);
  }

  /** Refuses the task before working on it. */
  reject(reason) {
    return this.#update('rejected', reason);
  }

  #deliver(input) {
    const waiting = this.#waiting;
    if (!waiting) {
      this.#inputs.push(input);
      return;
    }
    this.#waiting = null;
    this.state = 'working';
    waiting.resolve(input);
  }

  /** An event of this task from the network. */
  receive(event) {
    const payload = event.payload ?? {};
    if (event.type === 'task.cancel' || (event.type === 'task.update' && payload.state === 'canceled')) {
      this.canceled = true;
      this.state = 'canceled';
      this.#waiting?.reject(canceledError(this.id));
      this.#waiting = null;
    } else if (event.type === 'task.message' && event.source === this.requester) {
      const parts = Array.isArray(payload.parts) ? payload.parts : [];
      this.#deliver({ parts, text: textOf(parts) });
    }
  }
}

/**
 * Answers every task given to `agent` with `handler(task)`: the task is
 * moved `working` first; what the handler returns (text or parts) completes
 * it unless the handler finished it itself; a throw fails it.
 *
 * With `answer: 'message'` the handler answers quick requests with one
 * message: the task stays `accepted` while it runs, and what it returns is
 * that message (A2A clients get a Message, not a Task). A handler that
 * reports progress, asks for input or adds an artifact makes it a task
 * again (moved `working` first); an empty return completes it as a task.
 */
export function serveTasks(agent, handler, { answer = 'task' } = {}) {
  functionArg(handler, 'handler');
  if (answer !== 'task' && answer !== 'message') {
    throw new AgentnetError('invalid_request', "onTask's answer is 'task' or 'message'");
  }
  const live = new Map();
  agent.on('task.*', (event) => {
    if (event.type !== 'task.create') {
      live.get(event.payload?.task)?.receive(event);
      return;
    }
    const work = new TaskWork(agent, event);
    live.set(work.id, work);
    (async () => {
      try {
        if (answer === 'task') await work.working();
        const result = await handler(work);
        if (work.finished || work.canceled) return;
        const parts = partsOf(result ?? undefined);
        if (work.state === 'accepted' && parts.length > 0) await work.answer(parts);
        else await work.complete(result ?? undefined);
      } catch (err) {
        if (!work.finished && !work.canceled) {
          await work.fail(String(err?.message ?? err)).catch(() => {});
        }
      } finally {
        live.delete(work.id);
      }
    })();
  });
}

/** A task this agent started: its updates as an async iterator, `send`, `cancel`, `done`. */
export class TaskHandle {
  #agent;
  #to;
  #queue = [];
  #wake = null;
  #settled;
  #resolveDone;

  constructor(agent, to) {
    this.#agent = agent;
    this.#to = to;
    this.id = null;
    this.state = 'accepted';
    this.artifacts = [];
    this.messages = [];
    this.done = new Promise((resolve) => {
      this.#resolveDone = resolve;
    });
  }

  /**
   * Cancels the task unless its partner starts it (any update from it) within
   * `ms`: a partner that went away leaves the task `accepted` for ever. The
   * handle then ends `canceled`, with `error` an AgentnetError `timeout`.
   */
  startWithin(ms) {
    if (!Number.isFinite(ms) || ms <= 0) return;
    const timer = setTimeout(() => {
      if (this.state !== 'accepted' || this.#settled) return;
      this.error = new AgentnetError('timeout', `task ${this.id} was not started by ${this.#to} within ${ms} ms: canceled`);
      this.cancel().catch(() => this.push({ type: 'task.cancel', source: this.#agent.address, payload: { task: this.id } }));
    }, ms);
    timer.unref?.();
    this.done.then(() => clearTimeout(timer));
  }

  /** One event of this task; returns false once the task is over. */
  push(event) {
    const payload = event.payload ?? {};
    const parts = (payload.artifact ?? payload).parts ?? [];
    const update = { type: event.type.slice('task.'.length), state: this.state, parts, text: textOf(parts), event };
    if (event.type === 'task.update') this.state = payload.state;
    if (event.type === 'task.cancel') this.state = 'canceled';
    if (event.type === 'task.artifact') this.artifacts.push({ name: payload.artifact?.name ?? '', parts });
    if (event.type === 'task.message') this.messages.push({ from: event.source, parts });
    update.state = this.state;
    this.#queue.push(update);
    this.#wake?.();
    if (TERMINAL.has(this.state)) {
      this.#settled = true;
      this.#resolveDone(this);
    }
    return !this.#settled;
  }

  /** Sends more input (the answer to `awaiting-input`, which moves the task `working`) or a message. */
  async send(message) {
    const sent = this.#agent.send(this.#to, 'task.message', { task: this.id, parts: partsOf(message) });
    // The task is working from the moment the network accepts the answer, before the
    // partner's next updates: they may arrive in the same frame as the ack, and be
    // handled before this function resumes. Set now, undone if the network refuses it.
    const answered = this.state === 'awaiting-input';
    if (answered) this.state = 'working';
    try {
      return await sent;
    } catch (err) {
      if (answered && this.state === 'working') this.state = 'awaiting-input';
      throw err;
    }
  }

  /** Confirms completion of a task that waits for it (`awaiting-completion`). */
  complete() {
    return this.#agent.send(this.#to, 'task.update', { task: this.id, state: 'completed' });
  }

  /** Cancels the task. */
  async cancel() {
    const ack = await this.#agent.send(this.#to, 'task.cancel', { task: this.id });
    if (!this.#settled) this.push({ type: 'task.cancel', source: this.#agent.address, payload: { task: this.id } });
    return ack;
  }

  /** Updates `{type: 'update'|'message'|'artifact'|'cancel', state, parts, text, event}` until the task ends. */
  async *[Symbol.asyncIterator]() {
    for (;;) {
      while (this.#queue.length > 0) yield this.#queue.shift();
      if (this.#settled) return;
      await new Promise((resolve) => {
        this.#wake = resolve;
      });
      this.#wake = null;
    }
  }
}

/** Starts a task at `target` (an agent, or a channel for a group task); resolves with its handle. */
export async function startTask(agent, target, message, { skill, context, confirm, partners, onBehalfOf, metadata, startTimeoutMs = 60_000 } = {}) {
  stringArg(target, 'target');
  const handle = new TaskHandle(agent, target);
  const early = [];
  const listener = (event) => {
    const task = event.payload?.task;
    if (handle.id === null) early.push(event);
    else if (task === handle.id && !handle.push(event)) agent.off('task.*', listener);
  };
  agent.on('task.*', listener);
  const payload = { parts: partsOf(message) };
  if (skill) payload.skill = skill;
  if (context) payload.context = context;
  if (confirm) payload.confirm = true;
  if (partners) payload.partners = partners;
  if (onBehalfOf) payload.on_behalf_of = onBehalfOf;
  try {
    const ack = await agent.send(target, 'task.create', payload, metadata ? { metadata } : {});
    handle.id = ack.id;
  } catch (err) {
    agent.off('task.*', listener);
    throw err;
  }
  for (const event of early) listener(event);
  handle.startWithin(startTimeoutMs);
  return handle;
}

/** The tasks `agent` requested or works on, newest change first: `{tasks, total, more}`; `state` and `limit` filter. */
export async function listTasks(agent, { state, limit } = {}) {
  const filters = {};
  if (state !== undefined) filters.state = state;
  if (limit !== undefined) filters.limit = limit;
  return (await agent.request('core', 'task.list', filters)).payload;
}
