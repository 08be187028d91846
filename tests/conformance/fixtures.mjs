// The members the official conformance suites talk to, built with the npm
// package (core/js) like any agent on a network.
//
// * `joinA2aFixture`: the A2A TCK's system under test. The TCK says what it
//   wants by the prefix of each message's `messageId` (its
//   scenarios/*.feature on 1.0-dev; the reference SUT
//   sut/a2a-python/sut_agent.py does the same): artifacts with text, file
//   (raw bytes), URL and data parts, a Message answer, a task that waits for
//   input, a rejected task, streamed updates, a long task for resubscription.
//   The network puts the A2A `messageId` in the `task.create` (and a
//   continuing `task.message`) payload as `message_id`, which a listener
//   here reads before the task handler runs.
// * `joinMcpFixture`: the MCP conformance suite's reference fixtures that a
//   network can carry: tools (text output, an error, a JSON Schema 2020-12
//   input schema), a shared file (a resource) and a SKILL.md context (the
//   prompt `test_simple_prompt`). What a network member cannot express over
//   MCP (image, audio and embedded-resource content, log and progress
//   notifications, sampling and elicitation requests, `test://` URIs, prompt
//   arguments) is left out: docs/conformance.md lists those scenarios.

import WebSocket from 'ws';
import { Agent } from '../../core/js/index.js';

/** The A2A fixture's address: its card is `/networks/{id}/a2a/agent:tck/.well-known/agent-card.json`. */
export const A2A_FIXTURE = 'agent:tck';
/** The MCP fixture's address (its tools, file and prompt are the network's over MCP). */
export const MCP_FIXTURE = 'agent:mcp-fixtures';

/** How long the resubscription scenario's task stays `working` (the TCKs ask for 2 × their 2 s streaming timeout). */
const LONG_TASK_MS = Number(process.env.TCK_LONG_TASK_MS ?? 4500);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const FILE_PART = { raw: Buffer.from('tck').toString('base64'), mediaType: 'text/plain', filename: 'output.txt' };

/**
 * What the fixture does with a message whose id is `messageId`: one step of
 * `work` (the npm TaskWork); resolves with `{input: true}` when it asked for
 * input (the requester's next message says what to do next), `{answer}`
 * for a Message answer, or nothing when the task is finished.
 */
async function step(work, messageId) {
  const is = (prefix) => messageId.startsWith(prefix);
  // The 0.3.x TCK names no scenarios (its ids are `{test}-message-id-{uuid}`), but its
  // tests cancel the task their first message made, continue it (one of them three
  // times) and read it, so it must still be open: a conversation that waits for
  // input after every message (its reference agent, python-sut/tck_core_agent,
  // works each task for over a second, which leaves it open for those tests).
  if (!is('tck-') && !is('test-resubscribe-message-id')) return { input: true };
  // Longest prefixes first: tck-artifact-file-url before tck-artifact-file.
  if (is('tck-message-response')) return { answer: 'Direct message response' };
  if (is('tck-input-required')) return { input: true };
  if (is('tck-reject-task')) {
    await work.reject('rejected');
    return undefined;
  }
  // A continued task is `working` already (working to working is no move).
  if (work.state === 'accepted') await work.working();
  if (is('test-resubscribe-message-id')) {
    await sleep(LONG_TASK_MS);
  } else if (is('tck-artifact-file-url')) {
    await work.artifact('output.txt', [{ url: 'https://example.com/output.txt', mediaType: 'text/plain', filename: 'output.txt' }]);
  } else if (is('tck-artifact-file') || is('tck-stream-artifact-file')) {
    await work.artifact('output.txt', [FILE_PART]);
  } else if (is('tck-artifact-text')) {
    await work.artifact('text', 'Generated text content');
  } else if (is('tck-artifact-data')) {
    await work.artifact('data', [{ data: { key: 'value', count: 42 } }]);
  } else if (is('tck-stream-artifact-text')) {
    await work.artifact('text', 'Streamed text content');
  } else if (is('tck-stream-artifact-chunked')) {
    // Two chunks of one artifact (same id): the network keeps the latest.
    await work.artifact('chunked', 'chunk-1 ', { id: 'chunked' });
    await work.artifact('chunked', 'chunk-2', { id: 'chunked' });
  } else if (is('tck-stream-001')) {
    await work.artifact('text', 'Stream hello from TCK');
  } else if (is('tck-stream-003')) {
    await work.artifact('text', 'Stream task lifecycle');
  } else if (is('tck-stream-ordering-001')) {
    await work.artifact('text', 'Ordered output');
  } else if (is('tck-stream-002')) {
    // completes without an artifact
  } else if (is('tck-complete-task')) {
    await work.complete('Hello from TCK');
    return undefined;
  } else {
    // The reference SUT's default.
    await work.complete(`Unhandled messageId prefix: ${messageId}`);
    return undefined;
  }
  await work.complete();
  return undefined;
}

