// The Workspace (ONM §12) with JS agents against a real edge: a session
// created and updated (who may, what is refused), the network's master as a
// thread's first responder delegating a question to an expert, whose answer
// the network routes back into the thread as a reply to the question.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, edgeForFile } from '../../support/edge.mjs';
import { until } from '../../support/process.mjs';

const edge = edgeForFile();

const connect = (network, name, credentials) => Agent.connect({ url: edge.url, network, name, credentials });

test('a session is updated by its participants with its fields checked, and everyone hears of it', async () => {
  const { id } = await createNetwork(edge.url, { name: 'sessions', mods: ['workspace', 'persistence'] });
  const ann = await connect(id, 'human:ann');
  const bob = await connect(id, 'agent:bob');
  const heard = [];
  bob.on('workspace.session.*', (event) => heard.push(event));
  try {
    const session = await ann.createSession({ session: 'launch', title: 'Plan the launch' });
    assert.deepEqual([session.id, session.channel], ['launch', 'channel/session-launch']);
    await ann.updateSession(session.channel, { title: 'Launch day', status: 'closed' });
    await until('the update', () => heard.find((e) => e.type === 'workspace.session.updated'));
    const updated = heard.find((e) => e.type === 'workspace.session.updated');
    assert.equal(updated.source, 'human:ann');
    assert.deepEqual(
      [updated.payload.session, updated.payload.channel, updated.payload.title, updated.payload.status],
      ['launch', 'channel/session-launch', 'Launch day', 'closed'],
    );
    // Not a participant: refused; bad fields: refused with their codes; an unknown session: not found.
    await assert.rejects(bob.updateSession('launch', { title: 'mine now' }), { code: 'forbidden' });
    await assert.rejects(ann.updateSession('launch', { status: 'finished' }), { code: 'invalid_request' });
    await assert.rejects(ann.updateSession('launch', { title: '' }), { code: 'invalid_request' });
    await assert.rejects(ann.updateSession('launch', {}), { code: 'invalid_request' });
    await assert.rejects(ann.updateSession('nope', { title: 'x' }), { code: 'not_found' });
    await assert.rejects(ann.createSession({ session: 'launch' }), { code: 'already_exists' });
    await ann.updateSession('launch', { status: 'archived' });
    await assert.rejects(ann.updateSession('launch', { status: 'open' }), { code: 'invalid_transition' });
    // The history keeps every change, with who made it.
    const history = await ann.history({ types: 'workspace.session.*' });
    assert.deepEqual(history.events.map((e) => [e.event.type, e.event.payload.status]), [
      ['workspace.session.created', 'open'],
      ['workspace.session.updated', 'closed'],
      ['workspace.session.updated', 'archived'],
    ]);
  } finally {
    ann.close();
    bob.close();
  }
});

test("the network's master answers a thread first and delegates; the expert's answer comes back into the thread", async () => {
  const { id, admin_token } = await createNetwork(edge.url, { name: 'threads', mods: ['workspace', 'persistence'] });
  const lead = await connect(id, 'agent:lead', { admin_token });
  const expert = await connect(id, 'agent:expert');
  const ann = await connect(id, 'human:ann');
  const bob = await connect(id, 'agent:bob');
  try {
    // Configured per network: the workspace mod names its master.
    await lead.admin('mod.configure', { name: 'workspace', settings: { master: 'agent:lead' } });
    const firsts = [];
    lead.onFirstResponse(async (event, { delegate }) => {
      firsts.push(event);
      if (/\d/.test(event.payload.content)) {
        await delegate('agent:expert', 'arithmetic is yours');
        return undefined;
      }
      return 'hello, I am the lead';
    });
    const delegations = [];
    expert.onDelegated((delegation) => {
      delegations.push(delegation);
      return `the answer to "${delegation.payload.content}" is 42`;
    });
    let bobAnswered = 0;
    bob.onFirstResponse(() => { bobAnswered += 1; return 'not mine to answer'; });
    const heard = [];
    ann.on('workspace.message.posted', (event) => heard.push(event));

    const session = await ann.createSession({ title: 'Questions' });
    const hello = await ann.send(session.channel, 'workspace.message.posted', { content: 'hi there' });
    const greeting = await until('the lead greets', () => heard.find((e) => e.metadata?.in_reply_to === hello.id));
    assert.equal(greeting.source, 'agent:lead');
    assert.equal(greeting.target, session.channel);

    const question = await ann.send(session.channel, 'workspace.message.posted', { content: 'what is 6 x 7?' });
    const answer = await until('the delegated answer', () => heard.find((e) => e.metadata?.in_reply_to === question.id));
    assert.equal(answer.source, 'agent:expert');
    assert.equal(answer.target, session.channel);
    assert.equal(answer.payload.content, 'the answer to "what is 6 x 7?" is 42');
    assert.equal(answer.metadata.delegation.from, 'agent:lead');
    assert.equal(answer.metadata.delegation.id, delegations[0].id);
    assert.deepEqual(delegations[0].metadata.delegation, { message: question.id, from: 'agent:lead', place: session.channel });
    assert.equal(delegations[0].payload.note, 'arithmetic is yours');
    assert.deepEqual(firsts.map((e) => e.metadata.first_responder), ['agent:lead', 'agent:lead']);

    // To the network with no addressee the master answers first too; naming an addressee skips it.
    const open = await ann.send('agent:broadcast', 'workspace.message.posted', { content: 'anyone?' });
    await until('the lead answers the network', () => heard.find((e) => e.metadata?.in_reply_to === open.id));
    await ann.send('agent:broadcast', 'workspace.message.posted', { content: 'bob, hi' }, { metadata: { mentions: ['agent:bob'] } });
    // Delivered in order: once the next one is answered, the one naming bob has reached everyone.
    const last = await ann.send('agent:broadcast', 'workspace.message.posted', { content: 'still there?' });
    await until('the lead answers again', () => heard.find((e) => e.metadata?.in_reply_to === last.id));
    // The master was not asked to answer the one naming bob, and bob was never the first responder.
    assert.deepEqual(firsts.map((e) => e.payload.content), ['hi there', 'what is 6 x 7?', 'anyone?', 'still there?']);
    assert.equal(bobAnswered, 0);
    // Someone who is neither the first responder nor a master may not delegate.
    await assert.rejects(bob.delegate(question.id, 'agent:expert'), { code: 'forbidden' });
  } finally {
    for (const agent of [lead, expert, ann, bob]) agent.close();
  }
});
