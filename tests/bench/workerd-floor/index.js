// One object, "room", that accepts every WebSocket (hibernation API) and greets it; the
// Worker sends it every upgrade of /networks/{anything}/v1/ws, as the edge routes its own.
import { DurableObject } from 'cloudflare:workers';

export class Room extends DurableObject {
  async fetch() {
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server);
    server.send(JSON.stringify({ sockets: this.ctx.getWebSockets().length }));
    return new Response(null, { status: 101, webSocket: client });
  }

  async webSocketMessage(socket, message) {
    socket.send(message);
  }
}

export default {
  async fetch(request, env) {
    if (!new URL(request.url).pathname.endsWith('/v1/ws')) return new Response('ok');
    if (request.headers.get('upgrade') !== 'websocket') return new Response('upgrade required', { status: 426 });
    return env.ROOM.get(env.ROOM.idFromName('room')).fetch(request);
  },
};
