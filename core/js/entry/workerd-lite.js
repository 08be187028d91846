// agentnet-sdk/lite for Cloudflare Workers: entry/workerd.js on the core
// built without shared documents.

import wasm from '../pkg/agentnet_js_lite_bg.wasm';
import * as bindings from '../pkg/agentnet_js_lite.js';
import { useCore } from '../lib/runtime.js';

bindings.initSync({ module: wasm });
useCore(bindings);

export * from '../lib/api.js';
