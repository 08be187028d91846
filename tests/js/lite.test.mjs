// agentnet-sdk/lite, loaded alone (each test file is its own process): the
// same API on the smaller core, which lacks shared documents and the
// conformance runner and says so with `not_supported`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, AgentnetError, parseAddress, validateEvent, runConformanceVector } from '../../core/js/lite.js';

test('the lite core parses and validates as the full one does', () => {
  assert.equal(parseAddress('alice'), 'agent:alice');
  assert.throws(() => parseAddress('no spaces'), (err) => err instanceof AgentnetError && err.code === 'invalid_address');
  assert.equal(typeof Agent.connect, 'function');
  assert.throws(() => validateEvent({ id: 1 }), (err) => err instanceof AgentnetError && err.code === 'malformed_event');
});

test('the lite core has no conformance runner and says so', () => {
  assert.throws(() => runConformanceVector('{}'), (err) => err instanceof AgentnetError && err.code === 'not_supported' && /agentnet-sdk\/lite/.test(err.message));
});
