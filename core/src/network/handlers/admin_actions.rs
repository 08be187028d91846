//! What a master may do now: the network-wide actions its status
//! allows and, for each member, the actions that apply to it. The Admin view
//! offers exactly these; the configuration read carries them
//! (`network.admin.config`'s ack: `actions`, `members`, `banned`).
//!
//! Actions are named by their event types ([`super::admin_types`]), so a
//! host sends what it was offered without a table of its own.

use super::admin_types as types;
use crate::ids::address::Address;
use crate::model::config::{NetworkConfig, NetworkStatus};
use crate::model::membership::Member;
use serde_json::{Value, json};

/// The status changes a network in `status` allows: an active network may be
/// paused or archived, a paused one resumed or archived, an archived one
/// nothing (archiving is final).
pub fn status_actions(status: NetworkStatus) -> Vec<&'static str> {
    match status {
        NetworkStatus::Active => vec![types::PAUSE, types::ARCHIVE],
        NetworkStatus::Paused => vec![types::RESUME, types::ARCHIVE],
        NetworkStatus::Archived => Vec::new(),
    }
}

/// What `master` may do to `member`: remove or ban anyone but itself.
pub fn member_actions(master: &Address, member: &Address) -> Vec<&'static str> {
    if master == member {
        Vec::new()
    } else {
        vec![types::MEMBER_REMOVE, types::MEMBER_BAN]
    }
}

/// The actions part of the configuration read by `master`: `{actions,
/// members: [{address, role, status, verification, actions}], banned:
/// [{address, actions}]}`, members by address. An archived network takes
/// no change at all, so it offers none.
pub fn admin_actions<'a>(
    config: &NetworkConfig,
    members: impl IntoIterator<Item = &'a Member>,
    master: &Address,
) -> Value {
    let live = config.status != NetworkStatus::Archived;
    let members: Vec<Value> = members
        .into_iter()
        .map(|m| {
            json!({
                "address": m.address.to_string(),
                "role": m.role.as_str(),
                "status": m.status.as_str(),
                "verification": m.verification.level(),
                "actions": if live { member_actions(master, &m.address) } else { Vec::new() },
            })
        })
        .collect();
    let banned: Vec<Value> = config
        .banned
        .iter()
        .map(|a| {
            let actions = if live {
                vec![types::MEMBER_UNBAN]
            } else {
                Vec::new()
            };
            json!({"address": a.to_string(), "actions": actions})
        })
        .collect();
    json!({
        "actions": status_actions(config.status),
        "members": members,
        "banned": banned,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_status_changes_the_state_allows_are_offered() {
        assert_eq!(
            status_actions(NetworkStatus::Active),
            [types::PAUSE, types::ARCHIVE]
        );
        assert_eq!(
            status_actions(NetworkStatus::Paused),
            [types::RESUME, types::ARCHIVE]
        );
        assert!(status_actions(NetworkStatus::Archived).is_empty());
    }

    #[test]
    fn a_master_is_offered_nothing_against_itself() {
        let boss: Address = "agent:boss".parse().unwrap();
        let alice: Address = "agent:alice".parse().unwrap();
        assert!(member_actions(&boss, &boss).is_empty());
        assert_eq!(
            member_actions(&boss, &alice),
            [types::MEMBER_REMOVE, types::MEMBER_BAN]
        );
    }
}
