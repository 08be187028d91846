// Launches Debian's Chromium through playwright-core with the flags this
// machine needs (no sandbox as root, no background networking), and the
// steps browser tests share. Every page of a browser launched here is
// watched for the workspace's bug report (web/src/panic.rs): a panic fails
// the file that saw it, even when the test's own steps went on to pass.

import { before, after } from 'node:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { createNetwork, freePort, startEdge } from './edge.mjs';
import { Agent } from '../../core/js/index.js';
import { until } from './waits.mjs';
import { watchNavigations } from './navigation.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const options = (args) => ({ executablePath: CHROMIUM_PATH, headless: true, args: [...FLAGS, ...args] });

/** How web/js/failure.js begins the console error it logs when the workspace panics. */
const BUG_REPORT = 'The workspace stopped because of a bug';
/** The panics the pages of this file reported, each with its page and the page's uncaught errors before it. */
const bugsSeen = [];
/** Pages where a test panics the workspace on purpose, and the reports they made. */
const panickedOnPurpose = new WeakSet();
const reportedOnPurpose = [];

/** The bug reports of pages marked with `expectBug`: proof the watch sees a panic. */
export function bugsReportedOnPurpose() {
  return [...reportedOnPurpose];
}

/** Marks `page` as one where the test panics the workspace on purpose: its report fails nothing. */
export function expectBug(page) {
  panickedOnPurpose.add(page);
}

function watchPage(page) {
  watchNavigations(page);
  // An exception thrown through the wasm (a browser API that throws) leaves its Rust state
  // half-borrowed, and the panic that follows names only the borrow: keep what came before.
  const thrown = [];
  page.on('pageerror', (error) => thrown.push(String(error?.stack ?? error)));
  page.on('console', (message) => {
    if (message.type() !== 'error' || !message.text().startsWith(BUG_REPORT)) return;
    if (panickedOnPurpose.has(page)) {
      reportedOnPurpose.push(message.text());
      return;
    }
    const before = thrown.length ? `\n  uncaught before it:\n    ${thrown.join('\n    ')}` : '';
    bugsSeen.push(`${page.url()}: ${message.text()}${before}`);
  });
}

function watchContext(context) {
  context.on('page', watchPage);
  for (const page of context.pages()) watchPage(page);
  return context;
}

after(() => {
  if (bugsSeen.length) throw new Error(`the workspace reported a bug:\n${bugsSeen.join('\n')}`);
});

/** Launches Chromium; `args` adds flags (e.g. `--host-resolver-rules` to give 127.0.0.1 other names). */
export async function launchBrowser({ args = [] } = {}) {
  const browser = await chromium.launch(options(args));
  // `newPage` opens its context through `newContext` too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...given) => watchContext(await newContext(...given));
  return browser;
}

/** Chromium with a profile kept in `dir` (not incognito, as a person's browser is): one context. */
export async function launchProfile(dir, { args = [] } = {}) {
  return watchContext(await chromium.launchPersistentContext(dir, options(args)));
}

/**
 * Opens `href` in `page` and waits until the workspace there has joined its network. The wait is
 * for the workspace to say so, not for the page's load event: on a busy machine a stylesheet or
 * the boot script can be slow to come, and the person waits for the conversation, not for it.
 */
async function openOnline(page, href) {
  await page.goto(href, { waitUntil: 'domcontentloaded' });
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 30_000 });
}

/** Opens the workspace at `url` in `page` and waits until it has joined its network. */
export function openWorkspace(page, url) {
  return openOnline(page, `${url}/`);
}

/** Opens network `id`'s workspace at `path` in `page` and waits until it has joined. */
export function openNetwork(page, url, id, path = '') {
  return openOnline(page, `${url}/n/${id}${path}`);
}

/**
 * A network called `name` on the started edge with an npm agent `agentName`
 * in it and two people, each in a browser context of their own, its
 * workspace open at 1366×768 and online: `{id, agent, pages, close()}`;
 * with `heardType`, also `heard`: the events of that type the agent hears from then on.
 */
