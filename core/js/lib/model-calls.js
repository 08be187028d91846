// The model calls of an LLM agent (`llm.js`): what the core's agent loop asks
// for as `call_model` effects, carried out. A provider is called with `fetch`
// — the key put into the one header the loop names, from the environment
// variable it names, so the key is never in an effect, a log or the model's
// context — and its answer is fed back whole or, when it streams, chunk by
// chunk. A `command` agent's program is run instead (Node, Bun and Deno
// only), with the prompt as an argument or on its stdin.

import { AgentnetError } from './errors.js';

/** The request's headers with the key put in its slot; throws when the variable is unset. */
export function headersWithKey(headers, slot, env) {
  const out = {};
  for (const [name, value] of headers) out[name] = value;
  if (slot) {
    const key = env?.[slot.variable];
    if (!key) throw new AgentnetError('invalid_request', `the agent's provider key is not set: put it in the environment variable ${slot.variable}`);
    out[slot.header] = String(out[slot.header] ?? slot.placeholder).replace(slot.placeholder, key);
  }
  return out;
}

/** `retry-after` in whole seconds, when it is a number of seconds. */
function retryAfter(response) {
  const value = Number(response.headers.get('retry-after'));
  return Number.isFinite(value) && value >= 0 ? Math.ceil(value) : undefined;
}

/**
 * Sends one `call_model` effect with `fetch` and reports what comes back
 * through `report(response)` (`{status, retry_after_secs?, body: {kind, text?}}`),
 * once for a whole answer, per chunk and at the end for a stream.
 */
export async function callProvider(effect, { env, fetch: fetchImpl, signal, report }) {
  let response;
  try {
    response = await fetchImpl(effect.url, {
      method: 'POST',
      headers: headersWithKey(effect.headers, effect.key, env),
      body: effect.body,
      signal,
    });
  } catch (err) {
    if (signal?.aborted && signal.reason?.name !== 'TimeoutError') return;
    const why = signal?.reason?.name === 'TimeoutError' ? 'no answer in time' : String(err?.message ?? err);
    report({ status: 0, body: { kind: 'failed', text: why } });
    return;
  }
  const status = response.status;
  const retry = retryAfter(response);
  const base = retry === undefined ? { status } : { status, retry_after_secs: retry };
  const streamed = response.ok && (response.headers.get('content-type') ?? '').includes('text/event-stream') && response.body;
  try {
    if (!streamed) {
      report({ ...base, body: { kind: 'whole', text: await response.text() } });
      return;
    }
    const decoder = new TextDecoder();
    // A reader rather than `for await`: every runtime's streams have one (Safari's lack async iteration).
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) report({ ...base, body: { kind: 'chunk', text } });
    }
    const rest = decoder.decode();
    if (rest) report({ ...base, body: { kind: 'chunk', text: rest } });
    report({ ...base, body: { kind: 'end' } });
  } catch (err) {
    if (signal?.aborted && signal.reason?.name !== 'TimeoutError') return;
    const why = signal?.reason?.name === 'TimeoutError' ? 'no answer in time' : `the answer broke off: ${String(err?.message ?? err)}`;
    report({ status: 0, body: { kind: 'failed', text: why } });
  }
}

/** Splits a command line into words: spaces separate, quotes ('…', "…") group, `\` escapes. */
export function commandWords(line) {
  const words = [];
  let word = null;
  let quote = null;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < line.length) word += line[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = (word ?? '') + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote) throw new AgentnetError('invalid_request', `the command has an unclosed ${quote}`);
  if (word !== null) words.push(word);
  if (!words.length) throw new AgentnetError('invalid_request', 'the command is empty');
  return words;
}
