// LlmAgent: an agent whose answers come from a language model (or a
// command-line program), on an `Agent` connection. The decisions — when to
// answer, what to ask the model, which tools to call, where the answer goes,
// budgets — are the core's agent loop (`AgentLoop`, core/src/agent/); this
// file carries out its effects: model calls (model-calls.js), tool calls
// through the network as the agent, posts, the activity people watch
// (`workspace.agent.activity`) and Stop (`workspace.agent.stop`).

import { AgentnetError, callCore } from './errors.js';
import { commandRunner, core } from './runtime.js';
import { callProvider } from './model-calls.js';
import { POSTED } from './chat.js';
import { parseAddress } from './address.js';
import { AssistantHost, taskUrlOf } from './assistant.js';

export const ACTIVITY = 'workspace.agent.activity';
export const STOP = 'workspace.agent.stop';
/** Streamed text is passed on at most this often (ms). */
const STREAM_EVERY_MS = 350;
/** Tools are read from the network again after this long (ms). */
const TOOLS_FRESH_MS = 10000;
const REMEMBERED_SOURCES = 2048;

/** The agent loop's configuration from `Agent.llm`'s options (camelCase or the config's own names). */
export function llmConfig(options, address) {
  const o = { ...(options.config ?? {}), ...options };
  const pick = (...names) => names.map((n) => o[n]).find((v) => v !== undefined);
  const config = {
    address,
    description: pick('description'),
    system_prompt: pick('systemPrompt', 'system_prompt', 'persona'),
    provider: pick('provider') ?? (pick('command') ? 'command' : undefined),
    command: pick('command'),
    base_url: pick('baseUrl', 'base_url'),
    model: pick('model'),
    key_var: pick('keyVar', 'key_var'),
    tools: pick('tools'),
    answers: pick('answers'),
    mode: pick('mode') ?? (pick('assistant') === true ? 'assistant' : undefined),
    history_depth: pick('historyDepth', 'history_depth'),
    max_tokens: pick('maxTokens', 'max_tokens'),
    budgets: pick('budgets'),
    approve_tools: pick('approveTools', 'approve_tools'),
    approvers: pick('approvers'),
    approval_wait_secs: pick('approvalWaitSecs', 'approval_wait_secs'),
  };
  return Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined));
}

/** Checks a configuration (and that its key variable is set) before anything connects. */
export function checkLlmConfig(config, env) {
  const checked = JSON.parse(callCore(() => core.checkAgentConfig(JSON.stringify(config))));
  if (checked.provider === 'command' && !commandRunner()) {
    throw new AgentnetError('not_supported', 'command agents run programs, which only Node and Bun can do here');
  }
  if (checked.provider !== 'command' && !env?.[checked.key_var]) {
    throw new AgentnetError('invalid_request', `the agent's provider key is not set: put it in the environment variable ${checked.key_var}`);
  }
  return checked;
}

/** `Agent.llm`: checks the configuration and the key, connects with `AgentClass.connect`, starts answering. */
export async function connectLlm(AgentClass, options) {
  const env = options.env ?? globalThis.process?.env ?? {};
  const name = options.name ?? options.config?.address;
  if (!name) throw new AgentnetError('invalid_request', 'an LLM agent needs a name (an address such as agent:helper)');
  const config = checkLlmConfig(llmConfig(options, parseAddress(name)), env);
  const agent = await AgentClass.connect({ ...options, name });
  try {
    const mcpUrl = mcpUrlOf(options.url, agent.network);
    // The channels it is in from the start (made when missing), where a mention reaches it.
    for (const channel of options.channels ?? []) {
      await agent.joinChannel(channel).catch(() => agent.createChannel(channel));
    }
    const taskUrl = taskUrlOf(options.url, agent.network);
    return await LlmAgent.start(agent, config, { env, mcpUrl, taskUrl, fetch: options.fetch, timeoutMs: options.timeoutMs, onError: options.onError });
  } catch (err) {
    agent.close();
    throw err;
  }
}

