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
// A carrier's first frame says whom it may carry: any member (`placed any`,
// the network object holds it) or the members placed on one of the network's
// connection gateways (`placed <gateway>/<gateways>`); agents are then put on
// carriers of their own gateway, each opened with `member=` naming one of them.
// Heartbeats are the carrier's: a lane's `ping` goes out as the socket's own
// (answered `pong` by the runtime without waking the network), one at a time,
// and the `pong` goes to every lane that was waiting for one.

import { openSocket, batchedUrl, memberSocketUrl, sendFrame } from './connect.js';

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

/** The FNV-1a hash's offset and prime, and its 64 bits (core/src/gateway/placement.rs). */
const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const BITS_64 = 0xffffffffffffffffn;

/** Which of `gateways` connection gateways holds the member `address`, as the edge places it. */
export function gatewayOf(address, gateways) {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(address)) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & BITS_64;
  }
  return Number(hash % BigInt(Math.max(1, gateways)));
}

/** Reads a carrier's first frame: `{ anyone: true }`, `{ gateway, gateways }`, or null when it is not one. */
export function readPlaced(frame) {
  if (frame === 'placed any') return { anyone: true };
  const match = /^placed (\d{1,10})\/(\d{1,10})$/.exec(frame);
  return match ? { gateway: Number(match[1]), gateways: Number(match[2]) } : null;
}

/** The group of agents with no address (known before they join): carriers the network object holds. */
const ANYONE = 'anyone';

/** One agent's lane of a shared socket, as its Link sees a WebSocket. */
class LaneSocket extends EventTarget {
  #pool;
  #carrier = null;
  #lane = -1;
  readyState = CONNECTING;

  constructor(pool) {
    super();
    this.#pool = pool;
  }

  /** The lane is `number` on `carrier` (it waits for a carrier while its pool learns where it goes). */
  attach(carrier, number) {
    this.#carrier = carrier;
    this.#lane = number;
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
    if (!this.#carrier) {
      this.#pool.cancel(this);
    } else {
      if (this.readyState === OPEN) this.#carrier.send(`${this.#lane}!${code} ${reason}`);
      this.#carrier.release(this.#lane);
    }
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
  /** The group it was opened for: a gateway's index, ANYONE, or null while the pool does not know. */
  group;
  /** Whether it was opened naming a member (so its first frame says how the network places them). */
  named;
  /** What its first frame said, once it came. */
  placed = null;

  constructor(pool, WebSocket, url, { group, named }) {
    this.#pool = pool;
    this.group = group;
    this.named = named;
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

  /** Whether the socket is connecting or open. */
  get live() {
    return this.#socket.readyState === CONNECTING || this.#socket.readyState === OPEN;
  }

  /** Whether members of `group` may join on it. */
  takes(group) {
    if (this.placed?.anyone) return group === ANYONE || this.#pool.anyoneAnywhere;
    if (this.placed) return this.placed.gateway === group;
    return this.group === group;
  }

  /** Puts `lane` on this carrier as its next lane. */
  adopt(lane) {
    const number = this.#next++;
    lane.attach(this, number);
    this.#lanes.set(number, lane);
    if (this.#open) queueMicrotask(() => lane.opened());
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
    if (this.placed === null) {
      const placed = readPlaced(frame);
      // An edge from before lanes were placed says nothing: it takes anyone.
      this.placed = placed ?? { anyone: true };
      this.#pool.learned(this);
      if (placed) return;
    }
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
    this.#pool.drop(this, { code, reason, failed });
    for (const lane of lanes) lane.ended(code, reason, failed);
  }
}

/** The carriers of one socket URL and WebSocket class. */
class SharedSockets {
  #WebSocket;
  #url;
  #carriers = new Set();
  /** How the network places members, once a carrier opened naming one said: null, `{ anyone: true }` or `{ gateways }`. */
  #layout = null;
  /** Lanes waiting for that, with their agents' addresses. */
  #pending = [];

  constructor(WebSocket, socketUrl) {
    this.#WebSocket = WebSocket;
    const url = new URL(batchedUrl(socketUrl));
    url.searchParams.set('lanes', '1');
    this.#url = url.toString();
  }

  /** True when the network has no gateways: every carrier takes every member. */
  get anyoneAnywhere() {
    return Boolean(this.#layout?.anyone);
  }

  /**
   * A lane for the agent that will join as `address` (null when it does not
   * know yet): on a carrier with room that may carry it, else on a new one.
   */
  open(address = null) {
    const lane = new LaneSocket(this);
    this.#place(lane, address);
    return lane;
  }

  #place(lane, address) {
    const group = this.#groupOf(address);
    if (group === undefined) {
      // The first carrier opened naming a member says how members are placed; the others wait for it.
      const asking = [...this.#carriers].some((c) => c.named && c.placed === null && c.live);
      if (asking) return this.#pending.push({ lane, address });
      return this.#carrier(group, address).adopt(lane);
    }
    for (const carrier of this.#carriers) {
      if (carrier.hasRoom && carrier.takes(group)) return carrier.adopt(lane);
    }
    this.#carrier(group, address).adopt(lane);
  }

  /** The group `address` belongs to: undefined while the layout is not known. */
  #groupOf(address) {
    if (address === null || address === undefined) return ANYONE;
    if (this.#layout === null) return undefined;
    return this.#layout.anyone ? ANYONE : gatewayOf(address, this.#layout.gateways);
  }

  /** A new carrier for `group`, named after `address` (one member of it) when it has one. */
  #carrier(group, address) {
    const named = group !== ANYONE && Boolean(address);
    const url = named ? memberSocketUrl(this.#url, address) : this.#url;
    const carrier = new Carrier(this, this.#WebSocket, url, { group: group ?? null, named });
    this.#carriers.add(carrier);
    return carrier;
  }

  /** `carrier`'s first frame came: a carrier opened naming a member tells the layout. */
  learned(carrier) {
    if (this.#layout !== null || !carrier.named) return;
    this.#layout = carrier.placed.anyone ? { anyone: true } : { gateways: carrier.placed.gateways };
    const pending = this.#pending;
    this.#pending = [];
    for (const { lane, address } of pending) this.#place(lane, address);
  }

  /** `lane` closed while it waited for a carrier. */
  cancel(lane) {
    this.#pending = this.#pending.filter((p) => p.lane !== lane);
  }

  /** `carrier` takes no more lanes; when it went before saying the layout, the lanes waiting for it fail as it did. */
  drop(carrier, gone) {
    this.#carriers.delete(carrier);
    if (!gone || this.#layout !== null || !carrier.named || carrier.placed !== null) return;
    const pending = this.#pending;
    this.#pending = [];
    for (const { lane } of pending) lane.ended(gone.code, gone.reason, gone.failed);
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
