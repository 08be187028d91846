// The workspace's URLs and its first paint: a channel, thread, event or
// document can be linked to, a link opened in a new tab lands there, Back
// returns; the app shell shows before the wasm has loaded and a failed load
// says so; the app is installable (manifest, icons) and follows the
// system's dark mode.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bugsReportedOnPurpose, edgeAndBrowser, expectBug, launchProfile, openWorkspace, postAndWaitSent } from '../../support/browser.mjs';
import { until } from '../../support/waits.mjs';

const started = edgeAndBrowser();

/** Waits until `page` has joined its network. */
function online(page) {
  return page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
}

test('deep links land on the right channel, thread and event in a new tab, and Back returns', async () => {
  const context = await started.browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  try {
    await openWorkspace(page, started.edge.url);
    assert.equal(new URL(page.url()).pathname, '/n/demo', '/ opens the network open last');

    // A new channel is a place with a URL.
    const channel = `plan-${Date.now() % 100000}`;
    const nav = page.getByRole('navigation', { name: 'Conversations' });
    await nav.getByRole('textbox', { name: 'New channel' }).fill(channel);
    await nav.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(`**/n/demo/channel/${channel}`);
    await nav.getByRole('link', { name: `# ${channel}` }).and(page.locator('[aria-current="page"]')).waitFor();
    const { id } = await postAndWaitSent(page, 'the plan, in its channel');

    // The channel's link, opened in a new tab, lands in that channel.
    const tab = await context.newPage();
    await tab.goto(`${started.edge.url}/n/demo/channel/${channel}`);
    await online(tab);
    const tabNav = tab.getByRole('navigation', { name: 'Conversations' });
    await tabNav.getByRole('link', { name: `# ${channel}` }).and(tab.locator('[aria-current="page"]')).waitFor();
    await tab.locator(`.message[data-id="${id}"]`).waitFor({ timeout: 10_000 });
    assert.equal(await tab.locator('.message', { hasText: 'not in this channel' }).count(), 0);

    // A message posted to everyone stays out of the channel; a thread link shows the thread.
    const agent = await Agent.connect({ url: started.edge.url, network: 'demo', name: 'agent:linker' });
    try {
      await agent.joinChannel(channel);
      await agent.send(`channel/${channel}`, 'workspace.message.posted', { content: 'a reply in the thread' }, {
        metadata: { in_reply_to: id },
      });
      await agent.send(`channel/${channel}`, 'workspace.message.posted', { content: 'another topic' });
      await agent.send('agent:broadcast', 'workspace.message.posted', { content: 'not in this channel' });
    } finally {
      agent.close();
    }
    // New messages land in a live region screen readers announce.
    const log = tab.getByRole('log', { name: 'Messages' });
    await log.locator('.message', { hasText: 'another topic' }).waitFor({ timeout: 10_000 });
    assert.equal(await log.getAttribute('aria-live'), 'polite');
    assert.equal(await tab.locator('.message', { hasText: 'not in this channel' }).count(), 0);
    await tab.locator(`.message[data-id="${id}"]`).getByRole('link', { name: /Thread of/ }).click();
    await tab.waitForURL(`**/n/demo/thread/${id}`);
    // (On a wide screen the thread opens beside the conversation.)
    const threadPane = tab.getByRole('region', { name: 'Thread' });
    await threadPane.locator('.message', { hasText: 'a reply in the thread' }).waitFor();
    assert.equal(await threadPane.locator('.message', { hasText: 'another topic' }).count(), 0, 'a thread shows only itself');

    // Back: the thread, then the channel again, with all its messages.
    await tab.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Inspector' }).click();
    await tab.waitForURL('**/n/demo/inspector');
    await tab.getByRole('region', { name: 'Event inspector' }).waitFor();
    await tab.goBack();
    await tab.waitForURL(`**/n/demo/thread/${id}`);
    await tab.getByText('Back to the conversation').waitFor();
    await tab.goBack();
    await tab.waitForURL(`**/n/demo/channel/${channel}`);
    await tab.locator('.message', { hasText: 'another topic' }).waitFor();
    await tab.goForward();
    await tab.waitForURL(`**/n/demo/thread/${id}`);
    assert.equal(await threadPane.locator('.message', { hasText: 'another topic' }).count(), 0);

    // A thread's link in yet another tab.
    const threadTab = await context.newPage();
    await threadTab.goto(`${started.edge.url}/n/demo/thread/${id}`);
    const linkedThread = threadTab.getByRole('region', { name: 'Thread' });
    await linkedThread.locator('.message', { hasText: 'a reply in the thread' }).waitFor({ timeout: 15_000 });
    await linkedThread.locator(`.message[data-id="${id}"]`).waitFor();

    // An event's link opens the inspector at it.
    await threadTab.goto(`${started.edge.url}/n/demo/event/${id}`);
    const inspector = threadTab.getByRole('region', { name: 'Event inspector' });
    const event = inspector.locator(`.event[data-id="${id}"] details[open]`);
    await event.waitFor({ timeout: 15_000 });
    assert.match(await event.locator('.json').textContent(), /the plan, in its channel/);

    // A path that names nothing says so.
    await threadTab.goto(`${started.edge.url}/n/demo/nowhere`);
    await threadTab.getByRole('alert').filter({ hasText: 'There is nothing at this address.' }).waitFor();
    // The edge's own paths are still the edge's (not the app's page).
    const profile = await threadTab.request.get(`${started.edge.url}/networks/demo/v1/profile`);
    assert.equal(profile.headers()['content-type']?.startsWith('application/json'), true);
  } finally {
    await context.close();
  }
});

