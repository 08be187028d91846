// Web Push for the workspace (web/src/chat/attention/push.rs shows the setting):
// subscribing this browser through the service worker's PushManager with
// the network's VAPID key, and handing the subscription to the edge
// (`POST /networks/{id}/v1/push/subscriptions` with a session of the
// person's own, from a join with their member secret); turning it off
// again. www/sw.js shows what is pushed.

const mark = (network) => `agentnet:push:${network}`;

/** 'unsupported', 'on' or 'off' for `network` in this browser. */
export function pushState(network) {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return localStorage.getItem(mark(network)) ? 'on' : 'off';
}

function bytesOf(b64url) {
  const b64 = b64url.replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

function sameKey(subscription, key) {
  const had = subscription.options?.applicationServerKey;
  if (!had) return false;
  const a = new Uint8Array(had);
  return a.length === key.length && a.every((b, i) => b === key[i]);
}

/** The JSON of `response`, or throws with the edge's message (web/js/agents.js uses it too). */
export async function answer(response) {
  let body = null;
  try { body = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) throw new Error(body?.message ?? `the edge answered ${response.status}`);
  return body;
}

/** A session of `me` in `network` for these calls (a join with the member secret). */
export async function session(network, me, secret) {
  const joined = await answer(await fetch(`/networks/${network}/v1/join`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent_id: me, credentials: { member_secret: secret } }),
  }));
  return joined.token;
}

/** Subscribes this browser and registers it for `me`; resolves 'on' or rejects with a message for people. */
export async function enablePush(network, me, secret) {
  if (Notification.permission !== 'granted' && (await Notification.requestPermission()) !== 'granted') {
    throw new Error('Notifications are not allowed for this site');
  }
  const registration = await navigator.serviceWorker.ready;
  const { key } = await answer(await fetch(`/networks/${network}/v1/push/key`));
  const serverKey = bytesOf(key);
  let subscription = await registration.pushManager.getSubscription();
  // A browser has one subscription; another key (another network's) needs a new one.
  if (subscription && !sameKey(subscription, serverKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: serverKey });
  const token = await session(network, me, secret);
  await answer(await fetch(`/networks/${network}/v1/push/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(subscription.toJSON()),
  }));
  localStorage.setItem(mark(network), subscription.endpoint);
  return 'on';
}

/** Unregisters this browser for `me` in `network`; resolves 'off'. */
export async function disablePush(network, me, secret) {
  const endpoint = localStorage.getItem(mark(network));
  localStorage.removeItem(mark(network));
  if (!endpoint) return 'off';
  const token = await session(network, me, secret);
  await answer(await fetch(`/networks/${network}/v1/push/subscriptions`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ endpoint }),
  }));
  // The browser's subscription stays while another network of this browser uses it.
  const others = Object.keys(localStorage).some((k) => k.startsWith('agentnet:push:') && localStorage.getItem(k) === endpoint);
  if (!others) {
    const registration = await navigator.serviceWorker.ready;
    await (await registration.pushManager.getSubscription())?.unsubscribe();
  }
  return 'off';
}
