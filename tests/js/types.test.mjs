// The package's TypeScript declarations match the core's answer payloads:
// answers read through the core (`readAnswer`, `readProfile`) type-check
// against the declared interfaces, the Agent's methods are typed with them,
// and a field the declarations do not have is refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readAnswer, readProfile, AgentnetError } from '../../core/js/index.js';
import { checkTypes } from '../support/types.mjs';

const ID = '01HQV2WA00000000000000000A';
const REQUEST = '01HQV2WA00000000000000000B';

function answer(type, payload) {
  return {
    id: ID, type, source: 'core', target: 'agent:alice', payload,
    metadata: { in_reply_to: REQUEST }, timestamp: 1709337600000, network: 'demo',
  };
}

const event = {
  id: REQUEST, type: 'chat.message', source: 'agent:alice', target: 'agent:broadcast',
  payload: { text: 'hi' }, metadata: {}, timestamp: 1709337600000, network: 'demo',
};

/** Answers of every kind, as the network sends them, with the interface each should match. */
const ANSWERS = [
  ['Roster', answer('network.agent.discover.response', {
    agents: [{ address: 'agent:alice', role: 'member', status: 'online', verification: 0 }],
    channels: ['channel/general'], groups: { 'group/ops': ['agent:alice'] }, mods: ['mod/workspace'],
    resources: [{ address: 'resource/tool/calc', owner: 'agent:alice', type: 'tool' }],
  })],
  ['ResourceList', answer('network.resource.discover.response', {
    resources: [{
      address: 'resource/tool/calc', type: 'tool', owner: 'agent:alice', description: 'adds',
      schema: { type: 'object' }, content_type: null, your_permissions: ['read', 'invoke'],
    }],
  })],
  ['ResourceContent', answer('network.resource.read.response', {
    address: 'resource/file/a.md', type: 'file', owner: 'agent:alice', description: '',
    content_type: 'text/markdown', schema: null, content: '# a',
  })],
  ['EventsPage', answer('network.events.response', { events: [{ seq: 3, event }], next_after: 3, has_more: false })],
  ['ErrorPayload', answer('network.event.error', { code: 'forbidden', message: 'no', event_id: REQUEST })],
  ['Ack', answer('network.event.ack', { id: REQUEST, seq: 4, channel: 'channel/room' })],
  ['Challenge', answer('network.agent.challenge.response', {
    nonce: 'ab12', expires_at: 1709337660000, network: 'demo', address: 'openagents:alice',
  })],
  ['Pong', answer('network.pong', { time: 1709337600000 })],
  ['Ack', answer('network.event.ack', {
    id: REQUEST, seq: 0, network: 'demo', resume_after: 12,
    member: { address: 'agent:alice', role: 'member', verification: 1, status: 'online', last_seen: 1709337600000, profile: { description: 'helps', tasks: true } },
  })],
];

const PROFILE = {
  id: 'demo', name: 'Demo', description: '', access: { policy: 'open', min_verification: 0 },
  delivery: 'at-least-once', status: 'active',
  transports: [{ type: 'websocket', endpoint: 'ws://127.0.0.1:8787/networks/demo/v1/ws' }],
  capabilities: ['network.agent'], mods: [], agents_online: 1, members: 2,
};

// What each Agent method resolves with, by its declared type.
const USAGE = `
declare const agent: Agent;
export const typed: [Promise<Roster>, Promise<ResourceInfo[]>, Promise<ResourceContent>, Promise<EventsPage>, Promise<Ack>] =
  [agent.discover(), agent.discoverResources(), agent.read('resource/file/a.md'), agent.history(), agent.send('core', 'x.y')];
export const sentId: string = agent.send('core', 'x.y').id;
export const found: Promise<NetworkDiscoveryAnswer> = agent.discoverAgents({ q: 'translation', tags: ['legal'], limit: 5 });
`;

/** A `network.discovery.response` payload as the edge answers it (tests/e2e/protocols/discovery-in-network.test.mjs). */
const DISCOVERY = {
  agents: [{
    id: 'agent:alice', kind: 'member', address: 'agent:alice', network: 'n1', name: 'alice', score: 10,
    verification: 0, did: null, description: 'helps', skills: [], networks: ['n1'],
    endpoints: [{ type: 'StructuredInterface', protocol: 'agentnet-ws', url: 'ws://127.0.0.1:8787/networks/n1/v1/ws' }],
  }],
  from_network: 1, from_registry: 0, registry: 'unavailable', registry_error: 'the registry answered 500',
};

