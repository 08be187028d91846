//! The HTTP binding's membership routes: `POST v1/join` (a join, and a
//! session for what follows) and `POST v1/leave` (the leave, and the end of
//! the member's sessions; the network closes its sockets and streams).
//! [`admit`] is the one join over a request, shared with the OAuth consent
//! page (`crate::bindings::oauth`).

use crate::bindings::access::session;
use crate::bindings::exchange::{
    Answer, BindingHost, claimed_address, client_for, join_event, join_refused, json_body,
};
use crate::bindings::message::Response;
use crate::bindings::step::Step;
use crate::ids::event_type::{EventType, core_types};
use crate::network::Inbound;
use crate::{Address, ErrorCode, Limits, Network};
use serde_json::{Value, json};

/// Where an HTTP request without `CF-Connecting-IP` counts as coming from:
/// such requests share one throttle rather than escape it.
pub const UNKNOWN_PEER: &str = "unknown";

/// The `POST v1/join` body's fields.
#[derive(Debug, Clone, PartialEq)]
pub struct JoinBody {
    /// Who joins.
    pub address: Address,
    /// Credentials, when any.
    pub credentials: Option<Value>,
    /// The role asked for.
    pub role: Option<Value>,
    /// The `seq` to resume after.
    pub resume_after: Option<u64>,
    /// The member's profile (`crate::model::profile`), checked by the join.
    pub profile: Option<Value>,
}

/// Reads a join body.
pub fn join_body(text: &str) -> Answer<JoinBody> {
    let body = json_body(text, &Limits::default())?;
    let Some(agent) = body.get("agent_id").and_then(Value::as_str) else {
        return Err(Response::error(
            ErrorCode::InvalidRequest,
            "agent_id is required",
        ));
    };
    Ok(JoinBody {
        address: claimed_address(agent)?,
        credentials: body.get("credentials").cloned().filter(|c| !c.is_null()),
        role: body.get("role").cloned(),
        resume_after: body.get("resume_after").and_then(Value::as_u64),
        profile: body.get("profile").cloned().filter(|p| !p.is_null()),
    })
}

/// A join that passed: the address it bound and its ack's payload.
#[derive(Debug, Clone, PartialEq)]
pub struct Admitted {
    /// The member's address.
    pub address: Address,
    /// The ack's payload (`member`, `network`, a new `member_secret`, …).
    pub ack: Value,
}

/// Submits the join `body` describes from `peer`, through the network's
/// whole pipeline (access policy, verification, guard mods): the member it
/// admitted, or the refusal to answer. Every binding that joins over a
/// request (`POST v1/join`, the OAuth consent page) joins here. `didwba`:
/// a DIDWba header and the domain it reached (`crate::bindings::access::didwba`).
pub fn admit<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    body: JoinBody,
    peer: Option<&str>,
    didwba: Option<(&str, &str)>,
) -> Result<Step<Admitted>, H::Error> {
    let mut join = join_event(
        host,
        network,
        &body.address,
        body.credentials,
        body.role,
        body.resume_after,
    );
    if let (Some(profile), Value::Object(payload)) = (body.profile, &mut join.payload) {
        payload.insert("profile".into(), profile);
    }
    let inbound = Inbound {
        peer: Some(peer.unwrap_or(UNKNOWN_PEER)),
        didwba,
        ..Inbound::default()
    };
    let effects = network.handle_event_on(&inbound, join, host.now());
    let collected = host.collect(network, effects, None)?;
    let reply = collected.replies.last();
    Ok(Step::from(match (&collected.bound, reply) {
        (Some(address), Some(ack)) => Ok(Admitted {
            address: address.clone(),
            ack: ack.payload.clone(),
        }),
        _ => Err(join_refused(reply)),
    }))
}

/// `POST v1/join` from `peer`: the join's ack with a session `token` and
/// when it expires unless used (`session_expires_at`).
pub fn join<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &crate::bindings::message::Request,
    peer: Option<String>,
) -> Result<Response, H::Error> {
    let text = req.body.as_str();
    let proof = crate::bindings::access::didwba::proof_of(req);
    let didwba = proof
        .as_deref()
        .map(|h| (h, crate::bindings::access::didwba::domain_of(req)));
    let body = match join_body(text) {
        Ok(body) => body,
        Err(response) => return Ok(response),
    };
    let admitted = match admit(host, network, body, peer.as_deref(), didwba)? {
        Step::Go(admitted) => admitted,
        Step::Answer(refused) => {
            return Ok(match didwba {
                Some(_) if refused.status == 403 => {
                    crate::bindings::access::didwba::unauthorized(refused)
                }
                _ => refused,
            });
        }
    };
    let (token, expires_at) = session::start(host, &admitted.address)?;
    let mut answer = admitted.ack;
    answer["token"] = json!(token);
    answer["session_expires_at"] = json!(expires_at);
    let response = Response::json(answer);
    Ok(match didwba {
        Some(_) => {
            let grant = crate::bindings::access::didwba::Grant::new(token, expires_at, host.now());
            crate::bindings::access::didwba::with_bearer(response, &grant)
        }
        None => response,
    })
}

/// `POST v1/leave`: the member leaves; every credential it holds ends with
/// its membership (the core's `Effect::EndCredentials`, applied in `collect`).
pub fn leave<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    member: Address,
    peer: Option<String>,
) -> Result<Response, H::Error> {
    let now = host.now();
    let leave = client_for(host, network, &member).event(
        EventType::from_static(core_types::AGENT_LEAVE),
        Address::core(),
        json!({}),
        now,
    );
    let inbound = Inbound {
        session: Some(&member),
        connection: None,
        peer: Some(peer.as_deref().unwrap_or(UNKNOWN_PEER)),
        didwba: None,
    };
    let effects = network.handle_event_on(&inbound, leave, now);
    host.collect(network, effects, Some(&member))?;
    Ok(Response::json(json!({"ok": true})))
}
