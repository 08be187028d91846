//! One hosted agent's loop effects carried out: each becomes the agent's
//! event through the network's pipeline (a post, its activity, a tool
//! invocation, an approval request), or I/O for the host ([`HostedIo`]).

use super::io::{HostedIo, Loop};
use crate::agent::effects::Status;
use crate::agent::{AgentEffect, Place};
use crate::bindings::exchange::BindingHost;
use crate::bindings::member::{new_event, submit_event};
use crate::bindings::tool_result::InvokeResult;
use crate::ids::address::Address;
use crate::ids::event_type::{EventType, core_types};
use crate::ids::ulid::EventId;
use crate::model::payloads::Payload;
use crate::mods::workspace::approvals::decision_target;
use crate::vocabulary::agents::{ActivityState, AgentActivity};
use crate::vocabulary::approvals::{ApprovalDecision, ApprovalRequest, Decision};
use crate::vocabulary::event_types::{
    AGENT_ACTIVITY, APPROVAL_DECIDED, APPROVAL_REQUESTED, MESSAGE_POSTED,
};
use crate::vocabulary::messages::MessagePosted;
use crate::{Event, Network};
use serde_json::{Value, json};

/// Streamed text is shown at most this often (ms).
const STREAM_EVERY_MS: u64 = 350;

/// Carries out `effects` of `agent`'s loop; `trigger` is the event that
/// caused them and its sender (who may stop the turn).
pub(super) fn all<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    agent: &Address,
    loop_: &mut Loop,
    effects: Vec<AgentEffect>,
    trigger: Option<(EventId, Address)>,
) -> Result<Vec<HostedIo>, H::Error> {
    let mut io = Vec::new();
    let mut pending = effects;
    while !pending.is_empty() {
        let mut next = Vec::new();
        for effect in pending {
            next.extend(one(host, network, agent, loop_, effect, &trigger, &mut io)?);
        }
        pending = next;
    }
    Ok(io)
}

/// One effect; returns the loop's effects it led to at once (a refused tool call's).
fn one<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    agent: &Address,
    loop_: &mut Loop,
    effect: AgentEffect,
    trigger: &Option<(EventId, Address)>,
    io: &mut Vec<HostedIo>,
) -> Result<Vec<AgentEffect>, H::Error> {
    let now = host.now();
    match effect {
        AgentEffect::Status {
            conversation,
            status,
            answers: Some(answers),
        } if conversation.task.is_none() => {
            let state = match &status {
                Status::Idle => {
                    loop_.turns.remove(&answers);
                    loop_.streamed_at.remove(&answers);
                    io.push(HostedIo::TurnEnded {
                        agent: agent.clone(),
                        answers,
                    });
                    if let Some(at) = loop_.posted.iter().position(|p| *p == answers) {
                        // A posted answer ends the activity by itself.
                        loop_.posted.remove(at);
                        return Ok(Vec::new());
                    }
                    AgentActivity::new(answers, ActivityState::Idle)
                }
                Status::Thinking => AgentActivity::new(answers, ActivityState::Thinking),
                Status::CallingTool { name } => AgentActivity {
                    tool: Some(name.clone()),
                    ..AgentActivity::new(answers, ActivityState::CallingTool)
                },
                Status::AwaitingApproval { name } => AgentActivity {
                    tool: Some(name.clone()),
                    ..AgentActivity::new(answers, ActivityState::AwaitingApproval)
                },
            };
            if !matches!(status, Status::Idle) && !loop_.turns.contains_key(&answers) {
                let asker = match trigger {
                    Some((id, source)) if *id == answers => source.clone(),
                    _ => agent.clone(),
                };
                loop_.turns.insert(answers, (conversation.clone(), asker));
                io.push(HostedIo::TurnStarted {
                    agent: agent.clone(),
                    answers,
                    place: conversation.clone(),
                });
            }
            activity(host, network, agent, &conversation, state)?;
        }
        AgentEffect::Status { .. } => {}
        AgentEffect::StreamText { conversation, text } => {
            let turn = loop_
                .turns
                .iter()
                .find(|(_, (place, _))| place == &conversation)
                .map(|(id, _)| *id);
            if let Some(answers) = turn {
                let last = loop_.streamed_at.get(&answers).copied();
                if now.millis_since(last.unwrap_or_default()) >= STREAM_EVERY_MS {
                    loop_.streamed_at.insert(answers, now);
                    let state = AgentActivity {
                        text: Some(text),
                        ..AgentActivity::new(answers, ActivityState::Writing)
                    };
                    activity(host, network, agent, &conversation, state)?;
                }
            }
        }
        AgentEffect::CallModel {
            request,
            url,
            headers,
            key,
            body,
            ..
        } => io.push(HostedIo::CallModel {
            agent: agent.clone(),
            request,
            url,
            headers,
            key,
            body,
        }),
        AgentEffect::AbortModel { request } => io.push(HostedIo::AbortModel {
            agent: agent.clone(),
            request,
        }),
        AgentEffect::CallTool {
            call_id,
            name,
            arguments,
            ..
        } => {
            let Some(tool) = loop_.tool_names.get(&name).cloned() else {
                let why = format!("no tool {name} is offered to this agent");
                return Ok(loop_.agent.handle_tool_result(&call_id, Err(why), now));
            };
            let kind = EventType::from_static(core_types::RESOURCE_INVOKE);
            let event = new_event(
                host,
                network,
                agent,
                kind,
                tool,
                json!({"input": arguments}),
            );
            let id = event.id;
            let submitted = submit_event(host, network, agent, event)?;
            match submitted.answer {
                Err(refused) => {
                    let why = format!("{}: {}", refused.code.as_str(), refused.message);
                    return Ok(loop_.agent.handle_tool_result(&call_id, Err(why), now));
                }
                Ok(Some(reply))
                    if reply.event_type.as_str() == core_types::RESOURCE_INVOKE_RESULT =>
                {
                    let outcome = tool_outcome(&reply.payload);
                    return Ok(loop_.agent.handle_tool_result(&call_id, outcome, now));
                }
                Ok(_) => {
                    loop_.invocations.insert(id, call_id);
                }
            }
        }
        AgentEffect::AskApproval {
            call_id,
            to,
            approvers,
            action,
            expires_at,
            ..
        } => {
            let request = ApprovalRequest {
                approvers,
                action,
                expires_at,
            };
            let payload = request.to_json();
            let kind = EventType::from_static(APPROVAL_REQUESTED);
            let event = new_event(host, network, agent, kind, to.clone(), payload);
            let id = event.id;
            let submitted = submit_event(host, network, agent, event)?;
            match submitted.answer {
                Err(refused) => {
                    let outcome = crate::agent::approve::ApprovalOutcome {
                        decision: Decision::Denied,
                        edited: None,
                        by: None,
                        reason: Some(format!(
                            "the approval could not be asked: {}",
                            refused.message
                        )),
                    };
                    return Ok(loop_.agent.handle_approval(&call_id, outcome, now));
                }
                Ok(_) => {
                    loop_.approvals.insert(id, (call_id, to, expires_at));
                }
            }
        }
        AgentEffect::AskInput { call_id, .. }
        | AgentEffect::FindAgents { call_id, .. }
        | AgentEffect::Delegate { call_id, .. } => {
            let why =
                "a hosted agent answers in chat: it cannot ask, search or delegate".to_owned();
            return Ok(loop_.agent.handle_tool_result(&call_id, Err(why), now));
        }
        AgentEffect::Progress { .. }
        | AgentEffect::AnswerDelegation { .. }
        | AgentEffect::CancelDelegation { .. } => {}
        post @ AgentEffect::Post { .. } => {
            if let AgentEffect::Post {
                answers: Some(answers),
                ..
            } = &post
            {
                loop_.posted.push(*answers);
            }
            post_as(host, network, agent, &post)?;
        }
    }
    Ok(Vec::new())
}

