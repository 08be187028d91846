// A scripted model provider for the e2e tests: a local HTTP server speaking
// OpenAI Chat Completions (`POST /openai/v1/chat/completions`) and Anthropic
// Messages (`POST /anthropic/v1/messages`) that answers each request with the
// next scripted reply, shaped like the recorded responses in
// core/src/agent/fixtures/ (the same fields, the same SSE framing), so agents
// are tested without a key or the internet. It checks the key header and
// records every request for the test to inspect.

import { before, after } from 'node:test';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';

const id = (n = 24) => randomBytes(n).toString('base64url').replace(/[-_]/g, 'x').slice(0, n);
const words = (text) => text.split(/(?=\s)/).filter(Boolean);
const tokens = (value) => Math.max(1, Math.ceil(JSON.stringify(value ?? '').length / 4));

/** A text answer (`stream`: force streamed or whole; by default as the request asks). */
export const text = (answer, { stream, usage } = {}) => ({ kind: 'text', text: answer, stream, usage });

/** A call of the tool `name` with `args` (an object), optionally with `text` before it. */
export const toolCall = (name, args, { stream, id: callId, text: before = '', usage } = {}) =>
  ({ kind: 'tool', name, args: JSON.stringify(args), id: callId, text: before, stream, usage });

/** A tool call whose arguments are cut off mid-JSON. */
export const malformedToolJson = (name = 'search', { stream } = {}) =>
  ({ kind: 'tool', name, args: '{"query": "rel', stream });

/** An HTTP error with the provider's error body; 429 sends `retry-after`. */
export const error = (status, { retryAfter, message, type } = {}) =>
  ({ kind: 'error', status, retryAfter: retryAfter ?? (status === 429 ? 20 : undefined), message, type });

/** A text answer always streamed a word at a time, `delayMs` apart (time to press Stop). */
export const slow = (answer, { delayMs = 200 } = {}) => ({ kind: 'text', text: answer, stream: true, delayMs });

const OPENAI_ERRORS = {
  401: ['invalid_request_error', 'invalid_api_key', 'Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.'],
  429: ['requests', 'rate_limit_exceeded', 'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.'],
  400: ['invalid_request_error', null, 'Invalid request.'],
  500: ['server_error', null, 'The server had an error while processing your request. Sorry about that!'],
};
const ANTHROPIC_ERRORS = {
  400: ['invalid_request_error', 'Invalid request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  429: ['rate_limit_error', 'This request would exceed the rate limit for your organization of 50 requests per minute.'],
  500: ['api_error', 'Internal server error'],
  529: ['overloaded_error', 'Overloaded'],
};

const openai = {
  errorBody(r) {
    const [type, code, message] = OPENAI_ERRORS[r.status] ?? OPENAI_ERRORS[r.status >= 500 ? 500 : 400];
    return { error: { message: r.message ?? message, type: r.type ?? type, param: null, code } };
  },
  usage(r, body) {
    const prompt = r.usage?.input ?? tokens(body.messages);
    const completion = r.usage?.output ?? tokens(r.text + (r.args ?? ''));
    return {
      prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    };
  },
  call: (r) => ({ id: r.id ?? `call_${id()}`, type: 'function', function: { name: r.name, arguments: r.args } }),
  whole(r, body) {
    const message = { role: 'assistant', content: r.text || (r.kind === 'tool' ? null : ''), refusal: null, annotations: [] };
    if (r.kind === 'tool') message.tool_calls = [this.call(r)];
    return {
      id: `chatcmpl-${id(29)}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: body.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: r.kind === 'tool' ? 'tool_calls' : 'stop' }],
      usage: this.usage(r, body), service_tier: 'default', system_fingerprint: 'fp_44709d6fcb',
    };
  },
  *events(r, body) {
    const head = { id: `chatcmpl-${id(29)}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000),
      model: body.model, service_tier: 'default', system_fingerprint: 'fp_44709d6fcb' };
    const withUsage = body.stream_options?.include_usage === true;
    const chunk = (delta, finish = null) => ({ data: { ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      ...(withUsage ? { usage: null } : {}), obfuscation: id(4) } });
    const call = r.kind === 'tool' && [{ index: 0, ...this.call(r), function: { name: r.name, arguments: '' } }];
    // As recorded: a tool call without text opens in the first chunk, with `content: null`.
    yield chunk({ role: 'assistant', content: call && !r.text ? null : '', ...(call && !r.text ? { tool_calls: call } : {}), refusal: null });
    for (const word of words(r.text)) yield chunk({ content: word });
    if (call) {
      if (r.text) yield chunk({ tool_calls: call });
      for (const part of r.args.match(/.{1,8}/gs) ?? []) yield chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] });
    }
    yield chunk({}, r.kind === 'tool' ? 'tool_calls' : 'stop');
    if (withUsage) yield { data: { ...head, choices: [], usage: this.usage(r, body), obfuscation: id(4) } };
    yield { data: '[DONE]' };
  },
};

