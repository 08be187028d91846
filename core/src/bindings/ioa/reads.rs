//! IOA's reads over the message graph's index ([`crate::model::graph`]):
//! a space's messages (the related subgraph of one, all, or the caller's),
//! a node's inbox across spaces, and the filtered listing of `/messages`.
//!
//! Every read names the keys whose rows it walks, never the whole log; a
//! filter that keeps only some rows reads them a page at a time until the
//! window is full. `after` is a message id that must exist (in the space,
//! when there is one); without it `limit` keeps the last messages, with it
//! the first after the cursor. A read without `limit` returns at most
//! [`MAX_UNLIMITED`] messages (the last, or the first after `after`).
//! Only messages the caller may see are returned.

use super::refusal::Refusal;
use super::wire;
use crate::event::Event;
use crate::event::metadata::ProtocolMetadata;
use crate::model::graph::{
    self, ALL_KEY, Direction, End, GraphIndex, child_key, recipient_key, root_key, space_key,
};
use crate::network::logged_visible_to;
use crate::{Address, EventId, Network};
use serde_json::Value;

/// Most messages a read without `limit` returns.
pub const MAX_UNLIMITED: usize = 1000;

/// Rows read per lookup while a filter fills a window.
const PAGE: usize = 256;

/// IOA's read options (`GET /spaces/{id}/messages`, `ioa_read`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// The message whose related subgraph is read.
    pub message_id: Option<String>,
    /// `upstream`, `downstream` or empty.
    pub direction: String,
    /// The cursor: a message id.
    pub after: Option<String>,
    /// How many at most.
    pub limit: Option<usize>,
    /// Every message, not only the caller's.
    pub all: bool,
}

/// A positive `limit`.
pub fn limit(text: &str) -> Result<usize, Refusal> {
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Refusal::input("limit must be greater than 0")),
    }
}

/// What a read walks: these keys' rows, between these bounds.
struct Walk<'a> {
    graph: &'a dyn GraphIndex,
    keys: Vec<String>,
    after: Option<u64>,
    limit: Option<usize>,
}

impl Walk<'_> {
    /// The messages under any of the keys that `keep` keeps, in the window, ascending.
    fn collect(&self, keep: &dyn Fn(&Event) -> bool) -> Vec<(u64, Event)> {
        let want = self.limit.unwrap_or(MAX_UNLIMITED);
        let end = if self.after.is_some() {
            End::Oldest
        } else {
            End::Newest
        };
        let (mut low, mut high) = (self.after.unwrap_or(0), u64::MAX);
        let mut out: Vec<(u64, Event)> = Vec::new();
        while out.len() < want && low.saturating_add(1) < high {
            let mut bound: Option<u64> = None;
            let mut seqs: Vec<u64> = Vec::new();
            for key in &self.keys {
                let rows = self.graph.linked(key, low, high, PAGE, end);
                if rows.len() == PAGE {
                    // This key may have more beyond its page: nothing past it is settled yet.
                    let edge = if end == End::Oldest {
                        rows[PAGE - 1]
                    } else {
                        rows[0]
                    };
                    bound = Some(match (bound, end) {
                        (None, _) => edge,
                        (Some(b), End::Oldest) => b.min(edge),
                        (Some(b), End::Newest) => b.max(edge),
                    });
                }
                seqs.extend(rows);
            }
            seqs.sort_unstable();
            seqs.dedup();
            if let Some(bound) = bound {
                seqs.retain(|s| {
                    if end == End::Oldest {
                        *s <= bound
                    } else {
                        *s >= bound
                    }
                });
            }
            let mut page: Vec<(u64, Event)> = self
                .graph
                .events(&seqs)
                .into_iter()
                .filter(|(_, e)| keep(e))
                .collect();
            match end {
                End::Oldest => {
                    page.truncate(want - out.len());
                    out.extend(page);
                }
                End::Newest => {
                    let room = want - out.len();
                    let skip = page.len().saturating_sub(room);
                    page.drain(..skip);
                    page.append(&mut out);
                    out = page;
                }
            }
            match (bound, end) {
                (None, _) => break,
                (Some(b), End::Oldest) => low = b,
                (Some(b), End::Newest) => high = b,
            }
        }
        out
    }
}

/// The ids' `seq`, when logged and (with `space`) in that space.
fn seq_in(network: &Network, graph: &dyn GraphIndex, id: &str, space: Option<&str>) -> Option<u64> {
    let seq = network.seq_of_logged(&id.parse::<EventId>().ok()?)?;
    match space {
        Some(space) => graph.contains(&space_key(space), seq).then_some(seq),
        None => graph.contains(ALL_KEY, seq).then_some(seq),
    }
}

fn refs_of(event: &Event) -> crate::event::metadata::Refs {
    ProtocolMetadata::read(&event.metadata)
        .map(|m| m.refs)
        .unwrap_or_default()
}

fn messages(network: &Network, caller: &Address, rows: Vec<(u64, Event)>) -> Vec<Value> {
    rows.iter()
        .filter(|(_, e)| logged_visible_to(network.state(), e, caller))
        .map(|(_, e)| wire::message(e))
        .collect()
}

