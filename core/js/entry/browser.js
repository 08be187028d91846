// agentnet-sdk for browsers and bundlers (the `browser` and `default`
// conditions). wasm-bindgen's glue fetches the core from
// `new URL('agentnet_js_bg.wasm', import.meta.url)`: Vite and webpack emit
// that file with the bundle; with esbuild, copy it beside the bundle.

import initWasm, * as bindings from '../pkg/agentnet_js.js';
import { useCore } from '../lib/runtime.js';
import { indexedDbStore } from '../lib/secrets.js';

await initWasm();
useCore(bindings, { secretStore: () => indexedDbStore() });

export * from '../lib/api.js';
