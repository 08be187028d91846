//! The network's data model: what a network is configured with and what it holds.
//!
//! Plain data with its invariants, used by the mods and the network engine
//! above it; no pipeline logic lives here.
//!
//! * [`agent_mod`] — member agents installed as mods: patterns, mode, deadline, verdicts
//! * [`config`] — access policy, delivery mode, status, limits and mods of a network
//! * [`graph`] — the message graph (IOA): link keys, traversal, windows; [`graph_memory`] holds one in memory
//! * [`membership`] — the membership record and presence
//! * [`profile`] — what a member says about itself (description, meta, listing opt-in)
//! * [`access`] — access rules and resource permissions (§8)
//! * [`attachment`] — files attached to a message: their field, address, readers and limit
//! * [`origins`] — the web origins a network lets browsers use it from (CORS)
//! * [`search`] — search texts and the text of a message they are matched against
//! * [`retention`] — how long a network keeps events, history and idle members
//! * [`state`] — members, channels, groups, resources and the rows they persist as
//!   (read back by `row_reader`, one reader for every kind)
//! * [`task`] — tasks (ACPs AIP): states, legal transitions, the A2A mapping
//! * [`push`] — push notification targets of tasks and the queue of notifications
//! * [`remote`] — external A2A agents that are members
//! * [`payloads`] — the payloads of the network's answers (roster, resources, pages, errors, profile)
//! * [`requests`] — the payloads of members' requests (join, invitations, channels, queries, tasks)
//! * [`received`] — what a participant reads of the answers (an ack, a delivery's place, a challenge)

pub mod access;
pub mod agent_mod;
pub mod attachment;
pub mod config;
pub mod file_limits;
pub mod graph;
pub mod graph_memory;
pub mod hosted;
pub mod membership;
pub mod origins;
pub mod payloads;
pub mod profile;
pub mod push;
pub mod received;
pub mod remote;
pub mod requests;
pub mod retention;
mod row_reader;
pub mod search;
pub mod state;
pub mod task;
