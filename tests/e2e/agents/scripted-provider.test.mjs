// The scripted model provider (tests/support/scripted-provider.mjs) against
// the official SDKs (`openai`, `@anthropic-ai/sdk`): their parsers accept its
// whole and streamed answers, tool calls and errors, so its recordings are
// shaped like the real APIs'; and its shapes have the field sets of the
// recorded fixtures the core's providers are tested with. No edge needed.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startScriptedProvider, text, toolCall, error, slow, malformedToolJson } from '../../support/scripted-provider.mjs';
import { until } from '../../support/waits.mjs';

const KEY = 'sk-test-0123456789';
let p;
let gpt;
let claude;
before(async () => {
  p = await startScriptedProvider({ key: KEY });
  gpt = new OpenAI({ apiKey: KEY, baseURL: p.openaiBase, maxRetries: 0 });
  claude = new Anthropic({ apiKey: KEY, baseURL: p.anthropicBase, maxRetries: 0 });
});
after(() => p.close());

const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'When does it ship?' }] };
const askClaude = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'When does it ship?' }] };
const search = { type: 'function', function: { name: 'search', description: 'Search', parameters: { type: 'object' } } };
const last = () => p.requests.at(-1);

test('openai: a whole answer, with usage, and the request as sent', async () => {
  p.script('openai', text('It ships on Friday.'));
  const reply = await gpt.chat.completions.create({ ...ask, tools: [search] });
  assert.equal(reply.choices[0].message.content, 'It ships on Friday.');
  assert.equal(reply.choices[0].finish_reason, 'stop');
  assert.equal(reply.usage.total_tokens, reply.usage.prompt_tokens + reply.usage.completion_tokens);
  assert.ok(reply.usage.completion_tokens > 0);
  assert.equal(last().path, '/openai/v1/chat/completions');
  assert.equal(last().headers.authorization, `Bearer ${KEY}`);
  assert.deepEqual(last().body.messages, ask.messages);
  assert.equal(last().body.tools[0].function.name, 'search');
  assert.ok(!JSON.stringify(last().body).includes(KEY), 'the key is only in the header');
});

test('openai: a streamed answer arrives in deltas, usage last, through the SDK stream helper', async () => {
  p.script('openai', text('It ships on Friday.'));
  const stream = await gpt.chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } });
  const deltas = [];
  let usage;
  for await (const chunk of stream) {
    if (chunk.choices[0]?.delta.content) deltas.push(chunk.choices[0].delta.content);
    if (chunk.usage) usage = chunk.usage;
  }
  assert.ok(deltas.length > 1);
  assert.equal(deltas.join(''), 'It ships on Friday.');
  assert.ok(usage.total_tokens > 0);
  p.script('openai', text('Again.'));
  const helper = gpt.chat.completions.stream({ ...ask, stream_options: { include_usage: true } });
  const final = await helper.finalChatCompletion();
  assert.equal(final.choices[0].message.content, 'Again.');
});

test('openai: tool calls whole and streamed, with their arguments', async () => {
  p.script('openai', [toolCall('search', { query: 'release date' }, { id: 'call_1' }), toolCall('search', { query: 'release date' })]);
  const whole = await gpt.chat.completions.create({ ...ask, tools: [search] });
  const call = whole.choices[0].message.tool_calls[0];
  assert.equal(whole.choices[0].finish_reason, 'tool_calls');
  assert.equal(call.id, 'call_1');
  assert.deepEqual(JSON.parse(call.function.arguments), { query: 'release date' });
  const final = await gpt.chat.completions.stream({ ...ask, tools: [search] }).finalChatCompletion();
  const streamed = final.choices[0].message.tool_calls[0];
  assert.equal(streamed.function.name, 'search');
  assert.deepEqual(JSON.parse(streamed.function.arguments), { query: 'release date' });
  assert.equal(final.choices[0].finish_reason, 'tool_calls');
});

