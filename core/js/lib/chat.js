// Chat: `workspace.message.posted {content}`, the one message type the web
// workspace and every agent show as a conversation. `agent.post` posts one;
// `event.reply` (on every event a handler gets) answers in the conversation
// the event came from — a direct message to its sender, a channel's or the
// broadcast's message in that channel, with `in_reply_to` so it joins the
// message's thread (the workspace shows a reply under the message it answers).

import { AgentnetError } from './errors.js';
import { stringArg } from './args.js';
import { traceCausedBy } from './address.js';

/** The chat message's event type. */
export const POSTED = 'workspace.message.posted';

/**
 * Where an answer to `event` goes for `me`: its channel or the broadcast,
 * else (a direct message) its sender — through the bridge that relayed it
 * (`metadata.bridged_from`) when it came from another network.
 */
export function conversationOf(event, me) {
  if (typeof event?.metadata?.bridged_from === 'string') return event.metadata.bridged_from;
  const target = String(event?.target ?? '');
  if (target === 'agent:broadcast' || target.startsWith('channel/')) return target;
  return event?.source === me ? target : event?.source;
}

/** The payload of a chat message: text becomes `{content}`; an object must carry `content` text. */
export function chatPayload(content) {
  if (typeof content === 'string') return { content };
  if (content && typeof content === 'object' && typeof content.content === 'string') return content;
  throw new AgentnetError('invalid_argument', 'a chat message is text, or an object whose content is text');
}

/** Posts `content` to `target` (an address, `channel/{name}`, `agent:broadcast`); `inReplyTo` (an event or its id) threads it. */
export function post(agent, target, content, { inReplyTo, metadata = {}, timeoutMs } = {}) {
  stringArg(target, 'target');
  const parent = typeof inReplyTo === 'object' && inReplyTo !== null ? inReplyTo : undefined;
  const thread = inReplyTo === undefined ? {} : { ...(parent ? traceCausedBy(parent) : {}), in_reply_to: parent?.id ?? inReplyTo };
  return agent.send(target, POSTED, chatPayload(content), { metadata: { ...metadata, ...thread }, timeoutMs });
}

/** Gives `event` a `reply(content)` that answers it where it was said (not enumerable: the event's JSON stays as it came). */
export function withReply(agent, event) {
  if (event && typeof event === 'object' && !Object.hasOwn(event, 'reply')) {
    Object.defineProperty(event, 'reply', {
      value: (content, options) => post(agent, conversationOf(event, agent.address), content, { ...options, inReplyTo: event }),
      enumerable: false,
    });
  }
  return event;
}
