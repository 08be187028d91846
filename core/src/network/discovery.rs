//! `network.discovery.query` answered: the network's own members ranked for
//! the query, merged with what the deployment's registry found
//! ([`Network::answer_discovery`]), delivered to the member who asked as
//! `network.discovery.response`.

use crate::discovery::members::{member_entry, member_hit, member_record, tools_of};
use crate::discovery::network_query::{RESPONSE, is_own_member, merge};
use crate::discovery::search::{Query, rank};
use crate::ids::time::Timestamp;
use crate::network::effects::{DiscoveryAsk, Effect};
use crate::network::engine::Network;
use serde_json::{Value, json};
use std::rc::Rc;

/// What the host got from the registry for a [`DiscoveryAsk`].
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryAnswer {
    /// The registry's ranked agents (`agents` of `GET /registry/v1/discover`),
    /// or why the registry could not be asked.
    pub agents: Result<Vec<Value>, String>,
    /// The deployment's origin (`https://host`), for the members' endpoints.
    pub origin: String,
}

impl Network {
    /// The members (other than `requester`) `query` finds, best first, with
    /// the network's endpoints at `origin`.
    pub fn discover_members(
        &self,
        query: &Query,
        requester: &crate::ids::address::Address,
        origin: &str,
    ) -> Vec<Value> {
        let network = self.config().id.to_string();
        let records: Vec<(String, Value)> = self
            .state
            .members
            .values()
            .filter(|m| &m.address != requester)
            .map(|m| {
                let tools = tools_of(&m.address, self.state.resources.values());
                (m.address.to_string(), member_record(m, tools))
            })
            .collect();
        let entries: Vec<_> = records
            .iter()
            .map(|(id, record)| member_entry(id, &network, record))
            .collect();
        rank(&entries, query)
            .into_iter()
            .filter_map(|hit| {
                let at = entries.iter().position(|e| e.id == hit.id)?;
                let (entry, (id, record)) = (entries.get(at)?, records.get(at)?);
                let mut found = member_hit(id, &network, record, origin);
                let obj = found.as_object_mut()?;
                obj.insert("score".into(), json!(hit.score));
                obj.insert("name".into(), json!(entry.name));
                obj.insert("verification".into(), json!(entry.verification));
                obj.insert("networks".into(), json!([network]));
                Some(found)
            })
            .collect()
    }

    /// Answers `ask` with the members it finds and the registry's `answer`,
    /// ranked together: a `network.discovery.response` `{agents, from_network,
    /// from_registry, registry}` to the member who asked (`registry` is `"ok"`,
    /// or `"unavailable"` with `registry_error` when only the members answered).
    pub fn answer_discovery(
        &mut self,
        ask: &DiscoveryAsk,
        answer: RegistryAnswer,
        now: Timestamp,
    ) -> Vec<Effect> {
        let local = self.discover_members(&ask.query, &ask.requester, &answer.origin);
        let network = self.config().id.to_string();
        let from_network = local.len();
        let (registry, error) = match answer.agents {
            Ok(agents) => (agents, None),
            Err(error) => (Vec::new(), Some(error)),
        };
        let from_registry = registry
            .iter()
            .filter(|hit| !is_own_member(hit, &network))
            .count();
        let agents = merge(local, registry, &network, ask.query.limit);
        let mut payload = json!({"agents": agents, "from_network": from_network,
            "from_registry": from_registry,
            "registry": if error.is_some() { "unavailable" } else { "ok" }});
        if let (Some(error), Some(obj)) = (error, payload.as_object_mut()) {
            obj.insert("registry_error".into(), json!(error));
        }
        let response =
            self.core_event(RESPONSE, &ask.requester, Some(ask.request_id), payload, now);
        vec![Effect::Deliver {
            to: vec![ask.requester.clone()],
            event: Rc::new(response),
            order: None,
        }]
    }
}
