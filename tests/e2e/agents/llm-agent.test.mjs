// LLM members end to end: `Agent.llm` from the npm package against the local
// edge, thinking with the scripted provider (tests/support/scripted-provider.mjs,
// recorded OpenAI- and Anthropic-shaped answers) — the conversation rules,
// tools called through the network as the agent, streaming activity, Stop,
// failures in words, tasks from the official A2A SDK, and the key kept out of
// everything the network sees.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { startScriptedProvider, text, toolCall, error, slow } from '../../support/scripted-provider.mjs';
import { collectEvents, nextEvent } from '../../support/events.mjs';
import { expectNothingFor, until, within } from '../../support/waits.mjs';

const KEY = 'sk-test-7f3a9c2e5b1d4f6a8c0e2b4d6f8a1c3e';
let edge;
let provider;
let network;

before(async () => {
  edge = await startEdge();
  provider = await startScriptedProvider({ key: KEY });
  ({ id: network } = await createNetwork(edge.url, { name: 'llm', mods: ['workspace', 'persistence'] }));
});

after(async () => {
  await provider?.close();
  await edge?.stop();
});

const connect = (name) => Agent.connect({ url: edge.url, network, name });

function llm(name, extra = {}) {
  return Agent.llm({
    url: edge.url, network, name,
    ...provider.openaiMember(),
    systemPrompt: 'You are a helpful member of this network.',
    ...extra,
  });
}

const requestsSince = (n) => provider.requests.slice(n).filter((r) => r.provider);

/** Runs `body(person, helper)` with the LLM member `helper` made by `llm(...member)` and the person `name`;
 * closes both after. */
async function withLlmAndPerson(member, name, body) {
  const helper = await llm(...member);
  const person = await connect(name);
  try {
    await body(person, helper);
  } finally {
    helper.close();
    person.close();
  }
}

