//! Agents in the conversation: what an agent says it is doing about a message
//! ([`activity`], shown while it works by [`working`]), the tools an answer used
//! ([`steps`]), and the approvals agents ask of people ([`approvals`], as data in
//! [`approval_cards`]).

pub mod activity;
pub mod approval_cards;
pub mod approvals;
pub mod steps;
pub mod working;