const anthropic = {
  errorBody(r) {
    const [type, message] = ANTHROPIC_ERRORS[r.status] ?? ANTHROPIC_ERRORS[r.status >= 500 ? 500 : 400];
    return { type: 'error', error: { type: r.type ?? type, message: r.message ?? message }, request_id: `req_011C${id()}` };
  },
  usage(r, body, output) {
    const input = r.usage?.input ?? tokens([body.system, body.messages]);
    return { input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      output_tokens: output ?? r.usage?.output ?? tokens(r.text + (r.args ?? '')), service_tier: 'standard' };
  },
  input(r) {
    try { return JSON.parse(r.args); } catch { return r.args; } // a string input: not an object, as malformed as a whole message can be
  },
  message(r, body, content, stop, usage) {
    return { id: `msg_01${id()}`, type: 'message', role: 'assistant', model: body.model, content,
      stop_reason: stop, stop_sequence: null, usage };
  },
  toolUse: (r) => ({ type: 'tool_use', id: r.id ?? `toolu_01${id()}`, name: r.name }),
  whole(r, body) {
    const content = r.text ? [{ type: 'text', text: r.text }] : [];
    if (r.kind === 'tool') content.push({ ...this.toolUse(r), input: this.input(r) });
    return this.message(r, body, content, r.kind === 'tool' ? 'tool_use' : 'end_turn', this.usage(r, body));
  },
  *events(r, body) {
    const event = (type, fields = {}) => ({ event: type, data: { type, ...fields } });
    yield event('message_start', { message: this.message(r, body, [], null, this.usage(r, body, 1)) });
    let index = 0;
    if (r.text || r.kind !== 'tool') {
      yield event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      yield { event: 'ping', data: { type: 'ping' } };
      for (const word of words(r.text)) yield event('content_block_delta', { index, delta: { type: 'text_delta', text: word } });
      yield event('content_block_stop', { index: index++ });
    }
    if (r.kind === 'tool') {
      yield event('content_block_start', { index, content_block: { ...this.toolUse(r), input: {} } });
      for (const part of ['', ...(r.args.match(/.{1,8}/gs) ?? [])]) {
        yield event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
      }
      yield event('content_block_stop', { index });
    }
    yield event('message_delta', { delta: { stop_reason: r.kind === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: this.usage(r, body).output_tokens } });
    yield event('message_stop');
  },
};

const PROVIDERS = {
  '/openai/v1/chat/completions': { name: 'openai', wire: openai, authorized: (h, key) => h.authorization === `Bearer ${key}` },
  '/anthropic/v1/messages': { name: 'anthropic', wire: anthropic, authorized: (h, key) => h['x-api-key'] === key || h.authorization === `Bearer ${key}` },
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(res, provider, reply, body, record) {
  const { wire } = provider;
  if (reply.kind === 'error') {
    const headers = { 'content-type': 'application/json', 'x-request-id': `req_${id()}` };
    if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
    res.writeHead(reply.status, headers).end(JSON.stringify(wire.errorBody(reply)));
    return;
  }
  const r = { text: '', ...reply };
  if (!(r.stream ?? body.stream === true)) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(wire.whole(r, body)));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.on('close', () => { if (!res.writableFinished) record.aborted = true; });
  for (const { event, data } of wire.events(r, body)) {
    if (record.aborted || res.destroyed) return;
    const line = `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
    res.write(event ? `event: ${event}\n${line}` : line);
    if (r.delayMs) await sleep(r.delayMs);
  }
  res.end();
}

/** Starts the server on 127.0.0.1; `key`, when given, is the only key accepted. */
export async function startScriptedProvider({ key } = {}) {
  const queues = { openai: [], anthropic: [] };
  const requests = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (part) => { raw += part; });
    req.on('end', () => {
      const path = new URL(req.url, 'http://x').pathname;
      const provider = PROVIDERS[path];
      let body;
      try { body = JSON.parse(raw); } catch { body = raw; }
      const record = { provider: provider?.name, path, headers: req.headers, body };
      requests.push(record);
      if (!provider || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(openai.errorBody({ status: 404, message: `Unknown request URL: ${req.method} ${path}` })));
        return;
      }
      const fail = (status, message) => send(res, provider, error(status, { message }), body, record);
      if (key !== undefined && !provider.authorized(req.headers, key)) return void fail(401);
      if (typeof body !== 'object' || body === null) return void fail(400, 'The request body is not valid JSON.');
      if (provider.name === 'anthropic' && !req.headers['anthropic-version']) return void fail(400, 'anthropic-version: header is required');
      let reply = queues[provider.name].shift() ?? text('(no scripted answer)');
      if (typeof reply === 'function') reply = reply(record);
      if (typeof reply === 'string') reply = text(reply);
      send(res, provider, reply, body, record).catch(() => res.destroy());
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    openaiBase: `${url}/openai/v1`,
    anthropicBase: `${url}/anthropic`,
    requests,
    /**
     * `Agent.llm`'s options for a member thinking with this server's OpenAI
     * side: provider, base URL, model, the key in `env` under `keyVar`, and
     * errors the agent survives kept quiet.
     */
    openaiMember(keyVar = 'TEST_LLM_KEY') {
      return {
        provider: 'openai_chat', baseUrl: `${url}/openai/v1`, model: 'gpt-4o-mini',
        keyVar, env: { [keyVar]: key }, onError: () => {},
      };
    },
    /** Queues `responses` (replies, or functions of the request returning one) for `kind`: `openai` or `anthropic`. */
    script(kind, responses) {
      if (!queues[kind]) throw new Error(`unknown provider ${kind}`);
      queues[kind].push(...[].concat(responses));
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * A scripted provider for one test file, started before its tests and closed after them. The
 * object returned is `startScriptedProvider`'s, filled in once the provider is up (as
 * `edgeForFile`'s edge is), so tests read `provider.url` as usual. Node 20 runs a file's
 * top-level `before` hooks side by side: a file's own `before` must not read it.
 */
export function scriptedProviderForFile(key) {
  const provider = {};
  before(async () => {
    Object.assign(provider, await startScriptedProvider({ key }));
  });
  after(async () => {
    await provider.close?.();
  });
  return provider;
}
