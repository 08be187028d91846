//! An accepted event's way through the rest of the pipeline: agent mods that
//! park it until they decide, transforms and observers, what the network's own
//! handling decided, and completion (recipients, log, delivery, ack).

pub mod agent_mods;
pub(super) mod complete;
pub(super) mod outcome;
pub(super) mod parked;
pub(super) mod stages;
