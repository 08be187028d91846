// Mods written by developers: an `Agent` that a master installs as a mod
// (`agent.asMod`), and the admin events masters send (`agent.admin`).
//
// The network hands each event the mod intercepts to it as a
// `network.mod.intercept` `{intercept, mode, event, deadline?}`; a guard or
// transform answers `network.mod.verdict` `{intercept, verdict, reason?, event?}`
// before the deadline, an observer does not answer (docs/mods.md).

import { AgentnetError } from './errors.js';
import { functionArg } from './args.js';

const INTERCEPT = 'network.mod.intercept';
const VERDICT = 'network.mod.verdict';
const MODES = new Set(['guard', 'transform', 'observe']);

/** The verdict a guard's handler result stands for. */
function guardVerdict(result) {
  if (result === undefined || result === null || result === true) return { verdict: 'allow' };
  if (result === false) return { verdict: 'reject', reason: 'rejected' };
  if (typeof result === 'string') return { verdict: 'reject', reason: result };
  if (typeof result === 'object' && typeof result.reject === 'string') return { verdict: 'reject', reason: result.reject };
  return { verdict: 'allow' };
}

/** The verdict a transform's handler result stands for: a new payload, or nothing to keep the event. */
function transformVerdict(result) {
  if (result === undefined || result === null) return { verdict: 'allow' };
  if (typeof result === 'object' && !Array.isArray(result) && result.payload !== undefined && result.metadata !== undefined) {
    return { verdict: 'rewrite', event: { payload: result.payload, metadata: result.metadata } };
  }
  return { verdict: 'rewrite', event: { payload: result } };
}

/** Checks `asMod`'s spec and returns what `network.admin.mod.load` takes. */
export function modSpec(address, { patterns, mode, priority = 0, deadlineMs, onLate } = {}) {
  if (!Array.isArray(patterns) || patterns.length === 0 || !patterns.every((p) => typeof p === 'string')) {
    throw new AgentnetError('invalid_request', 'patterns is a list of event type patterns (`*`, `chat.*`, `chat.message`)');
  }
  if (!MODES.has(mode)) throw new AgentnetError('invalid_request', 'mode is guard, transform or observe');
  if (!Number.isInteger(priority)) throw new AgentnetError('invalid_request', 'priority is a whole number');
  if (onLate !== undefined && onLate !== 'fail-open' && onLate !== 'fail-closed') {
    throw new AgentnetError('invalid_request', 'onLate is fail-open or fail-closed');
  }
  const spec = { agent: address, patterns, mode, priority };
  if (deadlineMs !== undefined) spec.deadline_ms = deadlineMs;
  if (onLate !== undefined) spec.on_late = onLate;
  return spec;
}

/**
 * Serves `agent` as a mod: `handler(event, {mode, deadline})` decides on each
 * intercepted event. Installs it unless `install: false` (a master then loads
 * it with the same spec). Resolves with `{spec, uninstall()}`.
 */
export async function serveAsMod(agent, options, handler) {
  functionArg(handler, 'handler');
  const spec = modSpec(agent.address, options);
  agent.on(INTERCEPT, async (intercept) => {
    const { intercept: id, mode, event, deadline } = intercept.payload ?? {};
    if (mode === 'observe') {
      try {
        await handler(event, { mode, deadline });
      } catch (err) {
        console.error('agentnet: a mod observer failed:', err);
      }
      return;
    }
    let answer;
    try {
      const result = await handler(event, { mode, deadline });
      answer = mode === 'guard' ? guardVerdict(result) : transformVerdict(result);
    } catch (err) {
      // A guard that fails refuses; a transform that fails leaves the event as it was.
      answer = mode === 'guard'
        ? { verdict: 'reject', reason: String(err?.message ?? err) }
        : { verdict: 'allow' };
    }
    await agent.send('core', VERDICT, { intercept: id, ...answer }).catch((err) => {
      console.error('agentnet: a mod verdict was refused:', err);
    });
  });
  if (options?.install !== false) await agent.send('core', 'network.admin.mod.load', spec);
  return {
    spec,
    uninstall: () => agent.send('core', 'network.admin.mod.unload', { agent: agent.address }),
  };
}

/** Sends the admin event `network.admin.{action}` (masters only); resolves with its ack. */
export function sendAdmin(agent, action, payload = {}) {
  if (typeof action !== 'string' || !/^[a-z]+(\.[a-z]+)*$/.test(action)) {
    throw new AgentnetError('invalid_request', 'action is an admin event name such as pause or member.ban');
  }
  return agent.send('core', `network.admin.${action}`, payload);
}
