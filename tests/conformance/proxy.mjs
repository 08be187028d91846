// A pass-through HTTP proxy in front of the edge that puts a member's
// session on requests that carry no credentials.
//
// Neither suite can be given credentials: the MCP conformance CLI connects
// with a bare URL, the A2A TCKs have no option for headers. agentnet's MCP
// and A2A endpoints act as a member and refuse a request without one (401
// with WWW-Authenticate), so the harness is the suites' credentials: every
// request without `Authorization` gets `Bearer {token}` of a member joined
// for the suite; a request with its own (a suite's deliberately invalid
// token) goes through unchanged. Everything else is passed as it is — the
// method, the path, the body and every header, `Host` and `Origin` included,
// so the edge sees the proxy's origin (cards and metadata name the proxy)
// and a suite's forged `Host`/`Origin` — and answers stream back as they come
// (SSE), each closed with the other side.
//
// `aliases` maps request paths to others on the edge: the A2A TCK 0.3.x
// reads the agent card only at the host's root (`/.well-known/agent-card.json`,
// then `/.well-known/agent.json`; tck/agent_card_utils.py), while an
// agentnet member's card is at `/networks/{id}/a2a/{address}/.well-known/agent-card.json`.
// The edge answers the aliased path as it is (same card, same signature).

import { createServer, request } from 'node:http';

/** Starts the proxy on 127.0.0.1 (a free port) to `target` (the edge's URL); resolves with `{url, close, requests}`. */
export async function startBearerProxy(target, token, { aliases = {} } = {}) {
  const upstream = new URL(target);
  const requests = { total: 0, authorized: 0 };
  const sockets = new Set();
  const server = createServer((req, res) => {
    requests.total += 1;
    const headers = { ...req.headers };
    if (token && !headers.authorization) {
      headers.authorization = `Bearer ${token}`;
      requests.authorized += 1;
    }
    const [path, query] = req.url.split(/\?(.*)/s);
    const alias = aliases[path];
    const up = request({
      host: upstream.hostname, port: upstream.port, method: req.method,
      path: alias ? `${alias}${query ? `?${query}` : ''}` : req.url, headers,
    }, (answer) => {
      res.writeHead(answer.statusCode, answer.statusMessage, answer.rawHeaders);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    up.on('error', (err) => {
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: ${err.message}`);
      } else {
        res.destroy();
      }
    });
    // A client that goes away (a suite closing an SSE stream) closes the edge's side too.
    res.on('close', () => { if (!res.writableFinished) up.destroy(); });
    req.pipe(up);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const close = () => new Promise((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
  return { url, close, requests };
}