test('openai: 429 is a RateLimitError with retry-after, a wrong key an AuthenticationError', async () => {
  p.script('openai', error(429, { retryAfter: 7 }));
  const limited = await gpt.chat.completions.create(ask).catch((e) => e);
  assert.ok(limited instanceof OpenAI.RateLimitError, String(limited));
  assert.equal(limited.headers.get('retry-after'), '7');
  assert.equal(limited.code, 'rate_limit_exceeded');
  const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: p.openaiBase, maxRetries: 0 });
  const refused = await wrong.chat.completions.create(ask).catch((e) => e);
  assert.ok(refused instanceof OpenAI.AuthenticationError, String(refused));
  assert.equal(refused.code, 'invalid_api_key');
  p.script('openai', error(500));
  assert.ok((await gpt.chat.completions.create(ask).catch((e) => e)) instanceof OpenAI.InternalServerError);
});

test('anthropic: a whole message and a tool use, with usage and the request as sent', async () => {
  p.script('anthropic', [text('It ships on Friday.'), toolCall('search', { query: 'ship' }, { text: 'Let me look.' })]);
  const reply = await claude.messages.create(askClaude);
  assert.equal(reply.content[0].text, 'It ships on Friday.');
  assert.equal(reply.stop_reason, 'end_turn');
  assert.ok(reply.usage.input_tokens > 0 && reply.usage.output_tokens > 0);
  // SDK 1.x sends the key as a bearer token; `x-api-key` (the core's) is tested below.
  assert.ok([last().headers['x-api-key'], last().headers.authorization].includes(KEY) || last().headers.authorization === `Bearer ${KEY}`);
  assert.ok(last().headers['anthropic-version']);
  const tool = await claude.messages.create(askClaude);
  assert.equal(tool.stop_reason, 'tool_use');
  assert.equal(tool.content[0].text, 'Let me look.');
  assert.deepEqual(tool.content[1].input, { query: 'ship' });
  assert.match(tool.content[1].id, /^toolu_/);
});

test('anthropic: streamed text and tool input are put together by the SDK message stream', async () => {
  p.script('anthropic', [text('It ships on Friday.'), toolCall('search', { query: 'release date' })]);
  const stream = claude.messages.stream(askClaude);
  const deltas = [];
  stream.on('text', (delta) => deltas.push(delta));
  const message = await stream.finalMessage();
  assert.ok(deltas.length > 1);
  assert.equal(deltas.join(''), 'It ships on Friday.');
  assert.equal(message.content[0].text, 'It ships on Friday.');
  assert.ok(message.usage.output_tokens > 1, 'message_delta usage is read');
  assert.equal(last().body.stream, true);
  const tool = await claude.messages.stream(askClaude).finalMessage();
  assert.equal(tool.content[0].type, 'tool_use');
  assert.deepEqual(tool.content[0].input, { query: 'release date' });
  assert.equal(tool.stop_reason, 'tool_use');
});

test('anthropic: 429 with retry-after, 529 overloaded, a wrong key', async () => {
  p.script('anthropic', [error(429, { retryAfter: 30 }), error(529)]);
  const limited = await claude.messages.create(askClaude).catch((e) => e);
  assert.ok(limited instanceof Anthropic.RateLimitError, String(limited));
  assert.equal(limited.headers.get('retry-after'), '30');
  assert.equal(limited.error.error.type, 'rate_limit_error');
  const overloaded = await claude.messages.create(askClaude).catch((e) => e);
  assert.equal(overloaded.status, 529);
  assert.equal(overloaded.error.error.type, 'overloaded_error');
  const wrong = new Anthropic({ apiKey: 'sk-wrong', baseURL: p.anthropicBase, maxRetries: 0 });
  const refused = await wrong.messages.create(askClaude).catch((e) => e);
  assert.ok(refused instanceof Anthropic.AuthenticationError, String(refused));
});