/** The network's MCP endpoint from a network URL or an edge URL. */
function mcpUrlOf(url, network) {
  if (!url) return undefined;
  const edge = String(url).replace(/\/networks\/.*$/, '').replace(/[?#].*$/, '').replace(/\/$/, '');
  return `${edge}/networks/${network}/mcp`;
}

/** A tool name providers accept (`a-z A-Z 0-9 _ -`, at most 64), unique among `taken`. */
function safeToolName(name, taken) {
  const base = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'tool';
  let safe = base;
  for (let n = 2; taken.has(safe); n += 1) safe = `${base}_${n}`;
  return safe;
}

export class LlmAgent {
  #agent;
  #loop;
  #config;
  #env;
  #fetch;
  #timeoutMs;
  /** Provider-safe tool name → the tool's `{address, name}` in the network. */
  #toolNames = new Map();
  #toolsRead = 0;
  #calls = new Map();
  /** The message a turn answers → {conversation, asker}. */
  #turns = new Map();
  #sources = new Map();
  #tasks = new Map();
  #streams = new Map();
  #queue = Promise.resolve();
  #closed = false;
  #onError;
  /** The personal assistant's effects (`mode: "assistant"`), else null. */
  #assistant = null;

  constructor(agent, config, { env, mcpUrl, taskUrl, fetch: fetchImpl, timeoutMs = 120000, onError } = {}) {
    this.#agent = agent;
    this.mcpUrl = mcpUrl;
    this.#config = config;
    this.#env = env;
    this.#fetch = fetchImpl ?? globalThis.fetch?.bind(globalThis);
    this.#timeoutMs = timeoutMs;
    this.#onError = onError ?? ((err) => console.error(`agentnet-sdk: ${agent.address}: ${err?.message ?? err}`));
    // The network's tool names are made provider-safe here, and chosen here by the configured names.
    const tools = config.tools === 'all' || (Array.isArray(config.tools) && config.tools.length) ? 'all' : [];
    this.#loop = callCore(() => new core.AgentLoop(JSON.stringify({ ...config, tools })));
    if (config.mode === 'assistant') {
      this.#assistant = new AssistantHost(agent, {
        taskUrl, onError: this.#onError,
        toolResult: (callId, ok, output) => this.#toolResult(callId, ok, output),
        delegation: (callId, update) => {
          if (!this.#closed) this.#apply(callCore(() => this.#loop.handleDelegation(callId, JSON.stringify(update), Date.now())));
        },
      });
    }
  }

  /** Starts answering on `agent` (connected): messages, Stop, and tasks. */
  static async start(agent, config, options = {}) {
    const llm = new LlmAgent(agent, config, options);
    agent.on(POSTED, (event) => llm.#enqueue(() => llm.#message(event)));
    agent.on(STOP, (event) => llm.#stop(event));
    agent.onTask((task) => llm.#task(task));
    const profile = { description: config.description ?? '', meta: { llm: true, provider: config.provider, model: config.model } };
    await agent.setProfile(profile).catch(() => {});
    await llm.#readTools(true);
    return llm;
  }

  /** The connected agent. */
  get agent() {
    return this.#agent;
  }

  /** The agent's address. */
  get address() {
    return this.#agent.address;
  }

  /** The configuration the loop runs with. */
  get config() {
    return { ...this.#config };
  }

  /** Stops the turn answering `message` (an event or its id), as Stop in the workspace does. */
  cancel(message) {
    const turn = this.#turns.get(typeof message === 'object' ? message?.id : message);
    if (turn) this.#apply(callCore(() => this.#loop.cancel(JSON.stringify(turn.conversation))));
  }

  /** Stops every turn and closes the connection. */
  close() {
    if (this.#closed) return;
    for (const turn of this.#turns.values()) this.#apply(callCore(() => this.#loop.cancel(JSON.stringify(turn.conversation))));
    this.#closed = true;
    this.#assistant?.close();
    for (const answers of [...this.#streams.keys()]) this.#clearStream(answers);
    for (const call of this.#calls.values()) call.abort(new DOMException('closed', 'AbortError'));
    this.#loop.free?.();
    this.#agent.close();
  }

  #enqueue(step) {
    this.#queue = this.#queue.then(step).catch((err) => this.#onError(err));
  }

  async #readTools(force = false) {
    if (this.#config.tools === undefined || (Array.isArray(this.#config.tools) && !this.#config.tools.length)) return;
    if (!force && Date.now() - this.#toolsRead < TOOLS_FRESH_MS) return;
    this.#toolsRead = Date.now();
    const resources = await this.#agent.discoverResources({ type: 'tool' }).catch(() => []);
    const taken = new Set();
    const tools = [];
    this.#toolNames.clear();
    for (const r of resources) {
      if (!Array.isArray(r.your_permissions) || !r.your_permissions.includes('invoke')) continue;
      if (r.owner === this.address) continue;
      const name = String(r.address).replace(/^resource\/tool\//, '');
      const safe = safeToolName(name, taken);
      taken.add(safe);
      this.#toolNames.set(safe, { address: r.address, name });
      // The configuration names tools as the network does; the model sees the safe name.
      const allowed = this.#config.tools === 'all' || this.#config.tools.includes(name) || this.#config.tools.includes(safe);
      if (!allowed) continue;
      tools.push({ name: safe, description: r.description ?? '', parameters: r.schema ?? { type: 'object' } });
    }
    callCore(() => this.#loop.setTools(JSON.stringify(tools)));
  }

  async #message(event) {
    if (this.#closed) return;
    this.#sources.set(event.id, event.source);
    if (this.#sources.size > REMEMBERED_SOURCES) this.#sources.delete(this.#sources.keys().next().value);
    await this.#readTools();
    this.#apply(callCore(() => this.#loop.handleEvent(JSON.stringify(event), Date.now())));
  }

  #stop(event) {
    const turn = this.#turns.get(event.payload?.message);
    // Only the person who asked stops an answer.
    if (!turn || turn.asker !== event.source) return;
    this.#apply(callCore(() => this.#loop.cancel(JSON.stringify(turn.conversation))));
  }

  #task(task) {
    return new Promise((resolve, reject) => {
      this.#tasks.set(task.id, { task, resolve, reject });
      this.#apply(callCore(() => this.#loop.handleTask(task.id, task.requester, task.text, Date.now())));
    }).then(async ({ content, failed }) => {
      if (failed) throw new AgentnetError('tool_failed', content);
      // A model's answer is Markdown, as the workspace renders it.
      await task.artifact('answer', [{ text: content, mediaType: 'text/markdown' }]);
      return undefined;
    });
  }

  #apply(effects) {
    for (const effect of JSON.parse(effects)) {
      if (this.#closed) return;
      try {
        this.#effect(effect);
      } catch (err) {
        this.#onError(err);
      }
    }
  }

  #effect(effect) {
    switch (effect.effect) {
      case 'status':
        return this.#status(effect);
      case 'stream_text':
        return this.#streamed(effect);
      case 'call_model':
        return this.#callModel(effect);
      case 'abort_model':
        return this.#calls.get(effect.request)?.abort(new DOMException('stopped', 'AbortError'));
      case 'call_tool':
        return this.#callTool(effect);
      case 'ask_input':
        return this.#askInput(effect);
      case 'ask_approval':
        return this.#askApproval(effect);
      case 'post':
        return this.#post(effect);
      default:
        return this.#assistant?.effect(effect);
    }
  }

  #activity(conversation, message, payload) {
    if (conversation.task || !message) return;
    const body = { ...payload, message };
    if (conversation.thread) body.thread = conversation.thread;
    this.#agent.send(conversation.target, ACTIVITY, body).catch((err) => this.#onError(err));
  }

  #status({ conversation, status, answers }) {
    if (status.status === 'idle') {
      const turn = this.#turns.get(answers);
      this.#turns.delete(answers);
      this.#clearStream(answers);
      // A posted answer ends the activity by itself; a stopped or silent turn says so.
      if (turn && !turn.posted) this.#activity(conversation, answers, { state: 'idle' });
      return;
    }
    if (answers && !this.#turns.has(answers)) {
      this.#turns.set(answers, { conversation, asker: this.#sources.get(answers) });
    }
    const state = status.name ? { state: status.status, tool: this.#networkName(status.name) } : { state: 'thinking' };
    this.#activity(conversation, answers, state);
  }

  #streamed({ conversation, text }) {
    const answers = [...this.#turns.entries()].find(([, t]) => sameConversation(t.conversation, conversation))?.[0];
    if (!answers) return;
    const stream = this.#streams.get(answers) ?? { last: 0, timer: null, text: '' };
    this.#streams.set(answers, stream);
    stream.text = text;
    const send = () => {
      stream.timer = null;
      stream.last = Date.now();
      this.#activity(conversation, answers, { state: 'writing', text: stream.text });
    };
    const wait = stream.last + STREAM_EVERY_MS - Date.now();
    if (wait <= 0) send();
    else stream.timer ??= setTimeout(send, wait);
  }

  #clearStream(answers) {
    const stream = this.#streams.get(answers);
    if (stream?.timer) clearTimeout(stream.timer);
    this.#streams.delete(answers);
  }

  #callModel(effect) {
    const abort = new AbortController();
    this.#calls.set(effect.request, abort);
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(this.#timeoutMs)]);
    const report = (response) => {
      if (this.#closed) return;
      this.#apply(callCore(() => this.#loop.handleModelResponse(effect.request, JSON.stringify(response), Date.now())));
    };
    const call = this.#config.provider === 'command'
      ? commandRunner()(this.#config.command, effect, { env: this.#commandEnv(), signal, report })
      : callProvider(effect, { env: this.#env, fetch: this.#fetch, signal, report });
    call.catch((err) => report({ status: 0, body: { kind: 'failed', text: String(err?.message ?? err) } }))
      .finally(() => this.#calls.delete(effect.request));
  }

  /** What a command's program gets: the environment, and where the network is, for its MCP client. */
  #commandEnv() {
    return { ...this.#env, AGENTNET_ADDRESS: this.address, AGENTNET_NETWORK: this.#agent.network, ...(this.mcpUrl ? { AGENTNET_MCP_URL: this.mcpUrl } : {}) };
  }

  /** The network's name of the tool the model knows as `safe`. */
  #networkName(safe) {
    return this.#toolNames.get(safe)?.name ?? safe;
  }

  /** Hands a tool's (or a question's) outcome to the loop: `output` is JSON text when `ok`, else why it failed. */
  #toolResult(callId, ok, output) {
    this.#apply(callCore(() => this.#loop.handleToolResult(callId, ok, output, Date.now())));
  }

  #callTool({ call_id: callId, name, arguments: input }) {
    const address = this.#toolNames.get(name)?.address ?? name;
    this.#agent.invoke(address, input).then(
      (output) => this.#toolResult(callId, true, JSON.stringify(output ?? null)),
      (err) => this.#toolResult(callId, false, `${err?.code ?? 'tool_failed'}: ${err?.message ?? err}`),
    );
  }

  #askInput({ conversation, call_id: callId, question }) {
    const entry = this.#tasks.get(conversation.task);
    if (!entry) return;
    entry.task.askInput(question).then(
      (answer) => this.#toolResult(callId, true, JSON.stringify(answer.text ?? '')),
      (err) => this.#toolResult(callId, false, String(err?.message ?? err)),
    );
  }

  /** A step waits for a person: a card where the loop says, or a task's question to its requester. */
  #askApproval({ conversation, call_id: callId, to, approvers, action, expires_at: expiresAt }) {
    const outcome = (o) => this.#apply(callCore(() => this.#loop.handleApproval(callId, JSON.stringify(o), Date.now())));
    const subject = this.#networkName(action.subject);
    const entry = conversation.task && to === conversation.target ? this.#tasks.get(conversation.task) : null;
    if (entry) {
      const question = `May I ${action.summary.replace(/^Call /, 'call ')}? Answer "approve" (optionally with the arguments changed, as JSON) or "deny".`;
      entry.task.askInput(question).then(
        (answer) => outcome(JSON.parse(core.approvalFromAnswer(String(answer.text ?? '')))),
        (err) => outcome({ decision: 'denied', reason: String(err?.message ?? err) }),
      );
      return;
    }
    this.#agent.approval({ to, approvers, kind: action.kind, subject, summary: action.summary, detail: action.detail, expiresInMs: expiresAt - Date.now() })
      .then(({ decision, edited, detail, by, reason }) => outcome({ decision, edited: edited ? detail : null, by, reason }))
      .catch((err) => outcome({ decision: 'denied', reason: `the approval could not be asked: ${err?.message ?? err}` }));
  }

  #post({ target, in_reply_to: inReplyTo, content, answers, steps, failed, task }) {
    if (task) {
      const entry = this.#tasks.get(task);
      this.#tasks.delete(task);
      entry?.resolve({ content, failed });
      return;
    }
    const turn = this.#turns.get(answers);
    if (turn) turn.posted = true;
    this.#clearStream(answers);
    const payload = { content };
    if (answers) payload.answers = answers;
    if (steps?.length) {
      payload.steps = steps.map((s) => ({ ...s, tool: this.#networkName(s.tool) }));
    }
    if (failed) payload.failed = true;
    const metadata = inReplyTo ? { in_reply_to: inReplyTo } : {};
    this.#agent.send(target, POSTED, payload, { metadata }).catch((err) => this.#onError(err));
  }
}

function sameConversation(a, b) {
  return a.target === b.target && (a.thread ?? null) === (b.thread ?? null) && (a.task ?? null) === (b.task ?? null);
}
