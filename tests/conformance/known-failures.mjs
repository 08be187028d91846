// Failures of the official suites that are not agentnet's, each with why.
// Filled from measured runs; docs/conformance.md gives the suites' words.
export const KNOWN_MCP = {};
export const KNOWN_A2A = { '1.0-dev': {}, '0.3.x': {} };
