// agentnet-sdk/lite for browsers and bundlers: entry/browser.js on the core
// built without shared documents (agentnet_js_lite_bg.wasm).

import initWasm, * as bindings from '../pkg/agentnet_js_lite.js';
import { useCore } from '../lib/runtime.js';
import { indexedDbStore } from '../lib/secrets.js';

await initWasm();
useCore(bindings, { secretStore: () => indexedDbStore() });

export * from '../lib/api.js';
