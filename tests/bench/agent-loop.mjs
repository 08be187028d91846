// LLM agents: what the agent loop itself costs, and how long a person waits
// for it when the model answers at once (docs/agents.md; figures in
// BENCHMARKS.md, "LLM agents"). Prints figures; asserts no timings.
//
// (a) The loop's own overhead, in Node, with no network: the npm package's
//     core (`AgentLoop`, core/js/src/agent.rs) is driven as llm.js drives it
//     (JSON text in and out, `Date.now()`), turn after turn in one direct
//     conversation (its history capped at the default depth):
//       whole     a direct message → call_model → a whole OpenAI answer body → post
//       streamed  the same with the answer as SSE: N word chunks, each handed
//                 to the loop as a network read would (stream_text effects) → post;
//                 and the same SSE handed over in one read (one stream_text)
//       tool      a message → call_model → a tool call → call_tool → its result →
//                 call_model → a whole answer → post (two model rounds)
//     µs per turn: median and p95 over RUNS runs of TURNS turns (each run's
//     mean per turn).
// (b) End to end over the local edge (tests/support/edge.mjs) with the
//     scripted provider answering at once: `Agent.llm` (openai_chat) and a
//     person (`Agent.connect`, human:…); from the person's post to the
//     answer arriving at the person, and from the post to the first
//     `workspace.agent.activity` with state `writing` arriving at the person
//     (first token: the answer streamed as SSE, 3 words).
//
//   node tests/bench/agent-loop.mjs [--runs 15] [--turns 200] [--e2e 60] [--words 50]
//
// Needs the npm package's core (core/js/pkg) and the local edge built:
// bash -c 'source scripts/lib.sh; build_js_package; build_edge'

import { performance } from 'node:perf_hooks';
import { Agent } from '../../core/js/index.js';
import { nextEvent } from '../support/events.mjs';
import { core } from '../../core/js/lib/runtime.js';
import { createNetwork, startEdge } from '../support/edge.mjs';
import { startScriptedProvider, text } from '../support/scripted-provider.mjs';
import { quantile } from './stats.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('runs', 15);
const TURNS = arg('turns', 200);
const E2E = arg('e2e', 60);
const WORDS = arg('words', 50);

const fmt = (n, digits = 1) => n.toFixed(digits);

// Event ids are ULIDs: 48 bits of time, 80 of (here) a counter.
const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let counter = 0n;
function ulid() {
  let v = (BigInt(Date.now()) << 80n) | (counter += 1n);
  let s = '';
  for (let i = 0; i < 26; i += 1) {
    s = B32[Number(v & 31n)] + s;
    v >>= 5n;
  }
  return s;
}

