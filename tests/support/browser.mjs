// Launches Debian's Chromium through playwright-core with the flags this
// machine needs (no sandbox as root, no background networking), and the
// steps browser tests share.

import { before, after } from 'node:test';
import { chromium } from 'playwright-core';
import { createNetwork, startEdge } from './edge.mjs';
import { Agent } from '../../core/js/index.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const options = (args) => ({ executablePath: CHROMIUM_PATH, headless: true, args: [...FLAGS, ...args] });

/** Launches Chromium; `args` adds flags (e.g. `--host-resolver-rules` to give 127.0.0.1 other names). */
export function launchBrowser({ args = [] } = {}) {
  return chromium.launch(options(args));
}

/** Chromium with a profile kept in `dir` (not incognito, as a person's browser is): one context. */
export function launchProfile(dir, { args = [] } = {}) {
  return chromium.launchPersistentContext(dir, options(args));
}

/** Opens the workspace at `url` in `page` and waits until it has joined its network. */
export async function openWorkspace(page, url) {
  await page.goto(`${url}/`);
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
}

/** Opens network `id`'s workspace at `path` in `page` and waits until it has joined. */
export async function openNetwork(page, url, id, path = '') {
  await page.goto(`${url}/n/${id}${path}`);
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
}

/**
 * A network called `name` on the started edge with an npm agent `agentName`
 * in it and two people, each in a browser context of their own, its
 * workspace open at 1366×768 and online: `{id, agent, pages, close()}`.
 */
export async function twoPeople(started, name, agentName) {
  const { id } = await createNetwork(started.edge.url, { name, mods: ['workspace', 'persistence'] });
  const agent = await Agent.connect({ url: started.edge.url, network: id, name: agentName });
  const contexts = [await started.browser.newContext(), await started.browser.newContext()];
  const pages = [];
  for (const context of contexts) {
    const page = await context.newPage({ viewport: { width: 1366, height: 768 } });
    await openNetwork(page, started.edge.url, id);
    pages.push(page);
  }
  const close = async () => {
    agent.close();
    for (const context of contexts) await context.close();
  };
  return { id, agent, pages, close };
}

/**
 * Opens the file or context at `address` in the workspace's resources panel
 * `resources` (its Open button) and waits for its editor; resolves with the
 * resource's list item and its text box.
 */
export async function openResource(resources, address) {
  const item = resources.locator(`.resource[data-address="${address}"]`);
  const kind = address.startsWith('resource/context/') ? 'context' : 'file';
  await item.getByRole('button', { name: `Open ${kind}` }).click();
  const text = item.getByRole('textbox', { name: /Content of/ });
  await text.waitFor({ timeout: 10_000 });
  return { item, text };
}

/**
 * Starts an edge and Chromium before the file's tests and stops both after:
 * returns `{edge, browser}`, filled in once the tests run.
 */
export function edgeAndBrowser() {
  const started = {};
  before(async () => {
    started.edge = await startEdge();
    started.browser = await launchBrowser();
  });
  after(async () => {
    await started.browser?.close();
    await started.edge?.stop();
  });
  return started;
}
