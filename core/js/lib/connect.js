// Where to connect: a network URL, a profile URL or an edge URL plus a network id.

import { AgentnetError } from './errors.js';
import { stringArg, urlArg } from './args.js';
import { fallbackWebSocket } from './runtime.js';

/** The URL of `path` (such as `v1/ws`) of network `network` at edge `url`, with the edge's scheme. */
export function networkEndpoint(url, network, path) {
  const base = urlArg(url, 'url');
  base.pathname = `/networks/${encodeURIComponent(network)}/${path}`;
  base.search = '';
  base.hash = '';
  return base;
}

/** The WebSocket URL of network `network` at edge `url` (http(s) or ws(s)). */
export function networkSocketUrl(url, network) {
  const endpoint = networkEndpoint(url, network, 'v1/ws');
  endpoint.protocol = endpoint.protocol === 'https:' || endpoint.protocol === 'wss:' ? 'wss:' : 'ws:';
  return endpoint.toString();
}

/**
 * The id of the network at `url`: `network` when given, else the id in a
 * network URL (`http://127.0.0.1:8787/networks/demo`); throws `invalid_request` when neither names one.
 */
export function networkIdOf(url, network) {
  const match = urlArg(url, 'url').pathname.match(/^\/networks\/([^/]+)/);
  if (network !== undefined) stringArg(network, 'network');
  const id = network ?? (match ? decodeURIComponent(match[1]) : undefined);
  if (!id) throw new AgentnetError('invalid_request', `${url} is not a network URL; pass network as well`);
  return id;
}

/**
 * Resolves `{url, network}` or `{profile}` to `{network, socketUrl}`.
 * `url` may be an edge (`http://127.0.0.1:8787`, then `network` is required) or a
 * network URL (`http://127.0.0.1:8787/networks/demo`). `profile` is a network's
 * profile URL (`…/networks/demo/v1/profile`): its websocket transport is used.
 */
export async function resolveNetwork({ url, network, profile }) {
  if (profile) {
    let body;
    try {
      const response = await fetch(profile);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = await response.json();
    } catch (err) {
      throw new AgentnetError('unreachable', `cannot read the profile at ${profile}: ${err.message}`, { cause: err });
    }
    const socket = body.transports?.find((t) => t.type === 'websocket')?.endpoint;
    if (typeof socket !== 'string' || !socket) throw new AgentnetError('not_supported', `the profile at ${profile} offers no websocket transport`);
    if (typeof body.id !== 'string') throw new AgentnetError('not_supported', `the profile at ${profile} names no network id`);
    return { network: body.id, socketUrl: socket };
  }
  if (!url) throw new AgentnetError('invalid_request', 'connect needs url (with network) or profile');
  const id = networkIdOf(url, network);
  return { network: id, socketUrl: networkSocketUrl(url, id) };
}

/**
 * The socket URL asking for batched frames (`frames=batch`): the network then
 * sends several events per frame, and takes them from this client once it has
 * sent one. An older network ignores the parameter and sends single events.
 */
export function batchedUrl(socketUrl) {
  const url = new URL(socketUrl);
  url.searchParams.set('frames', 'batch');
  return url.toString();
}

/**
 * The socket URL of an agent that joins as `address` by its first frame:
 * batched frames, and `member=` naming whom it joins as, so that a network
 * with connection gateways hands the socket to that member's gateway (the
 * gateway refuses a join as anyone else). Networks without gateways ignore it.
 */
export function memberSocketUrl(socketUrl, address) {
  const url = new URL(batchedUrl(socketUrl));
  if (address) url.searchParams.set('member', address);
  return url.toString();
}

/**
 * True for the `ws` package's class, which takes an options object where a
 * WHATWG WebSocket takes protocols. Told apart by `terminate`, which only
 * `ws` has (its ESM default export carries no other static marker).
 */
export function isWsPackage(WebSocket) {
  return typeof WebSocket.prototype?.terminate === 'function';
}

/**
 * Opens a WebSocket. With the `ws` package, per-message compression is turned
 * off: frames are small JSON events, and deflating each one costs more CPU on
 * both ends (and on the edge, billed time) than it saves; the edge refuses it
 * from other WebSocket classes, which offer it (docs/wire.md). And once the network
 * has sent its close frame (the member left elsewhere, it never joined…), the
 * socket counts as closed after 2 s as in a browser, not after `ws`'s 30 s
 * wait for the server to end the connection.
 */
export function openSocket(WebSocket, url) {
  return isWsPackage(WebSocket)
    ? new WebSocket(url, { perMessageDeflate: false, closeTimeout: 2_000 })
    : new WebSocket(url);
}

/** `ws` sockets whose connection is corked until the current run of code ends. */
const corked = new WeakSet();

/**
 * Sends one frame. With the `ws` package the frames sent in one synchronous
 * run reach the kernel together: the connection underneath is corked at the
 * first and uncorked in a microtask, so a burst of events costs one write
 * system call instead of one per frame. Elsewhere (browsers, other
 * WebSocket classes) it is `socket.send`.
 */
export function sendFrame(socket, frame) {
  const connection = socket._socket; // `ws`: the net.Socket it writes to
  if (connection && typeof connection.cork === 'function' && !corked.has(connection)) {
    connection.cork();
    corked.add(connection);
    queueMicrotask(() => {
      corked.delete(connection);
      connection.uncork();
    });
  }
  socket.send(frame);
}

/** The WebSocket class: the one given, the global one, else the runtime's fallback (`ws` in Node). */
export async function webSocketClass(given) {
  if (given) return given;
  if (globalThis.WebSocket) return globalThis.WebSocket;
  return fallbackWebSocket();
}