test('a slow stream can be stopped midway, and the server sees it stop', { timeout: 10_000 }, async () => {
  p.script('anthropic', slow('one two three four five six seven eight', { delayMs: 100 }));
  const stream = claude.messages.stream(askClaude);
  const ended = stream.done().catch((e) => e);
  const seen = [];
  await new Promise((resolve) => stream.on('text', (delta) => { seen.push(delta); if (seen.length === 2) resolve(); }));
  stream.abort();
  assert.ok((await ended) instanceof Anthropic.APIUserAbortError);
  await until('the server sees the stream stop', () => last().aborted, 5_000);
  assert.equal(last().aborted, true);
  assert.ok(seen.join('').length < 'one two three four five six seven eight'.length);
});

test('replies computed from the request, malformed tool JSON, and nothing scripted', async () => {
  p.script('openai', (request) => text(`you said: ${request.body.messages[0].content}`));
  const echo = await gpt.chat.completions.create(ask);
  assert.equal(echo.choices[0].message.content, 'you said: When does it ship?');
  p.script('openai', malformedToolJson('search'));
  const broken = await gpt.chat.completions.create(ask);
  assert.throws(() => JSON.parse(broken.choices[0].message.tool_calls[0].function.arguments));
  const nothing = await gpt.chat.completions.create(ask);
  assert.equal(nothing.choices[0].message.content, '(no scripted answer)');
});

// The field paths of a JSON value (array items as `[]`).
const paths = (value, at = '', out = new Set()) => {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) paths(v, Array.isArray(value) ? `${at}[]` : `${at}.${k}`, out);
  } else out.add(at);
  return out;
};
const fixture = (name) => readFileSync(new URL(`../../../core/src/agent/fixtures/${name}`, import.meta.url), 'utf8');
const sse = (body) => body.split('\n\n').filter((e) => e.trim()).map((e) => e.split('\n').map((l) => l.replace(/^(event|data): ?/, '')).join(' '));
const streamPaths = (body) => [...new Set(sse(body).flatMap((e) => [...paths(JSON.parse(e.replace(/^\w+ (?=\{)/, '').replace('[DONE]', '{}')))]))].sort();
const raw = async (base, path, headers, body) => (await fetch(`${base}${path}`, { method: 'POST', headers: { 'anthropic-version': '2023-06-01', ...headers }, body: JSON.stringify(body) })).text();

test('its answers have the fields of the recorded fixtures', async () => {
  const o = (body) => raw(p.openaiBase, '/chat/completions', { authorization: `Bearer ${KEY}` }, { ...ask, ...body });
  const a = (body) => raw(p.anthropicBase, '/v1/messages', { 'x-api-key': KEY }, { ...askClaude, ...body });
  const usage = { stream: true, stream_options: { include_usage: true } };
  const same = (got, name) => assert.deepEqual([...paths(JSON.parse(got))].sort(), [...paths(JSON.parse(fixture(name)))].sort(), name);
  p.script('openai', [text('Hi'), toolCall('search', { query: 'release date' }), text('It ships'), toolCall('search', { query: 'release date' })]);
  same(await o({}), 'openai_answer.json');
  same(await o({}), 'openai_tool_call.json');
  assert.deepEqual(streamPaths(await o(usage)), streamPaths(fixture('openai_answer.sse')));
  assert.deepEqual(streamPaths(await o(usage)), streamPaths(fixture('openai_tool_call.sse')));
  p.script('anthropic', [text('Hi'), toolCall('search', { query: 'release date' }, { text: 'Looking.' }), text('It ships'), toolCall('search', { query: 'release date' }, { text: 'Looking.' })]);
  same(await a({}), 'anthropic_answer.json');
  same(await a({}), 'anthropic_tool_use.json');
  assert.deepEqual(streamPaths(await a({ stream: true })), streamPaths(fixture('anthropic_answer.sse')));
  const toolPaths = streamPaths(await a({ stream: true }));
  const recorded = streamPaths(fixture('anthropic_tool_use.sse'));
  assert.deepEqual(toolPaths.filter((x) => !recorded.includes(x)), [], 'no field the recording lacks');
  assert.equal(sse(await a({ stream: true })).filter((e) => e.startsWith('message_start {')).length, 1, 'event: lines name each event');
});
