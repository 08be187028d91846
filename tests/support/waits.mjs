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
// * `waitOut(ms, what)` — a deadline of the system under test (a session's
//   idle time, a token's lifetime, a retention window) that the test cannot
//   watch without disturbing (a poll would keep the session alive, an ack
//   would deliver the events): the test lets it pass, then checks its effect.
// * `simulateWork(ms)` — a fake tool, provider or server that is slow on
//   purpose (so a person sees it working, or a client's timeout fires).

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
 * Lets a deadline of the system under test pass (`what`: a session's idle
 * time, a token's lifetime, a retention window) where watching it would
 * change it (a poll keeps a session alive, a read acknowledges).
 */
export async function waitOut(ms, what) {
  await delay(ms);
}

/** A fake tool, provider or server slow on purpose for `ms`. */
export function simulateWork(ms) {
  return delay(ms);
}
