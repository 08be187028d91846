//! A2A: network agents as A2A agents (ONM §13), JSON-RPC over HTTP with
//! SSE streams, in both generations (1.0 and 0.3, by `A2A-Version`).
//!
//! * `GET /networks/{id}/a2a/{address}/.well-known/agent-card.json` — the
//!   card of a member that offers skills; its endpoint is
//!   `POST /networks/{id}/a2a/{address}`;
//! * `GET /networks/{id}/a2a/.well-known/agent-card.json` — the network's
//!   card (its members' skills); `POST /networks/{id}/a2a` routes a message
//!   by the skill it names;
//! * `agent.json` is accepted in place of `agent-card.json` (0.3 clients);
//!   a card asked for without `A2A-Version: 1.0` is the 1.0 card with 0.3's
//!   fields merged in, as the official SDKs serve it ([`well_known`]).
//!
//! A request is the member its bearer session (`POST /v1/join`) names; no
//! or an unknown token is `401` with `WWW-Authenticate: Bearer`, as the
//! card's `securitySchemes` says. A message is a `task.create` (or, with a
//! `taskId`, a `task.message`) from that member; the task model is
//! [`crate::model::task`], with the documented mapping of states.
//!
//! Every JSON-RPC error answers the request's `id` (`null` when it has
//! none) and carries a `google.rpc.ErrorInfo` in its `data` array
//! ([`errors`]); an `A2A-Version` the endpoint does not speak is such an
//! error (`VersionNotSupportedError`, -32009) with HTTP 200, as the SDKs'
//! servers answer it, so their clients raise the typed error.
//!
//! | module | what |
//! |---|---|
//! | [`version`] | the generations, their method names, A2A error codes |
//! | [`card`] | Agent Cards and skills |
//! | [`well_known`] | the card a well-known URI answers, by the version asked for |
//! | [`errors`] | A2A errors: `google.rpc.ErrorInfo` in `error.data` |
//! | [`wire`] | tasks, messages, parts and stream events in each generation |
//! | [`methods`] | what each method does ([`methods::Reply`]) |
//! | [`list`] | `ListTasks`: the member's tasks, filtered and paged |
//! | [`stream`] | what a stream says when its task changes |
//! | [`resend`] | which earlier message a send under a used `messageId` is |
//! | [`push`] | push notification configs; each notification as a signed request |
//! | [`remote`] | outbound: external A2A agents as members, calls and answers |
//! | [`remote_card`] | what the network reads of an external agent's card: its name, endpoint and skills |
//! | [`signature`] | signed agent cards: a JWS over the card's JCS, signed and verified |

pub mod card;
pub mod errors;
pub mod list;
pub mod methods;
pub mod push;
pub mod remote;
pub mod remote_card;
mod resend;
pub mod signature;
pub mod stream;
pub mod version;
pub mod well_known;
pub mod wire;

#[cfg(test)]
mod tests;

use crate::bindings::access::caller::{Caller, Origins};
use crate::bindings::access::session::{QueryTokens, authenticate};
use crate::bindings::exchange::BindingHost;
use crate::bindings::jsonrpc::{self, Body, Code, Id, Message, RpcError};
use crate::bindings::message::{self, Method, Request, Response};
use crate::bindings::step::{Step, go_on};
use crate::{Address, ErrorCode, Network, NetworkId};
use methods::Reply;
use serde_json::json;
use version::{A2aError, Version};

/// Where an A2A request goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The network.
    pub network: NetworkId,
    /// The member whose endpoint it is (`None`: the network's).
    pub agent: Option<Address>,
    /// A card, not the JSON-RPC endpoint.
    pub card: bool,
}

fn rpc_refusal(status: u16, id: Option<&Id>, error: &RpcError) -> Response {
    Response::json(errors::response(id, error)).with_status(status)
}

/// A JSON-RPC answer in A2A's shape ([`errors::conform`]); other bodies unchanged.
fn conformed(response: Response) -> Response {
    match response.body {
        message::Body::Json(value) if value.get("jsonrpc").is_some() => Response {
            body: message::Body::Json(errors::conform(value)),
            ..response
        },
        _ => response,
    }
}

/// A JSON-RPC request taken: who sent it, how to answer, and the bearer
/// token to answer with when a DIDWba header was exchanged for a session.
#[derive(Debug)]
pub struct Accepted {
    /// The member the request is from.
    pub member: Address,
    /// How to answer.
    pub reply: Reply,
    /// The session a DID proof was exchanged for, for the answer's headers
    /// ([`crate::bindings::access::didwba::Grant::headers`]; ANP servers answer so).
    pub bearer: Option<crate::bindings::access::didwba::Grant>,
}

/// What an A2A request comes to.
#[derive(Debug)]
pub enum Handled {
    /// A card (`200`): the host may sign it before it answers.
    Card(Response),
    /// Any other answer, given at once.
    Respond(Response),
    /// A JSON-RPC request taken as a member.
    Accepted(Accepted),
}

