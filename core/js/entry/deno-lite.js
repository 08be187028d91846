// agentnet-sdk/lite for Deno: entry/deno.js on the core built without shared documents.

import * as bindings from '../pkg/agentnet_js_lite.js';
import { useCore } from '../lib/runtime.js';
import { denoSecretStore } from '../lib/secrets-file.js';

bindings.initSync({ module: await Deno.readFile(new URL('../pkg/agentnet_js_lite_bg.wasm', import.meta.url)) });
useCore(bindings, { secretStore: denoSecretStore });

export * from '../lib/api.js';
