// SharedDocument: a file's or context's text, edited together (Automerge in the core).
//
// The agent's replica holds the copy and syncs it; this class is the handle
// users hold: read the text, edit it, hear about others' edits.

import { AgentnetError } from './errors.js';
import { numberArg } from './args.js';
import { parseAddress } from './address.js';
import { hasDocuments } from './runtime.js';

/**
 * An open shared document. Get one with `agent.document(address)`.
 *
 * Edits apply locally at once, online or not; while the agent is online they
 * reach the network and everyone with the document open. Positions count
 * UTF-16 code units, like JavaScript string indices.
 */
export class SharedDocument {
  #address;
  #replica;
  #apply;
  #forget;
  #listeners = new Set();
  #closed = false;

  /** @internal Created by `Agent.document`. */
  constructor(address, { replica, apply, forget }) {
    this.#address = address;
    this.#replica = replica;
    this.#apply = apply;
    this.#forget = forget;
  }

  /** The resource's address (`resource/file/…` or `resource/context/…`). */
  get address() {
    return this.#address;
  }

  /** The current text. */
  get text() {
    this.#check();
    return this.#replica().documentText(this.#address) ?? '';
  }

  /** The members with this document open, as the network last said. */
  get editors() {
    this.#check();
    return JSON.parse(this.#replica().documentEditors(this.#address));
  }

  /** Deletes `deleteCount` units at `index` and inserts `insert` there. */
  splice(index, deleteCount, insert = '') {
    this.#check();
    numberArg(index, 'index');
    numberArg(deleteCount, 'deleteCount');
    this.#apply(() => this.#replica().spliceDocument(this.#address, index, deleteCount, String(insert), Date.now()));
    return this;
  }

  /** Inserts `text` at `index`. */
  insert(index, text) {
    return this.splice(index, 0, text);
  }

  /** Makes the text exactly `text`, recorded as the smallest edit. */
  setText(text) {
    this.#check();
    this.#apply(() => this.#replica().replaceDocument(this.#address, String(text), Date.now()));
    return this;
  }

  /**
   * Calls `listener(change)` when others' edits (or the editors) change the
   * document: `{text, editors}`, or `{error}` when the network refused an edit
   * of this member's (it is undone). Returns an unsubscribe function.
   */
  onChange(listener) {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops syncing; the agent keeps no handle to it. */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#forget(this.#address);
    this.#listeners.clear();
  }

  /** @internal The replica reported a change or a refusal. */
  notify(change) {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch (err) {
        console.error('agentnet: a document listener failed:', err);
      }
    }
  }

  #check() {
    if (this.#closed) throw new AgentnetError('closed', `${this.#address} is closed`);
  }
}

/**
 * Opens `address` for an agent: its `documents` (the open handles by address),
 * `replica()`, `apply(call)` (runs a replica call and applies its effects),
 * `online` and `closed()`. Resolves once the network has sent its copy, or at
 * once when offline, or after `timeoutMs` without an answer.
 */
export async function openDocument(name, { documents, replica, apply, online, closed }, timeoutMs) {
  if (!hasDocuments()) throw new AgentnetError('not_supported', 'shared documents are not in agentnet-sdk/lite: import agentnet-sdk');
  const address = parseAddress(name);
  const open = documents.get(address);
  if (open) return open;
  const doc = new SharedDocument(address, {
    replica,
    apply,
    forget: (gone) => {
      documents.delete(gone);
      if (!closed()) apply(() => replica().closeDocument(gone, Date.now()));
    },
  });
  documents.set(address, doc);
  const actor = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const first = online
    ? new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      const stop = doc.onChange(done);
      function done() {
        clearTimeout(timer);
        stop();
        resolve();
      }
    })
    : null;
  try {
    apply(() => replica().openDocument(address, actor, Date.now()));
  } catch (err) {
    documents.delete(address);
    throw err;
  }
  await first;
  return doc;
}
