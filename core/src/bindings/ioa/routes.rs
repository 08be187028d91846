//! IOA's 16 endpoints under `/networks/{id}/ioa`: which route a request is,
//! who calls it (the bearer session; `X-Node-ID` is never read), and the
//! answer — a response, or a stream to open ([`Handled::Stream`]).

use super::nodes;
use super::reads::{self, Filter, ReadOptions};
use super::refusal::Refusal;
use super::send;
use super::spaces;
use super::stream::{Follow, Scope};
use crate::bindings::access::session::{QueryTokens, authenticate};
use crate::bindings::exchange::BindingHost;
use crate::bindings::message::{Method, Request, Response};
use crate::bindings::step::{Step, go_on};
use crate::bindings::transport::ws::peer_of;
use crate::model::graph::GraphIndex;
use crate::{Address, Network, NetworkId};
use serde_json::{Value, json};

/// A request under a network's IOA base URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The network.
    pub network: NetworkId,
    /// The path's segments after `/ioa`, percent-decoded.
    pub segments: Vec<String>,
}

/// Why a network without its history has no IOA graph.
pub const NO_GRAPH: &str =
    "this network keeps no history: IOA needs a network with mod/persistence";

/// What a request to the IOA binding needs.
#[derive(Debug)]
pub enum Handled {
    /// Answer at once.
    Respond(Response),
    /// Open an SSE stream: these records first, then what `Follow` accepts.
    Stream(Follow, Vec<String>),
}

fn answer(result: Result<Value, Refusal>, status: u16) -> Handled {
    Handled::Respond(match result {
        Ok(value) => Response::json(value).with_status(status),
        Err(refusal) => refusal.response(),
    })
}

fn list(result: Result<Vec<Value>, Refusal>) -> Handled {
    answer(result.map(Value::Array), 200)
}

fn method_not_allowed() -> Handled {
    Handled::Respond(Refusal::new(405, "method not allowed").response())
}

/// Answers a request to the IOA binding of the loaded `network`, within the
/// request's trace context: the open routes, else the calling node's.
pub fn handle<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    target: &Target,
) -> Result<Handled, H::Error> {
    network.traced(req.trace_context(), |network| {
        let segments: Vec<&str> = target.segments.iter().map(String::as_str).collect();
        if let Some(handled) = open_route(host, network, req, &segments)? {
            return Ok(handled);
        }
        let caller = go_on!(caller_of(host, network, req));
        if network.graph().is_none() {
            return Ok(answer(Err(Refusal::new(503, NO_GRAPH)), 200));
        }
        node_route(host, network, req, &segments, &caller)
    })
}

/// The routes that need no node's token (health, registration); `None` for the others.
fn open_route<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    segments: &[&str],
) -> Result<Option<Handled>, H::Error> {
    Ok(Some(match (segments, &req.method) {
        (["health" | "ready"], Method::Get) => answer(Ok(json!({"status": "ok"})), 200),
        (["health" | "ready"], _) => method_not_allowed(),
        (["auth", "register"], Method::Post) => {
            let register = match nodes::register_body(&req.body, None) {
                Ok(register) => register,
                Err(refusal) => return Ok(Some(answer(Err(refusal), 201))),
            };
            let peer = peer_of(req);
            answer(
                nodes::register(host, network, register, peer.as_deref())?,
                201,
            )
        }
        (["auth", ..], _) => answer(Err(Refusal::not_found("not found")), 200),
        _ => return Ok(None),
    }))
}

/// The node whose bearer token the request carries, or the 401 refusing it.
fn caller_of<H: BindingHost>(
    host: &mut H,
    network: &Network,
    req: &Request,
) -> Result<Step<Address, Handled>, H::Error> {
    Ok(match authenticate(host, req, QueryTokens::Refused)? {
        Step::Go(caller) if network.state().members.contains_key(&caller) => Step::Go(caller),
        Step::Go(_) => Step::Answer(answer(
            Err(Refusal::new(401, "invalid token: the node left")),
            200,
        )),
        Step::Answer(refused) => {
            let detail = if req.header("Authorization").is_some() {
                "invalid token"
            } else {
                "authorization token required"
            };
            let mut response = Refusal::new(401, detail).response();
            if refused.status == 401 {
                response
                    .headers
                    .push(("WWW-Authenticate".into(), "Bearer".into()));
            }
            Step::Answer(Handled::Respond(response))
        }
    })
}

