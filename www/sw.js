// The workspace's service worker: keeps the app shell (page, styles, wasm, JS, the parts)
// so the workspace opens without the network. Network first, so a deployed
// update is picked up when online; the cached copy when the network fails.
// Network traffic (/networks/…, /v1/…) is never cached. Every page of the
// workspace (`/`, `/n/{network}/…`) is the same app shell, kept once as `/`:
// only the app's own page is kept there, never another file opened as a page
// (the manifest, a script), which would then open in place of the workspace.

// v9: the emoji table is a file of its own (/pkg/emoji-table.txt); v8: the parts opened later are chunks of their own (/pkg/split_*.wasm, loaded by
// /pkg/__wasm_split.js); v7: the styles are one sheet (/pkg/styles.css); v3: a v2 cache may hold
// another file as the shell.
const CACHE = 'agentnet-shell-v9';
const SHELL = [
  '/', '/boot.js', '/pkg/styles.css', '/pkg/agentnet_web.js', '/pkg/agentnet_web_bg.wasm',
  '/pkg/emoji-table.txt',
  '/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png', '/icons/icon-512.png',
];

/**
 * The shell plus the JS snippets the generated glue imports (their paths carry a hash), and
 * the parts loaded when first opened: the loader the glue imports and every chunk it names,
 * kept at install so each part opens offline too.
 */
async function shellFiles() {
  const glue = await (await fetch('/pkg/agentnet_web.js')).text();
  // The glue quotes them either way ('…' or "…"), one file perhaps twice.
  const imported = [...glue.matchAll(/from ['"]\.\/((?:snippets\/)?[^'"]+\.js)['"]/g)].map((m) => m[1]);
  const files = imported.map((path) => `/pkg/${path}`);
  if (imported.includes('__wasm_split.js')) {
    const loader = await (await fetch('/pkg/__wasm_split.js')).text();
    const chunks = [...loader.matchAll(/new URL\(['"]\.\/([^'"]+\.wasm)['"]/g)].map((m) => `/pkg/${m[1]}`);
    files.push(...chunks);
  }
  return [...SHELL, ...new Set(files)];
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(await shellFiles());
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const WORKER_PATHS = ['/networks/', '/v1/', '/registry/', '/agents/', '/.well-known/'];

function isShell(request) {
  const url = new URL(request.url);
  return request.method === 'GET' && url.origin === self.location.origin
    && !WORKER_PATHS.some((prefix) => url.pathname.startsWith(prefix));
}

/** True when `response` is the workspace's own page (www/index.html): HTML that starts the app. */
async function isAppPage(response) {
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.startsWith('text/html')) return false;
  const html = await response.clone().text();
  return html.includes('<script type="module" src="/boot.js">');
}

self.addEventListener('fetch', (event) => {
  if (!isShell(event.request)) return;
  // A page of the workspace is the shell, whatever place its path names.
  const page = event.request.mode === 'navigate';
  const key = page ? '/' : event.request;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(event.request);
      const keep = page ? await isAppPage(response) : response.ok;
      if (keep) await cache.put(key, response.clone());
      return response;
    } catch (err) {
      const cached = await cache.match(key, { ignoreSearch: true });
      if (cached) return cached;
      throw err;
    }
  })());
});

// Web Push (docs/workspace.md, "Notifications"): the edge pushes what is for
// the person ({title, body, tag, url}); it is shown unless a window of the
// workspace is in front (the page tells of it there). The tag is the event's
// id, so the page's own notification and the pushed one show once.
self.addEventListener('push', (event) => {
  let shown = {};
  try {
    shown = event.data ? event.data.json() : {};
  } catch {
    shown = { body: event.data?.text() ?? '' };
  }
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    if (windows.some((w) => w.focused && w.visibilityState === 'visible')) return;
    await self.registration.showNotification(shown.title || 'agentnet', {
      body: shown.body ?? '', tag: shown.tag, icon: '/icons/icon-192.png', data: { url: shown.url ?? '/' },
    });
  })());
});

// A click opens where the notice points (a conversation, a task) in a window
// of the workspace, or a new one. Only this origin's pages are opened.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? '/', self.location.origin);
  if (url.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).origin === url.origin);
    if (!open) return self.clients.openWindow(url.href);
    const focused = await open.focus();
    return focused.navigate ? focused.navigate(url.href) : undefined;
  })());
});
