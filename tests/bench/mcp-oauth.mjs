// Benchmark: MCP's whole authorization handshake, as the official SDK client
// (@modelcontextprotocol/sdk 1.x, StreamableHTTPClientTransport with an
// authProvider) and a person in Chromium go through it, on loopback through
// `wrangler dev`.
// Run: node tests/bench/mcp-oauth.mjs [runs]  (after ./scripts/test or ./scripts/run has built everything)
// Prints, over `runs` handshakes (default 10; each a new client and a new
// member of one open network), p50 and max of each phase:
//   discovery    connect → 401 → protected-resource and authorization-server
//                metadata → registration, until the SDK redirects to the consent page
//   consent      Chromium loads the page, fills a name, submits; the join;
//                the 303 reaches the client's loopback redirect URI
//   token        finishAuth: the code and PKCE verifier for tokens
//   first call   a new connection with the token: initialize and tools/list
//   total        all of it

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { launchBrowser } from '../support/browser.mjs';
import { createNetwork, startEdge } from '../support/edge.mjs';
import { MemoryProvider, atConsentPage, startCallback } from '../support/oauth.mjs';
import { quantile } from './stats.mjs';

const runs = Number(process.argv[2] ?? 10);

const [edge, browser, callback] = await Promise.all([startEdge(), launchBrowser(), startCallback()]);
try {
  const { id } = await createNetwork(edge.url, { name: 'Handshakes' });
  const endpoint = new URL(`${edge.url}/networks/${id}/mcp`);
  const phases = { discovery: [], consent: [], token: [], 'first call': [], total: [] };
  for (let run = 0; run < runs; run += 1) {
    const marks = [performance.now()];
    let code;
    const provider = new MemoryProvider(callback.url, async (url) => {
      marks.push(performance.now());
      const arrived = callback.next();
      const { context } = await atConsentPage(browser, url, { network: 'Handshakes', name: `bench-${run}` });
      code = (await arrived).searchParams.get('code');
      marks.push(performance.now());
      await context.close();
    });
    const first = new StreamableHTTPClientTransport(endpoint, { authProvider: provider });
    await new Client({ name: 'bench', version: '1' }).connect(first).then(
      () => { throw new Error('connected without authorization'); },
      (err) => { if (err.constructor.name !== 'UnauthorizedError') throw err; },
    );
    await first.finishAuth(code);
    marks.push(performance.now());
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(endpoint, { authProvider: provider }));
    await client.listTools();
    marks.push(performance.now());
    await client.close();
    Object.values(phases).slice(0, 4).forEach((list, i) => list.push(marks[i + 1] - marks[i]));
    phases.total.push(marks[4] - marks[0]);
  }
  console.log(`MCP OAuth handshake, ${runs} runs (SDK 1.x client + Chromium, wrangler dev on loopback)`);
  for (const [phase, values] of Object.entries(phases)) {
    console.log(`${phase.padEnd(11)} p50 ${quantile(values, 0.5).toFixed(1).padStart(7)} ms   max ${Math.max(...values).toFixed(1).padStart(7)} ms`);
  }
} finally {
  await browser.close();
  await callback.stop();
  await edge.stop();
}
