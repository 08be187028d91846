// One agent's lane of a shared socket (./lanes.js), as its Link sees a
// WebSocket: `send`, `close`, `readyState` and the `open`/`message`/`error`/
// `close` events. It waits for its pool to put it on a carrier, and is told
// what happens there. On an edge that takes no lanes it becomes a plain
// socket of its own instead (`direct`), whose events become its own.

import { sendFrame } from './connect.js';

export const CONNECTING = 0;
export const OPEN = 1;
export const CLOSING = 2;
export const CLOSED = 3;

/** The replica's heartbeat (core/src/replica/keepalive.rs): a lane's goes out as its carrier's. */
const PING = 'ping';

/** An event with extra fields (`data`, `code`, `reason`), on every runtime that has `Event`. */
export function eventOf(type, fields) {
  return Object.assign(new Event(type), fields);
}

/** One agent's lane of a shared socket. */
export class LaneSocket extends EventTarget {
  #pool;
  #carrier = null;
  #lane = -1;
  #state = CONNECTING;
  /** The socket of its own it uses instead, on an edge that takes no lanes. */
  #direct = null;
  /** The address its agent joins as (null when not known before it joins). */
  address;

  constructor(pool, address) {
    super();
    this.#pool = pool;
    this.address = address;
  }

  get readyState() {
    return this.#direct ? this.#direct.readyState : this.#state;
  }

  /** The lane is `number` on `carrier` (it waits for a carrier while its pool learns where it goes). */
  attach(carrier, number) {
    this.#carrier = carrier;
    this.#lane = number;
  }

  /** The edge takes no lanes: `socket` is this agent's own, and its events are this one's. */
  direct(socket) {
    this.#carrier = null;
    this.#direct = socket;
    socket.addEventListener('open', () => this.dispatchEvent(new Event('open')));
    socket.addEventListener('message', (e) => this.dispatchEvent(eventOf('message', { data: e.data })));
    socket.addEventListener('error', () => this.dispatchEvent(new Event('error')));
    socket.addEventListener('close', (e) => this.dispatchEvent(eventOf('close', { code: e.code, reason: e.reason, wasClean: e.wasClean })));
  }

  /** Sends one frame on this lane. */
  send(frame) {
    if (this.#direct) return sendFrame(this.#direct, frame);
    if (this.#state !== OPEN) return;
    if (frame === PING) return this.#carrier.heartbeat(this);
    this.#carrier.send(`${this.#lane}:${frame}`);
  }

  /** Closes this lane alone (the carrier closes with its last lane). */
  close(code = 1000, reason = '') {
    if (this.#direct) return this.#direct.close(code, reason);
    if (this.#state >= CLOSING) return;
    if (!this.#carrier) {
      this.#pool.cancel(this);
    } else {
      if (this.#state === OPEN) this.#carrier.send(`${this.#lane}!${code} ${reason}`);
      this.#carrier.release(this.#lane);
    }
    this.ended(code, reason);
  }

  /** The carrier opened and said whom it carries. */
  opened() {
    if (this.#state !== CONNECTING || this.#direct) return;
    this.#state = OPEN;
    this.dispatchEvent(new Event('open'));
  }

  /** A frame of this lane arrived. */
  received(data) {
    if (this.#state === OPEN) this.dispatchEvent(eventOf('message', { data }));
  }

  /** The lane is over (closed by either side, or its carrier is gone). */
  ended(code, reason, failed = false) {
    if (this.#state === CLOSED || this.#direct) return;
    const wasOpen = this.#state === OPEN;
    this.#state = CLOSED;
    // As a WebSocket does, a close comes after the current run of code.
    queueMicrotask(() => {
      if (failed && !wasOpen) this.dispatchEvent(new Event('error'));
      this.dispatchEvent(eventOf('close', { code, reason, wasClean: !failed }));
    });
  }
}