/// Answers a request to `target` of the loaded `network`: a card, or a
/// JSON-RPC request as the authenticated member ([`Reply`] says how). A
/// `DIDWba` header in place of a bearer joins its DID first
/// ([`crate::bindings::access::caller::Caller`]).
pub fn handle<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    target: &Target,
) -> Result<Handled, H::Error> {
    let handled = network.traced(req.trace_context(), |network| {
        if target.card {
            return card_for(host, network, req, target.agent.as_ref());
        }
        if req.method != Method::Post {
            return Ok(Handled::Respond(Response::error(
                ErrorCode::MethodNotAllowed,
                "POST JSON-RPC requests to an A2A endpoint",
            )));
        }
        let version = match Version::of(req) {
            Ok(version) => version,
            Err(asked) => {
                let id = errors::request_id(&req.body);
                let message = format!("A2A-Version {asked} is not supported: use 1.0 or 0.3");
                let error = RpcError::new(A2aError::VersionNotSupported, message);
                return Ok(Handled::Respond(rpc_refusal(200, id.as_ref(), &error)));
            }
        };
        let caller = go_on!(
            Caller::resolve(host, network, req, Origins::Unchecked),
            Handled::Respond
        );
        Ok(
            match rpc_request(host, network, caller.request(), target, version)? {
                Step::Go(accepted) => Handled::Accepted(Accepted {
                    bearer: caller.grant().cloned(),
                    ..accepted
                }),
                Step::Answer(response) => Handled::Respond(caller.answer(response)),
            },
        )
    })?;
    Ok(match handled {
        Handled::Accepted(accepted) => Handled::Accepted(Accepted {
            reply: match accepted.reply {
                Reply::Now(value) => Reply::Now(errors::conform(value)),
                other => other,
            },
            ..accepted
        }),
        Handled::Respond(response) => Handled::Respond(conformed(response)),
        card @ Handled::Card(_) => card,
    })
}

/// The card of `agent` (`None`: the network's) for `GET`.
fn card_for<H: BindingHost>(
    host: &mut H,
    network: &Network,
    req: &Request,
    agent: Option<&Address>,
) -> Result<Handled, H::Error> {
    // A card shows what its viewer may read: a member by its session, else anyone.
    let viewer = match req.header("Authorization") {
        Some(_) => authenticate(host, req, QueryTokens::Refused)?.go(),
        None => None,
    };
    let viewer = viewer
        .as_ref()
        .map_or(card::Viewer::Anyone, card::Viewer::Member);
    let card = well_known::card(network, req, req.origin(), agent, viewer);
    Ok(match (req.method.clone(), card) {
        (Method::Get, Some(card)) => {
            Handled::Card(Response::json(card).with_header("Vary", "A2A-Version"))
        }
        (Method::Get, None) => Handled::Respond(Response::error(
            ErrorCode::NotFound,
            "no member here offers skills: an agent card lists a member's tools",
        )),
        _ => Handled::Respond(Response::error(
            ErrorCode::MethodNotAllowed,
            "use GET for a card",
        )),
    })
}

/// [`handle`]'s JSON-RPC request, once any DIDWba header is a bearer session.
fn rpc_request<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    target: &Target,
    version: Version,
) -> Result<Step<Accepted>, H::Error> {
    let credentials = req.header("Authorization").is_some();
    let guest = match network.config().a2a_guest.clone() {
        Some(guest) if !credentials => admit_guest(host, network, guest)?,
        _ => None,
    };
    let member = match guest {
        Some(guest) => guest,
        None => match authenticate(host, req, QueryTokens::Refused)? {
            Step::Go(member) => member,
            Step::Answer(_) => {
                let error = RpcError::new(
                    Code::NetworkRefused,
                    "send Authorization: Bearer <session token from POST /v1/join>",
                )
                .with_data(json!({"code": ErrorCode::NotJoined.as_str()}));
                let id = errors::request_id(&req.body);
                let mut response = rpc_refusal(401, id.as_ref(), &error);
                response
                    .headers
                    .push(("WWW-Authenticate".into(), "Bearer".into()));
                return Ok(Step::Answer(response));
            }
        },
    };
    if let Some(agent) = &target.agent
        && !network.state().members.contains_key(agent)
    {
        return Ok(Step::Answer(Response::error(
            ErrorCode::NotFound,
            format!("{agent} is not a member of this network"),
        )));
    }
    let (id, method, params) = match jsonrpc::parse(&req.body) {
        Err(refused) => return Ok(Step::Answer(Response::json(refused.response()))),
        Ok(Body::Single(Message::Request { id, method, params })) => (id, method, params),
        Ok(_) => {
            let message = "one JSON-RPC request per POST (no batches or notifications)";
            let id = errors::request_id(&req.body);
            let error = RpcError::new(Code::InvalidRequest, message);
            return Ok(Step::Answer(rpc_refusal(400, id.as_ref(), &error)));
        }
    };
    let reply = methods::dispatch(
        host,
        network,
        &member,
        target.agent.as_ref(),
        version,
        (id, &method, &params),
    )?;
    Ok(Step::Go(Accepted {
        member,
        reply,
        bearer: None,
    }))
}

/// The network's A2A guest as a member (admitted now if it is not one yet).
fn admit_guest<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    guest: Address,
) -> Result<Option<Address>, H::Error> {
    let effects = network.admit_a2a_guest(host.now());
    host.apply(network, effects)?;
    Ok(network
        .state()
        .members
        .contains_key(&guest)
        .then_some(guest))
}

/// The JSON body of a reply given now.
pub fn now_response(value: serde_json::Value) -> Response {
    Response::json(value)
}

/// The `A2A-Version` a response states.
pub fn version_header(version: Version) -> (String, String) {
    (
        "A2A-Version".into(),
        json!(version.as_str()).as_str().unwrap_or("").to_owned(),
    )
}
