// A network served over MCP stdio, for MCP clients that only launch local
// processes: it joins the network over HTTP (`POST /networks/{id}/v1/join`)
// and relays every JSON-RPC message between stdin/stdout (the SDK's
// `StdioServerTransport`) and the network's own MCP endpoint
// (`/networks/{id}/mcp`, the SDK's `StreamableHTTPClientTransport`) with the
// join's session token as `Authorization: Bearer`. It adds no MCP behaviour:
// what the client sees is what the network's endpoint answers.

import { AgentnetError } from '../errors.js';
import { objectArg, stringArg } from '../args.js';
import { networkEndpoint, networkIdOf } from '../connect.js';
import { relayFetch } from './http.js';
import { httpClientTransport, stdioServerTransport } from './sdk.js';

/** JSON-RPC's code for an error inside the relay (the network could not be reached, or refused the request). */
const INTERNAL_ERROR = -32603;

const isRequest = (message) => message?.method !== undefined && message.id !== undefined;

/**
 * Joins network `network` at edge `url` (or the network URL `url`) as `name`;
 * resolves with the join's answer (`token`, the membership, and `member_secret`
 * on an address's first join) or throws the network's refusal as an `AgentnetError`.
 */
export async function joinOverHttp({ url, network, name, token, memberSecret, credentials }) {
  const id = networkIdOf(url, network);
  const given = { ...(credentials ?? {}) };
  if (token) given.token = stringArg(token, 'token');
  if (memberSecret) given.member_secret = stringArg(memberSecret, 'memberSecret');
  const body = { agent_id: stringArg(name, 'name') };
  if (Object.keys(given).length) body.credentials = given;
  const endpoint = networkEndpoint(url, id, 'v1/join');
  let response;
  let answer;
  try {
    response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    answer = await response.json();
  } catch (err) {
    throw new AgentnetError('unreachable', `cannot join at ${endpoint}: ${err.message}`, { cause: err });
  }
  if (!response.ok || typeof answer?.token !== 'string') {
    throw new AgentnetError(answer?.code ?? 'internal', answer?.message ?? `the join answered ${response.status}`);
  }
  return { ...answer, network: id };
}

/**
 * Serves the network over MCP stdio: joins (see `joinOverHttp`) and relays
 * messages until stdin ends, then ends the MCP session (`DELETE`). Resolves
 * with `{memberSecret, closed}`: `closed` resolves when the relay has stopped.
 * `input`/`output` default to the process's stdin/stdout; `onError` hears the
 * relay's transport errors (default: stderr).
 */
export async function serveNetworkOverStdio(options) {
  const { input = process.stdin, output = process.stdout, onError = (err) => process.stderr.write(`agentnet: mcp: ${err.message}\n`) } = objectArg(options ?? {}, 'options');
  const [StreamableHTTPClientTransport, StdioServerTransport] = await Promise.all([httpClientTransport(), stdioServerTransport()]);
  const joined = await joinOverHttp(options);
  const upstream = new StreamableHTTPClientTransport(networkEndpoint(options.url, joined.network, 'mcp'), {
    requestInit: { headers: { authorization: `Bearer ${joined.token}` } },
    fetch: relayFetch,
  });
  const downstream = new StdioServerTransport(input, output);
  const initializing = new Set();
  // Requests go out at once (a slow tool call holds up nothing), but after the
  // notification before them has been delivered: `initialized` comes first.
  let notified = Promise.resolve();
  let stopping = null;
  let stopped;
  const closed = new Promise((resolve) => { stopped = resolve; });

  const answerWithError = (request, err) => downstream.send({
    jsonrpc: '2.0', id: request.id, error: { code: INTERNAL_ERROR, message: `the network's MCP endpoint: ${err.message}` },
  }).catch(onError);

  downstream.onmessage = (message) => {
    if (message.method === 'initialize' && message.id !== undefined) initializing.add(message.id);
    const sent = notified.then(() => upstream.send(message));
    if (message.method !== undefined && message.id === undefined) notified = sent.catch(() => {});
    sent.catch((err) => {
      if (isRequest(message)) answerWithError(message, err);
      else onError(err);
    });
  };
  upstream.onmessage = (message) => {
    // The revision `initialize` settled on goes on every later request as `MCP-Protocol-Version`.
    if (message.method === undefined && initializing.delete(message.id) && typeof message.result?.protocolVersion === 'string') {
      upstream.setProtocolVersion(message.result.protocolVersion);
    }
    downstream.send(message).catch(onError);
  };
  upstream.onerror = onError;
  downstream.onerror = onError;

  const stop = () => {
    stopping ??= (async () => {
      await upstream.terminateSession().catch(() => {});
      await upstream.close().catch(() => {});
      await downstream.close().catch(() => {});
      stopped();
    })();
    return stopping;
  };
  input.once('end', stop);
  input.once('close', stop);
  await upstream.start();
  await downstream.start();
  return { address: joined.member?.address ?? options.name, memberSecret: joined.member_secret ?? options.memberSecret, closed, stop };
}
