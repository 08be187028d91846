// How an MCP tool becomes a network tool and back: its address and
// registration (description, input schema), an invocation's input as the
// tool's arguments, and the tool's result (or error) as the invocation's
// output (or error). Pure functions: the bridge moves the messages.

import { AgentnetError } from '../errors.js';
import { parseAddress } from '../address.js';
import { stringArg } from '../args.js';

/** JSON-RPC error codes the SDK reports (its `ErrorCode`), with the code an invocation error gets. */
const RPC_CODES = new Map([
  [-32000, 'owner_offline'], // the connection to the MCP server closed
  [-32001, 'timeout'],
  [-32600, 'invalid_request'],
  [-32601, 'not_supported'],
  [-32602, 'invalid_request'],
]);

/**
 * The network tool name of MCP tool `name` under `prefix` (`{prefix}.{name}`);
 * throws `invalid_address` when the two do not make a tool address (names
 * take 1 to 128 of `A-Z a-z 0-9 . _ - @ +`).
 */
export function bridgedToolName(prefix, name) {
  const joined = `${prefix}.${stringArg(name, 'tool name')}`;
  parseAddress(`resource/tool/${joined}`);
  return joined;
}

/** What `agent.registerTool` gets for an MCP tool: `{schema, description}`. */
export function toolRegistration(tool) {
  return {
    schema: tool.inputSchema ?? { type: 'object' },
    description: tool.description ?? tool.title ?? tool.annotations?.title ?? '',
  };
}

/** An invocation's input as MCP tool arguments (an object); throws `invalid_request` otherwise. */
export function toolArguments(input) {
  if (input === undefined || input === null) return {};
  if (typeof input === 'object' && !Array.isArray(input)) return input;
  throw new AgentnetError('invalid_request', 'an MCP tool takes an object as its input');
}

/** The text blocks of a result's content, joined; undefined when it has none. */
function textOf(content) {
  const texts = (Array.isArray(content) ? content : []).filter((block) => block?.type === 'text').map((block) => block.text);
  return texts.length ? texts.join('\n') : undefined;
}

/**
 * An MCP `CallToolResult` as an invocation's output: its `structuredContent`
 * when it has one; else its text when all its content is text; else
 * `{content}` (images, audio, resources as MCP gave them). A result with
 * `isError` throws `tool_failed` with its text.
 */
export function invocationOutput(result) {
  const content = Array.isArray(result?.content) ? result.content : [];
  if (result?.isError) throw new AgentnetError('tool_failed', textOf(content) ?? 'the MCP tool failed');
  if (result?.structuredContent !== undefined) return result.structuredContent;
  if (result?.toolResult !== undefined) return result.toolResult; // protocol 2024-11-05's shape
  if (content.length && content.every((block) => block?.type === 'text')) return textOf(content);
  return { content };
}

/** An error of an MCP call (the SDK's `McpError`, a transport error) as an `AgentnetError`. */
export function invocationError(err) {
  if (err instanceof AgentnetError) return err;
  const code = (typeof err?.code === 'number' && RPC_CODES.get(err.code)) || 'tool_failed';
  return new AgentnetError(code, String(err?.message ?? err), { cause: err });
}