test('a mention in a thread: the agent uses another member\'s tool and answers in the thread, streaming as it goes', async () => {
  const weather = await connect('agent:weather');
  const invoked = [];
  await weather.registerTool('forecast', { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    (input) => { invoked.push(input); return { city: input.city, sky: 'sunny', high_c: 21 }; },
    { description: 'The forecast for a city' });
  const helper = await llm('agent:helper', { tools: 'all' });
  const ann = await connect('human:ann');
  try {
    await ann.createChannel('plans', { members: ['agent:helper'] });
    await helper.agent.joinChannel('plans');
    const root = await ann.post('channel/plans', 'Trip to Paris on Friday');
    const before = provider.requests.length;
    provider.script('openai', [
      toolCall('forecast', { city: 'Paris' }),
      slow('Friday in Paris looks sunny, with a high of 21 °C.', { delayMs: 40 }),
    ]);
    const activity = collectEvents(ann, 'workspace.agent.activity');
    const answered = nextEvent(ann, 'workspace.message.posted', (e) => e.source === 'agent:helper');
    const question = await ann.post('channel/plans', '@helper what will the weather be?', {
      inReplyTo: root.id, metadata: { mentions: ['agent:helper'] },
    });
    const answer = await answered;

    assert.deepEqual(invoked, [{ city: 'Paris' }], 'the tool ran once, through the network');
    assert.equal(answer.target, 'channel/plans');
    assert.equal(answer.metadata.in_reply_to, root.id, 'the answer is in the thread');
    assert.equal(answer.payload.answers, question.id);
    assert.equal(answer.payload.content, 'Friday in Paris looks sunny, with a high of 21 °C.');
    assert.equal(answer.payload.steps.length, 1);
    assert.equal(answer.payload.steps[0].tool, 'forecast');
    assert.deepEqual(answer.payload.steps[0].arguments, { city: 'Paris' });
    assert.equal(answer.payload.steps[0].ok, true);
    assert.match(answer.payload.steps[0].result, /sunny/);

    const states = activity.filter((e) => e.payload.message === question.id).map((e) => e.payload.state);
    assert.equal(states[0], 'thinking');
    assert.ok(states.includes('calling_tool'), states.join());
    const writing = activity.filter((e) => e.payload.state === 'writing').map((e) => e.payload.text);
    assert.ok(writing.length >= 1, 'the answer streamed as activity');
    assert.ok(writing.every((t) => 'Friday in Paris looks sunny, with a high of 21 °C.'.startsWith(t)), writing.join(' | '));
    assert.ok(activity.every((e) => e.payload.thread === root.id && e.target === 'channel/plans'));

    const calls = requestsSince(before);
    assert.equal(calls.length, 2);
    assert.equal(calls[0].headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(calls[0].body.tools.map((t) => t.function.name), ['forecast']);
    const asked = calls[0].body.messages.map((m) => m.content);
    assert.ok(asked.includes('human:ann: Trip to Paris on Friday'), 'the thread root is in the history');
    assert.ok(asked.includes('human:ann: @helper what will the weather be?'));
    const toolResult = calls[1].body.messages.at(-1);
    assert.equal(toolResult.role, 'tool');
    assert.match(toolResult.content, /sunny/);

    const log = await ann.history({ limit: 100 });
    const everything = JSON.stringify(log) + JSON.stringify(calls.map((c) => c.body));
    assert.ok(!everything.includes(KEY), 'the key is in no event and no model context');
  } finally {
    helper.close();
    weather.close();
    ann.close();
  }
});

test('a direct message is answered to its sender; an unaddressed channel message is not answered', () =>
  withLlmAndPerson(['agent:desk'], 'human:bob', async (bob, helper) => {
    await bob.createChannel('lobby', { members: ['agent:desk'] });
    await helper.agent.joinChannel('lobby');
    const before = provider.requests.length;
    provider.script('openai', [text('Hello Bob!')]);
    await bob.post('channel/lobby', 'just chatting among people here');
    const answered = nextEvent(bob, 'workspace.message.posted', (e) => e.source === 'agent:desk');
    const dm = await bob.post('agent:desk', 'hi desk');
    const answer = await answered;
    assert.equal(answer.target, 'human:bob');
    assert.equal(answer.payload.answers, dm.id);
    assert.equal(answer.payload.content, 'Hello Bob!');
    const calls = requestsSince(before);
    assert.equal(calls.length, 1, 'only the direct message reached the model');
    assert.equal(calls[0].body.messages.at(-1).content, 'human:bob: hi desk');
  }));

test('two agents mentioning each other stop after the bound, and a person starts them again', async () => {
  const budgets = { agent_turns_without_person: 2 };
  const ping = await llm('agent:ping', { budgets, systemPrompt: 'You are ping.' });
  const pong = await llm('agent:pong', { budgets, systemPrompt: 'You are pong.' });
  const cy = await connect('human:cy');
  try {
    await cy.createChannel('echo', { members: ['agent:ping', 'agent:pong'] });
    await ping.agent.joinChannel('echo');
    await pong.agent.joinChannel('echo');
    const before = provider.requests.length;
    const mentionOther = (request) => {
      const me = request.body.messages[0].content === 'You are ping.' ? 'ping' : 'pong';
      return text(`@${me === 'ping' ? 'pong' : 'ping'} over to you`);
    };
    // Two answers are scripted; a third call would get "(no scripted answer)" and be counted.
    provider.script('openai', [mentionOther, mentionOther]);
    const posts = collectEvents(cy, 'workspace.message.posted');
    await cy.post('channel/echo', '@ping start the rally');
    await nextEvent(cy, 'workspace.message.posted', (e) => e.source !== 'human:cy' && posts.filter((p) => p.source !== 'human:cy').length >= 2);
    // Both answered once; the third would exceed two agent turns without a person.
    await cy.request('core', 'network.ping', {});
    await expectNothingFor(1500, 'a third agent turn');
    const agentPosts = posts.filter((p) => p.source !== 'human:cy');
    assert.deepEqual(agentPosts.map((p) => p.source), ['agent:ping', 'agent:pong']);
    assert.equal(requestsSince(before).length, 2);
  } finally {
    ping.close();
    pong.close();
    cy.close();
  }
});

test('Stop from the person who asked ends the answer midway: the stream is cut, nothing is posted', async () => {
  const helper = await llm('agent:talker');
  const dee = await connect('human:dee');
  const eve = await connect('human:eve');
  try {
    const before = provider.requests.length;
    provider.script('openai', [slow('one two three four five six seven eight nine ten eleven twelve thirteen fourteen', { delayMs: 250 })]);
    const writing = nextEvent(dee, 'workspace.agent.activity', (e) => e.payload.state === 'writing');
    const question = await dee.post('agent:talker', 'count slowly');
    await writing;
    await eve.send('agent:talker', 'workspace.agent.stop', { message: question.id });
    const idle = nextEvent(dee, 'workspace.agent.activity', (e) => e.payload.state === 'idle' && e.payload.message === question.id);
    const posted = collectEvents(dee, 'workspace.message.posted');
    await dee.send('agent:talker', 'workspace.agent.stop', { message: question.id });
    await idle;
    await expectNothingFor(800, 'a post after Stop');
    assert.deepEqual(posted.filter((p) => p.source === 'agent:talker'), [], 'nothing posted after Stop');
    const [call] = requestsSince(before);
    assert.equal(call.aborted, true, 'the model stream was closed');
  } finally {
    helper.close();
    dee.close();
    eve.close();
  }
});

test('provider failures are said in the conversation and the agent keeps answering', () =>
  withLlmAndPerson(['agent:steady'], 'human:fay', async (fay) => {
    provider.script('openai', [error(429, { retryAfter: 20 }), error(401), text('Back again.')]);
    for (const [asked, said] of [
      ['one', /rate limiting this agent; try again in 20 s/],
      ['two', /refused the key .*check the agent's key variable/],
      ['three', /^Back again\.$/],
    ]) {
      const answered = nextEvent(fay, 'workspace.message.posted', (e) => e.source === 'agent:steady' && e.payload.content.match(said));
      await fay.post('agent:steady', asked);
      const answer = await answered;
      assert.equal(answer.payload.failed === true, asked !== 'three');
      assert.ok(!answer.payload.content.includes(KEY));
    }
  }));

test('a model that does not finish in time is said, and the next question is answered', () =>
  withLlmAndPerson(['agent:patient', { timeoutMs: 700 }], 'human:ivy', async (ivy) => {
    provider.script('openai', [slow('one two three four five six seven eight', { delayMs: 300 }), text('On time now.')]);
    let answered = nextEvent(ivy, 'workspace.message.posted', (e) => e.source === 'agent:patient');
    await ivy.post('agent:patient', 'count');
    const late = await answered;
    assert.equal(late.payload.content, 'I could not answer: the model provider could not be reached: no answer in time.');
    assert.equal(late.payload.failed, true);
    answered = nextEvent(ivy, 'workspace.message.posted', (e) => e.source === 'agent:patient' && e.id !== late.id);
    await ivy.post('agent:patient', 'again');
    assert.equal((await answered).payload.content, 'On time now.');
  }));

test('no key: Agent.llm says which variable before connecting', async () => {
  await assert.rejects(
    Agent.llm({ url: edge.url, network, name: 'agent:nokey', provider: 'anthropic_messages', baseUrl: provider.anthropicBase, model: 'claude-sonnet-4-5', keyVar: 'MISSING_ANTHROPIC_KEY', env: {} }),
    (err) => err.code === 'invalid_request' && /MISSING_ANTHROPIC_KEY/.test(err.message),
  );
  const look = await connect('agent:look');
  const { agents } = await look.discover();
  look.close();
  assert.ok(!agents.some((a) => a.address === 'agent:nokey'), 'it never joined');
});

test('an A2A client\'s task is answered by an Anthropic-speaking agent, with a question on the way', async () => {
  const claude = await llm('agent:claude', {
    provider: 'anthropic_messages', baseUrl: provider.anthropicBase, model: 'claude-sonnet-4-5',
  });
  try {
    provider.script('anthropic', [toolCall('ask_user', { question: 'Which city?' }), text('Paris: sunny, 21 °C.')]);
    const join = await fetch(`${edge.url}/networks/${network}/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'agent:a2a-client' }) });
    const { token } = await join.json();
    const fetchImpl = (url, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set('Authorization', `Bearer ${token}`);
      return fetch(url, { ...init, headers });
    };
    const client = await new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    })).createFromUrl(`${edge.url}/networks/${network}/a2a/agent:claude/`);
    const say = (value, taskId = '', contextId = '') => ({
      message: { messageId: crypto.randomUUID(), role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value } }], taskId, contextId, extensions: [], referenceTaskIds: [], metadata: undefined },
    });
    let task = await client.sendMessage(say('What is the weather?'));
    task = task.payload?.value ?? task;
    /** The task once its state is `state` (polled with GetTask). */
    const inState = (id, state) => until(`the task in state ${state}`, async () => {
      const now = await client.getTask({ id, historyLength: 10 });
      return now.status?.state === state && now;
    }, 5_000, 100);
    task = await inState(task.id, TaskState.TASK_STATE_INPUT_REQUIRED);
    assert.equal(task.status.state, TaskState.TASK_STATE_INPUT_REQUIRED);
    assert.match(JSON.stringify(task.status.message), /Which city\?/, 'the model\'s question reaches the client');
    await client.sendMessage(say('Paris', task.id, task.contextId));
    task = await inState(task.id, TaskState.TASK_STATE_COMPLETED);
    assert.equal(task.status.state, TaskState.TASK_STATE_COMPLETED);
    const artifactText = JSON.stringify(task.artifacts);
    assert.match(artifactText, /Paris: sunny, 21 °C\./);
    const [first, second] = provider.requests.filter((r) => r.provider === 'anthropic').slice(-2);
    assert.equal(first.headers['x-api-key'], KEY);
    assert.ok(first.body.tools.some((t) => t.name === 'ask_user'));
    const answer = second.body.messages.at(-1).content.find((b) => b.type === 'tool_result');
    assert.match(JSON.stringify(answer.content), /Paris/);
  } finally {
    claude.close();
  }
});

/** Runs the CLI with `args` until it says `ready` on stderr; resolves with the child. */
async function cli(args, env, ready) {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [new URL('../../../core/js/bin/agentnet-sdk.js', import.meta.url).pathname, ...args], {
    env: { ...process.env, AGENTNET_SECRETS: `/tmp/agentnet-llm-test-${process.pid}.json`, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  await within(new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      said += d;
      if (ready.test(said)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the CLI exited ${code}: ${said}`)));
  }), 30_000, 'start of the CLI').catch((err) => { throw new Error(`${err.message}: ${said}`); });
  return child;
}

