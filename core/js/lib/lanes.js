// Shared sockets: the agents of one process on one network share WebSockets,
// each agent in a lane of its own (docs/wire.md, "Shared sockets"). A socket
// costs the edge's runtime far more than a member does, so sharing one is
// what makes many idle agents cheap.
//
// A lane looks to its agent's Link like a WebSocket of its own (`send`,
// `close`, `readyState`, `open`/`message`/`error`/`close` events); the socket
// underneath ("the carrier") puts `<lane>:` before each frame and reads the
// lane off each frame that arrives. Lane 0 opens with the carrier; a new
// lane opens with its first frame, and numbers are never reused on a carrier.
// Heartbeats are the carrier's: a lane's `ping` goes out as the socket's own
// (answered `pong` by the runtime without waking the network), one at a time,
// and the `pong` goes to every lane that was waiting for one.

import { openSocket, batchedUrl, sendFrame } from './connect.js';

/** How many lanes one socket carries at once (the edge's limit). */
export const MAX_LANES = 16;

/** The highest lane number. */
const LAST_LANE = 65535;

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/** The replica's heartbeat and its answer (core/src/replica/keepalive.rs). */
const PING = 'ping';
const PONG = 'pong';

/** An event with extra fields (`data`, `code`, `reason`), on every runtime that has `Event`. */
function eventOf(type, fields) {
  return Object.assign(new Event(type), fields);
}

/** Reads one frame of a carrier: `{lane, text}` or `{lane, code, reason}` (a close); null when it is neither. */
export function readLaneFrame(frame) {
  const match = /^(\d{1,5})([:!])/.exec(frame);
  if (!match) return null;
  const lane = Number(match[1]);
  if (lane > LAST_LANE) return null;
  const rest = frame.slice(match[0].length);
  if (match[2] === ':') return { lane, text: rest };
  const space = rest.indexOf(' ');
  const code = Number(space < 0 ? rest : rest.slice(0, space));
  return { lane, code: Number.isInteger(code) ? code : 1006, reason: space < 0 ? '' : rest.slice(space + 1) };
}

/** One agent's lane of a shared socket, as its Link sees a WebSocket. */
class LaneSocket extends EventTarget {
  #carrier;
  #lane;
  readyState = CONNECTING;

  constructor(carrier, lane) {
    super();
    this.#carrier = carrier;
    this.#lane = lane;
  }

  /** Sends one frame on this lane. */
  send(frame) {
    if (this.readyState !== OPEN) return;
    if (frame === PING) return this.#carrier.heartbeat(this);
    this.#carrier.send(`${this.#lane}:${frame}`);
  }

  /** Closes this lane alone (the carrier closes with its last lane). */
  close(code = 1000, reason = '') {
    if (this.readyState >= CLOSING) return;
    if (this.readyState === OPEN) this.#carrier.send(`${this.#lane}!${code} ${reason}`);
    this.#carrier.release(this.#lane);
    this.ended(code, reason);
  }

  /** The carrier opened. */
  opened() {
    if (this.readyState !== CONNECTING) return;
    this.readyState = OPEN;
    this.dispatchEvent(new Event('open'));
  }

  /** A frame of this lane arrived. */
  received(data) {
    if (this.readyState === OPEN) this.dispatchEvent(eventOf('message', { data }));
  }

  /** The lane is over (closed by either side, or its carrier is gone). */
  ended(code, reason, failed = false) {
    if (this.readyState === CLOSED) return;
    const wasOpen = this.readyState === OPEN;
    this.readyState = CLOSED;
    // As a WebSocket does, a close comes after the current run of code.
    queueMicrotask(() => {
      if (failed && !wasOpen) this.dispatchEvent(new Event('error'));
      this.dispatchEvent(eventOf('close', { code, reason, wasClean: !failed }));
    });
  }
}

/** One WebSocket carrying lanes. */
class Carrier {
  #socket;
  #pool;
  #lanes = new Map();
  #next = 0;
  #open = false;
  /** Lanes waiting for the answer to the heartbeat in flight. */
  #waiting = new Set();

