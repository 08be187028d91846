// The workspace's "Also when this tab is closed" setting in Chromium against
// a real edge: it subscribes through the service worker's PushManager with
// the network's VAPID key and registers the subscription with the edge,
// whose push then reaches a local push service (tests/support/push-receiver.mjs
// checks the VAPID token and decrypts with Node's crypto); unticking it
// removes it; the service worker shows a push (delivered through the
// DevTools protocol) with its tag and place. Screenshots of the setting at
// both sizes and schemes.
//
// Headless Chromium has no push service to subscribe with (the real
// PushManager.subscribe is tried first and its refusal recorded), so the
// page's PushManager answers a subscription whose keys this test made and
// whose endpoint is the local receiver. Everything else is real: the key
// read from the edge, the member's session, the registration, the push.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { launchBrowser, openNetwork } from '../../support/browser.mjs';
import { until } from '../../support/process.mjs';
import { makeSubscription, startReceiver, vapidClaims } from '../../support/push-receiver.mjs';
import { shoot, WIDE } from '../../support/shots.mjs';

let edge;
let browser;
let receiver;

before(async () => {
  receiver = await startReceiver();
  edge = await startEdge({ allowLocalFetches: true });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await edge?.stop();
  await receiver?.close();
});

// The page's PushManager, answering the test's subscription (see above).
const STUB_PUSH = ({ endpoint, p256dh, auth }) => {
  const realSubscribe = PushManager.prototype.subscribe;
  window.__realSubscribe = async (key) => {
    const registration = await navigator.serviceWorker.ready;
    try {
      await realSubscribe.call(registration.pushManager, { userVisibleOnly: true, applicationServerKey: key });
      return 'subscribed';
    } catch (err) {
      return `${err.name}: ${err.message}`;
    }
  };
  window.__push = { subscribed: [], unsubscribed: 0 };
  let current = null;
  const subscription = {
    endpoint,
    options: null,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: async () => { window.__push.unsubscribed += 1; current = null; return true; },
  };
  PushManager.prototype.subscribe = async function subscribe(options) {
    const key = new Uint8Array(options.applicationServerKey);
    window.__push.subscribed.push({ userVisibleOnly: options.userVisibleOnly, key: btoa(String.fromCharCode(...key)) });
    subscription.options = { userVisibleOnly: true, applicationServerKey: key.buffer };
    current = subscription;
    return subscription;
  };
  PushManager.prototype.getSubscription = async function getSubscription() { return current; };
};

