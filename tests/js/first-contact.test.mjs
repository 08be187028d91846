// The npm package's first-contact parts without a network: where
// member secrets are kept on each platform and under which key, the file
// store (owner-only, two writers keep both), the conversation a reply goes
// to, and tool input checked against its JSON Schema.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../../core/js/index.js';
import { secretsPath } from '../../core/js/lib/secrets-file.js';
import { jsonFileStore, secretKey, secretStoreOf } from '../../core/js/lib/secrets.js';
import { chatPayload, conversationOf } from '../../core/js/lib/chat.js';
import { inputCheck } from '../../core/js/lib/schema.js';

test('the secrets file is in the platform configuration folder, or AGENTNET_SECRETS', () => {
  const home = '/home/ann';
  assert.equal(secretsPath({ platform: 'linux', env: {}, home }), '/home/ann/.config/agentnet/secrets.json');
  assert.equal(secretsPath({ platform: 'linux', env: { XDG_CONFIG_HOME: '/cfg' }, home }), '/cfg/agentnet/secrets.json');
  assert.equal(secretsPath({ platform: 'darwin', env: {}, home: '/Users/ann' }), '/Users/ann/Library/Application Support/agentnet/secrets.json');
  assert.equal(secretsPath({ platform: 'win32', env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, home: 'C:\\Users\\ann', sep: '\\' }),
    'C:\\Users\\ann\\AppData\\Roaming\\agentnet\\secrets.json');
  assert.equal(secretsPath({ platform: 'linux', env: { AGENTNET_SECRETS: '/tmp/s.json' }, home }), '/tmp/s.json');
});

test('a secret is keyed by the network URL and the address, however the network was named', () => {
  const key = 'http://127.0.0.1:8787/networks/demo agent:echo';
  assert.equal(secretKey('ws://127.0.0.1:8787/networks/demo/v1/ws', 'agent:echo'), key);
  assert.equal(secretKey('ws://127.0.0.1:8787/networks/demo/v1/ws?frames=batch', 'agent:echo'), key);
  assert.equal(secretKey('wss://example.org/networks/x/v1/ws', 'human:ann'), 'https://example.org/networks/x human:ann');
});

test('the file store keeps every writer\'s secret in an owner-only file; false keeps nothing; a bad store is refused', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentnet-store-'));
  try {
    const { nodeSecretStore } = await import('../../core/js/lib/secrets-file.js');
    process.env.AGENTNET_SECRETS = join(dir, 'deep', 'secrets.json');
    const store = await nodeSecretStore();
    await Promise.all([store.set('a', 'secret-a'), store.set('b', 'secret-b')]);
    assert.equal(await store.get('a'), 'secret-a');
    assert.deepEqual(JSON.parse(await readFile(process.env.AGENTNET_SECRETS, 'utf8')), { a: 'secret-a', b: 'secret-b' });
    assert.equal((await stat(process.env.AGENTNET_SECRETS)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'deep'))).mode & 0o777, 0o700);
    const broken = jsonFileStore({ read: async () => 'not json', write: async () => {} });
    assert.equal(await broken.get('a'), undefined, 'an unreadable file keeps nothing, and breaks nothing');
    assert.equal(await secretStoreOf(false), null);
    await assert.rejects(secretStoreOf({ get() {} }), { code: 'invalid_argument' });
  } finally {
    delete process.env.AGENTNET_SECRETS;
    await rm(dir, { recursive: true, force: true });
  }
});

test('a reply goes where the message was said', () => {
  const me = 'agent:echo';
  assert.equal(conversationOf({ source: 'human:ann', target: me }, me), 'human:ann', 'a direct message: to its sender');
  assert.equal(conversationOf({ source: 'human:ann', target: 'channel/room' }, me), 'channel/room');
  assert.equal(conversationOf({ source: 'human:ann', target: 'agent:broadcast' }, me), 'agent:broadcast');
  assert.equal(conversationOf({ source: 'agent:bridge', target: me, metadata: { bridged_from: 'lab::human:ann' } }, me), 'lab::human:ann');
  assert.deepEqual(chatPayload('hi'), { content: 'hi' });
  assert.throws(() => chatPayload({ text: 'hi' }), { code: 'invalid_argument' });
});

test('tool input is checked against its JSON Schema with the validator\'s message', async () => {
  const check = await inputCheck({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object', properties: { days: { type: 'integer' } }, required: ['days'], additionalProperties: false,
  }, 'resource/tool/forecast');
  assert.equal(check({ days: 3 }), undefined);
  assert.equal(check({ days: 'many' }), 'input/days must be integer');
  assert.equal(check({}), "input must have required property 'days'");
  assert.equal(check({ days: 1, extra: 1 }), 'input must NOT have additional properties');
  assert.equal((await inputCheck(undefined, 'x'))({ anything: true }), undefined, 'no schema checks nothing');
  await assert.rejects(inputCheck({ type: 'nonsense' }, 'resource/tool/x'), { code: 'invalid_argument', message: /resource\/tool\/x/ });
});
