//! The discovery routes (docs/discovery.md), over [`crate::discovery`], served by the
//! registry's object beside [`super::registry`]:
//!
//! In this folder too: [`members`] (listed network members) and [`submit`]
//! (passive registration's guard).
//!
//! * `GET /.well-known/agent-descriptions?after=&limit=` → the ANP `CollectionPage`;
//!   `GET /networks/{id}/.well-known/agent-descriptions` → the same over the agents in network `{id}`
//! * `GET /registry/v1/agents/{aic}/ad.json` → a registered agent's ANP description;
//!   `GET /registry/v1/networks/{id}/members/{address}/ad.json` → a listed member's ([`members`])
//! * `GET /registry/v1/agents/{aic}/acs` → its ACS document;
//!   `POST /registry/v1/agents/{name}/acs {acs, nonce, signature}` publishes a new one
//! * `GET /registry/v1/discover?q=&tags=&mode=&transport=&verification=&network=&limit=` → ranked agents
//! * `POST /registry/v1/descriptions {url}` → passive registration (the host fetches, [`submitted`] decides)
//! * `GET /registry/v1/snapshot?types=acs&limit=&snapshot=&after=`, `GET /registry/v1/changes?seq=&limit=&wait=` (NDJSON)
//! * `POST /registry/v1/webhooks {url, secret, types?, events?}`, `DELETE /registry/v1/webhooks/{id}`

pub mod members;
pub mod submit;

use super::message::{Method, Request, Response};
use super::refusals::identity_refusal;
use super::registry::{API_PREFIX, proof};
use crate::ErrorCode;
use crate::discovery::descriptions::{self, WELL_KNOWN, check_submitted, collection_page};
use crate::discovery::feed::{Change, MAX_PAGE, snapshot_page};
use crate::discovery::search::{Query, encode_component};
use crate::discovery::webhook::Webhook;
use crate::discovery::{Catalog, DiscoveryError, acs};
use crate::identity::did::Did;
use crate::identity::error::IdentityError;
use crate::identity::registry::{AgentRecord, Registry};
use crate::ids::time::Timestamp;
use serde_json::{Value, json};

/// The NDJSON content type of the feed.
pub const NDJSON: &str = "application/x-ndjson";
/// Longest long-poll wait of `changes` (seconds).
pub const MAX_WAIT_SECS: u64 = 25;

/// A response and what the host stores with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// The response.
    pub response: Response,
    /// A registry record to store (an ACS publication).
    pub record: Option<AgentRecord>,
    /// A change to store, with the seqs to forget.
    pub change: Option<(Change, Vec<u64>)>,
    /// A webhook subscription to store, or `(id, None)` to delete.
    pub webhook: Option<(String, Option<Webhook>)>,
}

/// What the host must do after a discovery route.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Write the response; store what changed.
    Reply(Box<Reply>),
    /// Fetch the description at `url` and its DID document, then call
    /// [`submitted`] — once [`submit::admit`] let it.
    Fetch {
        /// The description's URL.
        url: String,
    },
}

impl Answer {
    fn response(response: Response) -> Self {
        Self::reply(Reply {
            response,
            record: None,
            change: None,
            webhook: None,
        })
    }

    fn reply(reply: Reply) -> Self {
        Self::Reply(Box::new(reply))
    }
}

pub use super::refusals::discovery_refusal as refusal;

/// True when `req` is a discovery route (the rest of `/registry/v1/` is the registry's).
pub fn is_discovery(req: &Request) -> bool {
    let path = req.path();
    if path == WELL_KNOWN || super::route::paths::well_known_network(path).is_some() {
        return true;
    }
    let rest = path.strip_prefix(API_PREFIX).unwrap_or("");
    let segments: Vec<&str> = rest.split('/').collect();
    matches!(
        segments.as_slice(),
        ["discover" | "snapshot" | "changes" | "descriptions" | "webhooks"]
            | ["webhooks", _]
            | ["agents", _, "acs" | "ad.json"]
            | ["networks", _, "members", _, "ad.json"]
    )
}

fn number(req: &Request, name: &'static str, default: u64) -> Result<u64, DiscoveryError> {
    match req.query(name) {
        None => Ok(default),
        Some(text) => text.parse().map_err(|_| DiscoveryError::BadParameter {
            name,
            detail: format!("{text:?} is not a number"),
        }),
    }
}

fn limit(req: &Request, default: usize, max: usize) -> Result<usize, DiscoveryError> {
    let n = number(req, "limit", default as u64)?;
    Ok(usize::try_from(n).unwrap_or(max).clamp(1, max))
}

fn body(req: &Request) -> Result<Value, Response> {
    serde_json::from_str(&req.body)
        .ok()
        .filter(Value::is_object)
        .ok_or_else(|| Response::error(ErrorCode::InvalidRequest, "the body is a JSON object"))
}

fn ndjson(changes: &[Change]) -> String {
    changes.iter().map(|c| c.to_line() + "\n").collect()
}

