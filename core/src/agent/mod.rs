//! Agents that think: one agent loop, sans-I/O, driven by its host.
//!
//! An agent is a member of a network whose answers come from a language
//! model. The loop ([`Agent`]) decides when to answer by the conversation
//! rules ([`rules`]), builds the model request in its provider's wire format
//! ([`providers`]), streams the answer, runs the tools the model asks for
//! through the network, and posts the answer where the question was asked.
//! It does no I/O and reads no clock: the host passes in events, model
//! responses, tool results and the time, and applies the [`AgentEffect`]s.
//!
//! * [`config`] — [`AgentConfig`]: persona, provider, model, key variable, tools, budgets
//! * [`rules`] — when an agent answers and where the answer goes
//! * [`chat`] — the provider-neutral conversation, replies and errors
//! * [`sse`] — server-sent events read from chunks
//! * [`providers`] — OpenAI Chat Completions and Anthropic Messages
//! * [`memory`] — the conversations' recent messages, threads and answered ids
//! * [`budget`] — model calls and tokens per hour
//! * [`effects`] — what the loop asks of its host and what the host reports
//! * [`turn`] — the loop itself (streamed answers in `streaming`)
//! * [`tasks`] — tasks given to the agent, answered by the loop
//! * [`ask`] — `ask_user`, the question tool of a task
//! * [`approve`] — tools a person approves before the agent calls them
//! * [`assistant`] — the personal assistant's tools: plan, find agents, delegate
//! * [`hosted`] — agents a master adds, run by the network's host; their keys
//! * `delegation` — following the tasks an assistant hands out

pub mod approve;
pub mod ask;
pub mod assistant;
pub mod budget;
pub mod chat;
pub mod config;
mod delegation;
pub mod effects;
pub mod hosted;
pub mod memory;
pub mod providers;
pub mod rules;
pub mod sse;
mod streaming;
pub mod tasks;
pub mod turn;
mod turn_state;

pub use config::{AgentConfig, AgentMode, ConfigError, ProviderKind};
pub use effects::{
    AgentEffect, DelegationUpdate, ModelResponse, Progress, RequestId, ResponseBody,
};
pub use rules::Place;
pub use turn::Agent;

#[cfg(test)]
mod tests;