test('a network link switches networks and Back returns to the one before', async () => {
  const created = await fetch(`${started.edge.url}/v1/networks`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'routes', mods: ['workspace', 'persistence'] }),
  }).then((r) => r.json());
  const context = await started.browser.newContext();
  const page = await context.newPage();
  try {
    await openWorkspace(page, started.edge.url);
    // A link to a network not joined yet joins it.
    await page.goto(`${started.edge.url}/n/${created.id}/about`);
    await online(page);
    await page.getByRole('region', { name: 'About this network' }).getByText('routes').first().waitFor();
    const bar = page.getByRole('navigation', { name: 'Networks' });
    await bar.locator(`a[data-id="${created.id}"][aria-current="page"]`).waitFor();
    await bar.getByRole('link', { name: 'demo' }).click();
    await page.waitForURL('**/n/demo');
    await page.locator('.topbar .network[data-id="demo"]').waitFor();
    await online(page);
    await page.goBack();
    await page.waitForURL(`**/n/${created.id}/about`);
    await page.locator(`.topbar .network[data-id="${created.id}"]`).waitFor();
  } finally {
    await context.close();
  }
});

test('the app shell shows before the wasm has loaded, and a failed load says why', async () => {
  const context = await started.browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  try {
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/pkg/agentnet_web_bg.wasm', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${started.edge.url}/n/demo`);
    await page.getByRole('heading', { name: 'agentnet' }).waitFor({ timeout: 5_000 });
    await page.getByRole('status').filter({ hasText: 'Loading the workspace' }).waitFor();
    release();
    await online(page);
    assert.equal(await page.locator('#shell').count(), 0, 'the shell gives way to the app');
    // A panic in the running app is reported in the page with its message, not left as a trap.
    expectBug(page);
    const trapped = await page.evaluate(async () => {
      const app = await import('/pkg/agentnet_web.js');
      try {
        app.panicForTest('a bug on purpose');
        return 'no trap';
      } catch (err) {
        return String(err);
      }
    });
    assert.match(trapped, /unreachable/, 'the panic still stops the wasm');
    const stopped = page.getByRole('alert').filter({ hasText: 'The workspace stopped because of a bug' });
    await stopped.waitFor({ timeout: 5_000 });
    assert.match(await stopped.textContent(), /a bug on purpose/);
    // The browser tests' watch (support/browser.mjs) saw it: a panic anywhere else fails its file.
    await until('the watch to see the report', () => bugsReportedOnPurpose().some((r) => r.includes('a bug on purpose')));
    await stopped.getByRole('button', { name: 'Reload' }).waitFor();

    const broken = await context.newPage();
    await broken.route('**/pkg/agentnet_web_bg.wasm', (route) => route.abort());
    await broken.goto(`${started.edge.url}/n/demo`);
    const failure = broken.getByRole('alert').filter({ hasText: 'The workspace could not load' });
    await failure.waitFor({ timeout: 10_000 });
    assert.match(await failure.textContent(), /reload the page/);
    await failure.getByRole('button', { name: 'Reload' }).waitFor();
    assert.equal(await broken.getByRole('status').filter({ hasText: 'Loading' }).count(), 0);
  } finally {
    await context.close();
  }
});

test('the workspace is installable and follows the system dark mode', async () => {
  // A profile on disk, as a person's browser has (Chromium installs nothing from incognito).
  const profile = await mkdtemp(join(tmpdir(), 'agentnet-install-'));
  const context = await launchProfile(profile);
  const page = await context.newPage();
  try {
    await openWorkspace(page, started.edge.url);
    const manifest = await (await page.request.get(`${started.edge.url}/manifest.webmanifest`)).json();
    assert.equal(manifest.start_url, '/');
    assert.equal(manifest.display, 'standalone');
    for (const size of [192, 512]) {
      const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}`);
      const png = Buffer.from(await (await page.request.get(`${started.edge.url}${icon.src}`)).body());
      assert.equal(png.subarray(1, 4).toString(), 'PNG');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [size, size], icon.src);
    }
    const cdp = await page.context().newCDPSession(page);
    const { errors } = await cdp.send('Page.getAppManifest');
    assert.deepEqual(errors, [], 'the manifest parses');
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, [], 'Chromium can install it');

    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    assert.equal(await background(), 'rgb(246, 247, 249)');
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await background(), 'rgb(18, 22, 28)');
    const ink = await page.evaluate(() => getComputedStyle(document.querySelector('.chat')).color);
    assert.equal(ink, 'rgb(230, 234, 239)', 'light text on the dark background');
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
});
