//! The personal assistant (`mode: "assistant"`): built-in tools with which
//! the model plans a person's request, finds agents whose skills fit and
//! hands them the parts as tasks, and what the loop remembers of them.
//!
//! * `plan {steps}` — posts the plan in the conversation ([`Progress::Plan`]);
//!   answered by the loop itself.
//! * `find_agents {query}` — the host searches by capability
//!   ([`AgentEffect::FindAgents`]); the loop cuts the answer down to the
//!   candidates and what they can do.
//! * `delegate {to, instructions}` — the host gives `to` a task
//!   ([`AgentEffect::Delegate`]) and reports it ([`DelegationUpdate`]): it
//!   is posted once it exists, a question it asks is relayed to the person
//!   (`crate::agent::delegation`), and how it ended is the tool's result.
//!
//! The answer that ends the turn lists every task handed out, with its link
//! and how it ended ([`Assist::finish`]), whatever the model wrote.

use crate::agent::chat::{ToolCall, ToolDef};
use crate::agent::config::{AgentConfig, AgentMode};
use crate::agent::effects::{AgentEffect, Progress, Status};
use crate::agent::rules::{Place, is_person};
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Posts the plan.
pub const PLAN: &str = "plan";
/// Finds agents by capability.
pub const FIND_AGENTS: &str = "find_agents";
/// Gives an agent a task.
pub const DELEGATE: &str = "delegate";

/// The most steps of a plan, and characters of one.
const MAX_STEPS: usize = 12;
const MAX_STEP: usize = 300;
/// The longest instructions and query passed on, in characters.
const MAX_INSTRUCTIONS: usize = 4000;
const MAX_QUERY: usize = 200;
/// The most candidates asked for, and characters of a description kept.
const FIND_LIMIT: u32 = 5;
const MAX_DESCRIPTION: usize = 300;
/// Characters of a task's instructions in the posts about it.
const SHORT: usize = 80;

/// What the assistant's system prompt adds to the persona.
pub const ASSISTANT_PROMPT: &str = "You are a personal assistant: people ask you for things and you \
get them done by handing parts to other agents. For a request with parts that other agents can do: \
1. call `plan` once with the parts as short steps; \
2. for each part call `find_agents` with a few words naming the skill it needs, and pick the best \
candidate by its skills; \
3. call `delegate` with that candidate's address and complete instructions (everything the person \
said that the part needs), one part per call, in the order the parts depend on each other; its \
result is how the task ended. When an agent asks a question, it is put to the person for you and \
the answer goes back to the agent. \
4. When every part has ended, answer the person once: what each agent did, and what failed or \
could not be handed out (never say a part was done when its task failed). Links to the tasks are \
added to your answer for you. Answer simple questions yourself, without these tools.";

/// One task handed out in a turn.
#[derive(Debug, Clone)]
pub(super) struct Delegation {
    pub(super) call_id: String,
    pub(super) place: Place,
    pub(super) to: Address,
    pub(super) instructions: String,
    pub(super) task: Option<String>,
    pub(super) url: Option<String>,
    /// Its question waiting for the person.
    pub(super) question: Option<String>,
    /// How it ended and what it said.
    pub(super) ended: Option<(String, String)>,
}

/// What an assistant remembers of its built-in tool calls.
#[derive(Debug, Default)]
pub(super) struct Assist {
    /// `find_agents` calls under way.
    finds: BTreeSet<String>,
    /// The tasks handed out in each conversation's turn, in order.
    pub(super) delegations: BTreeMap<Place, Vec<Delegation>>,
    /// Questions waiting for the person, per conversation, oldest first (call ids).
    pub(super) questions: BTreeMap<Place, VecDeque<String>>,
}

/// What the loop does with an assistant's tool call.
pub(super) struct Handled {
    /// Effects for the host.
    pub(super) effects: Vec<AgentEffect>,
    /// The result, when the loop has it now (else the host reports it).
    pub(super) now: Option<Result<Value, String>>,
}

fn cut(text: &str, max: usize) -> String {
    let text = text.trim();
    let mut out: String = text.chars().take(max).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

fn string_arg<'a>(arguments: &'a Value, name: &str) -> Option<&'a str> {
    arguments
        .get(name)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The system prompt: the persona, and for an assistant how to use its tools.
