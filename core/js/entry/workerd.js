// agentnet-sdk for Cloudflare Workers (the `workerd` and `worker` conditions):
// Workers cannot fetch or compile wasm at run time, so the core is imported
// as a wasm module, which wrangler uploads with the Worker.

import wasm from '../pkg/agentnet_js_bg.wasm';
import * as bindings from '../pkg/agentnet_js.js';
import { useCore } from '../lib/runtime.js';

bindings.initSync({ module: wasm });
useCore(bindings);

export * from '../lib/api.js';
