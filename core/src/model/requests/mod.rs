//! The payloads of the requests members send to the network, as types: a
//! join and its credentials, invitations, bridges, channels, the log
//! (queries, acks, resuming), the `task.*` events, a master's admin requests,
//! resources and their documents' sync, workspace sessions, discovery queries
//! and agent mods' verdicts (the answers are [`super::payloads`]). Where a
//! payload carries an app's own data (a resource's content, a rewritten
//! event), that field stays a free-form `serde_json::Value` and says so.
//!
//! A handler reads its event's payload with [`field::read`] into one of
//! these structs and checks it field by field. Every field is a
//! [`field::AsSent`], which keeps what was sent — nothing, `null`, a value of
//! the field's type, or something else — so each handler still decides, as
//! it always has, which wrong value is refused (with its own message,
//! `payload.private is true or false`) and which is ignored: reading a
//! payload never fails, and the inputs the network takes stay the same.
//! The types only read (`Deserialize`): a request type is `#[serde(default)]`,
//! so each field left out reads as [`field::AsSent::Absent`]. Each is declared
//! with `field::request_types!`, which gives it that shape: a field written
//! `limit: u64` is a `pub limit: AsSent<u64>`.
//!
//! * [`field`] — [`field::AsSent`], [`field::Object`], [`field::read`] and `request_types!`
//! * [`members`] — join (with its credentials), invite, bridge
//! * [`channels`] — channel settings (private, title, tags)
//! * [`history`] — history queries, acknowledgements, resuming
//! * [`tasks`] — create, update, artifact, push and list of tasks
//! * [`admin`] — settings, token rotation, invitation revoking, mods, hosted agents' channels
//! * [`resources`] — register, update, discover; [`documents`] — a document's sync
//! * [`sessions`] — `mod/workspace`'s sessions, created and updated
//! * [`discovery`] — `network.discovery.query`
//! * [`verdict`] — an agent mod's verdict

pub mod admin;
pub mod channels;
pub mod discovery;
pub mod documents;
pub mod field;
pub mod history;
pub mod members;
pub mod resources;
pub mod sessions;
pub mod tasks;
pub mod verdict;

#[cfg(test)]
mod tests;
