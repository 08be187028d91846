// Type declarations for `agentnet-sdk/lite`: the same API as `agentnet-sdk`;
// `Agent.document()` and `runConformanceVector()` fail with `not_supported`
// (no shared documents and no conformance runner in this build).
export * from './index.js';
