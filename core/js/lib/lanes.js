// Shared sockets: the agents of one process on one network share WebSockets,
// each agent in a lane of its own (docs/wire.md, "Shared sockets"). A socket
// costs the edge's runtime far more than a member does, so sharing one is
// what makes many idle agents cheap.
//
// A lane looks to its agent's Link like a WebSocket of its own (`send`,
// `close`, `readyState`, `open`/`message`/`error`/`close` events); the socket
// underneath ("the carrier") puts `<lane>:` before each frame and reads the
// lane off each frame that arrives (several lanes' frames may arrive in one
// message, one per line). Lane 0 opens with the carrier; a new
// lane opens with its first frame, and numbers are never reused on a carrier.
// A carrier's first frame says whom it may carry: any member (`placed any`,
// the network object holds it) or the members placed on one of the network's
// connection gateways (`placed <gateway>/<gateways>`); agents are then put on
// carriers of their own gateway, each opened with `member=` naming one of them.
// Heartbeats are the carrier's: a lane's `ping` goes out as the socket's own
// (answered `pong` by the runtime without waking the network), one at a time,
// and the `pong` goes to every lane that was waiting for one.

import { openSocket, batchedUrl, memberSocketUrl, sendFrame } from './connect.js';
import { LaneSocket, CONNECTING, OPEN } from './lane-socket.js';

/** How many lanes one socket carries at once (the edge's limit). */
export const MAX_LANES = 16;

/**
 * What the edge keeps of a carrier's lanes across hibernation, at most
 * (bytes; `MAX_KEPT_BYTES` in core/src/bindings/transport/lanes), and what
 * each lane takes of it besides its member's address (its numbers, at their
 * longest). A carrier takes an agent only while its address fits; the edge
 * refuses a member that would not (as a 17th lane), and the carrier then
 * takes no more.
 */
const MAX_KEPT_BYTES = 1600;
const KEPT_LANE_BYTES = 64;
const utf8 = new TextEncoder();
const keptBytes = (address) => KEPT_LANE_BYTES + (address ? utf8.encode(address).length : 0);

/** The close code of a lane the carrier has no room for (`rate_limited`). */
const FULL = 4429;

/** How large a message of several lanes' frames may grow before it goes (characters). */
const GATHER_BYTES = 64 * 1024;

/**
 * Runs `f` once the current round of callbacks is over: after every timer
 * due now (each lane's acknowledgement timer fires apart), where the runtime
 * has `setImmediate`; else after the current run of code.
 */
const afterThisRound = globalThis.setImmediate ?? queueMicrotask;

/** The highest lane number. */
const LAST_LANE = 65535;


/** The replica's heartbeat and its answer (core/src/replica/keepalive.rs). */
const PING = 'ping';
const PONG = 'pong';

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

/** One WebSocket carrying lanes. */
class Carrier {
  #socket;
  #pool;
  #lanes = new Map();
  #next = 0;
  #open = false;
  /** Lanes waiting for the answer to the heartbeat in flight. */
  #waiting = new Set();
  /** The lanes' frames of this run of code, and their size. */
  #gathered = [];
  #gatheredBytes = 0;
  /** Frames read (`readLaneFrame`'s) and not yet handed to their lanes: those from `#nextUnread` on. */
  #unread = [];
  #nextUnread = 0;
  /** The group it was opened for: a gateway's index, ANYONE, or null while the pool does not know. */
  group;
  /** Whether it was opened naming a member (so its first frame says how the network places them). */
  named;
  /** What its first frame said, once it came. */
  placed = null;
  /** This side closed it (its last lane closed). */
  released = false;
  /** The edge refused a lane on it for want of room: it takes no more. */
  full = false;

