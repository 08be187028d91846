// Bare WebSocket clients for tests and benchmarks: event frames written by
// hand (no replica), single or batched (`?frames=batch`, a JSON array of
// events per frame).

import WebSocket from 'ws';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let counter = 0n;

/** A ULID from the clock and a counter: unique within this process, cheap to make. */
export function eventId() {
  let time = Date.now();
  let head = '';
  for (let i = 0; i < 10; i += 1) { head = CROCKFORD[time % 32] + head; time = Math.floor(time / 32); }
  let n = (counter += 1n);
  let tail = '';
  for (let i = 0; i < 16; i += 1) { tail = CROCKFORD[Number(n % 32n)] + tail; n /= 32n; }
  return head + tail;
}

/** One event's JSON text. */
export const eventFrame = (type, source, target, payload, metadata) =>
  JSON.stringify({ id: eventId(), type, source, target, payload, ...(metadata ? { metadata } : {}), timestamp: Date.now() });

/** The events a frame carries: the elements of a batch, else the one event. */
export function eventsOf(frame) {
  const value = JSON.parse(frame);
  return Array.isArray(value) ? value : [value];
}

/**
 * A bare socket joined at its upgrade to network `id` as `name` (a join at
 * the upgrade is answered by the upgrade itself, with no frame); `batched`
 * asks for batched frames. `frames` holds every frame's text as received,
 * `events` every event; `onEvent` sees each event as it comes. With
 * `session` (a token from `POST v1/join`) the socket attaches to that
 * member's session instead, as a returning member does. With `offerDeflate`
 * the socket offers per-message compression, as browsers, Node's own
 * WebSocket (undici) and Python's `websockets` do; `socket.extensions` says
 * what the edge agreed to.
 */
export async function bareSocket(url, id, name, { batched = false, onEvent, session, offerDeflate = false } = {}) {
  const who = session ? `session=${encodeURIComponent(session)}` : `agent_id=${encodeURIComponent(name)}`;
  const query = `${who}${batched ? '&frames=batch' : ''}`;
  const bare = { frames: [], events: [], onEvent, closed: null };
  return opened(bare, `${url.replace('http', 'ws')}/networks/${id}/v1/ws?${query}`, offerDeflate, (frame) => {
    bare.frames.push(frame);
    for (const event of eventsOf(frame)) {
      bare.events.push(event);
      bare.onEvent?.(event);
    }
  });
}

/**
 * Opens a WebSocket to `wsUrl` for `held` (which gets `socket`, `closed`, `reason` and a later
 * `error`): `onFrame` sees each frame's text. Resolves with `held` once open; a failure to open
 * rejects, a connection reset later is seen as a close, not thrown.
 */
async function opened(held, wsUrl, offerDeflate, onFrame) {
  const socket = new WebSocket(wsUrl, { perMessageDeflate: offerDeflate });
  held.socket = socket;
  socket.on('message', (data) => onFrame(String(data)));
  socket.on('close', (code, reason) => { held.closed = code; held.reason = String(reason); });
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  socket.on('error', (err) => { held.error = err; });
  return held;
}

/**
 * A bare shared socket (`?lanes=1`, docs/wire.md "Shared sockets") to network
 * `id`: `lanes[n]` holds lane n's events, `closes[n]` its close
 * (`{code, reason}`), `raw` every frame's text (the first says whom it may
 * carry: `placed any`, or `placed <gateway>/<gateways>` when it names a
 * `member` on a network with gateways). `join(lane, address)` sends a join
 * on a lane; `answered(lane)` resolves at the first frame on it.
 */
export async function laneSocket(url, id, { offerDeflate = false, member = null } = {}) {
  const shared = { lanes: {}, closes: {}, raw: [], closed: null, reason: '', waiting: new Map() };
  const named = member ? `&member=${encodeURIComponent(member)}` : '';
  await opened(shared, `${url.replace('http', 'ws')}/networks/${id}/v1/ws?lanes=1${named}`, offerDeflate, (frame) => {
    shared.raw.push(frame);
    // Several lanes' frames may come in one message, one per line.
    for (const line of frame.split('\n')) {
      const match = /^(\d+)([:!])(.*)$/s.exec(line);
      if (!match) continue;
      const lane = Number(match[1]);
      shared.waiting.get(lane)?.();
      shared.waiting.delete(lane);
      if (match[2] === '!') {
        const [code, ...reason] = match[3].split(' ');
        shared.closes[lane] = { code: Number(code), reason: reason.join(' ') };
        continue;
      }
      (shared.lanes[lane] ??= []).push(...eventsOf(match[3]));
    }
  });
  shared.send = (lane, frame) => shared.socket.send(`${lane}:${frame}`);
  shared.join = (lane, address) => shared.send(lane, eventFrame('network.agent.join', address, 'core', {}));
  shared.answered = (lane) => new Promise((resolve) => shared.waiting.set(lane, resolve));
  shared.got = (lane, type) => (shared.lanes[lane] ?? []).filter((e) => e.type === type);
  return shared;
}
