//! What the bindings need from a host, and what one request's effects produced.
//!
//! A binding decides; the host does the I/O it asks for through
//! [`BindingHost`]: the clock, randomness, its [`Policy`], sessions and tickets, the log's
//! index of event ids, and applying effects. The replies a request's
//! effects produce are [`Collected`] for its response.

use super::message::Response;
use crate::bindings::access::policy::{Expired, Policy, SessionRow, TicketRow};
use crate::client::Client;
use crate::ids::event_type::core_types;
use crate::ids::time::Timestamp;
use crate::network::{Effect, Page};
use crate::{Address, ErrorCode, Event, EventId, Limits, Network, Rejection};
use serde_json::{Value, json};

/// The I/O a binding asks its host for.
pub trait BindingHost {
    /// What the host's I/O fails with.
    type Error;

    /// The current unix time in milliseconds.
    fn now(&self) -> Timestamp;
    /// 32 fresh random bytes.
    fn random_seed(&mut self) -> [u8; 32];
    /// How long sessions and tickets live, and the WebSocket limits.
    fn policy(&self) -> Policy {
        Policy::default()
    }
    /// The session stored under a token's SHA-256 (lowercase hex).
    fn session(&mut self, token_sha256: &str) -> Result<Option<SessionRow>, Self::Error>;
    /// Stores a new session of `address` under its token's SHA-256, started and used `now`.
    fn add_session(
        &mut self,
        token_sha256: &str,
        address: &Address,
        now: Timestamp,
    ) -> Result<(), Self::Error>;
    /// Records that a session was used at `now`.
    fn touch_session(&mut self, token_sha256: &str, now: Timestamp) -> Result<(), Self::Error>;
    /// Ends one session.
    fn end_session(&mut self, token_sha256: &str) -> Result<(), Self::Error>;
    /// Deletes the sessions `expired` covers ([`Expired::covers`]).
    fn prune_sessions(&mut self, expired: Expired) -> Result<(), Self::Error>;
    /// Stores a ticket of `address` under its SHA-256, valid until `expires_at`.
    fn add_ticket(
        &mut self,
        ticket_sha256: &str,
        address: &Address,
        expires_at: Timestamp,
    ) -> Result<(), Self::Error>;
    /// Removes and returns the ticket stored under a SHA-256.
    fn take_ticket(&mut self, ticket_sha256: &str) -> Result<Option<TicketRow>, Self::Error>;
    /// Deletes the tickets that expired at or before `now`.
    fn prune_tickets(&mut self, now: Timestamp) -> Result<(), Self::Error>;
    /// The `seq` of a logged event.
    fn seq_of(&mut self, id: &EventId) -> Result<Option<u64>, Self::Error>;
    /// Applies `effects` for this request, authenticated as `requester` when it
    /// is; its replies are collected (start from [`Collected::for_requester`],
    /// record each applied effect with [`Collected::record`]).
    fn collect(
        &mut self,
        network: &mut Network,
        effects: Vec<Effect>,
        requester: Option<&Address>,
    ) -> Result<Collected, Self::Error>;
    /// Applies `effects` with nobody to reply to.
    fn apply(&mut self, network: &mut Network, effects: Vec<Effect>) -> Result<(), Self::Error>;
    /// How many event streams `member` has open (not cut) on this host.
    fn open_streams(&self, member: &Address) -> usize;
    /// Keeps `key` as the hosted agent `agent`'s provider key (replacing
    /// any), or forgets its key (`None`); false when this host runs no
    /// hosted agents ([`crate::agent::hosted`]).
    fn keep_agent_key(
        &mut self,
        agent: &Address,
        key: Option<&crate::agent::hosted::ProviderKey>,
    ) -> Result<bool, Self::Error> {
        let _ = (agent, key);
        Ok(false)
    }
    /// Whose key the hosted agent `agent` would call its provider with.
    fn agent_key_source(
        &mut self,
        agent: &Address,
    ) -> Result<crate::agent::hosted::KeySource, Self::Error> {
        let _ = agent;
        Ok(crate::agent::hosted::KeySource::None)
    }
}

