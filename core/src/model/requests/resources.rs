//! The payloads of resource requests: `network.resource.register` and
//! `.update` (their fields but the address, which the handlers' shared
//! address helper reads) and `network.resource.discover`.

use super::field::request_types;
use crate::model::access::Permissions;
use serde_json::Value;

request_types! {
    /// A resource's fields as `network.resource.register` and `.update` send them.
    pub struct ResourceFields {
        /// A registration makes this content the document's text (register only).
        replace: bool,
        /// Who may read, write, invoke and administer it.
        permissions: Permissions,
        /// What it is, for people.
        description: String,
        /// Its content's media type.
        content_type: String,
        /// Free-form: a tool's JSON Schema, its owner's to shape; kept as sent.
        schema: Value,
        /// Free-form: a file's or context's own content (text or any JSON); kept as sent.
        content: Value,
    }

    /// `network.resource.discover`: `{type?}`.
    pub struct ResourceDiscover {
        /// Only resources of this kind (`tool`, `file`, `context`).
        #[serde(rename = "type")]
        kind: String,
    }
}
