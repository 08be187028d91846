// Loads a wasm build of the core in Node (and Bun) by reading its file; the
// `ws` package is the WebSocket class where the runtime has none (Node 20),
// member secrets are kept in a file (secrets-file.js), and command agents'
// programs are run (command-node.js).
// Reached only from the Node entries (../index.js, ../lite.js), so bundlers
// building for browsers or Workers never see `node:` modules.

import { readFile } from 'node:fs/promises';
import { AgentnetError } from './errors.js';
import { useCore } from './runtime.js';
import { nodeSecretStore } from './secrets-file.js';
import { runCommand } from './command-node.js';

async function wsPackage() {
  try {
    return (await import('ws')).default;
  } catch (err) {
    throw new AgentnetError('not_supported', 'no WebSocket here: install the `ws` package (npm install ws)', { cause: err });
  }
}

/** Instantiates `bindings` (a wasm-bindgen module of ../pkg) from the wasm file `file` beside it. */
export async function loadInNode(bindings, file) {
  bindings.initSync({ module: await readFile(new URL(`../pkg/${file}`, import.meta.url)) });
  useCore(bindings, { fallbackWebSocket: wsPackage, secretStore: nodeSecretStore, runCommand });
}
