// External A2A agents as network members: an agent served by the official
// A2A JS SDK (@a2a-js/sdk/server with its Express handlers) on 127.0.0.1 is
// added to a network by a master, by its card URL. Its skills become
// resource/tool entries, and a task a WebSocket agent (core/js Agent) gives
// it becomes an A2A call from the edge whose answer comes back as the
// external agent's task updates and artifact.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import express from 'express';
import WebSocket from 'ws';
import { Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { Agent } from '../../../core/js/index.js';
import { createNetwork, startEdge } from '../../support/edge.mjs';
import { joinOverHttp } from '../../support/http.mjs';

let edge;
let server;
let serverUrl;
const received = [];

const text = (value) => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });

/** The external agent: forecasts the weather of the place it is sent. */
const executor = {
  async execute(ctx, bus) {
    const place = ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');
    received.push(place);
    const { taskId, contextId } = ctx;
    bus.publish(AgentEvent.task({
      id: taskId, contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined,
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
    }));
    bus.publish(AgentEvent.artifactUpdate({
      taskId, contextId, append: false, lastChunk: true, metadata: undefined,
      artifact: { artifactId: 'forecast-1', name: 'forecast', description: '', parts: [text(`sunny in ${place}`)], metadata: undefined, extensions: [] },
    }));
    bus.publish(AgentEvent.statusUpdate({
      taskId, contextId, metadata: undefined,
      status: {
        state: TaskState.TASK_STATE_COMPLETED, timestamp: new Date().toISOString(),
        message: { messageId: crypto.randomUUID(), role: Role.ROLE_AGENT, parts: [text('done')], contextId, taskId, metadata: undefined, extensions: [], referenceTaskIds: [] },
      },
    }));
    bus.finished();
  },
  async cancelTask() {},
};

before(async () => {
  const app = express();
  await new Promise((resolve) => {
    server = app.listen(0, '127.0.0.1', resolve);
  });
  serverUrl = `http://127.0.0.1:${server.address().port}`;
  const card = {
    name: 'Weather Bot', description: 'forecasts', version: '1.0.0',
    supportedInterfaces: [{ url: `${serverUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
    skills: [{ id: 'forecast', name: 'Forecast', description: "tomorrow's weather", tags: ['weather'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    securitySchemes: {}, securityRequirements: [], signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  edge = await startEdge({ allowLocalFetches: true });
});

after(async () => {
  await edge?.stop();
  await new Promise((resolve) => server?.close(resolve));
});

const addRemote = (id, token, cardUrl) => fetch(`${edge.url}/networks/${id}/a2a/remotes`, {
  method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify({ card_url: cardUrl }),
});

test('a master adds an SDK-served agent by its card; a WebSocket agent\'s task reaches it and its answer comes back', async () => {
  const { id, admin_token: adminToken } = await createNetwork(edge.url, { name: 'Outbound' });
  const member = await joinOverHttp(edge.url, id, { agent_id: 'agent:member' });
  const refused = await addRemote(id, member.token, `${serverUrl}/.well-known/agent-card.json`);
  assert.equal(refused.status, 403, 'only masters add external agents');
  const master = await joinOverHttp(edge.url, id, { agent_id: 'agent:boss', credentials: { admin_token: adminToken } });
  const added = await addRemote(id, master.token, `${serverUrl}/.well-known/agent-card.json`);
  const body = await added.json();
  assert.equal(added.status, 201, JSON.stringify(body));
  assert.equal(body.address, 'agent:weather-bot');
  assert.deepEqual(body.tools, ['resource/tool/forecast']);

  const alice = await Agent.connect({ url: edge.url, network: id, name: 'agent:alice', WebSocket });
  try {
    const tools = await alice.discoverResources({ type: 'tool' });
    const forecast = tools.find((t) => t.address === 'resource/tool/forecast');
    assert.equal(forecast?.owner, 'agent:weather-bot');
    const task = await alice.startTask('agent:weather-bot', 'Oslo');
    const states = [];
    for await (const update of task) states.push(`${update.type}:${update.state}`);
    assert.deepEqual(received, ['Oslo']);
    assert.deepEqual(states, ['update:working', 'artifact:working', 'update:completed']);
    assert.equal(task.artifacts[0].parts[0].text, 'sunny in Oslo');
    const squat = await fetch(`${edge.url}/networks/${id}/v1/join`, { method: 'POST', body: JSON.stringify({ agent_id: 'agent:weather-bot' }) });
    assert.equal(squat.status, 403, 'nobody joins as the external agent');
  } finally {
    alice.close();
  }

  const unreadable = await addRemote(id, master.token, `${serverUrl}/nothing-here.json`);
  assert.equal(unreadable.status, 502);
});
