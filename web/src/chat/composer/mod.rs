//! Writing a message: the composer and posting ([`view`]), `@` completion
//! ([`complete`]), up-arrow to edit the last message ([`recall`]) and "Ann is
//! typing…" ([`typing`]).

pub mod complete;
pub mod recall;
pub mod typing;
pub mod view;