const stopped = (child) => new Promise((resolve) => {
  child.once('exit', resolve);
  child.kill('SIGINT');
});

test('agentnet-sdk connect --command: a command-line agent answers with what it prints, and its failure is said', async () => {
  const script = new URL('../../support/fake-coder.mjs', import.meta.url).pathname;
  const coder = await cli(['connect', '--url', edge.url, '--network', network, '--as', 'agent:coder',
    '--command', `${process.execPath} ${script} {prompt}`], {}, /answers in/);
  const stdin = await cli(['connect', '--url', edge.url, '--network', network, '--as', 'agent:piped',
    '--command', `${process.execPath} ${script}`], {}, /answers in/);
  const gus = await connect('human:gus');
  try {
    let answered = nextEvent(gus, 'workspace.message.posted', (e) => e.source === 'agent:coder');
    await gus.post('agent:coder', 'please fix the flaky test');
    let answer = await answered;
    assert.match(answer.payload.content, /^coder read 1 message\(s\) via argument; last: human:gus: please fix the flaky test/);
    assert.match(answer.payload.content, new RegExp(`mcp: ${edge.url}/networks/${network}/mcp`));
    answered = nextEvent(gus, 'workspace.message.posted', (e) => e.source === 'agent:piped');
    await gus.post('agent:piped', 'hello over stdin');
    answer = await answered;
    assert.match(answer.payload.content, /via stdin; last: human:gus: hello over stdin/);
    answered = nextEvent(gus, 'workspace.message.posted', (e) => e.source === 'agent:coder' && e.payload.failed);
    await gus.post('agent:coder', 'now fail please');
    answer = await answered;
    assert.equal(answer.payload.content, 'I could not answer: the command failed: error: the simulated agent failed.');
  } finally {
    gus.close();
    await stopped(coder);
    await stopped(stdin);
  }
});

