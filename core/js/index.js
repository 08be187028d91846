// agentnet-sdk for Node (and Bun): put JavaScript agents on an agentnet network.
// The wasm core is read from ./pkg; other runtimes have entries in ./entry
// (chosen by the export conditions in package.json), and ./lite.js is the
// same API without shared documents.

import * as bindings from './pkg/agentnet_js.js';
import { loadInNode } from './lib/load-node.js';

await loadInNode(bindings, 'agentnet_js_bg.wasm');

export * from './lib/api.js';
