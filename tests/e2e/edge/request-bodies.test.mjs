// Request bodies, tried as a stranger would — far
// over the limit with a declared length, streamed without one, malformed —
// against the Worker's own route and a network's routes. Each is refused with
// 413 too_large or its stable code, nothing faults the Worker (a body refused
// unread used to fault it: "Can't read from request stream after response has
// been sent", then 503 "Your worker restarted mid-request" for the next
// request), and creating and using networks keeps working.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';

const edge = edgeForFile();

const MB = 1024 * 1024;

/** A body of `mb` megabytes streamed without a declared length. */
function streamed(mb) {
  const chunk = new Uint8Array(MB).fill(0x20);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= mb) controller.close();
      else { sent += 1; controller.enqueue(chunk); }
    },
  });
}

async function post(path, body) {
  const res = await fetch(`${edge.url}${path}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body, duplex: 'half',
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: res.status, json };
}

test('oversized, streamed and malformed bodies are refused with stable codes and the Worker keeps serving', async () => {
  const network = await createNetwork(edge.url, { name: 'bodies', access: { policy: 'open' } });
  const routes = ['/v1/networks', `/networks/${network.id}/v1/join`, `/networks/${network.id}/v1/events`, '/networks/demo/v1/join'];
  for (const path of routes) {
    const declared = await post(path, ' '.repeat(24 * MB));
    assert.deepEqual([declared.status, declared.json.code], [413, 'too_large'], `${path}, declared`);
    const chunked = await post(path, streamed(24));
    assert.deepEqual([chunked.status, chunked.json.code], [413, 'too_large'], `${path}, streamed`);
    const malformed = await post(path, '{"name": ');
    // Sending events needs a session first; the others read the body.
    const expected = path.endsWith('/events') ? [401, 'not_joined'] : [400, 'malformed_event'];
    assert.deepEqual([malformed.status, malformed.json.code], expected, `${path}, malformed`);
    // Each refusal leaves the Worker serving: a creation right after works.
    await createNetwork(edge.url, { name: 'still serving', access: { policy: 'open' } });
  }
  // A body under the bound but over a network's frame limit gets that network's refusal.
  const framed = await post(`/networks/${network.id}/v1/join`, JSON.stringify({ agent_id: 'a', pad: 'x'.repeat(2 * MB) }));
  assert.deepEqual([framed.status, framed.json.code], [413, 'too_large']);

  const joined = await post(`/networks/${network.id}/v1/join`, JSON.stringify({ agent_id: 'after' }));
  assert.equal(joined.status, 200, JSON.stringify(joined.json));
  const log = edge.log.join('');
  assert.doesNotMatch(log, /Can't read from request stream|restarted mid-request|Uncaught/);
});
