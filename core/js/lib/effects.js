// The replica's effects, carried out: frames to the link, acks and replies
// to the promises waiting on them, events to the handlers, document changes
// to their handles, and the link's reconnect decisions.

import { AgentnetError } from './errors.js';

/**
 * Carries out `effects` (the replica's JSON, or its parse) for an agent's
 * parts: `link`, `pending` and `requests` (waiters), `handlers`, `documents`
 * (open handles by address); stops as soon as `closed()` (a handler may
 * close the agent). Sets the link's timer for the replica's next deadline.
 */
export function applyEffects(effectsJson, { link, pending, requests, handlers, documents, closed }) {
  const effects = typeof effectsJson === 'string' ? JSON.parse(effectsJson) : effectsJson;
  for (const effect of effects) {
    switch (effect.kind) {
      case 'send':
        link.send(effect.frame);
        break;
      case 'online':
        link.joined();
        break;
      case 'join_failed': {
        // Refused for good (banned, archived…): no unanswered send or request will be answered.
        const error = new AgentnetError(effect.code, effect.message);
        link.joined(error);
        pending.rejectAll(error);
        requests.rejectAll(error);
        break;
      }
      case 'accepted':
        pending.resolve(effect.id, { ...(effect.ack ?? {}), id: effect.id, seq: effect.seq });
        break;
      case 'rejected':
        pending.reject(effect.id, new AgentnetError(effect.code, effect.message));
        break;
      case 'replied':
        requests.resolve(effect.request, effect.reply);
        break;
      case 'request_failed':
        requests.reject(effect.request, new AgentnetError(effect.code, effect.message));
        break;
      case 'received':
        handlers.dispatch(effect.event);
        break;
      case 'document_changed':
        documents.get(effect.address)?.notify({ text: effect.text, editors: effect.editors });
        break;
      case 'document_rejected':
        documents.get(effect.address)?.notify({ error: new AgentnetError(effect.code, effect.message) });
        break;
      case 'disconnect':
        link.dead();
        break;
      case 'reconnect':
        if (link.reconnect) link.open(10000).catch(() => {});
        break;
      default:
        break; // no `persist` effects come: an agent keeps its replica in memory
    }
    if (closed()) return;
  }
  link.schedule();
}
