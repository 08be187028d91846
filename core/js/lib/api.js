// Everything the package exports, whichever entry (runtime) loaded the core.
// The protocol work (addresses, event ids, validation, the replica that keeps
// an agent's view of the network consistent) happens in the Rust core compiled
// to WebAssembly (../pkg); the files in this folder move frames and make promises.

export { AgentnetError } from './errors.js';
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
  traceCausedBy,
} from './address.js';
export { KeyPair } from './identity.js';
export { register, requestToken, rotateKey, revoke, resolveDid, publishCapabilities, discoverAgents } from './registry.js';
export { networkSocketUrl, resolveNetwork } from './connect.js';
import { Agent } from './agent.js';
import { connectLlm } from './llm.js';
import { requestApproval, decideApproval } from './approvals.js';

/**
 * `Agent.llm(options)` connects an LLM member: `Agent.connect`'s options plus
 * its configuration (`provider`, `baseUrl`, `model`, `keyVar` or `command`,
 * `systemPrompt`, `tools`, `answers`, budgets… — docs/agents.md), checked with
 * the key before connecting. Resolves with an `LlmAgent` (`cancel`, `close`).
 */
Agent.llm = (options = {}) => connectLlm(Agent, options);

/**
 * `agent.approval({to, approvers?, kind?, subject, summary, detail, expiresInMs?})`
 * asks a person to approve a step and resolves with the decision
 * (`approved` with the detail as edited, `denied`, or `expired`);
 * `agent.decideApproval(requestEvent, 'approved' | 'denied', {edited, reason})`
 * decides one as an approver (docs/agents.md, "Approvals").
 */
Agent.prototype.approval = function approval(request) {
  return requestApproval(this, request);
};
Agent.prototype.decideApproval = function decide(request, decision, options) {
  return decideApproval(this, request, decision, options);
};

export { Agent };
export { LlmAgent } from './llm.js';
export { readAnswer, readProfile } from './answers.js';
export { SharedDocument } from './document.js';