  constructor(pool, WebSocket, url, { group, named }) {
    this.#pool = pool;
    this.group = group;
    this.named = named;
    this.#socket = openSocket(WebSocket, url);
    // Its lanes open once it says whom it carries, which the edge writes as
    // it accepts the socket; an edge that takes no lanes says nothing, and
    // the `pong` to this heartbeat comes first.
    this.#socket.addEventListener('open', () => this.#ping());
    this.#socket.addEventListener('message', (message) => this.#arrived(String(message.data)));
    this.#socket.addEventListener('close', (event) => this.#gone(event.code ?? 1006, event.reason ?? '', false));
    this.#socket.addEventListener('error', () => this.#gone(1006, 'the connection failed', true));
  }

  /** Whether another lane fits, for the agent that will join as `address`. */
  hasRoomFor(address) {
    const live = this.#socket.readyState === CONNECTING || this.#socket.readyState === OPEN;
    if (!live || this.full || this.#lanes.size === 0 || this.#lanes.size >= MAX_LANES || this.#next > LAST_LANE) return false;
    let kept = keptBytes(address);
    for (const lane of this.#lanes.values()) kept += keptBytes(lane.address);
    return kept <= MAX_KEPT_BYTES;
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

  /**
   * Sends one frame of the carrier (already prefixed with its lane). The
   * lanes' frames of one round of callbacks go out as one message, a frame per line
   * (up to GATHER_BYTES): many small messages back to back can wait on a
   * proxy's Nagle algorithm for the edge's delayed acknowledgement.
   */
  send(frame) {
    if (this.#socket.readyState !== OPEN) return;
    if (this.#gatheredBytes + frame.length > GATHER_BYTES) this.#flush();
    this.#gathered.push(frame);
    this.#gatheredBytes += frame.length + 1;
    if (this.#gathered.length === 1) afterThisRound(() => this.#flush());
  }

  #flush() {
    const lines = this.#gathered;
    this.#gathered = [];
    this.#gatheredBytes = 0;
    if (lines.length > 0 && this.#socket.readyState === OPEN) sendFrame(this.#socket, lines.join('\n'));
  }

  /** `lane` sent a heartbeat: the carrier's goes out (alone, as the runtime answers it) unless one is in flight. */
  heartbeat(lane) {
    this.#waiting.add(lane);
    if (this.#waiting.size === 1) this.#ping();
  }

  #ping() {
    if (this.#socket.readyState === OPEN) sendFrame(this.#socket, PING);
  }

  /** A lane closed on this side; the edge closes the carrier with its last lane. */
  release(number) {
    this.#lanes.delete(number);
    if (this.#lanes.size > 0) return;
    // Its last lane's last frames (and its close) go before the socket closes.
    this.#flush();
    this.released = true;
    this.#pool.drop(this);
    this.#socket.close(1000, 'no lanes left');
  }

  /** Its lanes, taken off it (it carries none any more). */
  takeLanes() {
    const lanes = [...this.#lanes.values()];
    this.#lanes.clear();
    return lanes;
  }

  /** Closes the socket itself. */
  close(code, reason) {
    this.#socket.close(code, reason);
  }

  #arrived(frame) {
    if (this.placed === null) {
      const placed = readPlaced(frame);
      if (!placed) return this.#pool.noLanes(this);
      this.placed = placed;
      this.#open = true;
      for (const lane of this.#lanes.values()) lane.opened();
      this.#pool.learned(this);
      return;
    }
    if (frame === PONG) {
      const waiting = [...this.#waiting];
      this.#waiting.clear();
      for (const lane of waiting) lane.received(PONG);
      return;
    }
    // The edge sends a burst's frames for several lanes as one message, a frame per line.
    const idle = this.#nextUnread === this.#unread.length;
    for (const line of frame.split('\n')) {
      const read = readLaneFrame(line);
      if (read) this.#unread.push(read);
    }
    // (A message with no lane's frame in it hands nothing over.)
    if (idle && this.#nextUnread < this.#unread.length) this.#readRun();
  }

  /**
   * Hands the next run of one lane's frames to that lane. The frames after
   * it wait until what this round sent is on its way: one lane's answers (an
   * agent's next events after its acks) go out before the next lane's frames
   * (another agent's deliveries) are handled, as they would on sockets of
   * their own, and the edge is not left idle meanwhile.
   */
  #readRun() {
    const unread = this.#unread;
    const lane = unread[this.#nextUnread].lane;
    while (this.#nextUnread < unread.length && unread[this.#nextUnread].lane === lane) {
      this.#line(unread[this.#nextUnread]);
      this.#nextUnread += 1;
    }
    if (this.#nextUnread < unread.length) {
      // What was handed over is dropped now and then (a long burst keeps the array busy).
      if (this.#nextUnread >= 256) {
        unread.splice(0, this.#nextUnread);
        this.#nextUnread = 0;
      }
      afterThisRound(() => {
        // Sent (the connection is uncorked after this callback), then the next run.
        this.#flush();
        afterThisRound(() => {
          if (this.#nextUnread < this.#unread.length) this.#readRun();
        });
      });
    } else {
      this.#unread = [];
      this.#nextUnread = 0;
    }
  }

  #line(read) {
    const lane = this.#lanes.get(read.lane);
    if (!lane) return;
    if (read.text !== undefined) return lane.received(read.text);
    if (read.code === FULL) this.full = true;
    this.#lanes.delete(read.lane);
    lane.ended(read.code, read.reason);
    if (this.#lanes.size === 0) this.#pool.drop(this);
  }

  #gone(code, reason, failed) {
    // What arrived before the socket went is handed over first, in order.
    const unread = this.#unread.slice(this.#nextUnread);
    this.#unread = [];
    this.#nextUnread = 0;
    for (const read of unread) this.#line(read);
    const lanes = [...this.#lanes.values()];
    this.#lanes.clear();
    this.#pool.drop(this, { code, reason, failed });
    for (const lane of lanes) lane.ended(code, reason, failed);
  }
}

/** The carriers of one socket URL and WebSocket class. */
class SharedSockets {
  #WebSocket;
  #socketUrl;
  #url;
  /** The edge takes no lanes: each agent gets a socket of its own. */
  #noLanes = false;
  #carriers = new Set();
  /** How the network places members, once a carrier opened naming one said: null, `{ anyone: true }` or `{ gateways }`. */
  #layout = null;
  /** Lanes waiting for that, with their agents' addresses. */
  #pending = [];

  constructor(WebSocket, socketUrl) {
    this.#WebSocket = WebSocket;
    this.#socketUrl = socketUrl;
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
    if (this.#noLanes) return this.#own(address);
    const lane = new LaneSocket(this, address);
    this.#place(lane, address);
    return lane;
  }

  /** A socket of its own for the agent that joins as `address`, as without sharing. */
  #own(address) {
    return openSocket(this.#WebSocket, memberSocketUrl(this.#socketUrl, address));
  }

  /** `carrier`'s edge takes no lanes (its first frame was no `placed`): its agents and those waiting get sockets of their own, as every later one does. */
  noLanes(carrier) {
    this.#noLanes = true;
    this.#carriers.delete(carrier);
    const waiting = [...carrier.takeLanes(), ...this.#pending.map((p) => p.lane)];
    this.#pending = [];
    carrier.close(1000, 'no lanes here');
    for (const lane of waiting) lane.direct(this.#own(lane.address));
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
      if (carrier.hasRoomFor(address) && carrier.takes(group)) return carrier.adopt(lane);
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
    if (this.#layout !== null || !carrier.named || carrier.placed !== null) return;
    const pending = this.#pending;
    this.#pending = [];
    // Its agents left before it said: those waiting ask again on a new socket.
    if (carrier.released) for (const { lane, address } of pending) this.#place(lane, address);
    else if (gone) for (const { lane } of pending) lane.ended(gone.code, gone.reason, gone.failed);
    else this.#pending = pending;
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
