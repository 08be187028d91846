//! People: who is in the network, with role, verification level (and the DID it proved),
//! presence, what each says about itself (its profile's description) and the
//! skills it shares (the `{skill}.SKILL.md` contexts it owns, which MCP clients
//! get as prompts), kept current from `network.agent.discover` answers and
//! `workspace.presence.changed` events, and the roster panel that lists them.
//!
//! [`People`] owns the list and its discover request; the same answer lists
//! the channels, which it hands to the chat. The panel ([`Roster`]) and how
//! it orders, groups and words its members ([`order`]) are beside it.

pub mod face;
pub mod me;
pub mod order;
pub mod person;
mod roster;
mod state;

pub use person::Person;
pub use roster::Roster;
pub use state::People;
