//! IOA's live streams (SSE): `event: message` + `data: <Message>` for each
//! new message a stream follows, `: keepalive` when idle (the host's tick,
//! [`crate::bindings::transport::sse::KEEPALIVE`]).
//!
//! * a space's stream: every message of the space;
//! * a node's stream: every message whose `refs.nodes` names the node;
//! * a thread's stream (`/spaces/{id}/messages/{mid}/sse`): every new
//!   message related to `mid` (a descendant: one of its parents is `mid`
//!   or already in the thread);
//! * with `head` (and `fork_depth`, default 1) a thread's stream follows a
//!   branch, as IOA's reference server does: a message whose parents name
//!   the head extends the branch (it becomes the head, `event: message`);
//!   one whose parents name one of the head's first `fork_depth` ancestors
//!   (along each message's earliest parent) forks it (`event: fork`); the
//!   stream opens with the messages after the head so classified.

use super::wire::{self, message};
use crate::event::Event;
use crate::event::metadata::ProtocolMetadata;
use crate::model::graph::{self, Direction, End, GraphIndex, parent_key};
use crate::network::logged_visible_to;
use crate::{Address, Network};
use std::collections::BTreeSet;

/// The branch a thread's stream follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The newest message of the branch.
    pub head: u64,
    /// How many of its ancestors a fork may start from.
    pub depth: usize,
    /// Those ancestors, nearest first.
    ancestors: Vec<u64>,
}

/// What a stream follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// A space.
    Space(String),
    /// The messages addressed to a node.
    Node(Address),
    /// A thread: the messages related to one, or a branch of it.
    Thread {
        /// The space.
        space: String,
        /// The thread's messages so far (its root and descendants).
        members: BTreeSet<u64>,
        /// The branch, with `head`.
        head: Option<Head>,
    },
}

/// One open stream: whom it is for and what it follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Follow {
    /// The caller, who sees only what it may.
    pub caller: Address,
    /// What it follows.
    pub scope: Scope,
}

/// The first-parent chain above `seq`, `depth` long.
fn ancestors(graph: &dyn GraphIndex, seq: u64, depth: usize) -> Vec<u64> {
    let mut chain = Vec::with_capacity(depth);
    let mut at = seq;
    while chain.len() < depth {
        match graph
            .linked(&parent_key(at), 0, u64::MAX, 1, End::Oldest)
            .first()
        {
            Some(parent) => {
                chain.push(*parent);
                at = *parent;
            }
            None => break,
        }
    }
    chain
}

/// One SSE record: `event: {name}` and the message.
pub fn record(name: &str, event: &Event) -> String {
    crate::bindings::transport::sse::frame(None, Some(name), None, &message(event).to_string())
}

impl Follow {
    /// A thread's stream from message `root`, following the branch at `head` when given.
    pub fn thread(
        graph: &dyn GraphIndex,
        caller: Address,
        space: String,
        root: u64,
        head: Option<(u64, usize)>,
    ) -> Self {
        let members = graph::related(graph, root, Direction::Downstream)
            .into_iter()
            .collect();
        let head = head.map(|(head, depth)| Head {
            head,
            depth: depth.max(1),
            ancestors: ancestors(graph, head, depth.max(1)),
        });
        Self {
            caller,
            scope: Scope::Thread {
                space,
                members,
                head,
            },
        }
    }

    /// The records a branch-following stream opens with: the space's
    /// messages after the head, classified in order.
    pub fn opening(&mut self, network: &Network, graph: &dyn GraphIndex) -> Vec<String> {
        let (space, after) = match &self.scope {
            Scope::Thread {
                space,
                head: Some(head),
                ..
            } => (space.clone(), head.head),
            _ => return Vec::new(),
        };
        let seqs = graph.linked(
            &graph::space_key(&space),
            after,
            u64::MAX,
            super::reads::MAX_UNLIMITED,
            End::Oldest,
        );
        graph
            .events(&seqs)
            .iter()
            .filter_map(|(seq, event)| self.accept(network, graph, *seq, event))
            .collect()
    }

    /// The record for the new message `event` at `seq`, if this stream follows it.
    pub fn accept(
        &mut self,
        network: &Network,
        graph: &dyn GraphIndex,
        seq: u64,
        event: &Event,
    ) -> Option<String> {
        let space = wire::space_of(event)?;
        if !logged_visible_to(network.state(), event, &self.caller) {
            return None;
        }
        let refs = ProtocolMetadata::read(&event.metadata)
            .map(|m| m.refs)
            .unwrap_or_default();
        let parents: Vec<u64> = refs
            .messages
            .iter()
            .filter_map(|id| network.seq_of_logged(id))
            .collect();
        let name = match &mut self.scope {
            Scope::Space(followed) => (followed == space).then_some("message")?,
            Scope::Node(node) => refs.nodes.contains(node).then_some("message")?,
            Scope::Thread {
                space: followed,
                members,
                head,
            } => {
                if followed != space {
                    return None;
                }
                let related = parents.iter().any(|p| members.contains(p));
                if related {
                    members.insert(seq);
                }
                match head {
                    None => related.then_some("message")?,
                    Some(branch) if parents.contains(&branch.head) => {
                        branch.head = seq;
                        branch.ancestors =
                            std::iter::once(parents.iter().copied().min().unwrap_or(seq))
                                .chain(ancestors(
                                    graph,
                                    parents.iter().copied().min().unwrap_or(seq),
                                    branch.depth,
                                ))
                                .take(branch.depth)
                                .collect();
                        "message"
                    }
                    Some(branch) if parents.iter().any(|p| branch.ancestors.contains(p)) => "fork",
                    Some(_) => return None,
                }
            }
        };
        Some(record(name, event))
    }
}
