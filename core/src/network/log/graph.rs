//! The message graph at acceptance: an event's `refs` are checked and its
//! place in the graph computed before anything is logged
//! ([`crate::model::graph`] says how the graph is indexed and read).
//!
//! * every `refs.nodes` recipient must be a member (`unknown_recipient`);
//! * every `refs.messages` parent must be a logged message — of the same
//!   channel when the event goes to a channel (`unknown_parent`).

use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::event::metadata::Refs;
use crate::ids::address::Entity;
use crate::ids::ulid::EventId;
use crate::model::graph::{GraphIndex, Placement, space_key};
use crate::mods::LoggedEvents;
use crate::network::delivery::EventIndex;
use crate::network::engine::Network;
use crate::network::log::dedupe::DedupeWindow;

/// The network's log read by id: the recent window's `seq`s, else the
/// host's index, then the host's log rows. Built from the fields it reads so
/// mods can hold it while the pipeline is borrowed.
pub(crate) struct LogView<'a> {
    pub(crate) dedupe: &'a DedupeWindow,
    pub(crate) index: &'a dyn EventIndex,
    pub(crate) keeps_history: bool,
}

impl LogView<'_> {
    /// The host's graph index and log rows, when the network keeps history.
    pub(crate) fn graph(&self) -> Option<&dyn GraphIndex> {
        self.index.graph().filter(|_| self.keeps_history)
    }

    /// The `seq` of a logged event.
    pub(crate) fn seq_of(&self, id: &EventId) -> Option<u64> {
        self.dedupe.seq_of(id).or_else(|| self.index.seq_of(id))
    }
}

impl LoggedEvents for LogView<'_> {
    fn logged(&self, id: &EventId) -> Option<Event> {
        let graph = self.graph()?;
        let seq = self.seq_of(id)?;
        graph
            .events(&[seq])
            .into_iter()
            .next()
            .map(|(_, event)| event)
    }
}

impl Network {
    /// The log, read by id.
    pub(crate) fn log_view(&self) -> LogView<'_> {
        LogView {
            dedupe: &self.dedupe,
            index: self.index.as_ref(),
            keeps_history: self.keeps_history,
        }
    }

    /// The host's graph index, when it keeps one and the network keeps its
    /// history (`mod/persistence`): without history, delivered messages leave the log.
    pub fn graph(&self) -> Option<&dyn GraphIndex> {
        self.index.graph().filter(|_| self.keeps_history)
    }

    /// The `seq` of a logged event: from the recent window, else the host's index.
    pub fn seq_of_logged(&self, id: &EventId) -> Option<u64> {
        self.log_view().seq_of(id)
    }

    /// Checks `refs` of `event`; its place in the graph when it goes to a channel.
    pub(crate) fn place_in_graph(
        &self,
        event: &Event,
        refs: &Refs,
    ) -> Result<Option<Placement>, Rejection> {
        if let Some(stranger) = refs
            .nodes
            .iter()
            .find(|node| !self.state.members.contains_key(*node))
        {
            return Err(Rejection::new(
                ErrorCode::UnknownRecipient,
                format!("refs.nodes: '{stranger}' is not a member of this network"),
            ));
        }
        let space = match event.target.entity() {
            Entity::Channel(name) => Some(name.as_str().to_owned()),
            _ => None,
        };
        let mut parents = Vec::with_capacity(refs.messages.len());
        for id in &refs.messages {
            let seq = self.seq_of_logged(id);
            let in_space = match (seq, &space, self.graph()) {
                (None, _, _) => false,
                (Some(seq), Some(space), Some(graph)) => graph.contains(&space_key(space), seq),
                (Some(_), _, _) => true,
            };
            match seq {
                Some(seq) if in_space => parents.push(seq),
                _ => {
                    let place = space
                        .as_deref()
                        .map_or_else(|| "this network".to_owned(), |s| format!("space '{s}'"));
                    return Err(Rejection::new(
                        ErrorCode::UnknownParent,
                        format!("refs.messages: '{id}' not found in {place}"),
                    ));
                }
            }
        }
        parents.sort_unstable();
        parents.dedup();
        let mut recipients = refs.nodes.clone();
        recipients.sort();
        recipients.dedup();
        Ok(space.map(|space| Placement {
            space,
            parents,
            recipients,
        }))
    }
}
