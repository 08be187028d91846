// Generated from agentnet-core's Rust types (ts-rs); do not edit.
// Checked by `cargo test -p agentnet-js declarations`; regenerate with
// `AGENTNET_WRITE_DECLARATIONS=1 cargo test -p agentnet-js declarations`.

import type { Address } from './ids.js';

/**
 * What the agent is for.
 */
export type AgentMode = "chat" | "assistant";

/**
 * When the agent answers.
 */
export type AnswerMode = "addressed" | "every_message";

/**
 * A step of an assistant's work, posted as it happens (`payload.progress`).
 */
export type AssistantStep = { "kind": "plan",
  /**
   * The steps, in order.
   */
  steps: Array<string>, } | { "kind": "delegated",
  /**
   * The agent given it.
   */
  to: Address,
  /**
   * The task's id.
   */
  task: string,
  /**
   * Where people see it, when the host knows.
   */
  url?: string | null, } | { "kind": "question",
  /**
   * The agent asking.
   */
  from: Address,
  /**
   * The task.
   */
  task: string, };

/**
 * What the agent may spend. A zero limit means none may be spent.
 */
export type Budgets = {
  /**
   * Model tokens (prompt and completion) in any hour.
   */
  tokens_per_hour: number,
  /**
   * Model calls in any hour.
   */
  calls_per_hour: number,
  /**
   * Rounds of tool calls in one turn before the agent answers with what it has.
   */
  tool_rounds_per_turn: number,
  /**
   * Agent messages in a row in one conversation, without a person, after
   * which agents stop answering each other.
   */
  agent_turns_without_person: number, };

/**
 * Which wire format the model provider speaks.
 */
export type LlmProvider = "openai_chat" | "anthropic_messages" | "command";
