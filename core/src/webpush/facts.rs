//! The network as the notification rule sees it ([`super::recipients::Facts`]).

use super::recipients::Facts;
use crate::ids::address::Address;
use crate::ids::standing::Role;
use crate::ids::ulid::EventId;
use crate::network::Network;

impl Facts for Network {
    fn network(&self) -> String {
        self.config().id.to_string()
    }

    fn masters(&self) -> Vec<Address> {
        self.state()
            .members
            .values()
            .filter(|m| m.role == Role::Master)
            .map(|m| m.address.clone())
            .collect()
    }

    fn task_requester(&self, id: &str) -> Option<Address> {
        self.state().tasks.get(id).map(|t| t.requester.clone())
    }

    fn author_of(&self, id: &EventId) -> Option<Address> {
        self.message_facts(id).map(|facts| facts.author)
    }
}
