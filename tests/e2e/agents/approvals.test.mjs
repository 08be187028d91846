// Approvals end to end against the local edge: an LLM member whose tool
// needs a person's approval asks in the conversation, waits, and runs the
// tool as approved (edited), tells the model when denied, and lets an
// unanswered request expire with a clear outcome; `agent.approval()` from
// the SDK; and the network's rules (only an approver decides, once).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { startScriptedProvider, text, toolCall } from '../../support/scripted-provider.mjs';
import { nextEvent } from '../../support/events.mjs';

const KEY = 'sk-test-approvals-4b1d9e';
const REQUESTED = 'workspace.approval.requested';
const DECIDED = 'workspace.approval.decided';
let edge;
let provider;
let network;
/** One member offering `send_offer` to every test (a tool's name is the network's), and what it sent. */
let mail;
const sent = [];

before(async () => {
  edge = await startEdge();
  provider = await startScriptedProvider({ key: KEY });
  ({ id: network } = await createNetwork(edge.url, { name: 'approvals', mods: ['workspace', 'persistence'] }));
  mail = await connect('agent:mail');
  await mail.registerTool('send_offer', { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] },
    (input) => { sent.push(input); return { sent: true }; }, { description: 'Send the offer by mail' });
});

after(async () => {
  mail?.close();
  await provider?.close();
  await edge?.stop();
});

const connect = (name) => Agent.connect({ url: edge.url, network, name });

/** Scripts the model to offer mail to `to` and then say `reply`: the approval request `person`
 * will be asked, and `helper`'s answer to them. */
function scriptOffer(person, helper, to, reply) {
  provider.script('openai', [toolCall('send_offer', { to }), text(reply)]);
  const asked = nextEvent(person, REQUESTED);
  const answered = nextEvent(person, 'workspace.message.posted', (e) => e.source === helper);
  return { asked, answered };
}

function llm(name, extra = {}) {
  return Agent.llm({
    url: edge.url, network, name,
    ...provider.openaiMember(),
    tools: 'all', approveTools: ['send_offer'],
    ...extra,
  });
}

test('a tool call waits for the person asking, who approves it edited; the tool runs as edited', async () => {
  sent.length = 0;
  const helper = await llm('agent:helper');
  const ann = await connect('human:ann');
  try {
    const { asked, answered } = scriptOffer(ann, 'agent:helper', 'ann@example.com', 'Sent the offer to your work address.');
    await ann.post('agent:helper', 'send me the offer');
    const request = await asked;
    assert.equal(request.source, 'agent:helper');
    assert.equal(request.payload.action.kind, 'tool_call');
    assert.equal(request.payload.action.subject, 'send_offer');
    assert.deepEqual(request.payload.action.detail, { to: 'ann@example.com' });
    assert.match(request.payload.action.summary, /send_offer/);
    assert.deepEqual(sent, [], 'nothing runs before the approval');

    await ann.decideApproval(request, 'approved', { edited: { to: 'ann@work.example' } });
    const answer = await answered;
    assert.deepEqual(sent, [{ to: 'ann@work.example' }], 'the tool ran once, as edited');
    assert.equal(answer.payload.steps[0].ok, true);
    assert.deepEqual(answer.payload.steps[0].arguments, { to: 'ann@work.example' });
    // Once only: a second decision is refused with a code.
    await assert.rejects(ann.decideApproval(request, 'denied'), (e) => e.code === 'already_exists');
  } finally {
    helper.close(); ann.close();
  }
});

test('denied: the tool never runs and the model hears why', async () => {
  sent.length = 0;
  const helper = await llm('agent:helper2');
  const bob = await connect('human:bob');
  const eve = await connect('human:eve');
  try {
    const { asked, answered } = scriptOffer(bob, 'agent:helper2', 'bob@example.com', 'I did not send it: you said no.');
    const before = provider.requests.length;
    await bob.post('agent:helper2', 'send the offer');
    const request = await asked;
    // Someone else cannot decide it.
    await assert.rejects(eve.send('agent:helper2', DECIDED, { approval: request.id, decision: 'approved' }),
      (e) => e.code === 'forbidden');
    await bob.decideApproval(request, 'denied', { reason: 'not this week' });
    await answered;
    assert.deepEqual(sent, []);
    const told = provider.requests.slice(before).filter((r) => r.provider).at(-1).body.messages.find((m) => m.role === 'tool');
    assert.match(told.content, /denied this call by human:bob: not this week/);
  } finally {
    helper.close(); bob.close(); eve.close();
  }
});

test('an unanswered request expires with a clear outcome, said where it was asked', async () => {
  sent.length = 0;
  const helper = await llm('agent:helper3', { approvalWaitSecs: 10 });
  const cy = await connect('human:cy');
  try {
    provider.script('openai', [toolCall('send_offer', { to: 'cy@example.com' }), text('Nobody approved it in time, so I did not send it.')]);
    const expired = nextEvent(cy, DECIDED, (e) => e.payload.decision === 'expired', { timeoutMs: 30000 });
    const answered = nextEvent(cy, 'workspace.message.posted', (e) => e.source === 'agent:helper3', { timeoutMs: 30000 });
    await cy.post('agent:helper3', 'send the offer');
    const said = await expired;
    assert.equal(said.source, 'agent:helper3');
    const answer = await answered;
    assert.match(answer.payload.content, /Nobody approved/);
    assert.deepEqual(sent, []);
  } finally {
    helper.close(); cy.close();
  }
});

test('agent.approval(): a card in a channel, decided by the person it names, resolves with the edited step', async () => {
  const asker = await connect('agent:deployer');
  const dee = await connect('human:dee');
  try {
    await dee.createChannel('ops', { members: ['agent:deployer'] });
    await asker.joinChannel('ops');
    const asked = nextEvent(dee, REQUESTED);
    const pending = asker.approval({
      to: 'channel/ops', approvers: ['human:dee'], kind: 'message', subject: 'channel/announce',
      summary: 'Announce the release', detail: 'v2 is out', expiresInMs: 60000,
    });
    const request = await asked;
    assert.equal(request.target, 'channel/ops');
    await dee.decideApproval(request, 'approved', { edited: 'v2.0 is out today' });
    const result = await pending;
    assert.equal(result.decision, 'approved');
    assert.equal(result.detail, 'v2.0 is out today');
    assert.equal(result.edited, true);
    assert.equal(result.by, 'human:dee');
  } finally {
    asker.close(); dee.close();
  }
});
