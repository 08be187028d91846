//! The discovery service's state beside the registry: the public entry of
//! every live registered agent (by AIC), the descriptions outside agents
//! submitted (by URL), the search index over both, the DRC change log and
//! the webhook subscriptions. The host stores what the methods return and
//! puts it back with the `load_*` methods.

use super::descriptions::{Listed, submitted_text};
use super::feed::{Change, Feed, Op};
use super::members::{member_entry, member_hit, member_key};
use super::search::{Entry, Query, rank};
use super::webhook::Webhook;
use crate::ids::time::Timestamp;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// Verification level of a registered agent (a key proof at the registry).
pub const REGISTERED_LEVEL: u8 = 2;
/// Verification level of a submitted description (its DID resolved).
pub const SUBMITTED_LEVEL: u8 = 1;

/// Everything discovery knows.
#[derive(Debug, Clone)]
pub struct Catalog {
    /// Live registered agents' public records, by AIC.
    agents: BTreeMap<String, Value>,
    /// Submitted descriptions, by URL.
    submitted: BTreeMap<String, Value>,
    /// Listed members of public networks, by [`member_key`]: `(network, record)`.
    members: BTreeMap<String, (String, Value)>,
    entries: BTreeMap<String, Entry>,
    /// The change log.
    pub feed: Feed,
    /// Webhook subscriptions by id.
    pub webhooks: BTreeMap<String, Webhook>,
    /// What a subscription's URL may be (the host sets the deployment's; strict by default).
    pub outbound: crate::outbound::OutboundPolicy,
}

fn aic_of(record: &Value) -> String {
    record
        .get("aic")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned()
}

fn entry_of(aic: &str, record: &Value) -> Entry {
    let name = record.get("name").and_then(Value::as_str).unwrap_or("");
    Entry::from_acs(
        aic,
        name,
        record.get("acs").filter(|a| a.is_object()),
        REGISTERED_LEVEL,
    )
}

impl Catalog {
    /// An empty catalog keeping `retention` changes.
    pub fn new(retention: usize) -> Self {
        Self {
            agents: BTreeMap::new(),
            submitted: BTreeMap::new(),
            members: BTreeMap::new(),
            entries: BTreeMap::new(),
            feed: Feed::new(retention),
            webhooks: BTreeMap::new(),
            outbound: crate::outbound::OutboundPolicy::strict(),
        }
    }

    /// Live registered agents' public records by AIC (the snapshot's objects).
    pub fn agents(&self) -> &BTreeMap<String, Value> {
        &self.agents
    }

    /// A live registered agent's public record.
    pub fn agent(&self, aic: &str) -> Option<&Value> {
        self.agents.get(aic)
    }

    /// A submitted description.
    pub fn submitted(&self, url: &str) -> Option<&Value> {
        self.submitted.get(url)
    }

    /// Puts back a stored agent (its public record; `live` false once revoked).
    pub fn load_agent(&mut self, record: Value, live: bool) {
        let aic = aic_of(&record);
        if live {
            self.entries.insert(aic.clone(), entry_of(&aic, &record));
            self.agents.insert(aic, record);
        } else {
            self.entries.remove(&aic);
            self.agents.remove(&aic);
        }
    }

    /// A registered agent changed (registered, new key, new ACS, revoked):
    /// records the change; answers it and the seqs the log dropped.
    pub fn agent_changed(
        &mut self,
        record: Value,
        live: bool,
        now: Timestamp,
    ) -> (Change, Vec<u64>) {
        let aic = aic_of(&record);
        let op = if live { Op::Upsert } else { Op::Delete };
        self.load_agent(record.clone(), live);
        self.feed.record(op, &aic, record, now)
    }

    /// Lists a checked description submitted from `url`.
    pub fn add_submitted(&mut self, url: &str, doc: Value) {
        let (name, description) = submitted_text(&doc);
        self.entries.insert(
            url.to_owned(),
            Entry::new(url, &name, &description, SUBMITTED_LEVEL),
        );
        self.submitted.insert(url.to_owned(), doc);
    }

    /// Replaces what discovery lists of `network`: the `records` of its
    /// members who opted in ([`super::members::network_listing`]; none when
    /// it is not public).
    pub fn set_network_members(&mut self, network: &str, records: Vec<Value>) {
        let gone: Vec<String> = self
            .members
            .iter()
            .filter(|(_, (n, _))| n == network)
            .map(|(key, _)| key.clone())
            .collect();
        for key in gone {
            self.members.remove(&key);
            self.entries.remove(&key);
        }
        for record in records {
            let Some(address) = record.get("address").and_then(Value::as_str) else {
                continue;
            };
            let key = member_key(network, address);
            self.entries
                .insert(key.clone(), member_entry(&key, network, &record));
            self.members.insert(key, (network.to_owned(), record));
        }
    }