pub fn system_prompt(config: &AgentConfig) -> Cow<'_, str> {
    match config.mode {
        AgentMode::Chat => Cow::Borrowed(&config.system_prompt),
        AgentMode::Assistant if config.system_prompt.trim().is_empty() => {
            Cow::Borrowed(ASSISTANT_PROMPT)
        }
        AgentMode::Assistant => {
            Cow::Owned(format!("{}\n\n{ASSISTANT_PROMPT}", config.system_prompt))
        }
    }
}

/// The tools offered in `place`: `tools`, and an assistant's own in a
/// conversation (not in a task), hiding network tools of the same names.
pub fn offered(mode: AgentMode, tools: Vec<ToolDef>, place: &Place) -> Vec<ToolDef> {
    if mode != AgentMode::Assistant || place.task.is_some() {
        return tools;
    }
    let own = [PLAN, FIND_AGENTS, DELEGATE];
    let mut offered: Vec<ToolDef> = tools
        .into_iter()
        .filter(|t| !own.contains(&t.name.as_str()))
        .collect();
    let def = |name: &str, description: &str, parameters: Value| ToolDef {
        name: name.to_owned(),
        description: description.to_owned(),
        parameters,
    };
    offered.push(def(
        PLAN,
        "Post your plan for the person's request in the conversation: its parts as short steps.",
        json!({"type": "object", "properties": {"steps": {"type": "array",
            "items": {"type": "string"}, "description": "The parts, in order"}},
            "required": ["steps"]}),
    ));
    offered.push(def(
        FIND_AGENTS,
        "Find agents (members of this network, and listed agents of others) whose skills or \
         tools fit a part: their addresses, descriptions and skills, best first.",
        json!({"type": "object", "properties": {"query": {"type": "string",
            "description": "A few words naming the skill needed"}}, "required": ["query"]}),
    ));
    offered.push(def(
        DELEGATE,
        "Give an agent a part as a task and wait until it ends: the result is its answer. \
         Its questions are put to the person for you.",
        json!({"type": "object", "properties": {
            "to": {"type": "string", "description": "The agent's address, from find_agents"},
            "instructions": {"type": "string", "description": "Everything it needs to do the part"}},
            "required": ["to", "instructions"]}),
    ));
    offered
}

impl Assist {
    /// The assistant's tool call `call` in `place` (host id `call_id`), or
    /// `None` when it is not one of its tools there.
    pub(super) fn call(
        &mut self,
        mode: AgentMode,
        place: &Place,
        call_id: &str,
        call: &ToolCall,
        answers: Option<EventId>,
    ) -> Option<Handled> {
        if mode != AgentMode::Assistant || place.task.is_some() {
            return None;
        }
        let args = &call.arguments;
        let now = |result| Handled {
            effects: Vec::new(),
            now: Some(result),
        };
        let calling = AgentEffect::Status {
            conversation: place.clone(),
            status: Status::CallingTool {
                name: call.name.clone(),
            },
            answers,
        };
        match call.name.as_str() {
            PLAN => {
                let steps: Vec<String> = args
                    .get("steps")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .filter(|s| !s.trim().is_empty())
                    .take(MAX_STEPS)
                    .map(|s| cut(s, MAX_STEP))
                    .collect();
                if steps.is_empty() {
                    return Some(now(Err(
                        "give the plan as steps: a list of short texts".into()
                    )));
                }
                let mut content = "**Plan**".to_owned();
                for (n, step) in steps.iter().enumerate() {
                    content.push_str(&format!("\n{}. {step}", n + 1));
                }
                Some(Handled {
                    effects: vec![AgentEffect::Progress {
                        conversation: place.clone(),
                        content,
                        progress: Progress::Plan { steps },
                        answers,
                    }],
                    now: Some(Ok(Value::from("The plan is posted in the conversation."))),
                })
            }
            FIND_AGENTS => {
                let Some(query) = string_arg(args, "query") else {
                    return Some(now(Err("give a query: words naming the skill".into())));
                };
                self.finds.insert(call_id.to_owned());
                Some(Handled {
                    effects: vec![
                        calling,
                        AgentEffect::FindAgents {
                            conversation: place.clone(),
                            call_id: call_id.to_owned(),
                            query: cut(query, MAX_QUERY),
                            limit: FIND_LIMIT,
                        },
                    ],
                    now: None,
                })
            }
            DELEGATE => {
                let to = string_arg(args, "to").map(|t| t.trim_start_matches('@'));
                let Some(to) = to.and_then(|t| t.parse::<Address>().ok()) else {
                    return Some(now(Err(
                        "`to` must be an agent's address from find_agents (agent:name)".into(),
                    )));
                };
                let Some(instructions) = string_arg(args, "instructions") else {
                    return Some(now(Err("give the instructions for the task".into())));
                };
                let instructions = cut(instructions, MAX_INSTRUCTIONS);
                self.delegations
                    .entry(place.clone())
                    .or_default()
                    .push(Delegation {
                        call_id: call_id.to_owned(),
                        place: place.clone(),
                        to: to.clone(),
                        instructions: instructions.clone(),
                        task: None,
                        url: None,
                        question: None,
                        ended: None,
                    });
                Some(Handled {
                    effects: vec![
                        calling,
                        AgentEffect::Delegate {
                            conversation: place.clone(),
                            call_id: call_id.to_owned(),
                            to,
                            instructions,
                            on_behalf_of: is_person(&place.target).then(|| place.target.clone()),
                        },
                    ],
                    now: None,
                })
            }
            _ => None,
        }
    }