/// The search a `discover` request asks for.
pub fn query_of(req: &Request) -> Result<Query, DiscoveryError> {
    let mut query = Query::text(&req.query("q").unwrap_or_default(), limit(req, 20, 100)?);
    query.tags = req
        .query("tags")
        .map(|t| {
            t.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    query.mode = req.query("mode").filter(|m| !m.is_empty());
    query.transport = req.query("transport").filter(|t| !t.is_empty());
    query.network = req.query("network").filter(|n| !n.is_empty());
    query.verification = u8::try_from(number(req, "verification", 0)?).unwrap_or(u8::MAX);
    Ok(query)
}

fn snapshot(catalog: &Catalog, req: &Request) -> Result<Response, DiscoveryError> {
    if let Some(types) = req.query("types")
        && types
            .split(',')
            .any(|t| t != crate::discovery::feed::ACS_TYPE)
    {
        return Err(DiscoveryError::BadParameter {
            name: "types",
            detail: "only acs objects are published".into(),
        });
    }
    let seq = match req.query("snapshot") {
        None => catalog.feed.last_seq(),
        Some(id) => id
            .strip_prefix("snap-")
            .and_then(|s| s.parse().ok())
            .ok_or(DiscoveryError::BadParameter {
                name: "snapshot",
                detail: "not a snapshot id".into(),
            })?,
    };
    let after = req.query("after");
    let (page, next) = snapshot_page(
        catalog.agents().iter(),
        &catalog.feed,
        seq,
        after.as_deref(),
        limit(req, MAX_PAGE, MAX_PAGE)?,
    );
    let id = format!("snap-{seq}");
    let mut response = Response::text(ndjson(&page))
        .with_header("Content-Type", NDJSON)
        .with_header("X-Snapshot-Id", &id)
        .with_header("X-Snapshot-Seq", &seq.to_string());
    if let Some(next) = next {
        let url = format!("{API_PREFIX}snapshot?snapshot={id}&after={next}");
        response = response.with_header("X-Snapshot-Next", &url);
    }
    Ok(response)
}

/// `GET changes`: 200 NDJSON with `X-Next-Seq` (the last seq sent), or 204
/// with `X-Next-Seq` (the caller's seq) when nothing is new, or 410.
pub fn changes(catalog: &Catalog, req: &Request) -> Result<Response, DiscoveryError> {
    let seq = number(req, "seq", 0)?;
    let page = catalog.feed.since(seq, limit(req, MAX_PAGE, MAX_PAGE)?)?;
    let Some(last) = page.last().map(|c| c.seq) else {
        return Ok(Response::text("")
            .with_status(204)
            .with_header("X-Next-Seq", &seq.to_string()));
    };
    let lines: String = page.iter().map(|c| c.to_line() + "\n").collect();
    Ok(Response::text(lines)
        .with_header("Content-Type", NDJSON)
        .with_header("X-Next-Seq", &last.to_string()))
}

/// The long-poll wait a `changes` request asks for (seconds, at most [`MAX_WAIT_SECS`]).
pub fn wait_of(req: &Request) -> u64 {
    number(req, "wait", 0).unwrap_or(0).min(MAX_WAIT_SECS)
}

fn publish(
    registry: &mut Registry,
    catalog: &mut Catalog,
    req: &Request,
    name: &str,
    now: Timestamp,
) -> Result<Answer, Response> {
    let body = body(req)?;
    let signed = body.get("acs").cloned().unwrap_or(Value::Null);
    let aic = registry
        .registered(name)
        .map(|r| r.aic.clone())
        .map_err(|e| identity_refusal(&e))?;
    let checked = acs::validate(&signed, &aic).map_err(|e| refusal(&e))?;
    let record = registry
        .publish_acs(name, &signed, checked, proof(&body)?, now)
        .map_err(|e| identity_refusal(&e))?;
    let public = record.to_json(registry.config());
    let change = catalog.agent_changed(public.clone(), record.revoked_at.is_none(), now);
    Ok(Answer::reply(Reply {
        response: Response::json(public),
        record: Some(record),
        change: Some(change),
        webhook: None,
    }))
}

/// Answers a discovery request. `fresh_id` makes a random id (webhooks); `now` is unix ms.
pub fn handle(
    registry: &mut Registry,
    catalog: &mut Catalog,
    req: &Request,
    fresh_id: impl FnOnce() -> String,
    now: Timestamp,
) -> Answer {
    let origin = req.origin().to_owned();
    let refused = |e: DiscoveryError| Answer::response(refusal(&e));
    let scope = match super::route::paths::well_known_network(req.path()) {
        Some(network) => Some(Some(network)),
        None => (req.path() == WELL_KNOWN).then_some(None),
    };
    if let Some(network) = scope {
        let after = req.query("after");
        let size = match limit(req, descriptions::DEFAULT_PAGE, descriptions::MAX_PAGE) {
            Ok(size) => size,
            Err(e) => return refused(e),
        };
        let listed = catalog.listed(network, &origin);
        let here = format!("{origin}{}", req.path());
        let page_url = after.as_ref().map_or(here.clone(), |a| {
            format!("{here}?after={}&limit={size}", encode_component(a))
        });
        let next = |key: &str| format!("{here}?after={}&limit={size}", encode_component(key));
        return Answer::response(Response::json(collection_page(
            &listed,
            after.as_deref(),
            size,
            &page_url,
            next,
        )));
    }
    let rest = req.path().strip_prefix(API_PREFIX).unwrap_or("");
    let segments: Vec<&str> = rest.split('/').collect();
    let not_found = |what: String| Answer::response(Response::error(ErrorCode::NotFound, what));
    let result = match (&req.method, segments.as_slice()) {
        (Method::Get, ["agents", aic, "acs"]) => match catalog
            .agent(aic)
            .and_then(|r| r.get("acs"))
            .filter(|a| a.is_object())
        {
            Some(acs) => Ok(Answer::response(Response::json(acs.clone()))),
            None => Ok(not_found(format!(
                "no live agent {aic} with an ACS document"
            ))),
        },
        (Method::Get, ["agents", aic, "ad.json"]) => match catalog.agent(aic) {
            Some(record) => {
                let url = format!("{origin}{}", req.path());
                Ok(Answer::response(Response::json(
                    descriptions::agent_description(record, &url, &origin),
                )))
            }
            None => Ok(not_found(format!("no live agent {aic}"))),
        },
        (Method::Get, ["networks", network, "members", address, "ad.json"]) => Ok(
            Answer::response(members::member_ad(catalog, req, network, address)),
        ),
        (Method::Post, ["agents", name, "acs"]) => {
            publish(registry, catalog, req, name, now).or_else(|r| Ok(Answer::response(r)))
        }
        (Method::Get, ["discover"]) => query_of(req).map(|q| {
            let agents = catalog.search(&q, &origin);
            Answer::response(Response::json(
                json!({"agents": agents, "total": catalog.len()}),
            ))
        }),
        (Method::Get, ["snapshot"]) => snapshot(catalog, req).map(Answer::response),
        (Method::Get, ["changes"]) => changes(catalog, req).map(Answer::response),
        (Method::Post, ["descriptions"]) => match body(req) {
            Ok(b) => match b.get("url").and_then(Value::as_str) {
                // The host admits it first ([`submit::admit`]).
                Some(url) => Ok(Answer::Fetch {
                    url: url.to_owned(),
                }),
                None => Err(DiscoveryError::BadDescription("url is required".into())),
            },
            Err(r) => Ok(Answer::response(r)),
        },
        (Method::Post, ["webhooks"]) => match body(req) {
            Ok(b) => Webhook::from_request(&b, format!("wh_{}", fresh_id()), &catalog.outbound)
                .map(|hook| {
                    let id = hook.webhook_id.clone();
                    catalog.webhooks.insert(id.clone(), hook.clone());
                    Answer::reply(Reply {
                        response: Response::json(json!({"webhook_id": id, "status": "active"}))
                            .with_status(201),
                        record: None,
                        change: None,
                        webhook: Some((id, Some(hook))),
                    })
                }),
            Err(r) => Ok(Answer::response(r)),
        },
        (Method::Other(m), ["webhooks", id]) if m == "DELETE" => {
            Ok(match catalog.webhooks.remove(*id) {
                Some(_) => Answer::reply(Reply {
                    response: Response::json(json!({"webhook_id": id, "status": "deleted"})),
                    record: None,
                    change: None,
                    webhook: Some(((*id).to_owned(), None)),
                }),
                None => not_found(format!("no webhook {id}")),
            })
        }
        _ => Ok(Answer::response(Response::error(
            ErrorCode::MethodNotAllowed,
            format!("{} is not allowed here", req.method),
        ))),
    };
    result.unwrap_or_else(refused)
}

/// A fetched description `doc` from `url`, with its DID's document `did_doc`
/// (`None` when it could not be fetched): listed (201) or refused.
pub fn submitted(
    catalog: &mut Catalog,
    url: &str,
    doc: &Value,
    did_doc: Option<&Value>,
) -> Response {
    let did = match check_submitted(doc, url) {
        Ok(did) => did,
        Err(e) => return refusal(&e),
    };
    let resolved = did_doc
        .ok_or_else(|| IdentityError::Unresolvable(did.to_string()))
        .and_then(|d| crate::identity::did::check_document_id(d, &did));
    if let Err(e) = resolved {
        return refusal(&DiscoveryError::BadDescription(format!(
            "its DID does not resolve: {e}"
        )));
    }
    catalog.add_submitted(url, doc.clone());
    let (name, _) = descriptions::submitted_text(doc);
    Response::json(json!({"url": url, "did": did.to_string(), "name": name, "status": "listed"}))
        .with_status(201)
}

/// The URL of the DID document a submitted description names (for the host to fetch).
pub fn did_document_url(doc: &Value) -> Option<String> {
    let did: Did = doc.get("did")?.as_str()?.parse().ok()?;
    did.document_url()
}

#[cfg(test)]
mod tests;
