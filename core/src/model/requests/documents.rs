//! The payload of a shared document's sync: a `network.resource.update` to a
//! file or context that carries `sync` or `close` (`crate::documents`).

use super::field::AsSent;
use serde::Deserialize;

/// `{session, sync}` or `{session, close: true}` (the names of
/// `crate::documents::payload`).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct DocumentSync {
    /// The member's session id for the document.
    pub session: AsSent<String>,
    /// A base64 Automerge sync message.
    pub sync: AsSent<String>,
    /// `true`: the member closes the document.
    pub close: AsSent<bool>,
}
