// HTTP calls to the edge as a script would make them: JSON in, JSON (or the
// text, when it is not JSON) and the status out.

/** `method path` on `base` with a JSON `body` and a bearer `token`; answers `{status, json}`. */
export async function call(base, method, path, { body, token, headers = {} } = {}) {
  const all = { 'content-type': 'application/json', ...headers };
  if (token) all.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, {
    method, headers: all, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, json };
}
