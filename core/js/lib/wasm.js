// Loads the Rust core (compiled to WebAssembly in ../pkg) once, in Node or a browser.

import initWasm, * as core from '../pkg/agentnet_js.js';

const wasmUrl = new URL('../pkg/agentnet_js_bg.wasm', import.meta.url);
if (typeof process !== 'undefined' && process.versions?.node && wasmUrl.protocol === 'file:') {
  const { readFile } = await import('node:fs/promises');
  core.initSync({ module: await readFile(wasmUrl) });
} else {
  await initWasm({ module_or_path: wasmUrl });
}

export { core };
