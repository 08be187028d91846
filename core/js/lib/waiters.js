// Waiters: the promises an agent hands out for events it sent (acks) and
// requests it made (replies), each with its own deadline.

import { AgentnetError } from './errors.js';

/** Promises waiting on answers, by the id that answers them. */
export class Waiters {
  #waiting = new Map();

  /** A promise for `id`, rejected with `timeout` after `timeoutMs`. */
  wait(id, timeoutMs) {
    const promise = new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new AgentnetError('timeout', `no answer to ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiting.set(id, {
        resolve: (v) => { clearTimeout(timer); resolve(v); },
        reject: (e) => { clearTimeout(timer); reject(e); },
        quiet: () => promise.catch(() => {}),
      });
    });
    return promise;
  }

  /** Resolves `id`'s promise with `value` (nothing happens when none waits). */
  resolve(id, value) {
    this.#take(id)?.resolve(value);
  }

  /** Rejects `id`'s promise with `error`. */
  reject(id, error) {
    this.#take(id)?.reject(error);
  }

  /**
   * Rejects every waiting promise with `error`, as the agent closes. A caller
   * that awaits one still sees the rejection; one nobody awaits (a reply sent
   * and forgotten) is not an unhandled rejection that ends the program.
   */
  rejectAll(error) {
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const waiter of waiting) {
      waiter.quiet();
      waiter.reject(error);
    }
  }

  #take(id) {
    const waiter = this.#waiting.get(id);
    this.#waiting.delete(id);
    return waiter;
  }
}
