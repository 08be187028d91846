// The Rust core (compiled to WebAssembly in ../pkg) once an entry has loaded it,
// and what the runtime the entry was made for adds (a WebSocket class where the
// runtime has none). Each entry (../index.js, ../entry/*.js) loads the wasm
// its own way — a file read in Node and Deno, a URL fetch in browsers, a wasm
// module import in Workers — and hands the result to `useCore` with what the
// runtime offers (a WebSocket class, a store for member secrets), so nothing
// here needs a runtime's own modules.

import { AgentnetError } from './errors.js';

/** The wasm-bindgen exports of the loaded core (functions and classes such as `Replica`). */
export let core = null;

let webSocketFallback = null;
let commandRunnerOfRuntime = null;
let secretStoreFallback = null;
let secretStore;

/**
 * Makes `bindings` the core every module calls. `fallbackWebSocket` loads a
 * WebSocket class for runtimes without a global one (Node 20: the `ws`
 * package). When both the full and the lite entry are imported, the full
 * core (the one with shared documents) serves both.
 */
export function useCore(bindings, { fallbackWebSocket, secretStore: store, runCommand } = {}) {
  if (!core || !hasDocuments(core)) core = bindings;
  webSocketFallback ??= fallbackWebSocket ?? null;
  commandRunnerOfRuntime ??= runCommand ?? null;
  secretStoreFallback ??= store ?? null;
}

/**
 * The runtime's store of member secrets (see `secrets.js`), made once: a file
 * in Node, Bun and Deno, IndexedDB in a browser; null where there is none.
 */
export async function defaultSecretStore() {
  secretStore ??= (async () => (await secretStoreFallback?.()) ?? null)().catch(() => null);
  return secretStore;
}

/** How this runtime runs a command agent's program (`runCommand(command, effect, {env, signal, report})`), or null. */
export function commandRunner() {
  return commandRunnerOfRuntime;
}

/** True when `bindings` were built with shared documents (the full entry). */
export function hasDocuments(bindings = core) {
  return typeof bindings?.Replica?.prototype?.openDocument === 'function';
}

/** The WebSocket class of a runtime that has no global one, or `not_supported`. */
export async function fallbackWebSocket() {
  if (!webSocketFallback) throw new AgentnetError('not_supported', 'no WebSocket here: pass a WebSocket class to Agent.connect');
  return webSocketFallback();
}