/// The routes a node takes as `caller`.
fn node_route<H: BindingHost>(
    host: &mut H,
    network: &mut Network,
    req: &Request,
    segments: &[&str],
    caller: &Address,
) -> Result<Handled, H::Error> {
    match (segments, &req.method) {
        (["spaces"], Method::Post) => {
            let space = match spaces::body(&req.body) {
                Ok(space) => space,
                Err(refusal) => return Ok(answer(Err(refusal), 200)),
            };
            if let Err(refusal) = spaces::create_or_join(host, network, caller, &space)? {
                return Ok(answer(Err(refusal), 200));
            }
            Ok(read(
                network,
                |n, g| spaces::info(n, g, caller, &space.name),
                200,
            ))
        }
        (["spaces", id, "messages"], Method::Post) => {
            let outgoing = match send::body(&req.body) {
                Ok(outgoing) => outgoing,
                Err(refusal) => return Ok(answer(Err(refusal), 201)),
            };
            Ok(answer(
                send::send(host, network, caller, id, outgoing)?,
                201,
            ))
        }
        (["nodes"], Method::Post) => {
            let key = req.header("X-Access-Key");
            let register = match nodes::register_body(&req.body, key) {
                Ok(register) => register,
                Err(refusal) => return Ok(answer(Err(refusal), 201)),
            };
            let peer = peer_of(req);
            let joined = nodes::join(host, network, register, peer.as_deref())?;
            Ok(answer(
                joined.map(|(address, _)| nodes::describe(network, &address)),
                201,
            ))
        }
        (segments, Method::Get) => Ok(get(network, req, caller, segments)),
        (["spaces"] | ["nodes"] | ["spaces", _, "messages"], _) => Ok(method_not_allowed()),
        _ => Ok(answer(Err(Refusal::not_found("not found")), 200)),
    }
}

/// Runs a read against the network's graph.
fn read(
    network: &Network,
    run: impl FnOnce(&Network, &dyn GraphIndex) -> Result<Value, Refusal>,
    status: u16,
) -> Handled {
    match network.graph() {
        Some(graph) => answer(run(network, graph), status),
        None => answer(Err(Refusal::new(503, NO_GRAPH)), status),
    }
}

fn query_limit(req: &Request) -> Result<Option<usize>, Refusal> {
    req.query("limit").map(|l| reads::limit(&l)).transpose()
}

fn query_node(network: &Network, req: &Request, key: &str) -> Result<Option<Address>, Refusal> {
    match req.query(key).filter(|v| !v.trim().is_empty()) {
        None => Ok(None),
        Some(id) => nodes::find(network, id.trim())
            .map(Some)
            .map_err(|_| Refusal::not_found(format!("{key}: node '{id}' not found"))),
    }
}

fn query_text(req: &Request, key: &str) -> Option<String> {
    req.query(key)
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

/// Go's `strconv.ParseBool`, as IOA reads `all`.
fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "1" | "t" | "T" | "true" | "TRUE" | "True" => Some(true),
        "0" | "f" | "F" | "false" | "FALSE" | "False" => Some(false),
        _ => None,
    }
}

fn read_options(req: &Request) -> Result<ReadOptions, Refusal> {
    let all = match req.query("all").filter(|a| !a.is_empty()) {
        None => false,
        Some(all) => parse_bool(&all).ok_or_else(|| Refusal::input("all must be a boolean"))?,
    };
    Ok(ReadOptions {
        message_id: query_text(req, "message_id"),
        direction: query_text(req, "direction").unwrap_or_default(),
        after: query_text(req, "after"),
        limit: query_limit(req)?,
        all,
    })
}

fn filter(network: &Network, req: &Request) -> Result<Filter, Refusal> {
    Ok(Filter {
        space: query_text(req, "space_id"),
        message: query_text(req, "message_id"),
        node: query_node(network, req, "node_id")?,
        sender: query_node(network, req, "sender")?,
        ref_message: query_text(req, "ref_message"),
        ref_node: query_node(network, req, "ref_node")?,
        after: query_text(req, "after"),
        limit: query_limit(req)?,
    })
}

