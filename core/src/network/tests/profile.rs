//! Members' profiles (set at the join, replaced by `network.agent.profile`,
//! shown in the roster, refused with `invalid_request` when out of bounds) and
//! channels' display names.

use super::*;

#[test]
fn a_profile_given_at_the_join_is_kept_and_shown_in_the_roster() {
    let mut network = bare();
    let profile = json!({"description": "translates legal German", "meta": {"langs": ["de", "en"]}, "listed": true});
    let mut alice = join_with(&mut network, "agent:alice", json!({"profile": profile}));
    assert_eq!(
        network.state.members[&alice.address]
            .profile
            .description
            .as_deref(),
        Some("translates legal German")
    );
    let effects = alice.ask(&mut network, "network.agent.discover", json!({}));
    let roster = reply_of_type(&effects, "network.agent.discover.response");
    let me = roster.payload["agents"]
        .as_array()
        .and_then(|a| a.iter().find(|m| m["address"] == "agent:alice"))
        .cloned()
        .unwrap_or_default();
    assert_eq!(me["profile"], profile);
}

#[test]
fn a_member_replaces_its_profile_and_the_change_is_logged_and_stored() {
    let (mut network, mut bob) = bare_with("agent:bob");
    let effects = bob.ask(
        &mut network,
        AGENT_PROFILE,
        json!({"description": "reviewer"}),
    );
    assert!(effects.iter().any(|e| matches!(e, Effect::Append { event, .. } if event.event_type.as_str() == "network.agent.profile")));
    assert!(effects.iter().any(|e| matches!(e, Effect::Store(Row::Member(m)) if m.profile.description.as_deref() == Some("reviewer"))));
    assert_eq!(
        acked(&effects).payload["member"]["profile"]["description"],
        "reviewer"
    );
    // A rejoin (on the connection it holds) without a profile keeps the one the member set.
    let rejoin = bob.event("network.agent.join", "core", json!({}));
    let effects = network.handle_event(Some(&bob.address.clone()), rejoin, Timestamp::from(10));
    assert!(effects.contains(&Effect::Bind(bob.address.clone())));
    assert_eq!(
        network.state.members[&bob.address]
            .profile
            .description
            .as_deref(),
        Some("reviewer")
    );
}

#[test]
fn bad_profiles_are_refused_and_change_nothing() {
    let (mut network, mut carol) = bare_with("agent:carol");
    for (payload, target) in [
        (json!({"description": 7}), "core"),
        (json!({"nickname": "c"}), "core"),
        (json!({"meta": {"k": "v".repeat(5_000)}}), "core"),
        (json!({"description": "ok"}), "agent:broadcast"),
    ] {
        let effects = carol.send(&mut network, "network.agent.profile", target, payload);
        assert_eq!(error_code(&effects), ErrorCode::InvalidRequest);
    }
    assert!(network.state.members[&carol.address].profile.is_empty());
    let effects = try_join_at(
        &mut network,
        "agent:dan",
        json!({"profile": {"listed": "yes"}}),
        10,
    );
    assert_eq!(error_code(&effects), ErrorCode::InvalidRequest);
    assert!(!network.state.members.contains_key(&addr("agent:dan")));
}

#[test]
fn a_member_who_leaves_is_no_longer_listed_and_opts_in_again_when_it_rejoins() {
    let mut network = bare();
    let secret = json!({"member_secret": "0123456789abcdef0123"});
    let profile = json!({"description": "translates legal German", "listed": true});
    let mut erin = join_with(
        &mut network,
        "agent:erin",
        json!({"profile": profile, "credentials": secret}),
    );
    assert!(network.state.members[&erin.address].profile.listed);
    let effects = erin.ask(&mut network, "network.agent.leave", json!({}));
    // The stored record (what the host sends to the registry's listing) is unlisted.
    assert!(effects.iter().any(
        |e| matches!(e, Effect::Store(Row::Member(m)) if m.address == erin.address && !m.profile.listed)
    ));
    // A rejoin without a profile keeps the rest of it, unlisted.
    let rejoin = erin.event("network.agent.join", "core", json!({"credentials": secret}));
    assert!(
        network
            .handle_event(None, rejoin, Timestamp::from(5))
            .contains(&Effect::Bind(erin.address.clone()))
    );
    let kept = &network.state.members[&erin.address].profile;
    assert!(!kept.listed);
    assert_eq!(kept.description.as_deref(), Some("translates legal German"));
    // A rejoin that asks to be listed is listed again.
    let listed = erin.event(
        "network.agent.join",
        "core",
        json!({"credentials": secret, "profile": profile}),
    );
    assert!(
        network
            .handle_event(None, listed, Timestamp::from(6))
            .contains(&Effect::Bind(erin.address.clone()))
    );
    assert!(network.state.members[&erin.address].profile.listed);
}

