// Type declarations of LLM members (`Agent.llm`, lib/llm.js): the agent
// loop's configuration as the package takes it (docs/agents.md).

import type { AgentMode, AnswerMode, AssistantStep, Budgets, LlmProvider } from './generated/index.js';

/** What an LLM agent may spend (the core's `Budgets`; a limit left out keeps its default). */
export type LlmBudgets = Partial<Budgets>;

/** The agent's configuration (camelCase here; the config file's snake_case names work too). */
export interface LlmConfig {
  provider?: LlmProvider;
  /** The provider's base URL (`https://api.openai.com/v1`, `http://localhost:11434/v1`, `https://api.anthropic.com`). */
  baseUrl?: string;
  model?: string;
  /** The environment variable holding the key (never the key itself). */
  keyVar?: string;
  /** A `command` agent's program: `{prompt}` is replaced by the prompt, else the prompt goes to stdin. */
  command?: string;
  description?: string;
  /** The persona, sent with every call. */
  systemPrompt?: string;
  /** `'all'` or the names of the network's tools it may call. */
  tools?: 'all' | string[];
  /** `addressed` (direct messages, mentions, its threads) or `every_message`. */
  answers?: AnswerMode;
  /**
   * `chat` (default) or `assistant`: a personal assistant that plans a
   * person's request, finds agents by capability and hands them the parts as
   * tasks, relaying their questions and answering once with links to each
   * task (docs/agents.md, "Personal assistant"). `assistant: true` is the same.
   */
  mode?: AgentMode;
  assistant?: boolean;
  historyDepth?: number;
  maxTokens?: number;
  budgets?: LlmBudgets;
  /** Tools a person approves before each call (`'all'` or names). */
  approveTools?: 'all' | string[];
  /** Who approves: none — the person asking directly, a channel's masters; else these (a channel's card names them; from a direct conversation the first decides). */
  approvers?: string[];
  /** How long an approval waits before it expires, in seconds (default 900). */
  approvalWaitSecs?: number;
  /** Channels to be in from the start (`general` or `channel/general`; made when missing). */
  channels?: string[];
  /** The same fields as a config file (snake_case), merged under the options. */
  config?: Record<string, unknown>;
  /** Where the key variable is read (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** The fetch used for model calls (default the global one). */
  fetch?: typeof fetch;
  /** A model call's time limit in ms (default 120000). */
  timeoutMs?: number;
  /** Called with errors the agent survives (default: logged to stderr). */
  onError?: (error: unknown) => void;
}

/** A running LLM member. */
export interface LlmAgent {
  /** The connection (an `Agent`). */
  readonly agent: unknown;
  readonly address: string;
  /** The configuration the loop runs with (snake_case, validated). */
  readonly config: Record<string, unknown>;
  /** Stops the turn answering `message` (an event or its id). */
  cancel(message: string | { id: string }): void;
  /** Stops every turn and closes the connection. */
  close(): void;
}

/** What `agent.approval()` asks. */
export interface ApprovalRequest {
  /** Where the card goes: a channel (its named approvers or masters decide) or one person (who decides). */
  to: string;
  approvers?: string[];
  kind?: 'tool_call' | 'task' | 'message';
  /** What it acts on: the tool, the agent, the channel. */
  subject: string;
  /** One line for people: what will happen. */
  summary: string;
  /** What an approver may edit: a tool's arguments (an object), a task's or message's text. */
  detail: unknown;
  /** Default 15 minutes. */
  expiresInMs?: number;
  signal?: AbortSignal;
}

/** What came of an approval. */
export interface ApprovalResult {
  /** The request's event id. */
  approval: string;
  decision: 'approved' | 'denied' | 'expired';
  /** The detail as approved (edited or not). */
  detail: unknown;
  edited: boolean;
  by: string | null;
  reason: string | null;
}
/** What an assistant posts as it works (`payload.progress` of its chat messages): a step, and whom it answers. */
export type AssistantProgress = AssistantStep & { for?: string };
