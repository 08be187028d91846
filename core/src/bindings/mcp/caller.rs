//! Who an MCP method is called by: the member, the revision it speaks, the
//! request's id and its legacy session — what every method's answer depends
//! on besides its params.

use super::revision::Revision;
use crate::Address;
use crate::bindings::jsonrpc::Id;

/// Who asks, in which revision, under which request id.
#[derive(Debug, Clone, Copy)]
pub struct Caller<'a> {
    /// The member the request is authenticated as.
    pub member: &'a Address,
    /// The revision it speaks.
    pub revision: Revision,
    /// The request's id.
    pub request: &'a Id,
    /// The legacy session, if any.
    pub session: Option<&'a str>,
}
