//! The configuration read offers a master what it may do now:
//! the status changes the network's state allows, and each member's actions.

use super::*;

fn read(network: &mut Network, boss: &mut Peer) -> Value {
    let read = boss.send(network, "network.admin.config", "core", json!({}));
    acked(&read).payload
}

fn strings(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

#[test]
fn the_read_offers_the_status_changes_the_state_allows_and_each_members_actions() {
    let (mut network, mut boss) = bare_with("agent:boss");
    join(&mut network, "agent:alice");

    let active = read(&mut network, &mut boss);
    assert_eq!(
        strings(&active["actions"]),
        ["network.admin.pause", "network.admin.archive"]
    );
    let members = active["members"].as_array().unwrap();
    let of = |who: &str| {
        members
            .iter()
            .find(|m| m["address"] == who)
            .unwrap_or_else(|| panic!("{who} listed in {members:?}"))
            .clone()
    };
    assert_eq!(of("agent:boss")["role"], "master");
    assert!(
        strings(&of("agent:boss")["actions"]).is_empty(),
        "not against itself"
    );
    assert_eq!(
        strings(&of("agent:alice")["actions"]),
        ["network.admin.member.remove", "network.admin.member.ban"]
    );
    assert_eq!(of("agent:alice")["status"], "online");

    boss.ask(&mut network, "network.admin.pause", json!({}));
    let paused = read(&mut network, &mut boss);
    assert_eq!(
        strings(&paused["actions"]),
        ["network.admin.resume", "network.admin.archive"]
    );

    boss.ask(&mut network, MEMBER_BAN, json!({"address": "agent:alice"}));
    let banned = read(&mut network, &mut boss);
    assert_eq!(banned["banned"][0]["address"], "agent:alice");
    assert_eq!(
        strings(&banned["banned"][0]["actions"]),
        ["network.admin.member.unban"]
    );
    assert!(
        banned["members"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["address"] != "agent:alice")
    );

    // Archived: still readable by its master, and nothing is offered any more.
    join(&mut network, "agent:carol");
    boss.ask(&mut network, "network.admin.archive", json!({}));
    let archived = read(&mut network, &mut boss);
    assert_eq!(archived["config"]["status"], "archived");
    assert!(strings(&archived["actions"]).is_empty());
    assert!(
        archived["members"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| strings(&m["actions"]).is_empty())
    );
    assert!(strings(&archived["banned"][0]["actions"]).is_empty());
}
