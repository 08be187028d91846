// The CLI's agents that think: `agentnet-sdk agent` (an LLM member from flags
// or a config file), `agentnet-sdk connect --command` (a command-line program
// such as Claude Code or Codex as a member) and `agentnet-sdk skill` (the
// network's SKILL.md for coding agents). The agent loop is the core's; these
// only read options and keep the process running.

import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Agent } from '../index.js';

/** Provider defaults taken from the environment when no provider is named: OpenAI's, then Anthropic's. */
export function providerFromEnv(env) {
  if (env.OPENAI_API_KEY) {
    return { provider: 'openai_chat', base_url: env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1', model: env.OPENAI_MODEL ?? 'gpt-4o-mini', key_var: 'OPENAI_API_KEY' };
  }
  if (env.ANTHROPIC_API_KEY) {
    return { provider: 'anthropic_messages', base_url: env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com', model: env.ANTHROPIC_MODEL ?? 'claude-sonnet-4-5', key_var: 'ANTHROPIC_API_KEY' };
  }
  return {};
}

const NUMBERS = { 'history-depth': 'history_depth', 'max-tokens': 'max_tokens' };
const BUDGETS = { 'tokens-per-hour': 'tokens_per_hour', 'calls-per-hour': 'calls_per_hour', 'tool-rounds': 'tool_rounds_per_turn', 'agent-turns': 'agent_turns_without_person' };

/** The agent's configuration: the config file, then the environment's provider, then the flags. */
export async function agentConfig(opts, env, fail) {
  let file = {};
  if (opts.config) {
    try {
      file = JSON.parse(await readFile(opts.config, 'utf8'));
    } catch (err) {
      return fail(`--config ${opts.config}: ${err.message}`);
    }
  }
  const config = { ...(file.provider || file.command || opts.provider || opts.command ? {} : providerFromEnv(env)), ...file };
  const flags = {
    provider: opts.provider, base_url: opts['base-url'], model: opts.model, key_var: opts['key-var'],
    system_prompt: opts.persona, description: opts.description, answers: opts.answers, command: opts.command,
    mode: opts.assistant ? 'assistant' : opts.mode,
  };
  for (const [field, value] of Object.entries(flags)) if (value !== undefined) config[field] = value;
  if (opts.command !== undefined) config.provider = 'command';
  if (opts.tools !== undefined) config.tools = opts.tools === 'all' ? 'all' : opts.tools.split(',').map((t) => t.trim()).filter(Boolean);
  for (const [flag, field] of Object.entries(NUMBERS)) if (opts[flag] !== undefined) config[field] = wholeNumber(opts[flag], flag, fail);
  for (const [flag, field] of Object.entries(BUDGETS)) {
    if (opts[flag] !== undefined) config.budgets = { ...config.budgets, [field]: wholeNumber(opts[flag], flag, fail) };
  }
  if (!config.provider) {
    return fail('agent needs a model provider: set OPENAI_API_KEY or ANTHROPIC_API_KEY, or pass --provider, --base-url, --model and --key-var (or --config FILE); see docs/agents.md');
  }
  return config;
}

function wholeNumber(text, name, fail) {
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 0 ? n : fail(`--${name} takes a whole number, not ${text}`);
}

/** Runs an LLM (or command) member until interrupted; `keep` stores its member secret for the next run. */
export async function runAgent(where, credentials, config, { interrupted, say }) {
  const channels = where.channels?.split(',').map((c) => c.trim()).filter(Boolean);
  const running = await Agent.llm({ ...where, ...credentials, channels, config, name: where.name ?? config.address, reconnect: true });
  const kind = config.provider === 'command' ? `the command ${config.command}` : `${config.model} (${config.provider})`;
  say(`${running.address} answers in ${running.agent.network} with ${kind}; mention it (@${running.address.replace(/^agent:/, '')}) or message it directly. Ctrl-C stops it.`);
  await interrupted();
  running.close();
  return running;
}

/** The SKILL.md text for a network: how a coding agent reaches it, and what is in it. */
export function skillText({ network, url, address, roster }) {
  const base = `${url.replace(/\/$/, '')}/networks/${network}`;
  const tools = (roster.resources ?? []).filter((r) => r.type === 'tool' || String(r.address).startsWith('resource/tool/'));
  const channels = roster.channels ?? [];
  const members = (roster.agents ?? []).map((a) => `- \`${a.address}\`${a.description ? ` — ${a.description}` : ''}`);
  const cli = `npx agentnet-sdk --url ${url} --network ${network}`;
  return `---
name: agentnet-${network}
description: Talk to the people and agents of the agentnet network "${network}" — post and read messages, call its members' tools, hand out tasks. Use when asked to reach someone or something in that network.
---

# The agentnet network \`${network}\`

You are \`${address}\` there. Reach it through its MCP server (preferred when
your client supports MCP) or the \`agentnet-sdk\` command line.

* MCP (Streamable HTTP): \`${base}/mcp\` — or over stdio: \`${cli} mcp --as ${address}\`
* Post a chat message: \`${cli} --as ${address} send channel/general workspace.message.posted '{"content":"hello"}'\`
* Read the latest messages: \`${cli} --as ${address} read --types 'workspace.message.*' --last 20\`
* Call a tool: \`${cli} --as ${address} invoke <tool> '<input-json>'\`
* Who is there: \`${cli} --as ${address} discover\`

Mention a member as \`@name\` in a message to ask it something; answers come
back in the same conversation (a thread stays a thread).

## Channels

${channels.length ? channels.map((c) => `- \`${c.address ?? c.channel ?? c}\``).join('\n') : '- (none yet)'}

## Members

${members.length ? members.join('\n') : '- (none yet)'}

## Tools

${tools.length ? tools.map((t) => `### \`${String(t.address).replace(/^resource\/tool\//, '')}\`\n\n${t.description || '(no description)'}\n\nInput (JSON Schema):\n\n\`\`\`json\n${JSON.stringify(t.schema ?? { type: 'object' }, null, 2)}\n\`\`\``).join('\n\n') : '(none yet)'}
`;
}

/** `skill`: writes the network's SKILL.md to `out` (default .claude/skills/agentnet-{network}/SKILL.md); returns the path. */
export async function writeSkill(agent, { url, out }) {
  const roster = await agent.discover();
  const resources = await agent.discoverResources({ type: 'tool' }).catch(() => []);
  const text = skillText({ network: agent.network, url, address: agent.address, roster: { ...roster, resources } });
  const path = out ?? join('.claude', 'skills', `agentnet-${agent.network}`, 'SKILL.md');
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
  return path;
}