    /// A tool's result as the model sees it: a `find_agents` answer (the
    /// discovery response) becomes the candidates, without `me`.
    pub(super) fn shape(
        &mut self,
        call_id: &str,
        result: Result<Value, String>,
        me: &Address,
    ) -> Result<Value, String> {
        if !self.finds.remove(call_id) {
            return result;
        }
        let response = result?;
        let agents: Vec<Value> = response
            .get("agents")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|a| a.get("address").and_then(Value::as_str) != Some(&me.to_string()))
            .map(candidate)
            .collect();
        if agents.is_empty() {
            return Ok(Value::from("No agent has a skill that fits that query."));
        }
        Ok(json!({ "agents": agents }))
    }

    /// The delegation `call_id` (with its conversation), if under way.
    pub(super) fn delegation(&mut self, call_id: &str) -> Option<&mut Delegation> {
        self.delegations
            .values_mut()
            .flatten()
            .find(|d| d.call_id == call_id)
    }

    /// Ends `place`'s turn: forgets its tasks and questions; the list of the
    /// tasks handed out, to add to the answer (none when none were).
    pub(super) fn finish(&mut self, place: &Place) -> Option<String> {
        self.questions.remove(place);
        let done = self.delegations.remove(place)?;
        let mut text = "\n\n**Tasks**".to_owned();
        for d in &done {
            let what = format!("{}: {}", d.to, cut(&d.instructions, SHORT));
            let what = match &d.url {
                Some(url) => format!("[{}]({url})", what.replace(['[', ']'], "")),
                None => what,
            };
            let state = match &d.ended {
                Some((state, _)) if state == "completed" => "completed".to_owned(),
                Some((state, why)) => format!("{state}: {}", cut(why, SHORT * 2)),
                None => "not finished".to_owned(),
            };
            text.push_str(&format!("\n- {what} — {state}"));
        }
        Some(text)
    }

    /// `place`'s turn was stopped: its tasks still under way are canceled.
    pub(super) fn cancel(&mut self, place: &Place) -> Vec<AgentEffect> {
        self.questions.remove(place);
        let done = self.delegations.remove(place).unwrap_or_default();
        done.into_iter()
            .filter(|d| d.ended.is_none())
            .filter_map(|d| {
                Some(AgentEffect::CancelDelegation {
                    call_id: d.call_id,
                    task: d.task?,
                })
            })
            .collect()
    }
}

/// A discovery result as a candidate: who, where, and what it can do.
fn candidate(agent: &Value) -> Value {
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_owned();
    let skills: Vec<Value> = ["skills", "tools"]
        .iter()
        .filter_map(|k| agent.get(*k).and_then(Value::as_array))
        .flatten()
        .map(|s| {
            let mut skill = json!({"name": text(s.get("name")),
                "description": cut(&text(s.get("description")), MAX_DESCRIPTION)});
            if let Some(tags) = s.get("tags").filter(|t| t.is_array()) {
                skill["tags"] = tags.clone();
            }
            skill
        })
        .collect();
    let mut out = json!({"address": agent.get("address"), "name": agent.get("name"),
        "kind": agent.get("kind"),
        "description": cut(&text(agent.get("description")), MAX_DESCRIPTION), "skills": skills});
    if agent.get("kind").and_then(Value::as_str) != Some("member") {
        out["network"] = agent.get("network").cloned().unwrap_or(Value::Null);
    }
    out
}
