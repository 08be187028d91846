//! Reading the network's answers on the participant's side: an answer event
//! (a reply the [`crate::replica`] handed over, a frame, an HTTP body) into
//! its typed payload from [`crate::model::payloads`].
//!
//! Hosts never pick payloads apart by string key: they call [`read`] for the
//! answer they expect, or [`read_answer`] for whichever arrived. A payload
//! that does not have its type's shape is an [`AnswerError`] with a stable
//! code, never a panic; a `network.event.error` in place of the answer is the
//! network's [`Rejection`], with its own code.

use crate::error::{Coded, ErrorCode, Rejection};
use crate::event::Event;
use crate::model::payloads::{
    AckPayload, Challenge, ErrorPayload, EventsPage, NetworkProfile, Payload, Pong,
    ResourceContent, ResourceList, Roster,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Why an answer could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    /// The event is another kind of answer (or no answer at all).
    #[error("expected {expected}, got {found}")]
    UnexpectedType {
        /// The event type asked for.
        expected: &'static str,
        /// The event type that came.
        found: String,
    },
    /// The payload does not have the shape of its type.
    #[error("the payload of {event_type} does not read: {detail}")]
    Malformed {
        /// The event type whose payload it is.
        event_type: &'static str,
        /// What is wrong, for people.
        detail: String,
    },
    /// The network answered with an error instead.
    #[error(transparent)]
    Rejected(Rejection),
}

impl Coded for AnswerError {
    /// `malformed_event` for an answer of the wrong type or shape; the
    /// network's own code for a rejection.
    fn code(&self) -> ErrorCode {
        match self {
            Self::UnexpectedType { .. } | Self::Malformed { .. } => ErrorCode::MalformedEvent,
            Self::Rejected(rejection) => rejection.code,
        }
    }
}

/// Any answer from `core`, by its event type.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Answer {
    /// `network.agent.discover.response`.
    Roster(Roster),
    /// `network.resource.discover.response`.
    Resources(ResourceList),
    /// `network.resource.read.response`.
    Resource(ResourceContent),
    /// `network.events.response`.
    Events(EventsPage),
    /// `network.event.error`.
    Error(ErrorPayload),
    /// `network.event.ack` (boxed: it may carry a member's whole record).
    Ack(Box<AckPayload>),
    /// `network.agent.challenge.response`.
    Challenge(Challenge),
    /// `network.pong`.
    Pong(Pong),
}

/// The payload of `P`'s kind of answer, typed.
pub fn read_payload<P: Payload>(payload: &Value) -> Result<P, AnswerError> {
    P::deserialize(payload).map_err(|e| AnswerError::Malformed {
        event_type: P::EVENT_TYPE,
        detail: e.to_string(),
    })
}

/// The payload of `event`, which must be `P`'s kind of answer; a
/// `network.event.error` is the network's [`Rejection`].
pub fn read<P: Payload>(event: &Event) -> Result<P, AnswerError> {
    match event.event_type.as_str() {
        t if t == P::EVENT_TYPE => read_payload(&event.payload),
        t if t == ErrorPayload::EVENT_TYPE => Err(AnswerError::Rejected(rejection(event)?)),
        found => Err(AnswerError::UnexpectedType {
            expected: P::EVENT_TYPE,
            found: found.to_owned(),
        }),
    }
}

/// Whichever answer `event` is, typed.
pub fn read_answer(event: &Event) -> Result<Answer, AnswerError> {
    let payload = &event.payload;
    Ok(match event.event_type.as_str() {
        Roster::EVENT_TYPE => Answer::Roster(read_payload(payload)?),
        ResourceList::EVENT_TYPE => Answer::Resources(read_payload(payload)?),
        ResourceContent::EVENT_TYPE => Answer::Resource(read_payload(payload)?),
        EventsPage::EVENT_TYPE => Answer::Events(read_payload(payload)?),
        ErrorPayload::EVENT_TYPE => Answer::Error(read_payload(payload)?),
        AckPayload::EVENT_TYPE => Answer::Ack(Box::new(read_payload(payload)?)),
        Challenge::EVENT_TYPE => Answer::Challenge(read_payload(payload)?),
        Pong::EVENT_TYPE => Answer::Pong(read_payload(payload)?),
        found => {
            return Err(AnswerError::UnexpectedType {
                expected: "an answer from core",
                found: found.to_owned(),
            });
        }
    })
}

/// The rejection a `network.event.error` carries.
pub fn rejection(event: &Event) -> Result<Rejection, AnswerError> {
    let error: ErrorPayload = read_payload(&event.payload)?;
    Ok(Rejection::new(error.code, error.message))
}

/// A network profile (`GET /v1/profile`), typed.
pub fn read_profile(profile: &Value) -> Result<NetworkProfile, AnswerError> {
    NetworkProfile::deserialize(profile).map_err(|e| AnswerError::Malformed {
        event_type: "network profile",
        detail: e.to_string(),
    })
}

#[cfg(test)]
mod tests;