    /// A listed member of `network`.
    pub fn member(&self, network: &str, address: &str) -> Option<&Value> {
        self.members
            .get(&member_key(network, address))
            .map(|(_, record)| record)
    }

    /// Every public agent for `/.well-known/agent-descriptions` at `origin`,
    /// in key order: registered agents (key `a:{aic}`, described at
    /// [`agent_ad_url`]), listed members of public networks (key
    /// `m:{network}/{address}`, at [`member_ad_url`]), then submitted
    /// descriptions (key `s:{url}`). With `network`, only the registered
    /// agents with an endpoint in that network and its listed members.
    pub fn listed(&self, network: Option<&str>, origin: &str) -> Vec<Listed> {
        let in_network = |aic: &str| {
            network.is_none_or(|n| {
                self.entries
                    .get(aic)
                    .is_some_and(|e| e.networks.contains(n))
            })
        };
        let name = |v: &Value| {
            v.get("name")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let registered =
            self.agents
                .iter()
                .filter(|(aic, _)| in_network(aic))
                .map(|(aic, record)| Listed {
                    key: format!("a:{aic}"),
                    name: record
                        .get("acs")
                        .and_then(|a| a.get("name"))
                        .and_then(Value::as_str)
                        .map_or_else(|| name(record), str::to_owned),
                    url: agent_ad_url(origin, aic),
                });
        let members = self
            .members
            .values()
            .filter(|(n, _)| network.is_none_or(|wanted| wanted == n))
            .map(|(n, record)| {
                let address = record.get("address").and_then(Value::as_str).unwrap_or("");
                Listed {
                    key: format!("m:{n}/{address}"),
                    name: name(record),
                    url: member_ad_url(origin, n, address),
                }
            });
        let submitted = self
            .submitted
            .iter()
            .filter(|_| network.is_none())
            .map(|(url, doc)| Listed {
                key: format!("s:{url}"),
                name: name(doc),
                url: url.clone(),
            });
        registered.chain(members).chain(submitted).collect()
    }

    /// The agents `query` finds, best first, each with its endpoints:
    /// `{id, kind, name, description, score, verification, networks, endpoints, …}`.
    pub fn search(&self, query: &Query, origin: &str) -> Vec<Value> {
        rank(self.entries.values(), query)
            .into_iter()
            .filter_map(|hit| {
                let entry = self.entries.get(&hit.id)?;
                let mut found = if let Some(record) = self.agents.get(&hit.id) {
                    registered_hit(record, origin)
                } else if let Some((network, record)) = self.members.get(&hit.id) {
                    let mut found = member_hit(&hit.id, network, record, origin);
                    if let Some(obj) = found.as_object_mut() {
                        let address = record.get("address").and_then(Value::as_str).unwrap_or("");
                        let url = member_ad_url(origin, network, address);
                        obj.insert("description_url".into(), json!(url));
                    }
                    found
                } else {
                    submitted_hit(&hit.id, self.submitted.get(&hit.id)?)
                };
                let obj = found.as_object_mut()?;
                obj.insert("score".into(), json!(hit.score));
                obj.insert("name".into(), json!(entry.name));
                obj.insert("verification".into(), json!(entry.verification));
                obj.insert("networks".into(), json!(entry.networks));
                Some(found)
            })
            .collect()
    }

    /// How many agents search covers.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when it covers none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Where a registered agent's description is served.
pub fn agent_ad_url(origin: &str, aic: &str) -> String {
    format!("{origin}/registry/v1/agents/{aic}/ad.json")
}

/// Where a listed member's description is served.
pub fn member_ad_url(origin: &str, network: &str, address: &str) -> String {
    format!("{origin}/registry/v1/networks/{network}/members/{address}/ad.json")
}

fn registered_hit(record: &Value, origin: &str) -> Value {
    let aic = aic_of(record);
    let acs = record.get("acs").filter(|a| a.is_object());
    json!({"id": aic, "kind": "registered", "aic": aic,
        "address": record.get("address"), "did": record.get("did_wba"),
        "description": acs.and_then(|a| a.get("description")).cloned().unwrap_or(json!("")),
        "skills": acs.and_then(|a| a.get("skills")).cloned().unwrap_or(json!([])),
        "endpoints": acs.and_then(|a| a.get("endPoints")).cloned().unwrap_or(json!([])),
        "description_url": agent_ad_url(origin, &aic),
        "acs_url": format!("{origin}/registry/v1/agents/{aic}/acs")})
}

fn submitted_hit(url: &str, doc: &Value) -> Value {
    json!({"id": url, "kind": "submitted", "did": doc.get("did"),
        "description": doc.get("description").cloned().unwrap_or(json!("")),
        "skills": [], "endpoints": doc.get("interfaces").cloned().unwrap_or(json!([])),
        "description_url": url})
}

#[cfg(test)]
#[path = "catalog_tests.rs"]
mod tests;