/** Joins the A2A fixture to `network` on the edge at `url`; resolves with the Agent. */
export async function joinA2aFixture(url, network, { name = A2A_FIXTURE } = {}) {
  const agent = await Agent.connect({ url, network, name, WebSocket, secretStore: false });
  // A member with a skill has a card; `read: network` lets callers without a session see it.
  await agent.registerTool('tck', { type: 'object' }, () => 'TCK conformance fixture', {
    description: 'Answers the A2A TCK scenarios by messageId prefix', permissions: { read: 'network' },
  });
  // The A2A messageId of each task's newest message, from the events themselves
  // (registered before onTask, so it runs before the task handler does).
  const messageIds = new Map();
  agent.on('task.*', (event) => {
    const id = event.payload?.message_id;
    if (event.type === 'task.create') messageIds.set(event.id, id ?? '');
    else if (event.type === 'task.message' && event.source !== agent.address) messageIds.set(event.payload?.task, id ?? '');
    else if (event.type === 'task.cancel' || (event.type === 'task.update' && ['completed', 'canceled', 'failed', 'rejected'].includes(event.payload?.state))) {
      messageIds.delete(event.payload?.task);
    }
  });
  // `answer: 'message'`: returning parts while the task is still `accepted`
  // answers with one Message; every other scenario works the task itself.
  agent.onTask(async (work) => {
    let messageId = messageIds.get(work.id) ?? '';
    for (;;) {
      const next = await step(work, messageId);
      if (next?.answer) return next.answer;
      if (!next?.input) return undefined;
      await work.askInput('The TCK fixture needs input');
      messageId = messageIds.get(work.id) ?? '';
    }
  }, { answer: 'message' });
  return agent;
}

/** The suite's 1x1 PNG and silent WAV are not needed: a member's tool output is JSON (text and structuredContent). */
const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
  },
  properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
  additionalProperties: false,
};

/** Joins the MCP fixture to `network`; resolves with the Agent once its tools, file and prompt are registered. */
export async function joinMcpFixture(url, network, { name = MCP_FIXTURE } = {}) {
  const agent = await Agent.connect({ url, network, name, WebSocket, secretStore: false });
  await agent.registerTool('test_simple_text', { type: 'object', properties: {} },
    () => 'This is a simple text response for testing.',
    { description: 'Returns simple text content (the conformance suite\'s tools-call-simple-text)' });
  await agent.registerTool('test_error_handling', { type: 'object', properties: {} },
    () => { throw new Error('This tool intentionally returns an error for testing'); },
    { description: 'Always fails (tools-call-error)' });
  await agent.registerTool('json_schema_2020_12_tool', JSON_SCHEMA_2020_12,
    (input) => ({ received: input }),
    { description: 'Tool with JSON Schema 2020-12 features (json-schema-2020-12, SEP-1613)' });
  await agent.registerFile('static-text.txt', 'This is the content of the static text resource.', {
    contentType: 'text/plain', description: 'A static text resource (resources-list)',
  });
  // Described in its registration too: prompts/list reads a SKILL.md's front matter only once the context was read.
  await agent.registerContext('test_simple_prompt.SKILL.md',
    '---\nname: test_simple_prompt\ndescription: A simple prompt without arguments\n---\nThis is a simple prompt for testing.\n',
    { description: 'A simple prompt without arguments' });
  return agent;
}
