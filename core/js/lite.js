// agentnet-sdk/lite for Node (and Bun): the whole API on a smaller core built
// without shared documents and the conformance runner (`agent.document()` and
// `runConformanceVector()` fail with `not_supported`).

import * as bindings from './pkg/agentnet_js_lite.js';
import { loadInNode } from './lib/load-node.js';

await loadInNode(bindings, 'agentnet_js_lite_bg.wasm');

export * from './lib/api.js';
