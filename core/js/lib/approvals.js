// Approvals on an `Agent`: a person decides a step before the agent takes it.
//
// `mod/workspace` keeps the rules in the network (docs/agents.md,
// "Approvals"): `workspace.approval.requested` `{approvers, action, expires_at}`
// goes to a channel (the people it names decide, or its masters) or to one
// person directly (that person decides); `workspace.approval.decided`
// `{approval, decision, edited?, reason?}` comes back once, in time, from an
// approver. At `expires_at` with no decision, the requester says `expired`.

import { AgentnetError } from './errors.js';

export const REQUESTED = 'workspace.approval.requested';
export const DECIDED = 'workspace.approval.decided';
const KINDS = ['tool_call', 'task', 'message'];

/** Where a request's decision goes: back to the requester from a direct request's person, else where it went. */
function decisionTarget(request, me) {
  const direct = !request.target.startsWith('channel/') && request.target !== 'agent:broadcast';
  return direct && me !== request.source ? request.source : request.target;
}

/**
 * Asks for approval and waits: `{to, approvers?, kind?, subject, summary,
 * detail, expiresInMs?, signal?}`. Resolves with `{approval, decision
 * ('approved' | 'denied' | 'expired'), detail (as edited), edited, by, reason}`.
 */
export async function requestApproval(agent, { to, approvers = [], kind = 'tool_call', subject, summary, detail, expiresInMs = 15 * 60 * 1000, signal } = {}) {
  if (typeof to !== 'string') throw new AgentnetError('invalid_request', 'to is where the card goes: a channel, or one person');
  if (!KINDS.includes(kind)) throw new AgentnetError('invalid_request', `kind is one of ${KINDS.join(', ')}`);
  const expiresAt = Date.now() + expiresInMs;
  const early = new Map();
  let wanted = null;
  let settle;
  const decided = new Promise((resolve) => { settle = resolve; });
  const onDecided = (event) => {
    const id = event.payload?.approval;
    if (wanted === null) early.set(id, event);
    else if (id === wanted) settle(event);
  };
  agent.on(DECIDED, onDecided);
  let timer;
  try {
    const ack = await agent.send(to, REQUESTED, {
      approvers, action: { kind, subject: String(subject ?? ''), summary, detail }, expires_at: expiresAt,
    });
    wanted = String(ack.id);
    if (early.has(wanted)) settle(early.get(wanted));
    const expired = new Promise((resolve) => {
      timer = setTimeout(resolve, Math.max(0, expiresAt - Date.now()), 'expired');
    });
    const stopped = signal ? new Promise((resolve) => signal.addEventListener('abort', () => resolve('expired'), { once: true })) : null;
    const first = await Promise.race([decided, expired, ...(stopped ? [stopped] : [])]);
    let event = typeof first === 'string' ? null : first;
    if (!event) {
      // Nobody decided: say so where the request went — unless a decision crossed ours.
      await agent.send(to, DECIDED, { approval: wanted, decision: 'expired' }).catch(() => {});
      event = early.get(wanted) ?? null;
    }
    const payload = event?.payload ?? { decision: 'expired' };
    return {
      approval: wanted,
      decision: payload.decision,
      detail: payload.edited ?? detail,
      edited: payload.edited !== undefined,
      by: event?.source ?? null,
      reason: payload.reason ?? null,
    };
  } finally {
    clearTimeout(timer);
    agent.off(DECIDED, onDecided);
  }
}

/**
 * Decides a request (the `workspace.approval.requested` event) as an
 * approver: `decision` is `'approved'` or `'denied'`; `{edited, reason}`.
 * Resolves with the ack.
 */
export function decideApproval(agent, request, decision, { edited, reason } = {}) {
  if (!request?.id || request.type !== REQUESTED) {
    throw new AgentnetError('invalid_request', 'request is a workspace.approval.requested event');
  }
  const payload = { approval: request.id, decision };
  if (edited !== undefined) payload.edited = edited;
  if (reason !== undefined) payload.reason = reason;
  return agent.send(decisionTarget(request, agent.address), DECIDED, payload);
}
