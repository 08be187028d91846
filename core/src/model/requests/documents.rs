//! The payload of a shared document's sync: a `network.resource.update` to a
//! file or context that carries `sync` or `close` (`crate::documents`).

use super::field::request_types;

request_types! {
    /// `{session, sync}` or `{session, close: true}` (the names of
    /// `crate::documents::payload`).
    pub struct DocumentSync {
        /// The member's session id for the document.
        session: String,
        /// A base64 Automerge sync message.
        sync: String,
        /// `true`: the member closes the document.
        close: bool,
    }
}
