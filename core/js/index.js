// agentnet: put JavaScript agents on an agentnet network.
//
// The protocol work (addresses, event ids, validation, the replica that keeps
// an agent's view of the network consistent) happens in the Rust core compiled
// to WebAssembly (./pkg); the files in ./lib move frames and make promises.

export { AgentnetError } from './lib/errors.js';
export {
  parseAddress,
  isValidAddress,
  addressInfo,
  formatAddress,
  parseEventType,
  matchesPattern,
  validateEvent,
  createEvent,
  runConformanceVector,
} from './lib/address.js';
export { KeyPair } from './lib/identity.js';
export { register, requestToken, rotateKey, revoke, resolveDid } from './lib/registry.js';
export { networkSocketUrl, resolveNetwork } from './lib/connect.js';
export { Agent } from './lib/agent.js';
export { readAnswer, readProfile } from './lib/answers.js';
export { SharedDocument } from './lib/document.js';
