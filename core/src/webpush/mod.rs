//! Web Push: notifying people when the workspace's tab is closed.
//!
//! * [`recipients`] — who is notified of which event (the one rule), as [`Notice`]s
//! * [`subscription`] — a member's `PushSubscription`, checked
//! * [`vapid`] — the application server's key and its signed tokens (RFC 8292)
//! * [`ece`] — message encryption (RFC 8291, `aes128gcm` of RFC 8188)
//! * [`request`] — the push request for one notice to one subscription, and
//!   what its answer means
//! * [`keys`], [`error`] — the keys' encodings; why something was refused
//!
//! All of it is sans-I/O: the host passes the time and the random bytes of
//! each message ([`request::Fresh`]), stores the subscriptions and the key,
//! and sends the requests (`edge-worker/src/network/webpush.rs`).

pub mod ece;
pub mod error;
mod facts;
pub mod keys;
pub mod recipients;
pub mod request;
pub mod subscription;
pub mod vapid;

#[cfg(test)]
mod tests;

pub use error::WebPushError;
pub use recipients::{Notice, Reason, notices};
pub use request::{Delivery, Fresh, PushRequest, build, delivery_of};
pub use subscription::Subscription;
pub use vapid::VapidKey;
