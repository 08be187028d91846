//! Approvals in the loop: a tool the configuration names in
//! [`AgentConfig::approve_tools`](crate::agent::AgentConfig) is called only
//! once a person approved the call.
//!
//! Instead of `CallTool`, the loop asks its host to request approval
//! ([`AgentEffect::AskApproval`], a `workspace.approval.requested` in the
//! network, or the `input-required` question of a task); the host answers
//! with [`Agent::handle_approval`]. Approved (perhaps with edited
//! arguments), the tool is called; denied or expired, the model gets that
//! as the tool's result and answers accordingly.
//!
//! Where the card goes: with no approvers configured, to the conversation
//! where the agent was asked (a direct conversation's person decides, a
//! channel's masters do; a task's requester answers its question); with
//! approvers, to the channel naming them, or directly to the first of them
//! from a direct conversation or a task.

use crate::agent::config::AgentConfig;
use crate::agent::effects::{AgentEffect, Status};
use crate::agent::rules::Place;
use crate::agent::turn::Agent;
use crate::ids::address::Address;
use crate::ids::time::Timestamp;
use crate::vocabulary::approvals::{ActionKind, ApprovalAction, Decision};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The longest arguments shown in an approval's summary, in characters.
const SUMMARY_ARGUMENTS: usize = 200;

/// What came of an approval the loop asked for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApprovalOutcome {
    /// Approved, denied or expired.
    pub decision: Decision,
    /// The arguments as the approver edited them (approved only).
    #[serde(default)]
    pub edited: Option<Value>,
    /// Who decided.
    #[serde(default)]
    pub by: Option<Address>,
    /// Why, in words.
    #[serde(default)]
    pub reason: Option<String>,
}

/// Where an approval's card goes and who decides it, for a turn in `place`.
pub fn approval_place(approvers: &[Address], place: &Place) -> (Address, Vec<Address>) {
    let direct = place.task.is_some() || place.target.entity().is_participant();
    match approvers.first() {
        None => (place.target.clone(), Vec::new()),
        Some(first) if direct => (first.clone(), Vec::new()),
        Some(_) => (place.target.clone(), approvers.to_vec()),
    }
}

/// The action of calling `tool` with `arguments`, for people.
pub fn tool_action(tool: &str, arguments: &Value) -> ApprovalAction {
    let mut shown: String = arguments
        .to_string()
        .chars()
        .take(SUMMARY_ARGUMENTS)
        .collect();
    if shown.len() < arguments.to_string().len() {
        shown.push('…');
    }
    ApprovalAction {
        kind: ActionKind::ToolCall,
        subject: tool.to_owned(),
        summary: format!("Call {tool} with {shown}"),
        detail: arguments.clone(),
    }
}

/// Reads a person's answer to an approval asked as a task's question:
/// `approve`/`yes` (optionally followed by edited arguments as a JSON
/// object), else denied with the answer as the reason.
pub fn outcome_of_answer(answer: &str) -> ApprovalOutcome {
    let text = answer.trim();
    let lower = text.to_lowercase();
    let approved = ["approve", "approved", "yes", "ok"].iter().any(|w| {
        lower == *w || lower.starts_with(&format!("{w} ")) || lower.starts_with(&format!("{w},"))
    });
    let edited = text
        .find('{')
        .and_then(|at| serde_json::from_str::<Value>(&text[at..]).ok())
        .filter(Value::is_object);
    ApprovalOutcome {
        decision: if approved {
            Decision::Approved
        } else {
            Decision::Denied
        },
        edited: if approved { edited } else { None },
        by: None,
        reason: (!approved).then(|| text.chars().take(500).collect()),
    }
}

impl Agent {
    /// The effects that call `name` for the call `call_id` in `place` — or,
    /// when the configuration says a person approves it first, that ask.
    pub(super) fn tool_call_effects(
        config: &AgentConfig,
        place: &Place,
        call_id: String,
        name: &str,
        arguments: &Value,
        answers: Option<crate::ids::ulid::EventId>,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        if !config.approve_tools.allows(name) {
            return vec![
                AgentEffect::Status {
                    conversation: place.clone(),
                    status: Status::CallingTool {
                        name: name.to_owned(),
                    },
                    answers,
                },
                AgentEffect::CallTool {
                    conversation: place.clone(),
                    call_id,
                    name: name.to_owned(),
                    arguments: arguments.clone(),
                },
            ];
        }
        let (to, approvers) = approval_place(&config.approvers, place);
        vec![
            AgentEffect::Status {
                conversation: place.clone(),
                status: Status::AwaitingApproval {
                    name: name.to_owned(),
                },
                answers,
            },
            AgentEffect::AskApproval {
                conversation: place.clone(),
                call_id,
                to,
                approvers,
                action: tool_action(name, arguments),
                expires_at: now.plus_millis(config.approval_wait_secs.saturating_mul(1000)),
            },
        ]
    }

