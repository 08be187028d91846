//! A client's answer to an approval's `elicitation/create` ([`super::elicit`])
//! as the member's `workspace.approval.decided`.
//!
//! | the client's result | the decision |
//! |---|---|
//! | `accept`, `decision: approve` | `approved`; with `edited` when the form's edit is filled in |
//! | `accept`, `decision: deny` | `denied` |
//! | `decline` | `denied` |
//! | `cancel`, or a JSON-RPC error | none: the request stays open for the workspace |
//!
//! A `reason` goes with the decision. A tool call's edit (`arguments`) must
//! be a JSON object: any other text decides nothing ([`ElicitError::InvalidEdit`]),
//! since approving the step as asked is not what the person meant. The
//! decision is sent as the member the session acts as, so the network's own
//! checks apply; its refusal (another approver decided first, the request
//! expired) is the answer's outcome ([`Answered::Failed`]), nothing more.

use super::elicit::Asked;
use crate::bindings::exchange::BindingHost;
use crate::bindings::member::submit;
use crate::error::{Coded, ErrorCode, Rejection};
use crate::ids::event_type::EventType;
use crate::mods::workspace::approvals::decision_target;
use crate::vocabulary::approvals::{ApprovalDecision, Decision};
use crate::vocabulary::event_types::APPROVAL_DECIDED;
use crate::{Address, Network};
use serde_json::Value;

/// Why an answer decided nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ElicitError {
    /// The result is not an `ElicitResult` of this form.
    #[error("the elicitation result is not an answer to the approval form: {0}")]
    Malformed(&'static str),
    /// The edited arguments are not a JSON object.
    #[error("the edited arguments are not a JSON object: the approval is not decided")]
    InvalidEdit,
    /// The network refused the member's decision.
    #[error("the decision was refused: {0}")]
    Refused(Rejection),
}

impl Coded for ElicitError {
    fn code(&self) -> ErrorCode {
        match self {
            Self::Malformed(_) | Self::InvalidEdit => ErrorCode::InvalidRequest,
            Self::Refused(rejection) => rejection.code,
        }
    }
}

/// What came of an answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Answered {
    /// The member's decision was accepted.
    Decided(ApprovalDecision),
    /// The person made no decision (cancelled, or the client failed).
    Left,
    /// Nothing was decided, and why.
    Failed(ElicitError),
}

fn filled<'a>(content: &'a serde_json::Map<String, Value>, key: &str) -> Option<&'a str> {
    content
        .get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|text| !text.is_empty())
}

/// The decision a client's `result` (`None`: an error response) makes on `asked`.
pub fn decision_of(
    asked: &Asked,
    result: Option<&Value>,
) -> Result<Option<ApprovalDecision>, ElicitError> {
    let Some(result) = result else {
        return Ok(None);
    };
    let decided = |decision, edited, reason: Option<&str>| {
        Ok(Some(ApprovalDecision {
            approval: asked.approval,
            decision,
            edited,
            reason: reason.map(str::to_owned),
        }))
    };
    let content = match result.get("action").and_then(Value::as_str) {
        Some("cancel") => return Ok(None),
        Some("decline") => return decided(Decision::Denied, None, None),
        Some("accept") => match result.get("content") {
            Some(Value::Object(content)) => content,
            _ => return Err(ElicitError::Malformed("accept without content")),
        },
        _ => {
            return Err(ElicitError::Malformed(
                "action is accept, decline or cancel",
            ));
        }
    };
    let reason = filled(content, "reason");
    match content.get("decision").and_then(Value::as_str) {
        Some("deny") => decided(Decision::Denied, None, reason),
        Some("approve") => {
            let edited = match (filled(content, "arguments"), filled(content, "text")) {
                (Some(arguments), _) => match serde_json::from_str(arguments) {
                    Ok(Value::Object(object)) => Some(Value::Object(object)),
                    _ => return Err(ElicitError::InvalidEdit),
                },
                (None, Some(text)) => Some(Value::String(text.to_owned())),
                (None, None) => None,
            };
            decided(Decision::Approved, edited, reason)
        }
        _ => Err(ElicitError::Malformed("decision is approve or deny")),
    }
}

/// Carries out `member`'s answer `result` to the elicitation about `asked`:
/// its decision, sent as `member` where the request went.
pub fn answer<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: &Address,
    asked: &Asked,
    result: Option<&Value>,
) -> Result<Answered, H::Error> {
    let decision = match decision_of(asked, result) {
        Ok(Some(decision)) => decision,
        Ok(None) => return Ok(Answered::Left),
        Err(error) => return Ok(Answered::Failed(error)),
    };
    let target = decision_target(&asked.requester, &asked.place, member).clone();
    let payload = serde_json::to_value(&decision).unwrap_or(Value::Null);
    let event_type = EventType::from_static(APPROVAL_DECIDED);
    let submitted = submit(host, network, member, event_type, target, payload)?;
    Ok(match submitted.answer {
        Ok(_) => Answered::Decided(decision),
        Err(rejection) => Answered::Failed(ElicitError::Refused(rejection)),
    })
}
