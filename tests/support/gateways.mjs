// Helpers for tests of networks with connection gateways (docs/scale.md).

import WebSocket from 'ws';
import { eventsOf } from './frames.mjs';

/** The gateway of `address` among `count`: the npm package's, which places as the edge does. */
export { gatewayOf } from '../../core/js/lib/lanes.js';

/**
 * A socket on network `id` at the edge `url` that names `member` (placed on
 * that member's gateway; none: it stays on the network object) but does not
 * join; resolves once it opened. `events` fills as frames come, `closed` and
 * `reason` are set when it closes.
 */
export async function unjoinedSocket(url, id, member) {
  const query = member ? `?member=${encodeURIComponent(member)}` : '';
  const socket = new WebSocket(`${url.replace('http', 'ws')}/networks/${id}/v1/ws${query}`, { perMessageDeflate: false });
  const bare = { socket, events: [], closed: null, reason: '' };
  socket.on('message', (data) => bare.events.push(...eventsOf(String(data))));
  socket.on('close', (code, reason) => { bare.closed = code; bare.reason = String(reason); });
  await new Promise((resolve, reject) => { socket.once('open', resolve); socket.once('error', reject); });
  return bare;
}
