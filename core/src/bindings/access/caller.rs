//! Who a request is from, resolved once at the start of a binding that
//! takes members' credentials (HTTP, MCP, A2A, ANP): first the `Origin`
//! check where the binding has one, then a DID proof (a `DIDWba` header or
//! an HTTP Message Signature) exchanged for a bearer session
//! ([`super::didwba::exchange`]). The binding then reads the bearer session,
//! an OAuth token or its guest from [`Caller::request`] as before, and
//! answers through [`Caller::answer`], which hands an exchanged session back.

use super::didwba::{self, Grant};
use crate::Network;
use crate::bindings::exchange::BindingHost;
use crate::bindings::mcp::access;
use crate::bindings::message::{Request, Response};
use crate::bindings::step::Step;
use std::borrow::Cow;

/// Whether a binding refuses pages of origins the network does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origins {
    /// Refuse them with `403` (MCP, where the spec asks for it).
    Checked,
    /// Leave them to CORS (the host applies the network's `allowed_origins`).
    Unchecked,
}

/// The caller of one request.
#[derive(Debug, Clone)]
pub struct Caller<'r> {
    request: Cow<'r, Request>,
    grant: Option<Grant>,
}

impl<'r> Caller<'r> {
    /// Resolves the caller of `req` for the loaded `network`; a refused
    /// origin or proof is the answer.
    pub fn resolve<H: BindingHost>(
        host: &mut H,
        network: &mut Network,
        req: &'r Request,
        origins: Origins,
    ) -> Result<Step<Self>, H::Error> {
        if origins == Origins::Checked
            && !access::origin_allowed(req, &network.config().allowed_origins)
        {
            return Ok(Step::Answer(access::forbidden_origin()));
        }
        Ok(match didwba::exchange(host, network, req)? {
            Step::Answer(refused) => Step::Answer(refused),
            Step::Go(None) => Step::Go(Self {
                request: Cow::Borrowed(req),
                grant: None,
            }),
            Step::Go(Some((exchanged, grant))) => Step::Go(Self {
                request: Cow::Owned(exchanged),
                grant: Some(grant),
            }),
        })
    }

    /// The request as the binding reads it: a DID proof replaced by
    /// `Authorization: Bearer` with the session it was exchanged for.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// The session a DID proof was exchanged for, if one was.
    pub fn grant(&self) -> Option<&Grant> {
        self.grant.as_ref()
    }

    /// `response`, carrying the exchanged session when there is one
    /// ([`didwba::with_bearer`]; ANP servers answer so).
    pub fn answer(&self, response: Response) -> Response {
        match &self.grant {
            Some(grant) => didwba::with_bearer(response, grant),
            None => response,
        }
    }
}
