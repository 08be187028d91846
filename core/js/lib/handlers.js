// Handlers: the `agent.on(pattern, handler)` table and handing incoming
// events to it — held back until the caller of `connect` had its turn.

import { functionArg } from './args.js';
import { matchesPattern } from './address.js';
import { reportHandlerError } from './link.js';

/** An agent's event handlers by type pattern. */
export class Handlers {
  #handlers = [];
  /** Events that arrived with the first join, held until the caller of `connect` can register handlers. */
  #held = [];
  #holding = true;
  /** Answers an event before the handlers see it (the agent's tools); returns whether it did. */
  #answer;
  /** Adds to an event what handlers may call on it (`event.reply`). */
  #decorate;

  constructor(answer, decorate = (event) => event) {
    this.#answer = answer;
    this.#decorate = decorate;
  }

  /** Adds `handler` for events whose type matches `pattern` (checked now, not on the first event). */
  add(pattern, handler) {
    matchesPattern(pattern, 'a.b');
    functionArg(handler, 'handler');
    this.#handlers.push({ pattern, handler });
  }

  /** Removes a handler added with `add`. */
  remove(pattern, handler) {
    this.#handlers = this.#handlers.filter((h) => h.pattern !== pattern || h.handler !== handler);
  }

  /** Hands `event` to every matching handler (or holds it); a failing handler does not stop the others. */
  dispatch(event) {
    if (this.#holding) {
      this.#held.push(event);
      return;
    }
    if (this.#answer(event)) return;
    this.#decorate(event);
    for (const { pattern, handler } of this.#handlers) {
      if (!matchesPattern(pattern, event.type)) continue;
      try {
        const result = handler(event);
        if (result && typeof result.catch === 'function') result.catch(reportHandlerError);
      } catch (err) {
        reportHandlerError(err);
      }
    }
  }

  /** Stops holding: hands over what was held, in order, while `open()` says the agent is open. */
  release(open) {
    this.#holding = false;
    const held = this.#held;
    this.#held = [];
    for (const event of held) {
      if (!open()) return;
      this.dispatch(event);
    }
  }
}
