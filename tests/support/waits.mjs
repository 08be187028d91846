// Waiting in tests: on the event or state a step stands for, with a deadline,
// never for a fixed time. The end-to-end tests (tests/e2e/) use these instead
// of bare `setTimeout`s, so each wait says what it waits for:
//
// * `until(what, check)` — the usual one: polls `check` until it holds (a
//   frame arrived, a row is written, a socket closed), failing with `what`.
// * `within(promise, ms, what)` — a promise that must settle before a deadline.
// * `expectNothingFor(ms, what)` — the one wait that must take its time: a
//   test asserting that something does NOT happen (no duplicate, no second
//   delivery, no answer) gives it `ms` to happen, then checks it did not.
// * `waitOut(ms, what)` — time the system under test takes for something the
//   test cannot watch: a deadline it keeps (a session's idle time, a token's
//   lifetime, a cache, a retention window) where watching would change it (a
//   poll keeps a session alive, a read acknowledges), or a background step
//   with no event to wait on (a gateway flushing the acks it holds, a channel
//   join the page shows no sign of). The test lets it pass, then checks the
//   effect. (An MCP client's GET stream has one: support/mcp-client.mjs.)
// * `pace(ms)` — the timing of a part the test plays itself: a tool or server
//   slow on purpose, acks spaced as an audience sends them, a reconnect's
//   backoff, a message sent while a long poll waits. Not a wait for the system.
//
// `grep -rn "setTimeout\|sleep(\|waitForTimeout" tests/e2e` finds none left in
// the tests themselves; a new one should be one of these instead.

import { setTimeout as delay } from 'node:timers/promises';

/** Polls `check` (sync or async) every `everyMs` until it is truthy; answers its value. */
export async function until(what, check, timeoutMs = 20_000, everyMs = 50) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(everyMs);
  }
}

/** Resolves as `promise` does, or rejects naming `what` once `ms` pass first. */
export async function within(promise, ms, what) {
  const timeout = new AbortController();
  try {
    return await Promise.race([
      promise,
      delay(ms, undefined, { signal: timeout.signal }).then(() => { throw new Error(`no ${what} within ${ms} ms`); }),
    ]);
  } finally {
    timeout.abort();
  }
}

/** Whether `promise` settles within `ms` (true) or not (false); never rejects for the deadline. */
export async function settlesWithin(promise, ms) {
  return within(promise.then(() => true, () => true), ms, 'settling').catch(() => false);
}

/**
 * Gives something that must NOT happen `ms` to happen (a duplicate delivery, a
 * second answer, a frame to someone outside a channel); the caller then
 * asserts that it did not. `what` names it, for the reader.
 */
export async function expectNothingFor(ms, what) {
  await delay(ms);
}

/**
 * Lets time the system under test takes pass where the test cannot watch it
 * (`what`: a session's idle time, a token's lifetime, a gateway's held acks);
 * see the top of this file.
 */
export async function waitOut(ms, what) {
  await delay(ms);
}

/** `ms` of a part the test plays (a slow tool or server, a client's spacing or backoff); see the top of this file. */
export function pace(ms) {
  return delay(ms);
}
