// HTTP calls the workspace makes besides its WebSocket: creating a network, reading a profile.

/** POSTs `bodyJson` to /v1/networks; resolves with the response's JSON text or rejects with its error message. */
export async function createNetwork(bodyJson) {
  const response = await fetch('/v1/networks', {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyJson,
  });
  const text = await response.text();
  if (!response.ok) {
    let message = `the edge answered ${response.status}`;
    try { message = JSON.parse(text).message ?? message; } catch { /* not JSON */ }
    throw new Error(message);
  }
  return text;
}

/** GETs `url`; resolves with the response's text or rejects with a message. */
export async function getText(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`the edge answered ${response.status}`);
  return response.text();
}

/** GETs `url`; resolves with the response's JSON text or rejects with a message. */
export const getJson = getText;

/** POSTs `bodyJson` to `url`; resolves with `{status, body}` as JSON text (`body` the answer's JSON, or null). */
export async function postJson(url, bodyJson) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodyJson });
  let body = null;
  try { body = JSON.parse(await response.text()); } catch { /* not JSON */ }
  return JSON.stringify({ status: response.status, body });
}
