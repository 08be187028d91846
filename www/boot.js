// Starts the workspace (www/index.html loads this, as a file: the page's
// Content-Security-Policy in www/_headers allows no inline script).

// Shows why the workspace cannot run (the wasm did not load, or a bug
// stopped it: web/src/panic.rs), in place of the loading shell.
window.agentnetFailed = (message) => {
  const box = document.getElementById('failure');
  if (!box) return;
  box.querySelector('.why').textContent = message;
  box.hidden = false;
  document.getElementById('shell')?.setAttribute('aria-busy', 'false');
  document.querySelector('#shell .loading')?.remove();
};
document.querySelector('#failure .reload')?.addEventListener('click', () => location.reload());

const start = async () => {
  const { default: init } = await import('/pkg/agentnet_web.js');
  // The shell shows at once; the app replaces it once the first page's wasm (about 0.67 MB
  // gzipped; the parts opened later are chunks of their own) has loaded.
  await init({ module_or_path: '/pkg/agentnet_web_bg.wasm' });
  document.getElementById('shell')?.remove();
  // Keep the app shell and every part for offline starts (see sw.js): registered once the app
  // runs, so what it caches does not share the link with the first page.
  // (Some browsers have the property but no worker: private windows.)
  navigator.serviceWorker?.register('/sw.js').catch(() => {});
};
start().catch((err) => window.agentnetFailed(
  `The workspace could not load (${err?.message ?? err}). Check your connection and reload the page.`));

