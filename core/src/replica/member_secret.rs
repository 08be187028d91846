//! The member secret: what makes this replica's address its own.
//!
//! An address's first join sets its secret: the one the join proposes in
//! `credentials.member_secret`, or else one the network issues (in the join's
//! ack). A later join of the address must present it, or the network refuses
//! it with `address_in_use`. Before its first join the replica makes a secret
//! up and persists it ([`ReplicaRow::MemberSecret`]) — so a lost ack loses
//! nothing — and adds it to every join, so reconnects and restarts keep the
//! address. A secret the network issues instead is kept the same way.

use super::state::Replica;
use super::types::{ReplicaEffect, ReplicaRow};
use crate::model::received::AckRead;
use serde_json::{Map, Value, json};

impl Replica {
    /// The member secret the network gave this address, if known.
    pub fn member_secret(&self) -> Option<&str> {
        self.member_secret.as_deref()
    }

    /// Uses `secret` (kept from an earlier session) on every join.
    pub fn set_member_secret(&mut self, secret: Option<String>) {
        self.member_secret = secret;
    }

    /// `credentials` with the member secret added (unless they carry one
    /// already); a secret made up now comes with the row that persists it.
    pub(super) fn with_member_secret(
        &mut self,
        credentials: Option<Value>,
    ) -> (Option<Value>, Option<ReplicaEffect>) {
        let mut map = match credentials {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        };
        if let Some(given) = map.get("member_secret").and_then(Value::as_str) {
            self.member_secret = Some(given.to_owned());
            return (Some(Value::Object(map)), None);
        }
        let mut persist = None;
        let secret = match &self.member_secret {
            Some(secret) => secret.clone(),
            None => {
                let secret = self.client.random_secret();
                self.member_secret = Some(secret.clone());
                persist = Some(self.secret_row(&secret));
                secret
            }
        };
        map.insert("member_secret".into(), json!(secret));
        (Some(Value::Object(map)), persist)
    }

    fn secret_row(&self, secret: &str) -> ReplicaEffect {
        ReplicaEffect::Persist(ReplicaRow::MemberSecret {
            address: self.address().clone(),
            secret: secret.to_owned(),
        })
    }

    /// A join's ack: keeps a newly issued secret, and says to persist it.
    pub(super) fn learn_member_secret(&mut self, ack: &Value) -> Option<ReplicaEffect> {
        let secret = AckRead::of(ack).member_secret.given()?;
        let row = self.secret_row(&secret);
        self.member_secret = Some(secret);
        Some(row)
    }

    /// A stored secret row: kept when it is this address's.
    pub(super) fn restore_member_secret(&mut self, address: &crate::Address, secret: String) {
        if address == self.address() {
            self.member_secret = Some(secret);
        }
    }
}