#[test]
fn a_member_that_takes_no_tasks_refuses_them_at_once_and_may_change_its_mind() {
    let (mut network, mut alice) = bare_with("agent:alice");
    // The join says it (as the npm SDK's does), with a profile that says nothing of tasks.
    let mut bob = join_with(
        &mut network,
        "agent:bob",
        json!({"tasks": false, "profile": {"description": "reviewer"}}),
    );
    let task = json!({"parts": [{"text": "review this"}]});
    let refused = alice.send(&mut network, TASK_CREATE, "agent:bob", task.clone());
    assert_eq!(error_code(&refused), ErrorCode::TakesNoTasks);
    assert!(network.state.tasks.is_empty(), "no task is left accepted");
    // A profile without `tasks` keeps the declaration; `{tasks}` alone changes only it.
    bob.ask(
        &mut network,
        AGENT_PROFILE,
        json!({"description": "critic"}),
    );
    assert_eq!(
        network.state.members[&bob.address].profile.tasks,
        Some(false)
    );
    bob.ask(&mut network, AGENT_PROFILE, json!({"tasks": true}));
    let profile = &network.state.members[&bob.address].profile;
    assert_eq!(
        (profile.tasks, profile.description.as_deref()),
        (Some(true), Some("critic"))
    );
    let accepted = alice.send(&mut network, TASK_CREATE, "agent:bob", task);
    assert_eq!(acked(&accepted).payload["state"], "accepted");
    // A member that never said is given tasks as before.
    let carol = join(&mut network, "agent:carol");
    let undeclared = alice.send(
        &mut network,
        TASK_CREATE,
        &carol.address.to_string(),
        json!({}),
    );
    assert_eq!(acked(&undeclared).payload["state"], "accepted");
}

#[test]
fn a_member_names_itself_only_and_everyone_is_told() {
    use crate::model::config::ModConfig;
    let mut network = network_with(vec![ModConfig::Workspace(Default::default())]);
    let mut ada = join_with(
        &mut network,
        "human:guest-1",
        json!({"profile": {"name": "Ada", "description": "maths"}}),
    );
    let mut bob = join(&mut network, "human:bob");
    let profile_of =
        |network: &Network, who: &str| network.state.members[&addr(who)].profile.clone();
    assert_eq!(
        profile_of(&network, "human:guest-1").name.as_deref(),
        Some("Ada")
    );

    // A rename changes the name alone, and every member hears of it from the network.
    let effects = ada.ask(&mut network, AGENT_PROFILE, json!({"name": "Ada L."}));
    let told = effects.iter().find_map(|e| match e {
        Effect::Deliver { event, to, .. }
            if event.event_type.as_str() == "workspace.member.updated"
                && to.contains(&bob.address) =>
        {
            Some(event.clone())
        }
        _ => None,
    });
    let told = told.expect("bob is told");
    assert_eq!(told.source, addr("mod/workspace"));
    assert_eq!(told.payload["address"], "human:guest-1");
    assert_eq!(told.payload["profile"]["name"], "Ada L.");
    let after = profile_of(&network, "human:guest-1");
    assert_eq!(
        (after.name.as_deref(), after.description.as_deref()),
        (Some("Ada L."), Some("maths"))
    );

    // A new description keeps the name; null clears it.
    ada.ask(&mut network, AGENT_PROFILE, json!({"description": "logic"}));
    assert_eq!(
        profile_of(&network, "human:guest-1").name.as_deref(),
        Some("Ada L.")
    );
    ada.ask(&mut network, AGENT_PROFILE, json!({"name": null}));
    assert_eq!(profile_of(&network, "human:guest-1").name, None);

    // Nobody names another: there is no field for it, and a forged announcement is refused.
    let effects = bob.ask(
        &mut network,
        AGENT_PROFILE,
        json!({"address": "human:guest-1", "name": "Eve"}),
    );
    assert_eq!(error_code(&effects), ErrorCode::InvalidRequest);
    let effects = bob.broadcast(
        &mut network,
        "workspace.member.updated",
        json!({"address": "human:guest-1", "profile": {"name": "Eve"}}),
    );
    assert_eq!(error_code(&effects), ErrorCode::ReservedType);
    bob.ask(&mut network, AGENT_PROFILE, json!({"name": "Bob"}));
    assert_eq!(profile_of(&network, "human:guest-1").name, None);
    assert_eq!(
        profile_of(&network, "human:bob").name.as_deref(),
        Some("Bob")
    );

    // Names out of bounds change nothing.
    for bad in [
        json!({"name": "x".repeat(65)}),
        json!({"name": "a\nb"}),
        json!({"picture": "javascript:1"}),
    ] {
        let effects = bob.ask(&mut network, AGENT_PROFILE, bad);
        assert_eq!(error_code(&effects), ErrorCode::InvalidRequest);
    }
    assert_eq!(
        profile_of(&network, "human:bob").name.as_deref(),
        Some("Bob")
    );
}

#[test]
fn a_channel_keeps_the_name_its_creator_typed_for_everyone() {
    let mut network = bare();
    let [mut ann, mut bob] = join_all(&mut network, ["human:ann", "human:bob"]);
    let effects = ann.ask(
        &mut network,
        CHANNEL_CREATE,
        json!({"channel": "design-review", "title": " Design Review "}),
    );
    assert_eq!(acked(&effects).payload["channel"], "channel/design-review");
    let effects = bob.ask(&mut network, "network.agent.discover", json!({}));
    let roster = reply_of_type(&effects, "network.agent.discover.response");
    assert_eq!(
        roster.payload["titles"],
        json!({"channel/design-review": "Design Review"}),
        "the invitee reads the name the creator typed"
    );
    for bad in [json!("a\nb"), json!("x".repeat(81)), json!(7)] {
        let effects = ann.ask(
            &mut network,
            CHANNEL_CREATE,
            json!({"channel": "other", "title": bad}),
        );
        assert_eq!(error_code(&effects), ErrorCode::InvalidRequest);
    }
}
