// The workspace's service worker: keeps the app shell (page, styles, wasm, JS)
// so the workspace opens without the network. Network first, so a deployed
// update is picked up when online; the cached copy when the network fails.
// Network traffic (/networks/…, /v1/…) is never cached.

const CACHE = 'agentnet-shell-v1';
const SHELL = ['/', '/style.css', '/pkg/agentnet_web.js', '/pkg/agentnet_web_bg.wasm'];

/** The shell plus the JS snippets the generated glue imports (their paths carry a hash). */
async function shellFiles() {
  const glue = await (await fetch('/pkg/agentnet_web.js')).text();
  const snippets = [...glue.matchAll(/from '\.\/(snippets\/[^']+)'/g)].map((m) => `/pkg/${m[1]}`);
  return [...SHELL, ...snippets];
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

function isShell(request) {
  const url = new URL(request.url);
  return request.method === 'GET' && url.origin === self.location.origin
    && !url.pathname.startsWith('/networks/') && !url.pathname.startsWith('/v1/');
}

self.addEventListener('fetch', (event) => {
  if (!isShell(event.request)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(event.request);
      if (response.ok) await cache.put(event.request, response.clone());
      return response;
    } catch (err) {
      const cached = await cache.match(event.request, { ignoreSearch: true });
      if (cached) return cached;
      throw err;
    }
  })());
});