  constructor(pool, WebSocket, url) {
    this.#pool = pool;
    this.#socket = openSocket(WebSocket, url);
    this.#socket.addEventListener('open', () => {
      this.#open = true;
      for (const lane of this.#lanes.values()) lane.opened();
    });
    this.#socket.addEventListener('message', (message) => this.#arrived(String(message.data)));
    this.#socket.addEventListener('close', (event) => this.#gone(event.code ?? 1006, event.reason ?? '', false));
    this.#socket.addEventListener('error', () => this.#gone(1006, 'the connection failed', true));
  }

  /** Whether another lane fits. */
  get hasRoom() {
    const live = this.#socket.readyState === CONNECTING || this.#socket.readyState === OPEN;
    return live && this.#lanes.size > 0 && this.#lanes.size < MAX_LANES && this.#next <= LAST_LANE;
  }

  /** A new lane on this carrier. */
  lane() {
    const number = this.#next++;
    const lane = new LaneSocket(this, number);
    this.#lanes.set(number, lane);
    if (this.#open) queueMicrotask(() => lane.opened());
    return lane;
  }

  /** Sends one frame of the carrier (already prefixed with its lane). */
  send(frame) {
    if (this.#socket.readyState === OPEN) sendFrame(this.#socket, frame);
  }

  /** `lane` sent a heartbeat: the carrier's goes out unless one is in flight. */
  heartbeat(lane) {
    this.#waiting.add(lane);
    if (this.#waiting.size === 1) this.send(PING);
  }

  /** A lane closed on this side; the edge closes the carrier with its last lane. */
  release(number) {
    this.#lanes.delete(number);
    if (this.#lanes.size > 0) return;
    this.#pool.drop(this);
    this.#socket.close(1000, 'no lanes left');
  }

  #arrived(frame) {
    if (frame === PONG) {
      const waiting = [...this.#waiting];
      this.#waiting.clear();
      for (const lane of waiting) lane.received(PONG);
      return;
    }
    const read = readLaneFrame(frame);
    if (!read) return;
    const lane = this.#lanes.get(read.lane);
    if (!lane) return;
    if (read.text !== undefined) return lane.received(read.text);
    this.#lanes.delete(read.lane);
    lane.ended(read.code, read.reason);
    if (this.#lanes.size === 0) this.#pool.drop(this);
  }

  #gone(code, reason, failed) {
    const lanes = [...this.#lanes.values()];
    this.#lanes.clear();
    this.#pool.drop(this);
    for (const lane of lanes) lane.ended(code, reason, failed);
  }
}

/** The carriers of one socket URL and WebSocket class. */
class SharedSockets {
  #WebSocket;
  #url;
  #carriers = new Set();

  constructor(WebSocket, socketUrl) {
    this.#WebSocket = WebSocket;
    const url = new URL(batchedUrl(socketUrl));
    url.searchParams.set('lanes', '1');
    this.#url = url.toString();
  }

  /** A lane for one agent: on a carrier with room, else on a new one. */
  open() {
    for (const carrier of this.#carriers) if (carrier.hasRoom) return carrier.lane();
    const carrier = new Carrier(this, this.#WebSocket, this.#url);
    this.#carriers.add(carrier);
    return carrier.lane();
  }

  /** `carrier` takes no more lanes. */
  drop(carrier) {
    this.#carriers.delete(carrier);
  }

  /** How many carriers are open (for tests and benchmarks). */
  get carriers() {
    return this.#carriers.size;
  }
}

/** Pools by WebSocket class, then by socket URL. */
const pools = new WeakMap();

/** The shared sockets of `socketUrl` for `WebSocket` (one pool per process). */
export function sharedSockets(WebSocket, socketUrl) {
  let byUrl = pools.get(WebSocket);
  if (!byUrl) pools.set(WebSocket, (byUrl = new Map()));
  let pool = byUrl.get(socketUrl);
  if (!pool) byUrl.set(socketUrl, (pool = new SharedSockets(WebSocket, socketUrl)));
  return pool;
}