    /// What came of the approval asked for the call `call_id`: approved,
    /// the tool is called (with the edited arguments, if any); denied or
    /// expired, the model hears so as the tool's result.
    pub fn handle_approval(
        &mut self,
        call_id: &str,
        outcome: ApprovalOutcome,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        let Some((place, name, arguments, answers)) = self.pending_call(call_id) else {
            return Vec::new();
        };
        match outcome.decision {
            Decision::Approved => {
                let arguments = outcome.edited.filter(Value::is_object).unwrap_or(arguments);
                self.set_call_arguments(call_id, &arguments);
                let mut effects = vec![AgentEffect::Status {
                    conversation: place.clone(),
                    status: Status::CallingTool { name: name.clone() },
                    answers,
                }];
                effects.push(AgentEffect::CallTool {
                    conversation: place,
                    call_id: call_id.to_owned(),
                    name,
                    arguments,
                });
                effects
            }
            Decision::Denied => {
                let by = outcome.by.map(|b| format!(" by {b}")).unwrap_or_default();
                let why = outcome.reason.map(|r| format!(": {r}")).unwrap_or_default();
                let text =
                    format!("A person denied this call{by}{why}. Do not try it again; say so.");
                self.handle_tool_result(call_id, Err(text), now)
            }
            Decision::Expired => {
                let text =
                    "Nobody approved this call in time, so it was not made. Say so.".to_owned();
                self.handle_tool_result(call_id, Err(text), now)
            }
        }
    }

    /// The call `call_id` waiting in its turn: its place, tool, arguments and the message the turn answers.
    fn pending_call(
        &self,
        call_id: &str,
    ) -> Option<(Place, String, Value, Option<crate::ids::ulid::EventId>)> {
        let (place, provider_id) = self.calls.get(call_id)?;
        let turn = self.turns.get(place)?;
        let call = turn.pending.iter().find(|c| &c.id == provider_id)?;
        Some((
            place.clone(),
            call.name.clone(),
            call.arguments.clone(),
            turn.trigger,
        ))
    }

    /// The call `call_id` goes ahead with `arguments` (as an approver edited them).
    fn set_call_arguments(&mut self, call_id: &str, arguments: &Value) {
        let Some((place, provider_id)) = self.calls.get(call_id) else {
            return;
        };
        let Some(turn) = self.turns.get_mut(place) else {
            return;
        };
        if let Some(call) = turn.pending.iter_mut().find(|c| &c.id == provider_id) {
            call.arguments = arguments.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn addr(s: &str) -> Address {
        s.parse().unwrap()
    }

    #[test]
    fn the_card_goes_where_the_agent_was_asked_or_to_its_approvers() {
        let ann = addr("human:ann");
        let ops = addr("human:ops");
        let channel = addr("channel/general");
        let dm = Place::new(ann.clone(), None);
        let room = Place::new(channel.clone(), None);
        let task = Place::task(ann.clone(), "t1".into());
        assert_eq!(approval_place(&[], &dm), (ann.clone(), vec![]));
        assert_eq!(approval_place(&[], &room), (channel.clone(), vec![]));
        assert_eq!(approval_place(&[], &task), (ann.clone(), vec![]));
        let named = [ops.clone(), ann.clone()];
        assert_eq!(approval_place(&named, &dm), (ops.clone(), vec![]));
        assert_eq!(approval_place(&named, &task), (ops.clone(), vec![]));
        assert_eq!(approval_place(&named, &room), (channel, named.to_vec()));
    }

    #[test]
    fn a_task_s_answer_reads_as_a_decision() {
        let yes = outcome_of_answer("approve");
        assert_eq!((yes.decision, yes.edited), (Decision::Approved, None));
        let edited = outcome_of_answer(r#"Yes, with {"to": "ann@work.example"}"#);
        assert_eq!(edited.decision, Decision::Approved);
        assert_eq!(edited.edited, Some(json!({"to": "ann@work.example"})));
        let no = outcome_of_answer("no, not this week");
        assert_eq!(no.decision, Decision::Denied);
        assert_eq!(no.reason.as_deref(), Some("no, not this week"));
        assert_eq!(outcome_of_answer("yesterday").decision, Decision::Denied);
    }

    #[test]
    fn a_summary_names_the_tool_and_shortens_long_arguments() {
        let action = tool_action("send_mail", &json!({"body": "x".repeat(1000)}));
        assert!(action.summary.starts_with("Call send_mail with {\"body\""));
        assert!(action.summary.ends_with('…'));
        assert_eq!(action.kind, ActionKind::ToolCall);
    }
}
