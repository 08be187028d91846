// App ready (a fresh browser context's goto /n/demo until "online", 5 times)
// and navigation (a click on Everyone until its newest message shows, 5
// times) against its own edge. ROOT (default: this repository) names the
// tree whose built web, edge and npm package to use, so a build of another
// commit (a git worktree) is measured the same way:
//
//   node tests/bench/web-ready.mjs [ROOT]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { startEdge } = await import(`${root}/tests/support/edge.mjs`);
const { launchBrowser } = await import(`${root}/tests/support/browser.mjs`);
const { Agent } = await import(`${root}/core/js/index.js`);
const edge = await startEdge();
const browser = await launchBrowser();
try {
  const agent = await Agent.connect({ url: edge.url, network: 'demo', name: 'agent:talk' });
  for (let n = 0; n < 30; n += 1) await agent.send('agent:broadcast', 'workspace.message.posted', { content: `hello ${n}` });
  const ready = [];
  for (let run = 0; run < 5; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const start = Date.now();
    await page.goto(`${edge.url}/n/demo`);
    await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 30_000 });
    ready.push(Date.now() - start);
    if (run < 4) { await context.close(); continue; }
    for (let n = 0; n < 10; n += 1) await agent.send('agent:broadcast', 'workspace.message.posted', { content: `live ${n}` });
    await page.locator('.message', { hasText: 'live 9' }).waitFor();
    await page.getByRole('textbox', { name: 'New channel' }).fill('side');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL('**/channel/side');
    const nav = [];
    for (let n = 0; n < 5; n += 1) {
      const t = Date.now();
      await page.getByRole('link', { name: 'Everyone' }).click();
      await page.locator('.message', { hasText: 'live 9' }).waitFor();
      nav.push(Date.now() - t);
      await page.getByRole('link', { name: '# side' }).click();
      await page.waitForURL('**/channel/side');
      await page.waitForTimeout(100);
    }
    nav.sort((a, b) => a - b);
    console.log(`navigation: median ${nav[2]} ms, ${nav[0]}–${nav[4]} ms`);
    await context.close();
  }
  ready.sort((a, b) => a - b);
  console.log(`app ready: median ${ready[2]} ms, ${ready[0]}–${ready[4]} ms`);
  agent.close();
} finally {
  await browser.close();
  await edge.stop();
}
