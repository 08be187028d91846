// Resources an agent shares and uses: the tools it answers, files and
// contexts it registers, invoking another member's tool, and finding
// resources and agents by what they offer.
//
// Every call is an event to `core` or to the resource's address; the network
// checks permissions and answers (ONM §8).

import { AgentnetError } from './errors.js';
import { stringArg } from './args.js';
import { parseAddress } from './address.js';
import { readAnswer } from './answers.js';
import { inputCheck } from './schema.js';

const INVOKE = 'network.resource.invoke';
const INVOKE_RESULT = 'network.resource.invoke.result';
const TOOL_PREFIX = 'resource/tool/';

/**
 * `schema` with `propertyOrder`, the names of its `properties` as declared:
 * JSON objects have no order once the network stores them, and the
 * workspace's tool form shows the fields in this one.
 */
export function withOrder(schema) {
  const properties = schema?.properties;
  if (!properties || typeof properties !== 'object' || Array.isArray(properties) || Array.isArray(schema.propertyOrder)) return schema;
  return { ...schema, propertyOrder: Object.keys(properties) };
}

/** The tools one agent answers, by canonical address. */
export class Tools {
  #handlers = new Map();

  /** Registers `resource/tool/{name}` for `agent`, answered by `handler(input, event)` once the input fits `schema`. */
  async register(agent, name, schema, handler, { description = '', permissions } = {}) {
    const address = parseAddress(`${TOOL_PREFIX}${name}`);
    const check = await inputCheck(schema, address);
    this.#handlers.set(address, { handler, check });
    try {
      return await agent.send('core', 'network.resource.register', { address, schema: withOrder(schema), description, permissions });
    } catch (err) {
      this.#handlers.delete(address);
      throw err;
    }
  }

  /** Unregisters `resource/tool/{name}`; invocations arriving until the ack are still answered. */
  async unregister(agent, name) {
    const address = parseAddress(`${TOOL_PREFIX}${name}`);
    try {
      return await agent.send('core', 'network.resource.unregister', { address });
    } finally {
      this.#handlers.delete(address);
    }
  }

  /**
   * Answers `event` when it invokes one of these tools (and says so): the
   * handler's result, or what it threw as an error, goes back as the reply.
   */
  answer(agent, event) {
    const tool = event.type === INVOKE ? this.#handlers.get(event.target) : undefined;
    if (!tool) return false;
    answerInvocation(agent, event, tool);
    return true;
  }
}

async function answerInvocation(agent, event, { handler, check }) {
  const input = event.payload?.input ?? {};
  const refused = check(input);
  let payload;
  try {
    if (refused !== undefined) payload = { error: { code: 'invalid_arguments', message: `${event.target}: ${refused}` } };
    else payload = { output: await handler(input, event) };
  } catch (err) {
    payload = { error: { code: err?.code ?? 'tool_failed', message: String(err?.message ?? err) } };
  }
  await agent.reply(event, INVOKE_RESULT, payload).catch(() => {});
}

/** Invokes `tool` (a name or a `resource/tool/…` address); resolves with its output, rejects with the network's or the tool's error. */
export async function invokeTool(agent, tool, input, { timeoutMs = 30000 } = {}) {
  stringArg(tool, 'tool');
  const address = tool.includes('/') ? tool : `${TOOL_PREFIX}${tool}`;
  const reply = await agent.request(address, INVOKE, { input }, { timeoutMs });
  if (reply.payload?.error) {
    const { code = 'tool_failed', message = 'the tool failed' } = reply.payload.error;
    throw new AgentnetError(code, message);
  }
  return reply.payload?.output;
}

/** `replace: true` only when asked: registering again otherwise keeps the shared content. */
const replacing = (replace) => (replace === true ? { replace: true } : {});

/**
 * Registers `resource/file/{path}` with `content`. Registering it again (a
 * restart) keeps the shared document and everyone's edits (the ack says
 * `kept: true`); `{ replace: true }` makes `content` its text, as an edit.
 */
export function registerFile(agent, path, content, { contentType = 'text/plain', description = '', permissions, replace } = {}) {
  return agent.send('core', 'network.resource.register', {
    address: `resource/file/${path}`, content, content_type: contentType, description, permissions, ...replacing(replace),
  });
}

/** Registers `resource/context/{name}`: text is `text/markdown`, other JSON `application/json`, unless `contentType` says otherwise; again, as `registerFile`. */
export function registerContext(agent, name, content, { description = '', permissions, contentType, replace } = {}) {
  const type = contentType ?? (typeof content === 'string' ? 'text/markdown' : 'application/json');
  return agent.send('core', 'network.resource.register', {
    address: `resource/context/${name}`, content, content_type: type, description, permissions, ...replacing(replace),
  });
}

/** The resources `agent` may read, each with `your_permissions`; `type` filters. */
export async function discoverResources(agent, type) {
  return readAnswer(await agent.request('core', 'network.resource.discover', type ? { type } : {})).resources;
}

/** Agents by capability over the network's members and the registry (`network.discovery.query`); undefined filters are left out. */
export async function discoverInNetwork(agent, { q, tags, mode, transport, verification, network, limit } = {}) {
  const query = Object.fromEntries(
    Object.entries({ q, tags, mode, transport, verification, network, limit }).filter(([, v]) => v !== undefined),
  );
  return (await agent.request('core', 'network.discovery.query', query)).payload;
}

/** Logged events after `after` (networks with `mod/persistence`): `{events, next_after, has_more}`; `text` keeps the messages with every word of it. */
export async function history(agent, { after = 0, limit = 100, types, source, target, text } = {}) {
  const query = { after, limit };
  if (text !== undefined) query.text = text;
  if (types) query.types = types;
  if (source) query.source = source;
  if (target) query.target = target;
  return readAnswer(await agent.request('core', 'network.events.query', query));
}
