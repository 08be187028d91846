// HTTP calls to the edge as a script would make them: JSON in, JSON (or the
// text, when it is not JSON) and the status out.

import assert from 'node:assert/strict';

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

/**
 * Joins network `id` on `base` over HTTP (`POST /networks/{id}/v1/join`) as
 * `member`: an address (`'agent:ann'`) or the whole join body (`{agent_id,
 * credentials, …}`). Asserts the network accepts it and answers the join
 * (`{token, session, …}`).
 */
export async function joinOverHttp(base, id, member) {
  const body = typeof member === 'string' ? { agent_id: member } : member;
  const joined = await call(base, 'POST', `/networks/${id}/v1/join`, { body });
  assert.equal(joined.status, 200, JSON.stringify(joined.json));
  return joined.json;
}

/** `joinOverHttp`'s session token: what a member sends as its bearer. */
export async function joinToken(base, id, member) {
  return (await joinOverHttp(base, id, member)).token;
}

/** Asserts `answer` (from `call`) is refused with `status` and the stable `code`; `what` names the attempt. */
export function assertRefused(answer, status, code, what) {
  assert.equal(answer.status, status, `${what}: ${JSON.stringify(answer.json)}`);
  assert.equal(answer.json.code, code, what);
}

/**
 * `fetch(url, init)` that waits at most `ms` for the answer (its headers, and
 * its body too: the same signal ends both), where node's own wait for the
 * headers is five minutes. A request left unanswered is logged, with
 * the last lines of the edge's `log` when given, and sent once more: on a busy
 * two-core machine wrangler dev's proxy has held a request without answering
 * it (CI, stop 65). A second silence fails, naming the URL.
 */
export async function fetchWithin(url, init = {}, { ms = 30_000, log } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
    } catch (err) {
      if (err.name !== 'TimeoutError') throw err;
      const tail = log ? `\nthe edge's last lines:\n${log.join('').split('\n').slice(-20).join('\n')}` : '';
      const said = `no answer from ${init.method ?? 'GET'} ${url} in ${ms} ms (attempt ${attempt})${tail}`;
      if (attempt >= 2) throw new Error(said);
      process.stderr.write(`${said}\n`);
    }
  }
}
