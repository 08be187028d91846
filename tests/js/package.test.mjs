// Unit tests of the npm package `agentnet` running the wasm core in Node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAddress, validateEvent, matchesPattern, networkSocketUrl, AgentnetError } from '../../core/js/index.js';

test('addresses parse to their canonical form', () => {
  assert.equal(parseAddress('alice'), 'agent:alice');
  assert.equal(parseAddress('local::channel/general'), 'channel/general');
  assert.equal(parseAddress('net1::openagents:bob'), 'net1::openagents:bob');
});

test('invalid addresses throw AgentnetError with the core code', () => {
  assert.throws(() => parseAddress('channel/'), (err) => {
    assert.ok(err instanceof AgentnetError);
    assert.ok(err instanceof Error);
    assert.equal(err.code, 'invalid_address');
    assert.match(err.message, /channel name is empty/);
    return true;
  });
});

test('events are validated field by field', () => {
  const event = {
    id: '01HQY7BR000000000000000000', type: 'workspace.message.posted', source: 'alice',
    target: 'agent:broadcast', payload: { content: 'hi' }, timestamp: 1709337600000,
  };
  const canonical = validateEvent(event);
  assert.equal(canonical.source, 'agent:alice');
  assert.deepEqual(canonical.metadata, {});
  assert.throws(() => validateEvent({ ...event, type: 'Bad' }), { code: 'invalid_event_type' });
  assert.throws(() => validateEvent({ ...event, id: 'x' }), { code: 'invalid_event_id' });
});

test('type patterns follow the core rules', () => {
  assert.equal(matchesPattern('workspace.message.*', 'workspace.message.posted'), true);
  assert.equal(matchesPattern('workspace.message.*', 'workspace.session.created'), false);
  assert.equal(matchesPattern('*', 'a.b'), true);
  assert.throws(() => matchesPattern('bad pattern', 'a.b'), { code: 'invalid_event_type' });
});

test('network socket URLs follow the edge layout', () => {
  assert.equal(networkSocketUrl('http://127.0.0.1:8787', 'demo'), 'ws://127.0.0.1:8787/networks/demo/v1/ws');
  assert.equal(networkSocketUrl('https://edge.example/x', 'a1'), 'wss://edge.example/networks/a1/v1/ws');
});
