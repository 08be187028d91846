//! The payloads of resource requests: `network.resource.register` and
//! `.update` (their fields but the address, which the handlers' shared
//! address helper reads) and `network.resource.discover`.

use super::field::AsSent;
use crate::model::access::Permissions;
use serde::Deserialize;
use serde_json::Value;

/// A resource's fields as `network.resource.register` and `.update` send them.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct ResourceFields {
    /// A registration makes this content the document's text (register only).
    pub replace: AsSent<bool>,
    /// Who may read, write, invoke and administer it.
    pub permissions: AsSent<Permissions>,
    /// What it is, for people.
    pub description: AsSent<String>,
    /// Its content's media type.
    pub content_type: AsSent<String>,
    /// Free-form: a tool's JSON Schema, its owner's to shape; kept as sent.
    pub schema: AsSent<Value>,
    /// Free-form: a file's or context's own content (text or any JSON); kept as sent.
    pub content: AsSent<Value>,
}

/// `network.resource.discover`: `{type?}`.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(default)]
pub struct ResourceDiscover {
    /// Only resources of this kind (`tool`, `file`, `context`).
    #[serde(rename = "type")]
    pub kind: AsSent<String>,
}
