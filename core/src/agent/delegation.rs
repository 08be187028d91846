//! Following the tasks an assistant hands out ([`crate::agent::assistant`]):
//! the host reports each one ([`DelegationUpdate`]) and the loop posts it
//! once it exists, puts its questions to the person in the conversation the
//! request came from — one at a time, the person's next message there being
//! the answer ([`AgentEffect::AnswerDelegation`]) — and makes how it ended
//! the `delegate` call's result.

use crate::agent::effects::AgentEffect;
use crate::agent::effects::{DelegationUpdate, Progress};
use crate::agent::rules::{Place, content_of, is_message, is_person, place_of};
use crate::agent::turn::Agent;
use crate::event::Event;
use crate::ids::time::Timestamp;
use serde_json::json;

/// The longest question relayed, in characters.
const MAX_QUESTION: usize = 2000;

impl Agent {
    /// What became of the task handed out by the `delegate` call `call_id`.
    /// Reports of calls no longer under way (a stopped turn) are ignored.
    pub fn handle_delegation(
        &mut self,
        call_id: &str,
        update: DelegationUpdate,
        now: Timestamp,
    ) -> Vec<AgentEffect> {
        let answers = |agent: &Self, place| agent.turns.get(place).and_then(|t| t.trigger);
        let Some(d) = self.assist.delegation(call_id) else {
            return Vec::new();
        };
        let place = d.place.clone();
        match update {
            DelegationUpdate::Started { task, url } => {
                d.task = Some(task.clone());
                d.url.clone_from(&url);
                let link = url.as_ref().map_or_else(
                    || format!("task {task}"),
                    |url| format!("[task {}]({url})", short(&task)),
                );
                let content = format!("**Asked {}** ({link}): {}", d.to, d.instructions);
                let progress = Progress::Delegated {
                    to: d.to.clone(),
                    task,
                    url,
                };
                vec![AgentEffect::Progress {
                    answers: answers(self, &place),
                    conversation: place,
                    content,
                    progress,
                }]
            }
            DelegationUpdate::InputRequired { question } => {
                let question: String = question.trim().chars().take(MAX_QUESTION).collect();
                d.question = Some(question);
                let queue = self.assist.questions.entry(place.clone()).or_default();
                queue.retain(|c| c != call_id);
                queue.push_back(call_id.to_owned());
                if queue.len() == 1 {
                    return self.ask_next(&place);
                }
                Vec::new()
            }
            DelegationUpdate::Finished { state, text } => {
                d.ended = Some((state.clone(), text.clone()));
                let (to, task, url) = (d.to.clone(), d.task.clone(), d.url.clone());
                let mut effects = Vec::new();
                if let Some(queue) = self.assist.questions.get_mut(&place) {
                    let head = queue.front().is_some_and(|c| c == call_id);
                    queue.retain(|c| c != call_id);
                    if head {
                        effects.extend(self.ask_next(&place));
                    }
                }
                let result = if state == "completed" {
                    Ok(json!({"to": to, "task": task, "state": state, "answer": text, "url": url}))
                } else {
                    Err(format!("{to} did not do it: the task {state}: {text}"))
                };
                effects.extend(self.handle_tool_result(call_id, result, now));
                effects
            }
        }
    }

    /// A person's message in a conversation where a delegated task's
    /// question waits: it is the answer, sent to the task, and not a new
    /// request. `None` when no question waits there.
    pub(super) fn relay_answer(&mut self, event: &Event) -> Option<Vec<AgentEffect>> {
        let me = self.config.address.clone();
        if !is_message(event) || event.source == me || !is_person(&event.source) {
            return None;
        }
        let place = place_of(&me, event);
        let call_id = self.assist.questions.get_mut(&place)?.pop_front()?;
        self.memory.record(&me, event);
        self.memory.answered.insert(event.id);
        let mut effects = Vec::new();
        let task = self.assist.delegation(&call_id).and_then(|d| {
            d.question = None;
            d.task.clone()
        });
        if let Some(task) = task {
            effects.push(AgentEffect::AnswerDelegation {
                call_id,
                task,
                answer: content_of(event).to_owned(),
            });
        }
        effects.extend(self.ask_next(&place));
        Some(effects)
    }

    /// Puts the oldest waiting question of `place` to the person.
    fn ask_next(&mut self, place: &Place) -> Vec<AgentEffect> {
        let answers = self.turns.get(place).and_then(|t| t.trigger);
        let Some(call_id) = self.assist.questions.get(place).and_then(|q| q.front()) else {
            return Vec::new();
        };
        let call_id = call_id.clone();
        let Some(d) = self.assist.delegation(&call_id) else {
            return Vec::new();
        };
        let (Some(task), Some(question)) = (d.task.clone(), d.question.clone()) else {
            return Vec::new();
        };
        let content = format!(
            "**{} asks** (for “{}”): {question}\n\n_Reply here and I will pass your answer on._",
            d.to,
            short_text(&d.instructions)
        );
        vec![AgentEffect::Progress {
            conversation: place.clone(),
            content,
            progress: Progress::Question {
                from: d.to.clone(),
                task,
            },
            answers,
        }]
    }
}

/// A task id's last characters, enough to tell tasks apart.
fn short(task: &str) -> &str {
    let start = task.char_indices().rev().nth(5).map_or(0, |(i, _)| i);
    &task[start..]
}

fn short_text(text: &str) -> String {
    let mut out: String = text.chars().take(60).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}
