//! The agent loop: one state machine per agent that decides when to answer,
//! calls the model, runs the tools it asks for and posts the answer.
//!
//! ```text
//! handle_event ──answer?──▶ CallModel ──▶ handle_model_response
//!                                  ▲            │ text: StreamText…, then Post
//!                                  │            │ tools: CallTool…
//!                        handle_tool_result ◀───┘
//! ```
//!
//! Sans-I/O like the rest of the core: the host passes in events, model
//! responses (whole, or SSE chunks as they arrive), tool results and the
//! time, and applies the [`AgentEffect`]s returned. One turn runs per
//! conversation at a time; a message addressed to the agent during a turn
//! is answered by another turn right after. Failures (HTTP errors, a
//! malformed tool call, a spent budget) become a short message posted in
//! the conversation; the agent keeps running.

use crate::agent::ask::{ASK_USER, offered_tools, question_of};
use crate::agent::assistant::{self, Assist};
use crate::agent::budget::Spending;
use crate::agent::chat::{Entry, Prompt, ProviderError, Reply, ToolDef};
use crate::agent::config::AgentConfig;
use crate::agent::effects::{AgentEffect, ModelResponse, RequestId, ResponseBody, Status, Step};
use crate::agent::memory::Memory;
use crate::agent::providers::{self, Decoder};
use crate::agent::rules::{Decision, Place, Recall, decide, place_of};
use crate::agent::sse::SseReader;
pub(super) use crate::agent::turn_state::Turn;
use crate::event::Event;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use serde_json::Value;
use std::collections::BTreeMap;

/// The longest tool result fed back to the model, in characters.
pub const MAX_TOOL_RESULT: usize = 16 * 1024;
/// The most bytes of one streamed answer read; a longer stream is stopped.
pub const MAX_STREAM_BYTES: usize = 4 * 1024 * 1024;

/// One agent: its configuration, what it remembers and its turns under way.
#[derive(Debug)]
pub struct Agent {
    pub(super) config: AgentConfig,
    tools: Vec<ToolDef>,
    pub(super) memory: Memory,
    spending: Spending,
    pub(super) turns: BTreeMap<Place, Turn>,
    pub(super) requests: BTreeMap<RequestId, Place>,
    /// The host's id of each tool call under way: its conversation and the provider's id.
    pub(super) calls: BTreeMap<String, (Place, String)>,
    next_request: u64,
    /// An assistant's plans, searches and tasks handed out.
    pub(super) assist: Assist,
}

