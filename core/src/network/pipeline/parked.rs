//! Events parked while agent mods decide ([`super::agent_mods`]): what one
//! waits with, and the wire types of the mod protocol.

use crate::event::Event;
use crate::ids::time::Timestamp;
use crate::ids::ulid::EventId;
use crate::model::agent_mod::AgentMod;
use crate::model::graph::Placement;
use crate::network::pushes::secrets::PushSecrets;
use std::collections::BTreeMap;

/// The network hands an event to an agent mod.
pub const INTERCEPT: &str = "network.mod.intercept";
/// An agent mod's answer.
pub const VERDICT: &str = "network.mod.verdict";
/// Most events parked at once; past it, new ones meet the late policy at once.
pub const MAX_PARKED: usize = 1_000;

/// An event waiting for agent mods.
#[derive(Debug, Clone)]
pub(crate) struct Parked {
    pub(crate) event: Event,
    pub(crate) carried: Carried,
    /// The mods still to decide, the one asked first.
    pub(crate) chain: Vec<AgentMod>,
    /// When the one asked must have answered.
    pub(crate) deadline: Timestamp,
}

/// What an event carries from the first half of the pipeline (admission,
/// guards) to the second ([`super::complete`]) besides itself.
#[derive(Debug, Clone, Default)]
pub(crate) struct Carried {
    /// Where it sits in the message graph (its `refs`).
    pub(crate) placement: Option<Placement>,
    /// A `task.push`'s secrets, which no mod sees.
    pub(crate) secrets: PushSecrets,
}

/// The events parked, by the id of the intercept that asked about them.
#[derive(Debug, Default)]
pub(crate) struct ParkedEvents {
    pub(crate) by_intercept: BTreeMap<EventId, Parked>,
}
