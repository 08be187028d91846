// LLM agents: first token to screen (docs/agents.md). A person in Chromium
// (Debian's chromium through playwright-core, tests/support/browser.mjs)
// sends a direct message to an `Agent.llm` member from the workspace
// composer; the model is a tiny local OpenAI-shaped server that streams its
// first word at once and the rest 300 ms later. Measured in the page's own
// clock: from the Send click to the first streamed text shown in the pending
// entry, and to the answer shown in its place. Prints figures; asserts no
// timings. The model's own time is excluded (it answers at once); what is
// measured is the loop, the SDK, the edge, the WebSocket to the page and its
// rendering.
//
//   node tests/bench/agent-latency.mjs [--turns 20] [--raw]
//
// Needs the npm package's core, the web workspace and the local edge built:
// bash -c 'source scripts/lib.sh; build_js_package; build_web; build_edge'

import { createServer } from 'node:http';
import { Agent } from '../../core/js/index.js';
import { createNetwork, startEdge } from '../support/edge.mjs';
import { launchBrowser } from '../support/browser.mjs';
import { quantile } from './stats.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const TURNS = arg('turns', 20);
const REST_AFTER_MS = 300;

/** An OpenAI-shaped streaming model: the first word at once, the rest after REST_AFTER_MS. */
async function startModel() {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      n += 1;
      const chunk = (delta, finish = null) => `data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
      res.write(chunk({ role: 'assistant', content: '' }) + chunk({ content: `Reply${n}` }));
      await new Promise((resolve) => setTimeout(resolve, REST_AFTER_MS));
      res.end(`${chunk({ content: ` number ${n}, done.` })}${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${server.address().port}/v1`, close: () => { server.closeAllConnections(); return new Promise((r) => server.close(r)); } };
}

// In the page: the Send click's time, and when the pending entry first shows
// text and when the answer shows, for each round (performance.now()).
const RECORD = () => {
  window.__rounds = [];
  document.addEventListener('click', (e) => {
    if (e.target.closest?.('.composer button') && /Send/.test(e.target.closest('button').textContent + (e.target.closest('button').getAttribute('aria-label') ?? ''))) {
      window.__rounds.push({ sent: performance.now() });
    }
  }, true);
  new MutationObserver(() => {
    const round = window.__rounds.at(-1);
    if (!round) return;
    const n = window.__rounds.length;
    if (round.text === undefined && [...document.querySelectorAll('.message.answering .markdown')].some((m) => m.textContent.trim())) round.text = performance.now();
    if (round.answer === undefined && [...document.querySelectorAll('.message:not(.answering) .markdown')].some((m) => m.textContent.includes('done.') && m.textContent.includes(`Reply${n} `))) round.answer = performance.now();
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
};

const edge = await startEdge();
const model = await startModel();
const browser = await launchBrowser();
try {
  const { id } = await createNetwork(edge.url, { name: 'latency', mods: ['workspace', 'persistence'] });
  const helper = await Agent.llm({
    url: edge.url, network: id, name: 'agent:bench', provider: 'openai_chat', baseUrl: model.base,
    model: 'gpt-4o-mini', keyVar: 'BENCH_KEY', env: { BENCH_KEY: 'sk-bench' },
    budgets: { calls_per_hour: 1_000_000, tokens_per_hour: 1_000_000_000 }, onError: (err) => console.error(err.message),
  });
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  await page.goto(`${edge.url}/n/${id}/with/agent:bench`);
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
  await page.evaluate(RECORD);
  const composer = page.locator('.conversation-column .composer');
  const warmup = 3;
  for (let i = 0; i < warmup + TURNS; i += 1) {
    await composer.getByRole('textbox').fill(`question ${i + 1}`);
    await composer.getByRole('button', { name: 'Send' }).click();
    await page.waitForFunction((n) => window.__rounds.length === n && window.__rounds.at(-1).answer !== undefined, i + 1, { timeout: 30_000 });
  }
  const rounds = (await page.evaluate(() => window.__rounds)).slice(warmup);
  const firstText = rounds.filter((r) => r.text !== undefined).map((r) => r.text - r.sent);
  const answer = rounds.map((r) => r.answer - r.sent);
  const fmt = (v) => v.toFixed(1).padStart(9);
  console.log(`\nfirst token to screen in Chromium (${TURNS} direct messages from the composer; the model's first word at once, the rest ${REST_AFTER_MS} ms later)`);
  console.log('                                                  median ms   p95 ms');
  console.log(`  Send click → first streamed text in the page  ${fmt(quantile(firstText, 0.5))}${fmt(quantile(firstText, 0.95))}   (${firstText.length}/${rounds.length} rounds showed text)`);
  console.log(`  Send click → the answer in the page           ${fmt(quantile(answer, 0.5))}${fmt(quantile(answer, 0.95))}   (includes the model's ${REST_AFTER_MS} ms)`);
  if (process.argv.includes('--raw')) console.log('  first text, sorted (ms):', firstText.sort((a, b) => a - b).map((v) => v.toFixed(0)).join(' '));
  await page.close();
  helper.close();
} finally {
  await browser.close();
  await model.close();
  await edge.stop();
}
process.exit(0);
