//! The event types only the network emits: its answers and its news. A
//! member that sends one is refused with `reserved_type` (one list, checked
//! at admission for every transport), and a client believes them only from
//! `core`.

use crate::ids::event_type::core_types;
use crate::network::handlers::task_types;

/// Members may not emit these: they are the network's own answers and news.
pub const NETWORK_ONLY_TYPES: &[&str] = &[
    core_types::PONG,
    core_types::EVENT_ERROR,
    core_types::AGENT_DISCOVER_RESPONSE,
    core_types::AGENT_CHALLENGE_RESPONSE,
    core_types::RESOURCE_DISCOVER_RESPONSE,
    core_types::RESOURCE_READ_RESPONSE,
    core_types::EVENTS_RESPONSE,
    crate::discovery::network_query::RESPONSE,
    crate::network::pipeline::agent_mods::INTERCEPT,
    task_types::LIST_RESPONSE,
    crate::vocabulary::event_types::INVITATION_ACCEPTED,
    crate::vocabulary::event_types::INVITATION_REJECTED,
    crate::vocabulary::event_types::MEMBER_UPDATED,
];

/// True when only the network emits `event_type`.
pub fn is_network_only(event_type: &str) -> bool {
    NETWORK_ONLY_TYPES.contains(&event_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_networks_answers_and_news_are_listed() {
        for kind in [
            "network.pong",
            "network.events.response",
            "task.list.response",
            "workspace.invitation.accepted",
            "workspace.invitation.rejected",
            "network.discovery.response",
            "workspace.member.updated",
        ] {
            assert!(is_network_only(kind), "{kind}");
        }
        for kind in ["workspace.invitation.created", "task.list", "chat.message"] {
            assert!(!is_network_only(kind), "{kind}");
        }
    }
}
