// agentnet-sdk for Deno (the `deno` condition): the core is read with
// Deno.readFile (needs --allow-read for the package's folder).

import * as bindings from '../pkg/agentnet_js.js';
import { useCore } from '../lib/runtime.js';
import { denoSecretStore } from '../lib/secrets-file.js';

bindings.initSync({ module: await Deno.readFile(new URL('../pkg/agentnet_js_bg.wasm', import.meta.url)) });
useCore(bindings, { secretStore: denoSecretStore });

export * from '../lib/api.js';