test('the setting subscribes this browser, the edge pushes to it, and unticking removes it', async () => {
  const { id } = await createNetwork(edge.url, { name: 'Push', mods: ['workspace', 'persistence'] });
  const sub = makeSubscription(`${receiver.origin}/push/page`);
  const context = await browser.newContext({ viewport: WIDE });
  await context.grantPermissions(['notifications'], { origin: edge.url });
  await context.addInitScript(STUB_PUSH, { endpoint: sub.json.endpoint, ...sub.json.keys });
  const page = await context.newPage();
  const agent = await Agent.connect({ url: edge.url, network: id, name: 'agent:courier' });
  try {
    await openNetwork(page, edge.url, id);
    const me = await page.locator('.me').getAttribute('data-address');
    const { key } = await (await fetch(`${edge.url}/networks/${id}/v1/push/key`)).json();
    const real = await page.evaluate(async (k) => {
      const b64 = k.replace(/-/g, '+').replace(/_/g, '/');
      return window.__realSubscribe(Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0)));
    }, key);
    console.log(`headless Chromium's own PushManager.subscribe: ${real}`);

    const box = page.getByRole('checkbox', { name: 'Also when this tab is closed' });
    await box.waitFor();
    assert.equal(await box.isChecked(), false);
    await box.check();
    await until('subscribed', async () => (await page.evaluate(() => window.__push.subscribed.length)) >= 1
      && (await box.isChecked()) && !(await box.isDisabled()));
    const pushed = await page.evaluate(() => window.__push);
    assert.equal(pushed.subscribed.length, 1);
    assert.equal(pushed.subscribed[0].userVisibleOnly, true);
    assert.equal(Buffer.from(pushed.subscribed[0].key, 'base64').toString('base64url'), key, 'subscribed with the network key');
    // On a phone the setting is in the menu sheet: opened for its picture, closed after.
    const menu = page.locator('.sheet-toggle.menu');
    await shoot(page, 'notifications-push', async (_, viewport) => {
      if (viewport.width < 600 && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
      await page.locator('.push-setting').waitFor();
    });
    if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'true') await menu.click();

    // An agent writes to the person: the edge pushes it to the subscription.
    const from = receiver.received.length;
    await agent.send(me, 'workspace.message.posted', { content: 'your parcel is here' });
    const push = await receiver.next('/push/page', from);
    assert.equal(vapidClaims(push, key).aud, receiver.origin);
    const shown = sub.decrypt(push.body);
    assert.equal(shown.title, 'agent:courier wrote to you');
    assert.equal(shown.body, 'your parcel is here');
    assert.match(shown.url, new RegExp(`^/n/${id}/with/agent:courier\\?message=`));

    // Unticked: removed at the edge and in the browser; the next message is not pushed.
    await box.uncheck();
    // Waits for the browser's subscription to go (what the switch is for), then for the switch to settle.
    await until('unsubscribed', async () => (await page.evaluate(() => window.__push.unsubscribed)) >= 1
      && !(await box.isChecked()) && !(await box.isDisabled()));
    assert.equal(await page.evaluate(() => window.__push.unsubscribed), 1);
    assert.equal(await page.locator('.push-problem').count(), 0);
    // One message for the person and a watcher with a subscription of its
    // own: the edge sends one event's pushes in turn, the person's first, so
    // when the watcher's arrives the person's would have.
    const watcher = makeSubscription(`${receiver.origin}/push/watch`);
    const joined = await (await fetch(`${edge.url}/networks/${id}/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'human:watch' }) })).json();
    const added = await fetch(`${edge.url}/networks/${id}/v1/push/subscriptions`, {
      method: 'POST', headers: { authorization: `Bearer ${joined.token}` }, body: JSON.stringify(watcher.json),
    });
    assert.equal(added.status, 201);
    const later = receiver.received.length;
    await agent.send('agent:broadcast', 'workspace.message.posted', { content: `@${me} @human:watch not pushed to you` });
    assert.equal(watcher.decrypt((await receiver.next('/push/watch', later)).body).title, 'agent:courier mentioned you');
    assert.deepEqual(receiver.received.slice(later).map((p) => p.path), ['/push/watch'], 'nothing pushed to the page after unticking');
  } finally {
    agent.close();
    await context.close();
  }
});

test('the service worker shows a pushed notice while no workspace window is open, tagged and pointing at its place', async () => {
  const { id } = await createNetwork(edge.url, { name: 'Push SW', mods: ['workspace'] });
  const context = await browser.newContext({ viewport: WIDE });
  await context.grantPermissions(['notifications'], { origin: edge.url });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    const registrations = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: r }) => registrations.push(...r));
    await cdp.send('ServiceWorker.enable');
    await page.goto(`${edge.url}/n/${id}`);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
    const registration = await until('the service worker registration', async () =>
      registrations.find((r) => r.scopeURL.startsWith(edge.url) && !r.isDeleted) ?? null);
    // No window of the workspace in front: the push is shown.
    await page.goto('about:blank');
    const notice = { title: 'agent:bot answered you', body: 'noon', tag: 'event-1', url: `/n/${id}/with/agent:bot` };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: edge.url, registrationId: registration.registrationId, data: JSON.stringify(notice),
    });
    await page.goto(`${edge.url}/n/${id}`);
    const shown = await until('the notification', async () => {
      const list = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications())
        .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data?.url })));
      return list.length ? list : null;
    });
    assert.deepEqual(shown, [notice]);
  } finally {
    await context.close();
  }
});
