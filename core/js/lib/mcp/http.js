// The relay's `fetch` toward the network's MCP endpoint. It changes nothing
// the MCP SDK's HTTP transport does for the revisions with `initialize`; it
// adds what that transport (SDK 1.x) leaves out for the others:
//
// * a request of revision 2026-07-28 carries its revision in its body
//   (`params._meta["io.modelcontextprotocol/protocolVersion"]`), and over HTTP
//   that body is mirrored in headers: `MCP-Protocol-Version`, `Mcp-Method`
//   and, for `tools/call`, `prompts/get` (`name`) and `resources/read` (`uri`),
//   `Mcp-Name` — as it is when printable ASCII, else `=?base64?{UTF-8}?=`;
// * an HTTP error whose body is a JSON-RPC error (a malformed request, an
//   unknown session) reaches the MCP client as that error, not as the
//   transport's failure.

const PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
/** The body field `Mcp-Name` mirrors, by method. */
const NAMED_BY = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
const SENTINEL = ['=?base64?', '?='];

/** `value` as a header may carry it: itself when plain printable ASCII, else its UTF-8 in base64 between the sentinels. */
export function headerValue(value) {
  const plain = value.length > 0 && value === value.trim() && /^[\x20-\x7e\t]*$/.test(value)
    && !(value.startsWith(SENTINEL[0]) && value.endsWith(SENTINEL[1]));
  if (plain) return value;
  const bytes = new TextEncoder().encode(value);
  return `${SENTINEL[0]}${btoa(String.fromCharCode(...bytes))}${SENTINEL[1]}`;
}

/** The headers mirroring a JSON-RPC message's envelope, or none for a message without one. */
export function mirroredHeaders(message) {
  const version = message?.params?._meta?.[PROTOCOL_VERSION];
  if (typeof message?.method !== 'string' || message.id === undefined || typeof version !== 'string') return {};
  const headers = { 'mcp-protocol-version': version, 'mcp-method': message.method };
  const name = message.params[NAMED_BY[message.method]];
  if (NAMED_BY[message.method] && typeof name === 'string') headers['mcp-name'] = headerValue(name);
  return headers;
}

const isErrorAnswer = (body) => body?.jsonrpc === '2.0' && body.error !== undefined && !('method' in body);

function parsed(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** `fetch` with the two additions above. */
export async function relayFetch(input, init) {
  if (init?.method !== 'POST') return fetch(input, init);
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(mirroredHeaders(parsed(init.body)))) headers.set(name, value);
  const response = await fetch(input, { ...init, headers });
  if (response.ok || !response.headers.get('content-type')?.includes('application/json')) return response;
  const text = await response.text();
  const status = isErrorAnswer(parsed(text)) ? 200 : response.status;
  return new Response(text, { status, statusText: response.statusText, headers: response.headers });
}