/** A task as `task.list` lists it (core's `Task`, its push targets left out). */
const TASK = {
  id: REQUEST, context: REQUEST, requester: 'agent:alice', partners: ['agent:bob'], mode: 'direct',
  skill: 'translate', state: 'working', confirm: false,
  history: [{ id: REQUEST, from: 'agent:alice', role: 'leader', parts: [{ text: 'translate this' }], at: 1709337600000 }],
  artifacts: [{ id: 'a1', name: 'out.md', resource: 'resource/file/tasks/a1/out.md', parts: [{ text: '# out' }] }],
  created_at: 1709337600000, updated_at: 1709337600001,
};

/** Values of the other generated declarations (types/generated/), as the core writes them. */
const GENERATED = [
  ['EventEnvelope', event],
  ['AgentnetEvent', event],
  ['ListedTask', TASK],
  ['TaskList', { tasks: [TASK], total: 1, more: false }],
  ['OutboxEntry', { event, state: 'pending' }],
  ['OutboxEntry', { event, state: 'rejected', rejection: { code: 'forbidden', message: 'no' } }],
  ['ErrorCode', 'owner_offline'],
  ['LlmBudgets', { tokens_per_hour: 1000 }],
  ['AssistantProgress', { kind: 'plan', steps: ['find a translator', 'hand it the text'] }],
  ['AssistantProgress', { kind: 'delegated', to: 'agent:translator', task: REQUEST, url: 'http://127.0.0.1:8787/networks/demo/tasks/x', for: 'human:ann' }],
];

test('answers read through the core keep the shape the network sent', () => {
  for (const [, sent] of ANSWERS) assert.deepEqual(readAnswer(sent), sent.payload, sent.type);
  assert.deepEqual(readAnswer(JSON.stringify(ANSWERS[0][1])), ANSWERS[0][1].payload);
  assert.deepEqual(readProfile(PROFILE), PROFILE);
});

test('an answer of the wrong shape or type is malformed_event', () => {
  const bad = answer('network.agent.discover.response', { agents: 'everyone' });
  assert.throws(() => readAnswer(bad), (err) => err instanceof AgentnetError && err.code === 'malformed_event');
  assert.throws(() => readAnswer(event), { code: 'malformed_event' });
  assert.throws(() => readAnswer('not json'), { code: 'malformed_event' });
  assert.throws(() => readProfile({ id: 'demo' }), { code: 'malformed_event' });
});

test('the declared interfaces type-check every answer and the Agent methods', () => {
  const samples = ANSWERS.map(([type, sent]) => [type, readAnswer(sent)]);
  samples.push(['NetworkProfile', readProfile(PROFILE)], ['ResourceInfo', samples[1][1].resources[0]]);
  samples.push(['NetworkDiscoveryAnswer', DISCOVERY]);
  samples.push(...GENERATED);
  const { ok, output } = checkTypes(samples, USAGE);
  assert.ok(ok, output);
});

test('a field the declarations lack, or a missing one, is refused', () => {
  const roster = readAnswer(ANSWERS[0][1]);
  const extra = checkTypes([['Roster', { ...roster, surprise: 1 }]]);
  assert.equal(extra.ok, false);
  assert.match(extra.output, /surprise/);
  const { your_permissions: _, ...missing } = readAnswer(ANSWERS[1][1]).resources[0];
  assert.equal(checkTypes([['ResourceInfo', missing]]).ok, false);
});

test('the generated declarations refuse what the Rust types do not write', () => {
  assert.equal(checkTypes([['ErrorCode', 'no_such_code']]).ok, false);
  assert.equal(checkTypes([['OutboxEntry', { event, state: 'rejected' }]]).ok, false, 'a rejection without its reason');
  const { confirm: _, ...missing } = TASK;
  assert.equal(checkTypes([['ListedTask', missing]]).ok, false);
});

test('every generated declaration is exported by the package', () => {
  const dir = new URL('../../core/js/types/generated/', import.meta.url);
  const generated = readdirSync(dir).map((file) => readFileSync(new URL(file, dir), 'utf8')).join('\n');
  const names = [...generated.matchAll(/^export type (\w+)/gm)].map(([, name]) => name);
  assert.ok(names.length > 30, `only ${names.length} declarations`);
  const pkg = fileURLToPath(new URL('../../core/js/index.js', import.meta.url));
  const { ok, output } = checkTypes([], `import type * as sdk from ${JSON.stringify(pkg)};\n`
    + names.map((name) => `export type Has${name} = sdk.${name};`).join('\n'));
  assert.ok(ok, output);
});
