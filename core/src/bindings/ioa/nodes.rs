//! Nodes are members. `POST /auth/register` joins the network as
//! `agent:{name}` (or the address `name` already is) under its access
//! policy — IOA's `access_key` is presented as the network token — and
//! answers `201 {id, name, token}`, the token a network session
//! (`crate::bindings::access::session`). The first join also answers the
//! `member_secret` that re-registering the same name needs (an address
//! belongs to whoever first holds it; IOA's reference server hands any
//! caller a token for an existing name, agentnet does not). `POST /nodes`
//! registers another node the same way without starting a session.

use super::refusal::{Refusal, object_body};
use super::wire::node;
use crate::bindings::access::session;
use crate::bindings::exchange::BindingHost;
use crate::bindings::http::membership::{JoinBody, admit};
use crate::bindings::step::Step;
use crate::{Address, Network};
use serde_json::{Map, Value, json};

/// An AuthRegister or NodeCreate: `{name, description?, access_key?, meta?}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Register {
    /// Who joins.
    pub address: Address,
    /// The access key, when given.
    pub access_key: Option<String>,
    /// The member secret of an earlier registration of the same name.
    pub member_secret: Option<String>,
    /// `description` and `meta`, as the member's profile, when either is given.
    pub profile: Option<Value>,
}

const FIELDS: [&str; 5] = ["name", "description", "access_key", "meta", "member_secret"];

/// Reads a registration body; `access_key` is the header's when the body has none.
pub fn register_body(text: &str, header_key: Option<&str>) -> Result<Register, Refusal> {
    let body: Map<String, Value> = object_body(text)?;
    if let Some(unknown) = body.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(Refusal::input(format!("json: unknown field \"{unknown}\"")));
    }
    let text = |key: &str| match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.trim().to_owned())),
        Some(_) => Err(Refusal::input(format!("{key} must be a string"))),
    };
    let Some(name) = text("name")? else {
        return Err(Refusal::input("name is required"));
    };
    if !matches!(
        body.get("meta"),
        None | Some(Value::Null) | Some(Value::Object(_))
    ) {
        return Err(Refusal::input("meta must be a JSON object"));
    }
    let mut profile = Map::new();
    if let Some(description) = text("description")? {
        profile.insert("description".into(), json!(description));
    }
    if let Some(meta) = body.get("meta").filter(|m| m.is_object()) {
        profile.insert("meta".into(), meta.clone());
    }
    let full = if name.contains(':') {
        name.clone()
    } else {
        format!("agent:{name}")
    };
    let address: Address = full
        .parse()
        .map_err(|e| Refusal::input(format!("name '{name}' is no node name: {e}")))?;
    if !address.entity().is_participant() {
        return Err(Refusal::input(format!("name '{name}' is no node name")));
    }
    Ok(Register {
        address,
        access_key: text("access_key")?.or_else(|| header_key.map(str::to_owned)),
        member_secret: text("member_secret")?,
        profile: (!profile.is_empty()).then_some(Value::Object(profile)),
    })
}

/// A joined member's address and the `member_secret` its first join was issued.
pub type Joined = (Address, Option<Value>);

/// Joins as `register` says: the member's address and a new `member_secret`, if one was issued.
pub fn join<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    register: Register,
    peer: Option<&str>,
) -> Result<Result<Joined, Refusal>, H::Error> {
    let mut credentials = Map::new();
    if let Some(key) = register.access_key {
        credentials.insert("token".into(), json!(key));
    }
    if let Some(secret) = register.member_secret {
        credentials.insert("member_secret".into(), json!(secret));
    }
    let body = JoinBody {
        address: register.address,
        credentials: (!credentials.is_empty()).then_some(Value::Object(credentials)),
        role: None,
        resume_after: None,
        profile: register.profile,
    };
    Ok(match admit(host, network, body, peer, None)? {
        Step::Go(admitted) => Ok((admitted.address, admitted.ack.get("member_secret").cloned())),
        Step::Answer(refused) => Err(Refusal::from_response(&refused)),
    })
}

/// `POST /auth/register`: `201 {id, name, token}` (and `member_secret` on a first join).
pub fn register<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    register: Register,
    peer: Option<&str>,
) -> Result<Result<Value, Refusal>, H::Error> {
    let (address, secret) = match join(host, network, register, peer)? {
        Ok(joined) => joined,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let (token, _) = session::start(host, &address)?;
    let mut answer = node(&address, &network.state().members);
    answer["token"] = json!(token);
    if let Some(obj) = answer.as_object_mut() {
        obj.remove("meta");
    }
    if let Some(secret) = secret {
        answer["member_secret"] = secret;
    }
    Ok(Ok(answer))
}

/// `GET /nodes/{id}`'s member, or 404.
pub fn find(network: &Network, id: &str) -> Result<Address, Refusal> {
    id.parse::<Address>()
        .ok()
        .filter(|a| network.state().members.contains_key(a))
        .ok_or_else(|| Refusal::not_found(format!("Node '{id}' not found")))
}

/// `GET /nodes`: every member, by address.
pub fn list(network: &Network) -> Vec<Value> {
    let members = &network.state().members;
    members.keys().map(|a| node(a, members)).collect()
}

/// `GET /nodes/{id}` and `POST /nodes`: one member as a Node.
pub fn describe(network: &Network, address: &Address) -> Value {
    node(address, &network.state().members)
}