/// A tool's result payload as the loop takes it: the output (`null` when
/// none), or why it failed as `code: message`.
pub(super) fn tool_outcome(payload: &Value) -> Result<Value, String> {
    let result = InvokeResult::of(payload);
    match result.failure() {
        Some(failure) => {
            let message = failure.message.as_deref().unwrap_or("the tool failed");
            Err(format!("{}: {message}", failure.code))
        }
        None => Ok(result.output().unwrap_or(Value::Null)),
    }
}

/// Shows what the agent is doing in `place` (about `state.message`).
fn activity<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    agent: &Address,
    place: &Place,
    state: AgentActivity,
) -> Result<(), H::Error> {
    let payload = AgentActivity {
        thread: place.thread,
        ..state
    }
    .to_json();
    let kind = EventType::from_static(AGENT_ACTIVITY);
    let event = new_event(host, network, agent, kind, place.target.clone(), payload);
    submit_event(host, network, agent, event).map(|_| ())
}

/// Posts an [`AgentEffect::Post`] as `agent` (`workspace.message.posted`).
pub(super) fn post_as<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    agent: &Address,
    post: &AgentEffect,
) -> Result<(), H::Error> {
    let AgentEffect::Post {
        target,
        in_reply_to,
        content,
        answers,
        steps,
        failed,
        ..
    } = post
    else {
        return Ok(());
    };
    let payload = MessagePosted {
        answers: *answers,
        attachments: Vec::new(),
        content: content.clone(),
        failed: *failed,
        steps: steps.clone(),
    };
    let kind = EventType::from_static(MESSAGE_POSTED);
    let mut event: Event = new_event(
        host,
        network,
        agent,
        kind,
        target.clone(),
        payload.to_json(),
    );
    if let Some(root) = in_reply_to {
        event.metadata.insert("in_reply_to".into(), json!(root));
    }
    submit_event(host, network, agent, event).map(|_| ())
}

/// Says, as the requester `agent`, that the approval `id` it sent to `place` expired.
pub(super) fn say_expired<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    agent: &Address,
    place: &Address,
    id: EventId,
) -> Result<(), H::Error> {
    let target = decision_target(agent, place, agent).clone();
    let kind = EventType::from_static(APPROVAL_DECIDED);
    let payload = ApprovalDecision {
        approval: id,
        decision: Decision::Expired,
        edited: None,
        reason: None,
    }
    .to_json();
    let event = new_event(host, network, agent, kind, target, payload);
    submit_event(host, network, agent, event).map(|_| ())
}