/// What a request's input produced.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Collected {
    /// The page of the log a poll read.
    pub page: Option<Page>,
    /// Replies from the network (acks, errors, answers).
    pub replies: Vec<Event>,
    /// The address the input authenticated, when it joined.
    pub bound: Option<Address>,
    /// Deliveries addressed to the requester (answers such as history).
    pub delivered: Vec<Event>,
    /// The member the request is authenticated as: deliveries to it are its answers.
    pub requester: Option<Address>,
}

impl Collected {
    /// Nothing collected yet, for a request authenticated as `requester`.
    pub fn for_requester(requester: Option<&Address>) -> Self {
        Self {
            requester: requester.cloned(),
            ..Self::default()
        }
    }

    /// Records what an applied effect means for the request's response.
    pub fn record(&mut self, effect: &Effect) {
        match effect {
            Effect::Reply(_) | Effect::Ack(_) => {
                if let Some(event) = effect.reply() {
                    self.replies.push(event.into_owned());
                }
            }
            Effect::Page(page) => self.page = Some(page.clone()),
            Effect::Bind(address) => self.bound = Some(address.clone()),
            Effect::Deliver { to, event, .. }
                if [&self.bound, &self.requester]
                    .into_iter()
                    .flatten()
                    .any(|me| to.contains(me)) =>
            {
                self.delivered.push((**event).clone());
            }
            _ => {}
        }
    }
}

/// A request that fails is answered with this response.
pub type Answer<T> = Result<T, Response>;

/// The error in a `network.event.error` reply, as a response.
pub fn error_reply(event: &Event) -> Response {
    let rejection = Rejection::from_error_payload(&event.payload);
    Response::error(rejection.code, rejection.message)
}

/// A rejection as a response.
pub fn rejected(rejection: &Rejection) -> Response {
    Response::error(rejection.code, rejection.message.clone())
}

/// The answer to a join that bound no address: its error, or a refusal.
pub fn join_refused(reply: Option<&Event>) -> Response {
    match reply {
        Some(error) if error.event_type.as_str() == core_types::EVENT_ERROR => error_reply(error),
        _ => Response::error(
            ErrorCode::AccessDenied,
            "the network did not accept the join",
        ),
    }
}

/// Parses a JSON body no longer than `limits` allows.
pub fn json_body(text: &str, limits: &Limits) -> Answer<Value> {
    if text.len() > limits.max_frame_bytes {
        return Err(Response::error(
            ErrorCode::TooLarge,
            "the body exceeds the network's frame limit",
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        Response::error(
            ErrorCode::MalformedEvent,
            format!("the body is not JSON: {e}"),
        )
    })
}

/// Reads `agent_id` as the address a join claims.
pub fn claimed_address(agent_id: &str) -> Answer<Address> {
    agent_id
        .parse()
        .map_err(|e| Response::error(ErrorCode::InvalidAddress, format!("agent_id: {e}")))
}

/// A client of `network` acting as `address`, with fresh randomness.
pub fn client_for<H: BindingHost>(host: &mut H, network: &Network, address: &Address) -> Client {
    Client::new(address.clone(), network.id().clone(), host.random_seed())
}

/// The `network.agent.join` a binding submits for `address`: with
/// credentials, a role and the `seq` to resume after when given.
pub fn join_event<H: BindingHost>(
    host: &mut H,
    network: &Network,
    address: &Address,
    credentials: Option<Value>,
    role: Option<Value>,
    resume_after: Option<u64>,
) -> Event {
    let now = host.now();
    let mut join = client_for(host, network, address).join(credentials, now);
    if let Value::Object(payload) = &mut join.payload {
        if let Some(role) = role {
            payload.insert("role".into(), role);
        }
        if let Some(after) = resume_after {
            payload.insert("resume".into(), json!({"after": after}));
        }
    }
    join
}

/// An admin request's payload: its JSON object body (`{}` for a GET or no body).
pub fn payload_of(
    network: &Network,
    req: &crate::bindings::message::Request,
) -> Result<Value, Response> {
    Ok(
        if req.method == crate::bindings::message::Method::Get || req.body.trim().is_empty() {
            json!({})
        } else {
            match json_body(&req.body, &network.config().limits) {
                Ok(body @ Value::Object(_)) => body,
                Ok(_) => {
                    return Err(Response::error(
                        ErrorCode::InvalidRequest,
                        "the body is a JSON object",
                    ));
                }
                Err(response) => return Err(response),
            }
        },
    )
}