/// A node reads only its own inbox and stream.
fn own(network: &Network, caller: &Address, id: &str) -> Result<Address, Refusal> {
    let node = nodes::find(network, id)?;
    if &node == caller {
        Ok(node)
    } else {
        Err(Refusal::new(
            403,
            format!("node '{id}' is not the token's node: a node reads only its own inbox"),
        ))
    }
}

/// A space the caller has joined.
pub fn joined(network: &Network, caller: &Address, id: &str) -> Result<(), Refusal> {
    let channel = id
        .parse()
        .ok()
        .and_then(|n| network.state().channels.get(&n));
    match channel {
        None => Err(Refusal::not_found(format!("Space '{id}' not found"))),
        Some(c) if c.members.contains(caller) => Ok(()),
        Some(_) => Err(Refusal::new(
            403,
            format!("'{caller}' has not joined space '{id}': POST /spaces with its name first"),
        )),
    }
}

fn get(network: &Network, req: &Request, caller: &Address, segments: &[&str]) -> Handled {
    let Some(graph) = network.graph() else {
        return answer(Err(Refusal::new(503, NO_GRAPH)), 200);
    };
    match segments {
        ["nodes"] => list(Ok(nodes::list(network))),
        ["nodes", id] => answer(
            nodes::find(network, id).map(|a| nodes::describe(network, &a)),
            200,
        ),
        ["nodes", id, "inbox"] => list(own(network, caller, id).and_then(|node| {
            let after = query_text(req, "after");
            reads::inbox(network, graph, &node, after.as_deref(), query_limit(req)?)
        })),
        ["nodes", id, "sse"] => match own(network, caller, id) {
            Ok(node) => Handled::Stream(
                Follow {
                    caller: caller.clone(),
                    scope: Scope::Node(node),
                },
                Vec::new(),
            ),
            Err(refusal) => answer(Err(refusal), 200),
        },
        ["messages"] => list(filter(network, req).and_then(|f| {
            if let Some(space) = &f.space {
                spaces::info(network, graph, caller, space)?;
            }
            reads::list(network, graph, caller, &f)
        })),
        ["spaces"] => list(Ok(spaces::list(network, graph, caller))),
        ["spaces", id] => answer(spaces::info(network, graph, caller, id), 200),
        ["spaces", id, "messages"] => list(
            joined(network, caller, id)
                .and_then(|()| reads::read_space(network, graph, caller, id, &read_options(req)?)),
        ),
        ["spaces", id, "sse"] => match joined(network, caller, id) {
            Ok(()) => Handled::Stream(
                Follow {
                    caller: caller.clone(),
                    scope: Scope::Space((*id).to_owned()),
                },
                Vec::new(),
            ),
            Err(refusal) => answer(Err(refusal), 200),
        },
        ["spaces", id, "messages", mid, "sse"] => {
            match thread(network, graph, req, caller, id, mid) {
                Ok((follow, opening)) => Handled::Stream(follow, opening),
                Err(refusal) => answer(Err(refusal), 200),
            }
        }
        _ => answer(Err(Refusal::not_found("not found")), 200),
    }
}

/// A thread's stream from `mid` in space `id`, with `head` and `fork_depth` when given.
fn thread(
    network: &Network,
    graph: &dyn GraphIndex,
    req: &Request,
    caller: &Address,
    id: &str,
    mid: &str,
) -> Result<(Follow, Vec<String>), Refusal> {
    joined(network, caller, id)?;
    let in_space = |message: &str| {
        message
            .parse()
            .ok()
            .and_then(|m| network.seq_of_logged(&m))
            .filter(|seq| graph.contains(&crate::model::graph::space_key(id), *seq))
    };
    let root = in_space(mid)
        .ok_or_else(|| Refusal::not_found(format!("Message '{mid}' not found in space '{id}'")))?;
    let head = match query_text(req, "head") {
        None => None,
        Some(head) => Some(
            in_space(&head)
                .ok_or_else(|| Refusal::input(format!("head message not found: {head}")))?,
        ),
    };
    let depth = req
        .query("fork_depth")
        .and_then(|d| d.trim().parse::<usize>().ok())
        .filter(|d| *d > 0)
        .unwrap_or(1);
    let mut follow = Follow::thread(
        graph,
        caller.clone(),
        id.to_owned(),
        root,
        head.map(|h| (h, depth)),
    );
    let opening = follow.opening(network, graph);
    Ok((follow, opening))
}