test('agentnet-sdk agent: one command puts an LLM member in the network; skill writes the network\'s SKILL.md', async () => {
  const { mkdtemp, readFile } = await import('node:fs/promises');
  const helper = await cli(['agent', '--url', edge.url, '--network', network, '--as', 'agent:cli-llm',
    '--provider', 'openai_chat', '--base-url', provider.openaiBase, '--model', 'gpt-4o-mini', '--key-var', 'CLI_LLM_KEY',
    '--persona', 'You are the CLI assistant.'], { CLI_LLM_KEY: KEY }, /answers in/);
  const hal = await connect('human:hal');
  try {
    provider.script('openai', [text('Hi Hal, from the CLI.')]);
    const before = provider.requests.length;
    const answered = nextEvent(hal, 'workspace.message.posted', (e) => e.source === 'agent:cli-llm');
    await hal.post('agent:cli-llm', 'hello');
    assert.equal((await answered).payload.content, 'Hi Hal, from the CLI.');
    assert.equal(requestsSince(before)[0].body.messages[0].content, 'You are the CLI assistant.');

    const tides = await connect('agent:tides');
    await tides.registerTool('tides', { type: 'object', properties: { port: { type: 'string' } } }, () => ({}), { description: 'High and low tide for a port' });
    tides.close();
    const dir = await mkdtemp('/tmp/agentnet-skill-');
    const { execFile } = await import('node:child_process');
    const out = await new Promise((resolve, reject) => execFile(process.execPath, [new URL('../../../core/js/bin/agentnet-sdk.js', import.meta.url).pathname,
      'skill', '--url', edge.url, '--network', network, '--as', 'agent:skill-writer', '--out', `${dir}/SKILL.md`],
    { env: { ...process.env, AGENTNET_SECRETS: `${dir}/secrets.json` } }, (err, stdout, stderr) => (err ? reject(new Error(stderr)) : resolve(stdout))));
    assert.deepEqual(JSON.parse(out), { skill: `${dir}/SKILL.md` });
    const skill = await readFile(`${dir}/SKILL.md`, 'utf8');
    assert.match(skill, new RegExp(`^---\\nname: agentnet-${network}\\n`));
    assert.match(skill, /### `tides`\n\nHigh and low tide for a port/);
    assert.match(skill, new RegExp(`${edge.url}/networks/${network}/mcp`));
  } finally {
    hal.close();
    await stopped(helper);
  }
  await assert.rejects(
    cli(['agent', '--url', edge.url, '--network', network, '--provider', 'openai_chat', '--base-url', provider.openaiBase,
      '--model', 'm', '--key-var', 'UNSET_LLM_KEY'], { UNSET_LLM_KEY: '' }, /answers in/),
    /UNSET_LLM_KEY/,
  );
});

test('an MCP client (the official SDK) asks the agent in a direct message and reads its answer', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const helper = await llm('agent:mcp-helper');
  try {
    provider.script('openai', [text('Four.')]);
    const joined = await fetch(`${edge.url}/networks/${network}/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'agent:mcp-user' }) });
    const { token } = await joined.json();
    const transport = new StreamableHTTPClientTransport(new URL(`${edge.url}/networks/${network}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    const client = new Client({ name: 'llm-agent-test', version: '1.0.0' }, { capabilities: {} });
    await client.connect(transport);
    const call = async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      assert.ok(!result.isError, JSON.stringify(result));
      return result.structuredContent ?? JSON.parse(result.content[0].text);
    };
    const first = await call('agentnet_read', {});
    await call('agentnet_post', { to: 'agent:mcp-helper', text: 'what is 2+2?' });
    let after = first.next_after;
    let answer;
    for (let i = 0; i < 10 && !answer; i += 1) {
      const read = await call('agentnet_read', { after, wait_ms: 5000 });
      after = read.next_after;
      answer = read.events.map((e) => e.event).find((e) => e.source === 'agent:mcp-helper' && e.type === 'workspace.message.posted');
    }
    assert.equal(answer?.payload.content, 'Four.');
    assert.equal(answer.target, 'agent:mcp-user');
    await client.close();
  } finally {
    helper.close();
  }
});
