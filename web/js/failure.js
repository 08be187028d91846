// Shows why the workspace stopped (a panic in the app): in the console, and
// in the page's failure box (www/index.html's `agentnetFailed`), which offers a reload.

/** Reports `message` as the reason the workspace stopped. */
export function reportFailure(message) {
  console.error(message);
  globalThis.agentnetFailed?.(message);
}
