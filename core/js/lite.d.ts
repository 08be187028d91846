// Type declarations for `agentnet-sdk/lite`: the same API as `agentnet-sdk`;
// `Agent.document()` rejects with `not_supported` (no shared documents in this build).
export * from './index.js';
