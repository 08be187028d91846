//! The identity registry (`RegistryObject`, one for the deployment): its
//! requests and rows ([`object`]) and the discovery feed it serves: passive
//! registration, the DRC change feed and webhooks ([`discovery`],
//! [`discovery_store`]), and the DIDWba nonces claimed across the
//! deployment ([`nonces`]).
//!
//! May use the core and [`crate::host`] only.

pub mod discovery;
pub mod discovery_store;
pub mod nonces;
pub mod object;