impl Agent {
    /// An agent with a validated configuration and no tools yet.
    pub fn new(config: AgentConfig) -> Self {
        Self {
            config,
            tools: Vec::new(),
            memory: Memory::default(),
            spending: Spending::default(),
            turns: BTreeMap::new(),
            requests: BTreeMap::new(),
            calls: BTreeMap::new(),
            next_request: 1,
            assist: Assist::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &AgentConfig {
        &self.config
    }

    /// The tools the network offers; the model sees those the configuration allows.
    pub fn set_tools(&mut self, tools: Vec<ToolDef>) {
        self.tools = tools
            .into_iter()
            .filter(|t| self.config.tools.allows(&t.name))
            .collect();
    }

    /// Whether a turn is under way in `place`.
    pub fn is_busy(&self, place: &Place) -> bool {
        self.turns.contains_key(place)
    }

    /// An event the agent received (its own included): answers it when the
    /// conversation rules say so, at most once per event id.
    pub fn handle_event(&mut self, event: &Event, now: Timestamp) -> Vec<AgentEffect> {
        let me = self.config.address.clone();
        if self.memory.answered.contains(&event.id) {
            return Vec::new();
        }
        if let Some(effects) = self.relay_answer(event) {
            return effects;
        }
        let place = place_of(&me, event);
        let before = self.memory.agent_run(&place);
        let recall = Recall {
            known_thread: event
                .in_reply_to()
                .is_some_and(|root| self.memory.threads.contains(&root)),
            agent_run: crate::agent::rules::agent_run(before, &event.source),
        };
        let limit = self.config.budgets.agent_turns_without_person;
        let decision = decide(&me, self.config.answers, limit, event, recall);
        self.memory.record(&me, event);
        let Decision::Answer(_) = decision else {
            return Vec::new();
        };
        self.memory.answered.insert(event.id);
        self.memory
            .threads
            .insert(crate::agent::rules::thread_root(event));
        if let Some(turn) = self.turns.get_mut(&place) {
            turn.again = Some(event.id);
            return Vec::new();
        }
        self.start(place, event.id, now)
    }

    fn start(&mut self, place: Place, trigger: EventId, now: Timestamp) -> Vec<AgentEffect> {
        let me = &self.config.address;
        let entries = self.memory.history(me, &place, self.config.history_depth);
        self.turns
            .insert(place.clone(), Turn::new(entries, Some(trigger)));
        self.call_model(place, now)
    }

    pub(super) fn call_model(&mut self, place: Place, now: Timestamp) -> Vec<AgentEffect> {
        if let Err(spent) = self.spending.check(&self.config.budgets, now) {
            return self.end(&place, Some((spent.message(), true)), now);
        }
        let Some(turn) = self.turns.get_mut(&place) else {
            return Vec::new();
        };
        self.spending.call(now);
        let request = RequestId(self.next_request);
        self.next_request += 1;
        let tools =
            assistant::offered(self.config.mode, offered_tools(&self.tools, &place), &place);
        let system = assistant::system_prompt(&self.config);
        let prompt = Prompt {
            model: &self.config.model,
            system: &system,
            entries: &turn.entries,
            tools: &tools,
            max_tokens: self.config.max_tokens,
            stream: self.config.provider != crate::agent::config::ProviderKind::Command,
        };
        let (headers, key) = providers::headers(&self.config);
        let body = providers::request_body(self.config.provider, &prompt).to_string();
        turn.request = Some(request);
        turn.reader = SseReader::default();
        turn.received = 0;
        turn.decoder = Decoder::new(self.config.provider);
        self.requests.insert(request, place.clone());
        let answers = turn.trigger;
        vec![
            AgentEffect::Status {
                conversation: place.clone(),
                status: Status::Thinking,
                answers,
            },
            AgentEffect::CallModel {
                request,
                conversation: place,
                url: self.config.endpoint(),
                headers,
                key,
                body,
            },
        ]
    }

    /// What the host got for a model call: a whole body, a chunk of a
    /// stream, its end, or a failure. Calls no longer under way are ignored.
    pub fn handle_model_response(
        &mut self,
        request: RequestId,
        response: ModelResponse,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        let Some(place) = self.requests.get(&request).cloned() else {
            return Vec::new();
        };
        let kind = self.config.provider;
        let ok = (200..300).contains(&response.status);
        let streaming = ok && matches!(response.body, ResponseBody::Chunk(_));
        if !streaming {
            // The response is complete: nothing of it is left to abort.
            self.requests.remove(&request);
            if let Some(turn) = self.turns.get_mut(&place) {
                turn.request = None;
            }
        }
        let outcome = match response.body {
            ResponseBody::Failed(why) => Some(Err(ProviderError::Unreachable(
                why.chars().take(200).collect(),
            ))),
            ResponseBody::Whole(body) => Some(providers::parse(
                kind,
                response.status,
                response.retry_after_secs,
                &body,
            )),
            ResponseBody::Chunk(chunk) if !ok => Some(providers::parse(
                kind,
                response.status,
                response.retry_after_secs,
                &chunk,
            )),
            ResponseBody::Chunk(chunk) => return self.stream(place, &chunk, now),
            ResponseBody::End => self.end_stream(&place),
        };
        match outcome {
            Some(Ok(reply)) => self.replied(place, request, reply, now),
            Some(Err(error)) => self.failed(&place, &error, now),
            None => Vec::new(),
        }
    }

    fn replied(
        &mut self,
        place: Place,
        request: RequestId,
        reply: Reply,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        self.spending.tokens(now, reply.usage.total());
        let max_rounds = self.config.budgets.tool_rounds_per_turn;
        let Some(turn) = self.turns.get_mut(&place) else {
            return Vec::new();
        };
        if reply.tool_calls.is_empty() {
            let text = if reply.text.trim().is_empty() {
                "(The model gave no answer.)".to_owned()
            } else {
                reply.text
            };
            return self.end(&place, Some((text, false)), now);
        }
        if turn.rounds >= max_rounds {
            let mut text = reply.text;
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            text.push_str(&format!(
                "(I stopped after {max_rounds} rounds of tool calls in this turn.)"
            ));
            return self.end(&place, Some((text, false)), now);
        }
        turn.entries.push(Entry::Assistant {
            text: reply.text,
            tool_calls: reply.tool_calls.clone(),
        });
        let mut effects = Vec::new();
        let tag = request.0;
        for (i, call) in reply.tool_calls.into_iter().enumerate() {
            let assist_id = format!("assist-{tag}-{i}");
            if place.task.is_some() && call.name == ASK_USER {
                let call_id = format!("ask-{tag}-{i}");
                self.calls
                    .insert(call_id.clone(), (place.clone(), call.id.clone()));
                effects.push(AgentEffect::AskInput {
                    conversation: place.clone(),
                    call_id,
                    question: question_of(&call.arguments),
                });
                turn.pending.push(call);
            } else if let Some(handled) =
                self.assist
                    .call(self.config.mode, &place, &assist_id, &call, turn.trigger)
            {
                effects.extend(handled.effects);
                if let Some(result) = handled.now {
                    turn.steps
                        .push(Step::new(&call.name, &call.arguments, &result));
                    turn.entries
                        .push(Entry::tool_result(call, result, MAX_TOOL_RESULT));
                } else {
                    self.calls
                        .insert(assist_id, (place.clone(), call.id.clone()));
                    turn.pending.push(call);
                }
            } else if self.tools.iter().any(|t| t.name == call.name) {
                // The host's id is the agent's own: providers' ids need not be unique across turns.
                let call_id = format!("tool-{tag}-{i}");
                self.calls
                    .insert(call_id.clone(), (place.clone(), call.id.clone()));
                let (name, arguments) = (call.name.clone(), call.arguments.clone());
                turn.pending.push(call);
                let answers = turn.trigger;
                effects.extend(Self::tool_call_effects(
                    &self.config,
                    &place,
                    call_id,
                    &name,
                    &arguments,
                    answers,
                    now,
                ));
            } else {
                turn.entries.push(Entry::ToolResult {
                    content: format!("The tool {} is not available to this agent.", call.name),
                    call_id: call.id,
                    name: call.name,
                    is_error: true,
                });
            }
        }
        if turn.pending.is_empty() {
            turn.rounds += 1;
            effects.extend(self.call_model(place, now));
        }
        effects
    }

    /// A tool's result (`Ok` with its output, `Err` with why it failed) for
    /// the call `call_id`; when the turn's last tool answers, the model is
    /// called again.
    pub fn handle_tool_result(
        &mut self,
        call_id: &str,
        result: Result<Value, String>,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        let Some((place, provider_id)) = self.calls.remove(call_id) else {
            return Vec::new();
        };
        let result = self.assist.shape(call_id, result, &self.config.address);
        let Some(turn) = self.turns.get_mut(&place) else {
            return Vec::new();
        };
        let Some(at) = turn.pending.iter().position(|c| c.id == provider_id) else {
            return Vec::new();
        };
        let call = turn.pending.remove(at);
        if call.name != ASK_USER || place.task.is_none() {
            turn.steps
                .push(Step::new(&call.name, &call.arguments, &result));
        }
        turn.entries
            .push(Entry::tool_result(call, result, MAX_TOOL_RESULT));
        if !turn.pending.is_empty() {
            return Vec::new();
        }
        turn.rounds += 1;
        self.call_model(place, now)
    }

    /// Stops the turn under way in `place` (a person pressed Stop): the
    /// model call is aborted, pending tool results are ignored, nothing is posted.
    pub fn cancel(&mut self, place: &Place) -> Vec<AgentEffect> {
        let Some(turn) = self.turns.remove(place) else {
            return Vec::new();
        };
        self.calls.retain(|_, (p, _)| p != place);
        let mut effects = self.assist.cancel(place);
        if let Some(request) = turn.request {
            self.requests.remove(&request);
            effects.push(AgentEffect::AbortModel { request });
        }
        effects.push(AgentEffect::Status {
            conversation: place.clone(),
            status: Status::Idle,
            answers: turn.trigger,
        });
        effects
    }

    pub(super) fn failed(
        &mut self,
        place: &Place,
        error: &ProviderError,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        let text = format!("I could not answer: {error}.");
        self.end(place, Some((text, true)), now)
    }

    /// Ends the turn in `place`, posting `text` (and whether it says the
    /// turn failed); starts the next turn when a message arrived meanwhile.
    fn end(
        &mut self,
        place: &Place,
        text: Option<(String, bool)>,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        let mut effects = Vec::new();
        let Some(turn) = self.turns.remove(place) else {
            return effects;
        };
        if let (Some(trigger), Some((content, _))) = (turn.trigger, &text) {
            let me = &self.config.address;
            self.memory.said(me, place, trigger, content);
        }
        // A stream that failed midway: the host stops reading it.
        if let Some(request) = turn.request {
            self.requests.remove(&request);
            effects.push(AgentEffect::AbortModel { request });
        }
        self.calls.retain(|_, (p, _)| p != place);
        let tasks = self.assist.finish(place);
        if let Some((mut content, failed)) = text {
            content.push_str(tasks.as_deref().unwrap_or_default());
            effects.push(AgentEffect::Post {
                target: place.target.clone(),
                in_reply_to: place.thread,
                content,
                answers: turn.trigger,
                steps: turn.steps,
                failed,
                task: place.task.clone(),
            });
        }
        effects.push(AgentEffect::Status {
            conversation: place.clone(),
            status: Status::Idle,
            answers: turn.trigger,
        });
        if let Some(trigger) = turn.again {
            effects.extend(self.start(place.clone(), trigger, now));
        }
        effects
    }
}