export async function twoPeople(started, name, agentName, heardType) {
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
  const heard = [];
  if (heardType) agent.on(heardType, (event) => heard.push(event));
  return { id, agent, pages, close, heard };
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
 * Creates the channel `name` from `page`'s Conversations navigation and waits for it to open;
 * resolves with the navigation.
 */
export async function createChannelFromNav(page, name) {
  const nav = page.getByRole('navigation', { name: 'Conversations' });
  await nav.getByRole('textbox', { name: 'New channel' }).fill(name);
  await nav.getByRole('button', { name: 'Create' }).click();
  await page.waitForURL(`**/channel/${name}`);
  return nav;
}

/**
 * `agent` joins the channel `name` a page has just created. The page opens the channel before
 * the network has stored it (its create event is still on the way, or queued behind others on
 * a busy machine), so a join that comes first is refused with `unknown_target`; it is tried
 * again until the channel exists. Any other refusal fails at once.
 */
export async function joinCreatedChannel(agent, name) {
  return until(`the network to have channel/${name}`, async () => {
    try {
      return await agent.joinChannel(name);
    } catch (error) {
      if (error?.code === 'unknown_target') return undefined;
      throw error;
    }
  });
}

/** The Resources panel's entry for `address` on `page`, once a refresh shows it. */
export async function refreshedResource(page, address) {
  const resources = page.getByRole('region', { name: 'Resources' });
  await resources.getByRole('button', { name: 'Refresh' }).click();
  const item = resources.locator(`.resource[data-address="${address}"]`);
  await item.waitFor({ timeout: 10_000 });
  return item;
}

/** The person posts `text` from a composer (by default the open conversation's) with its Send button. */
export async function say(page, text, composer = page.locator('.conversation-column .composer')) {
  await composer.getByRole('textbox').fill(text);
  await composer.getByRole('button', { name: 'Send' }).click();
}

/**
 * From the open workspace, the person creates the network `name` that anyone with the link may
 * join, dismisses its invitation and waits to be online in it: the new network's id.
 */
export async function createOpenNetwork(page, name) {
  const bar = page.getByRole('navigation', { name: 'Networks' });
  await bar.locator('summary').click();
  await bar.getByRole('button', { name: 'Create a network' }).click();
  await bar.getByLabel('Network name').fill(name);
  await bar.getByRole('radio', { name: 'Anyone with the link' }).check();
  await bar.getByRole('button', { name: 'Create network' }).click();
  await page.locator('.topbar .network:not([data-id="demo"])').waitFor({ timeout: 10_000 });
  await page.getByRole('button', { name: 'Done' }).click({ timeout: 15_000 });
  await page.getByRole('status').filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
  return page.locator('.topbar .network').getAttribute('data-id');
}

/**
 * The person types `text` into the page's message box and presses Enter; once the message that
 * shows `shown` is sent: that message and its id.
 */
export async function postAndWaitSent(page, text, shown = text) {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  const message = page.locator('.message', { hasText: shown });
  await message.locator('.state', { hasText: 'sent' }).waitFor({ timeout: 10_000 });
  return { message, id: await message.getAttribute('data-id') };
}

/**
 * Resolves once `page` has painted twice: what it does in answer to an event
 * it was just sent (a scroll, a click) has run and shown.
 */
export function nextFrames(page) {
  return page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * The rows the workspace keeps in IndexedDB for `network` in `page` (keys as
 * web/src/storage.rs writes them: `l:` log, `o:` outbox, `w` watermark, …):
 * `{rows, bytes, kinds, appended, newest}` — how many, how many of each kind
 * (by the key's prefix), their JSON size, the rows an older version appended,
 * and the JSON of the newest log row.
 */
export function storedRows(page, network) {
  return page.evaluate(async (network) => {
    const db = await new Promise((resolve, reject) => {
      const request = indexedDB.open('agentnet');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const store = db.transaction('kept', 'readonly').objectStore('kept');
    const records = await new Promise((resolve, reject) => {
      const request = store.getAll(IDBKeyRange.bound([network, ''], [network, '\uffff']));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const appended = await new Promise((resolve) => {
      const request = db.transaction('rows', 'readonly').objectStore('rows').count();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    const kinds = {};
    for (const r of records) kinds[r.key.split(':')[0]] = (kinds[r.key.split(':')[0]] ?? 0) + 1;
    const logged = records.filter((r) => r.key.startsWith('l:')).sort((a, b) => (a.key < b.key ? -1 : 1));
    const newest = logged.length ? JSON.stringify(logged[logged.length - 1]) : '';
    return { rows: records.length, bytes: JSON.stringify(records).length, kinds, appended, newest };
  }, network);
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

/**
 * For a file whose edge is killed and started again over what it stored: `start()` starts an edge
 * on a free port over a new folder named for `prefix`, and Chromium; `restart()` starts the edge
 * again on that port over that folder. The setup's `edge` and `browser` are the current ones;
 * after the file's tests both are stopped and the folder removed.
 */
export function restartableEdgeAndBrowser(prefix) {
  const setup = {};
  setup.start = async () => {
    setup.stateDir = await mkdtemp(join(tmpdir(), prefix));
    setup.port = await freePort();
    setup.edge = await startEdge({ stateDir: setup.stateDir, port: setup.port });
    setup.browser = await launchBrowser();
    return setup;
  };
  setup.restart = async () => {
    setup.edge = await startEdge({ stateDir: setup.stateDir, port: setup.port });
    return setup.edge;
  };
  after(async () => {
    await setup.browser?.close();
    await setup.edge?.stop();
    if (setup.stateDir) await rm(setup.stateDir, { recursive: true, force: true });
  });
  return setup;
}

/**
 * A new 1280×720 page of the workspace at `url`, once it is online and its service worker has the
 * shell: `{context, page, status, human}`, `human` the address the page is.
 */
export async function onlineWorkspacePage(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(`${url}/`);
  const status = page.getByRole('status');
  await status.filter({ hasText: 'online' }).waitFor({ timeout: 15_000 });
  await page.evaluate(() => navigator.serviceWorker.ready);
  const human = (await page.locator('.me').getAttribute('data-address')).trim();
  return { context, page, status, human };
}