const CONFIG = {
  address: 'agent:bench', provider: 'openai_chat', base_url: 'http://127.0.0.1:9/v1', model: 'gpt-4o-mini',
  key_var: 'BENCH_KEY', system_prompt: 'You are a helpful member of this network.',
  // The default budgets (120 calls an hour) would refuse most of a bench's turns.
  budgets: { calls_per_hour: 1_000_000, tokens_per_hour: 1_000_000_000 },
};
const head = { id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG', created: 1741570283, model: 'gpt-4o-mini-2024-07-18' };
const usage = { prompt_tokens: 82, completion_tokens: 17, total_tokens: 99 };
const WHOLE = JSON.stringify({
  ...head, object: 'chat.completion', service_tier: 'default', system_fingerprint: 'fp_44709d6fcb',
  choices: [{ index: 0, message: { role: 'assistant', content: 'It ships on Friday, after the last review.', refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
  usage,
});
const TOOL_CALL = JSON.stringify({
  ...head, object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', type: 'function', function: { name: 'forecast', arguments: '{"city":"Paris"}' } }] }, finish_reason: 'tool_calls' }],
  usage,
});
/** An OpenAI stream of `words` words: one SSE event (one network read) each, as recorded. */
function sseChunks(words) {
  const chunk = (delta, finish = null) => `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', service_tier: 'default', system_fingerprint: 'fp_44709d6fcb', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], usage: null, obfuscation: 'r4N7vQ2m' })}\n\n`;
  const out = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (let i = 0; i < words; i += 1) out.push(chunk({ content: `${i ? ' ' : ''}word${i}` }));
  out.push(chunk({}, 'stop'));
  out.push(`data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
  out.push('data: [DONE]\n\n');
  return out;
}
const TOOLS = JSON.stringify([{ name: 'forecast', description: 'The forecast for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } }]);

const effectsOf = (json) => JSON.parse(json);
const requestOf = (effects, kind = 'call_model') => {
  const e = effects.find((x) => x.effect === kind);
  if (!e) throw new Error(`no ${kind} in ${JSON.stringify(effects)}`);
  return e;
};
const posted = (effects) => {
  if (!effects.some((x) => x.effect === 'post')) throw new Error(`no post in ${JSON.stringify(effects)}`);
};
const dm = (content) => JSON.stringify({ id: ulid(), type: 'workspace.message.posted', source: 'human:ann', target: 'agent:bench', payload: { content }, metadata: {}, timestamp: Date.now() });
const response = (kind, body) => JSON.stringify(body === undefined ? { status: 200, body: { kind } } : { status: 200, body: { kind, text: body } });

const TURN = {
  whole(loop) {
    const call = requestOf(effectsOf(loop.handleEvent(dm('when does it ship?'), Date.now())));
    posted(effectsOf(loop.handleModelResponse(call.request, response('whole', WHOLE), Date.now())));
  },
  streamed(loop, chunks) {
    const call = requestOf(effectsOf(loop.handleEvent(dm('count for me'), Date.now())));
    let streamed = 0;
    for (const chunk of chunks) {
      streamed += effectsOf(loop.handleModelResponse(call.request, response('chunk', chunk), Date.now())).filter((e) => e.effect === 'stream_text').length;
    }
    const end = effectsOf(loop.handleModelResponse(call.request, response('end'), Date.now()));
    posted(end);
    return streamed;
  },
  tool(loop) {
    const call = requestOf(effectsOf(loop.handleEvent(dm('weather in Paris?'), Date.now())));
    const tool = requestOf(effectsOf(loop.handleModelResponse(call.request, response('whole', TOOL_CALL), Date.now())), 'call_tool');
    const again = requestOf(effectsOf(loop.handleToolResult(tool.call_id, true, '{"city":"Paris","sky":"sunny","high_c":21}', Date.now())));
    posted(effectsOf(loop.handleModelResponse(again.request, response('whole', WHOLE), Date.now())));
  },
};

function loopOverhead() {
  const chunks = sseChunks(WORDS);
  const rows = [];
  const oneRead = [chunks.join('')];
  for (const kind of ['whole', 'streamed', 'streamed1', 'tool']) {
    const perTurn = [];
    let streamedEffects = 0;
    for (let run = -2; run < RUNS; run += 1) { // two warm-up runs, not counted
      const loop = new core.AgentLoop(JSON.stringify({ ...CONFIG, tools: kind === 'tool' ? 'all' : [] }));
      if (kind === 'tool') loop.setTools(TOOLS);
      const t0 = performance.now();
      for (let i = 0; i < TURNS; i += 1) {
        const n = kind === 'streamed1' ? TURN.streamed(loop, oneRead) : TURN[kind](loop, chunks);
        if (kind === 'streamed') streamedEffects = n;
      }
      const us = ((performance.now() - t0) * 1000) / TURNS;
      loop.free();
      if (run >= 0) perTurn.push(us);
    }
    rows.push({ kind, median: quantile(perTurn, 0.5), p95: quantile(perTurn, 0.95), streamedEffects });
  }
  console.log(`\n(a) the agent loop's overhead per turn (Node ${process.version}, npm package core, no network; ${RUNS} runs × ${TURNS} turns in one DM)`);
  console.log('  turn                                          median µs   p95 µs');
  for (const r of rows) {
    const what = {
      whole: 'whole answer (DM → call_model → body → post)',
      streamed: `streamed, ${WORDS} words in ${chunks.length} SSE reads`,
      streamed1: `the same stream in one read`,
      tool: 'one tool call, two model rounds',
    }[r.kind];
    console.log(`  ${what.padEnd(46)}${fmt(r.median).padStart(9)}${fmt(r.p95).padStart(9)}`);
    if (r.kind === 'streamed') console.log(`    (${fmt(r.median / (chunks.length + 2), 2)} µs per handleModelResponse call; ${r.streamedEffects} stream_text effects per turn)`);
  }
  return rows;
}

/** When (performance.now()) the first event of `type` that `match` accepts arrives. */
function arrival(agent, type, match) {
  return nextEvent(agent, type, match).then(() => performance.now());
}

async function endToEnd() {
  const KEY = 'sk-bench-0123456789abcdef0123456789abcdef';
  const edge = await startEdge();
  const provider = await startScriptedProvider({ key: KEY });
  try {
    const { id: network } = await createNetwork(edge.url, { name: 'agent bench', mods: ['workspace', 'persistence'] });
    const helper = await Agent.llm({
      url: edge.url, network, name: 'agent:bench', provider: 'openai_chat', baseUrl: provider.openaiBase,
      model: 'gpt-4o-mini', keyVar: 'BENCH_KEY', env: { BENCH_KEY: KEY }, budgets: CONFIG.budgets, onError: (err) => { if (!/closed/.test(err.message)) console.error(err.message); },
    });
    const ann = await Agent.connect({ url: edge.url, network, name: 'human:ann' });
    const answer = [];
    const firstToken = [];
    const answerAfterToken = [];
    const toModel = [];
    try {
      for (let i = -5; i < E2E; i += 1) { // five warm-up turns, not counted
        let tModel;
        provider.script('openai', [() => {
          tModel = performance.now();
          return text(`Answer ${i}: it ships Friday.`, { stream: true });
        }]);
        const question = `question ${i}`;
        let asked;
        const writing = arrival(ann, 'workspace.agent.activity', (e) => e.payload?.state === 'writing');
        const answered = arrival(ann, 'workspace.message.posted', (e) => String(e.source) === 'agent:bench' && e.payload?.content === `Answer ${i}: it ships Friday.`);
        const t0 = performance.now();
        asked = ann.post('agent:bench', question);
        const [tWriting, tAnswer] = await Promise.all([writing, answered, asked]);
        if (i < 0) continue;
        firstToken.push(tWriting - t0);
        toModel.push(tModel - t0);
        answer.push(tAnswer - t0);
        answerAfterToken.push(tAnswer - tWriting);
      }
    } finally {
      helper.close();
      ann.close();
    }
    console.log(`\n(b) end to end over the local edge, the scripted provider answering at once (${E2E} turns, a DM each)`);
    console.log('                                                      median ms   p95 ms');
    console.log(`  post → the model's request at the provider         ${fmt(quantile(toModel, 0.5)).padStart(9)}${fmt(quantile(toModel, 0.95)).padStart(9)}`);
    console.log(`  post → first "writing" activity at the person     ${fmt(quantile(firstToken, 0.5)).padStart(9)}${fmt(quantile(firstToken, 0.95)).padStart(9)}`);
    console.log(`  post → the answer at the person                    ${fmt(quantile(answer, 0.5)).padStart(9)}${fmt(quantile(answer, 0.95)).padStart(9)}`);
    console.log(`  first "writing" → the answer                       ${fmt(quantile(answerAfterToken, 0.5)).padStart(9)}${fmt(quantile(answerAfterToken, 0.95)).padStart(9)}`);
  } finally {
    await provider.close();
    await edge.stop();
  }
}

loopOverhead();
if (E2E > 0) await endToEnd();
process.exit(0);
