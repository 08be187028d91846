//! Validated identifiers and the protocol's small vocabulary: the lowest layer.
//!
//! Each type here has one validator shared by `FromStr`, `TryFrom` and
//! `Deserialize`, and `Display` round-trips with parsing, so an invalid value
//! cannot be built on any path in.
//!
//! * [`address`] — addresses and their parse rules (ONM §4)
//! * [`event_type`] — hierarchical event types, patterns and the reserved namespace
//! * [`network_id`] — network ids
//! * [`ulid`] — event ids from host time and randomness
//! * [`standing`] — a member's role and verification level (§3, §5)
//! * [`session_id`], [`task_id`], [`conversation_id`] — the workspace's text ids
//!   (their shared shape is in `text_id`)
//! * `text_form` — `serde_as_text!`: a value serialized as its text and read through `FromStr`
//! * [`time`] — [`time::Timestamp`], Unix milliseconds

pub mod address;
pub mod conversation_id;
pub mod event_type;
pub mod network_id;
pub mod session_id;
pub mod standing;
pub mod task_id;
pub(crate) mod text_form;
mod text_id;
pub mod time;
pub mod ulid;