/// `GET /spaces/{id}/messages` (and `ioa_read`) by `caller`.
pub fn read_space(
    network: &Network,
    graph: &dyn GraphIndex,
    caller: &Address,
    space: &str,
    options: &ReadOptions,
) -> Result<Vec<Value>, Refusal> {
    let after = match &options.after {
        Some(after) => Some(seq_in(network, graph, after, Some(space)).ok_or_else(|| {
            Refusal::input(format!("after: '{after}' not found in space '{space}'"))
        })?),
        None => None,
    };
    if let Some(id) = &options.message_id {
        let seq = seq_in(network, graph, id, Some(space)).ok_or_else(|| {
            Refusal::not_found(format!("Message '{id}' not found in space '{space}'"))
        })?;
        let direction = Direction::parse(&options.direction)
            .ok_or_else(|| Refusal::input("direction must be 'upstream' or 'downstream'"))?;
        let related = graph::related(graph, seq, direction);
        let window = graph::window(related, after, Some(options.limit.unwrap_or(MAX_UNLIMITED)));
        return Ok(messages(network, caller, graph.events(&window)));
    }
    let walk = Walk {
        graph,
        keys: vec![if options.all {
            space_key(space)
        } else {
            root_key(space)
        }],
        after,
        limit: options.limit,
    };
    if options.all {
        return Ok(messages(network, caller, walk.collect(&|_| true)));
    }
    // The caller's: addressed to it, or root broadcasts; never its own.
    let walk = Walk {
        keys: vec![root_key(space), recipient_key(caller)],
        ..walk
    };
    let space_owned = space.to_owned();
    let rows =
        walk.collect(&|e| &e.source != caller && wire::space_of(e) == Some(space_owned.as_str()));
    Ok(messages(network, caller, rows))
}

/// The last root messages of `space` (what `ioa_space` starts with).
pub fn roots(
    network: &Network,
    graph: &dyn GraphIndex,
    caller: &Address,
    space: &str,
) -> Vec<Value> {
    let walk = Walk {
        graph,
        keys: vec![root_key(space)],
        after: None,
        limit: None,
    };
    messages(network, caller, walk.collect(&|_| true))
}

/// `GET /nodes/{id}/inbox`: messages addressed to `node`, plus root
/// broadcasts of its spaces, minus its own, across spaces.
pub fn inbox(
    network: &Network,
    graph: &dyn GraphIndex,
    node: &Address,
    after: Option<&str>,
    limit: Option<usize>,
) -> Result<Vec<Value>, Refusal> {
    let after = match after {
        Some(after) => Some(
            seq_in(network, graph, after, None)
                .ok_or_else(|| Refusal::input(format!("after: '{after}' not found")))?,
        ),
        None => None,
    };
    let mut keys = vec![recipient_key(node)];
    keys.extend(
        network
            .state()
            .channels
            .values()
            .filter(|c| c.members.contains(node))
            .map(|c| root_key(c.name.as_str())),
    );
    let walk = Walk {
        graph,
        keys,
        after,
        limit,
    };
    Ok(messages(
        network,
        node,
        walk.collect(&|e| &e.source != node),
    ))
}

/// The filters of `GET /messages`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// `space_id`.
    pub space: Option<String>,
    /// `message_id`.
    pub message: Option<String>,
    /// `node_id`: sender or recipient.
    pub node: Option<Address>,
    /// `sender`.
    pub sender: Option<Address>,
    /// `ref_message`: a parent.
    pub ref_message: Option<String>,
    /// `ref_node`: a recipient.
    pub ref_node: Option<Address>,
    /// `after`.
    pub after: Option<String>,
    /// `limit`.
    pub limit: Option<usize>,
}

/// `GET /messages` by `caller` (the filters' targets checked by the caller of this).
pub fn list(
    network: &Network,
    graph: &dyn GraphIndex,
    caller: &Address,
    filter: &Filter,
) -> Result<Vec<Value>, Refusal> {
    let space = filter.space.as_deref();
    let found = |id: &str| seq_in(network, graph, id, space);
    let message = match &filter.message {
        Some(id) => {
            Some(found(id).ok_or_else(|| Refusal::not_found(format!("Message '{id}' not found")))?)
        }
        None => None,
    };
    let parent = match &filter.ref_message {
        Some(id) => Some(
            found(id).ok_or_else(|| Refusal::input(format!("ref_message: '{id}' not found")))?,
        ),
        None => None,
    };
    let after = match &filter.after {
        Some(id) => {
            Some(found(id).ok_or_else(|| Refusal::input(format!("after: '{id}' not found")))?)
        }
        None => None,
    };
    let rows = if let Some(seq) = message {
        graph::window(vec![seq], after, filter.limit)
            .into_iter()
            .flat_map(|s| graph.events(&[s]))
            .collect()
    } else {
        let key = match (parent, &filter.ref_node, space) {
            (Some(parent), _, _) => child_key(parent),
            (None, Some(node), _) => recipient_key(node),
            (None, None, Some(space)) => space_key(space),
            (None, None, None) => ALL_KEY.to_owned(),
        };
        let walk = Walk {
            graph,
            keys: vec![key],
            after,
            limit: filter.limit,
        };
        walk.collect(&|e| matches(e, filter, filter.ref_message.as_deref()))
    };
    Ok(messages(network, caller, rows))
}

/// True when `event` passes the filters other than the walked key.
fn matches(event: &Event, filter: &Filter, parent: Option<&str>) -> bool {
    let refs = refs_of(event);
    filter
        .space
        .as_deref()
        .is_none_or(|s| wire::space_of(event) == Some(s))
        && filter.sender.as_ref().is_none_or(|s| &event.source == s)
        && filter
            .node
            .as_ref()
            .is_none_or(|n| &event.source == n || refs.nodes.contains(n))
        && filter
            .ref_node
            .as_ref()
            .is_none_or(|n| refs.nodes.contains(n))
        && parent.is_none_or(|p| refs.messages.iter().any(|m| m.to_string() == p))
}
