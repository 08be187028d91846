// The Workspace (ONM §12) on an `Agent`: sessions (threads) created and
// updated, the master as a thread's first responder, delegation.
//
// `mod/workspace` does the work in the network (docs/workspace.md): it keeps
// the sessions, names a message's `metadata.first_responder`, records
// delegations and routes a delegate's answer back where the message was asked.

import { AgentnetError } from './errors.js';
import { functionArg } from './args.js';
import { traceCausedBy } from './address.js';

const CREATED = 'workspace.session.created';
const UPDATED = 'workspace.session.updated';
const POSTED = 'workspace.message.posted';
const DELEGATED = 'workspace.message.delegated';

/** The payload of a handler's answer: text becomes `{content}`. */
function answerPayload(result) {
  return typeof result === 'string' ? { content: result } : result;
}

/** The session id `session` names (`{id}`, `session-{id}`, `channel/session-{id}`). */
export function sessionId(session) {
  return String(session).replace(/^channel\//, '').replace(/^session-/, '');
}

/**
 * Creates a session: `{session?, title?, master?, to = 'agent:broadcast'}`.
 * Resolves with `{id, channel, ack}` (without `session`, its id is the event's, lowercase).
 */
export async function createSession(agent, { session, title, master, to = 'agent:broadcast' } = {}) {
  const payload = {};
  if (session !== undefined) payload.session = sessionId(session);
  if (title !== undefined) payload.title = title;
  if (master !== undefined) payload.master = master;
  const ack = await agent.send(to, CREATED, payload);
  const id = payload.session ?? String(ack.id).toLowerCase();
  return { id, channel: `channel/session-${id}`, ack };
}

/** Updates a session's `title`, `status` (`open`, `closed`, `archived`) or `master`; resolves with the ack. */
export function updateSession(agent, session, changes = {}, { to = 'agent:broadcast' } = {}) {
  if (changes === null || typeof changes !== 'object' || Array.isArray(changes)) {
    throw new AgentnetError('invalid_request', 'changes is an object: {title?, status?, master?}');
  }
  return agent.send(to, UPDATED, { ...changes, session: sessionId(session) });
}

/** Hands `message` (an event or its id) to `to` to answer; `note` tells it why. Resolves with the ack. */
export function delegate(agent, message, to, { note } = {}) {
  const id = typeof message === 'string' ? message : message?.id;
  if (typeof id !== 'string') throw new AgentnetError('invalid_request', 'message is an event or its id');
  const payload = { message: id };
  if (typeof message === 'object' && message.payload?.content !== undefined) payload.content = message.payload.content;
  if (note !== undefined) payload.note = note;
  return agent.send(to, DELEGATED, payload, { metadata: typeof message === 'object' ? traceCausedBy(message) : undefined });
}

/**
 * Answers the messages this agent is the first responder of:
 * `handler(event, {delegate(to, note?)})` returns the answer (text or a
 * payload), posted where the message was asked as a reply to it; nothing
 * posts nothing (after a delegation, say).
 */
export function onFirstResponse(agent, handler) {
  functionArg(handler, 'handler');
  agent.on(POSTED, async (event) => {
    if (event.metadata?.first_responder !== agent.address) return;
    const tools = { delegate: (to, note) => delegate(agent, event, to, { note }) };
    const result = await handler(event, tools);
    if (result === undefined || result === null) return;
    const place = event.target.startsWith('channel/') || event.target === 'agent:broadcast' ? event.target : event.source;
    await agent.send(place, POSTED, answerPayload(result), {
      metadata: { in_reply_to: event.id, ...traceCausedBy(event) },
    });
  });
}

/**
 * Answers the messages delegated to this agent: `handler(event)` gets the
 * `workspace.message.delegated` (`payload.message`, `content`, `note`;
 * `metadata.delegation` `{message, from, place}`) and returns the answer,
 * which the network routes back to where the message was asked.
 */
export function onDelegated(agent, handler) {
  functionArg(handler, 'handler');
  agent.on(DELEGATED, async (event) => {
    const result = await handler(event);
    if (result === undefined || result === null) return;
    await agent.send(event.source, POSTED, answerPayload(result), {
      metadata: { in_reply_to: event.id, ...traceCausedBy(event) },
    });
  });
}
