// The personal assistant's effects (`mode: "assistant"`, core/src/agent/assistant.rs),
// carried out for `llm.js`: its plan, tasks and relayed questions posted in
// the conversation (`progress`), capability search (`find_agents`, the
// network's `network.discovery.query`), tasks handed out and followed
// (`delegate`: an AIP task as the agent, each update reported back to the
// loop with `handleDelegation`), a person's answer passed on
// (`answer_delegation`) and tasks canceled when the turn is stopped.

import { POSTED } from './chat.js';
import { textOf } from './tasks.js';

const TERMINAL = new Set(['completed', 'failed', 'rejected', 'canceled']);

/** The workspace's page of task `task` in `network`, from the edge's URL. */
export function taskUrlOf(url, network) {
  if (!url) return () => undefined;
  const edge = String(url).replace(/\/networks\/.*$/, '').replace(/[?#].*$/, '').replace(/\/$/, '');
  if (!/^https?:\/\//.test(edge)) return () => undefined;
  return (task) => `${edge}/n/${network}/tasks/${task}`;
}

/** What a finished task said: its artifacts' text and its last message. */
function outcomeText(handle, last) {
  const artifacts = handle.artifacts.map((a) => textOf(a.parts)).filter(Boolean);
  const said = last?.text ? [last.text] : [];
  return [...artifacts, ...said].join('\n').trim() || `(the task ended ${handle.state} without an answer)`;
}

export class AssistantHost {
  #agent;
  #delegation;
  #toolResult;
  #onError;
  #taskUrl;
  /** Delegation call id → its task's handle. */
  #tasks = new Map();

  /**
   * `delegation(callId, update)` reports to the loop, `toolResult(callId, ok, output)`
   * hands it a tool's outcome, `taskUrl(id)` is a task's page (or undefined).
   */
  constructor(agent, { delegation, toolResult, onError, taskUrl }) {
    this.#agent = agent;
    this.#delegation = delegation;
    this.#toolResult = toolResult;
    this.#onError = onError;
    this.#taskUrl = taskUrl ?? (() => undefined);
  }

  /** Carries out `effect` when it is the assistant's; false otherwise. */
  effect(effect) {
    switch (effect.effect) {
      case 'progress':
        this.#progress(effect);
        return true;
      case 'find_agents':
        this.#find(effect);
        return true;
      case 'delegate':
        this.#delegate(effect).catch((err) => this.#onError(err));
        return true;
      case 'answer_delegation':
        this.#tasks.get(effect.call_id)?.send(effect.answer).catch((err) => this.#onError(err));
        return true;
      case 'cancel_delegation':
        this.#tasks.get(effect.call_id)?.cancel().catch(() => {});
        this.#tasks.delete(effect.call_id);
        return true;
      default:
        return false;
    }
  }

  /** Cancels nothing: tasks handed out go on; their reports are dropped once closed. */
  close() {
    this.#tasks.clear();
  }

  #progress({ conversation, content, progress, answers }) {
    const payload = { content, progress: answers ? { ...progress, for: answers } : progress };
    const metadata = conversation.thread ? { in_reply_to: conversation.thread } : {};
    this.#agent.send(conversation.target, POSTED, payload, { metadata }).catch((err) => this.#onError(err));
  }

  #find({ call_id: callId, query, limit }) {
    this.#agent.discoverAgents({ q: query, limit }).then(
      (found) => this.#toolResult(callId, true, JSON.stringify(found ?? { agents: [] })),
      (err) => this.#toolResult(callId, false, `${err?.code ?? 'failed'}: ${err?.message ?? err}`),
    );
  }

  async #delegate({ call_id: callId, to, instructions, on_behalf_of: onBehalfOf }) {
    let handle;
    try {
      handle = await this.#agent.startTask(to, instructions, onBehalfOf ? { onBehalfOf } : {});
    } catch (err) {
      this.#delegation(callId, { update: 'finished', state: 'failed', text: `${err?.code ?? 'failed'}: ${err?.message ?? err}` });
      return;
    }
    this.#tasks.set(callId, handle);
    this.#delegation(callId, { update: 'started', task: handle.id, url: this.#taskUrl(handle.id) });
    let last;
    for await (const update of handle) {
      if (!this.#tasks.has(callId)) return;
      last = update;
      if (update.type === 'update' && update.state === 'awaiting-input') {
        this.#delegation(callId, { update: 'input_required', question: update.text || 'The agent needs more input.' });
      }
    }
    this.#tasks.delete(callId);
    const state = TERMINAL.has(handle.state) ? handle.state : 'failed';
    const text = handle.error?.message ?? outcomeText(handle, last);
    this.#delegation(callId, { update: 'finished', state, text });
  }
}
