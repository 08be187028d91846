//! `mod/workspace` through the network: sessions created and updated (who
//! may, what is valid, what is kept across a restart), the master as first
//! responder, delegation and the delegate's answer routed back.

use super::*;

fn workspace(master: Option<&str>) -> Network {
    let settings = WorkspaceSettings {
        master: master.map(addr),
    };
    network_with(vec![ModConfig::Workspace(settings)])
}

/// The event of `kind` delivered among `effects`, and to whom.
fn delivered(effects: &[Effect], kind: &str) -> (Vec<String>, Event) {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Deliver { to, event, .. } if event.event_type.as_str() == kind => Some((
                to.iter().map(ToString::to_string).collect(),
                event.as_ref().clone(),
            )),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no {kind} delivered in {effects:#?}"))
}

/// What the network stored: mod state and channels, enough to restart it.
fn saved_rows(effects: &[Effect]) -> Vec<Row> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Store(row @ (Row::ModState { .. } | Row::Channel(_))) => Some(row.clone()),
            _ => None,
        })
        .collect()
}

fn members_of(network: &Network, channel: &str) -> Vec<String> {
    network.state.channels[&channel.parse().unwrap()]
        .members
        .iter()
        .map(ToString::to_string)
        .collect()
}

const UPDATED: &str = "workspace.session.updated";

/// The message `author` posts to `target` with `content`, as it is delivered.
fn posted_to(author: &mut Peer, network: &mut Network, target: &str, content: &str) -> Event {
    let sent = author.send(
        network,
        "workspace.message.posted",
        target,
        json!({ "content": content }),
    );
    delivered(&sent, "workspace.message.posted").1
}

#[test]
fn sessions_are_updated_by_participants_and_masters_and_bad_updates_get_codes() {
    let mut network = workspace(None);
    let [mut ann, mut bob] = join_all(&mut network, ["human:ann", "agent:bob"]);
    let mut boss = join(&mut network, "agent:boss"); // a master of the network
    let created = ann.broadcast(
        &mut network,
        SESSION_CREATED,
        json!({"session": "plan", "title": "  Plan the launch "}),
    );
    let (_, event) = delivered(&created, "workspace.session.created");
    assert_eq!(event.payload["channel"], "channel/session-plan");
    assert_eq!(event.payload["title"], "Plan the launch");
    assert_eq!(event.payload["status"], "open");
    assert_eq!(members_of(&network, "session-plan"), ["human:ann"]);
    let mut rows = saved_rows(&created);

    // A member who is not a participant may not change it; a master may.
    let rename = json!({"session": "plan", "title": "Launch"});
    let refused = bob.broadcast(&mut network, UPDATED, rename.clone());
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    let renamed = boss.broadcast(&mut network, UPDATED, rename);
    let (to, event) = delivered(&renamed, UPDATED);
    assert!(to.contains(&"human:ann".to_owned()), "{to:?}");
    assert_eq!(event.payload["channel"], "channel/session-plan");
    rows.extend(saved_rows(&renamed));

    // A participant closes it, naming it by its channel.
    let closed = ann.send(
        &mut network,
        UPDATED,
        "channel/session-plan",
        json!({"session": "channel/session-plan", "status": "closed", "master": "agent:bob"}),
    );
    let (_, event) = delivered(&closed, UPDATED);
    assert_eq!(event.payload["session"], "plan");
    // The new master takes part in the session.
    assert_eq!(
        members_of(&network, "session-plan"),
        ["agent:bob", "human:ann"]
    );
    rows.extend(saved_rows(&closed));

    for (payload, code) in [
        (
            json!({"session": "nope", "title": "x"}),
            ErrorCode::NotFound,
        ),
        (
            json!({"title": "no session named"}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"session": "bad id!", "title": "x"}),
            ErrorCode::InvalidRequest,
        ),
        (json!({"session": "plan"}), ErrorCode::InvalidRequest),
        (
            json!({"session": "plan", "title": ""}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"session": "plan", "title": "x".repeat(201)}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"session": "plan", "title": "a\u{7}b"}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"session": "plan", "status": "done"}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"session": "plan", "master": "agent:ghost"}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"session": "plan", "master": "channel/x"}),
            ErrorCode::InvalidRequest,
        ),
        (
            json!({"session": "plan", "master": "not an address!"}),
            ErrorCode::InvalidAddress,
        ),
        (json!("plan"), ErrorCode::InvalidRequest),
    ] {
        let effects = ann.broadcast(&mut network, UPDATED, payload.clone());
        assert_eq!(error_code(&effects), code, "{payload}");
    }
    let again = ann.broadcast(&mut network, SESSION_CREATED, json!({"session": "plan"}));
    assert_eq!(error_code(&again), ErrorCode::AlreadyExists);

    // Archived is final.
    let archived = ann.broadcast(
        &mut network,
        UPDATED,
        json!({"session": "plan", "status": "archived"}),
    );
    delivered(&archived, UPDATED);
    rows.extend(saved_rows(&archived));
    let reopen = ann.broadcast(
        &mut network,
        UPDATED,
        json!({"session": "plan", "status": "open"}),
    );
    assert_eq!(error_code(&reopen), ErrorCode::InvalidTransition);

    // The records are the mod's saved state: a restarted network knows the session, archived.
    let saved = rows
        .iter()
        .rev()
        .find_map(|row| match row {
            Row::ModState { state, .. } => Some(state.clone()),
            _ => None,
        })
        .expect("the saved state");
    assert_eq!(
        saved["sessions"]["plan"],
        json!({"title": "Launch", "status": "archived", "master": "agent:bob", "created_by": "human:ann"})
    );
    let config = network.config().clone();
    let mut restarted = Network::new(config, rows, 0, [8; 32]);
    let mut ann = join(&mut restarted, "human:ann");
    let reopen = ann.send(
        &mut restarted,
        UPDATED,
        "agent:broadcast",
        json!({"session": "plan", "title": "x"}),
    );
    assert_eq!(error_code(&reopen), ErrorCode::InvalidTransition);
}

#[test]
fn the_master_answers_first_what_names_no_addressee() {
    let mut network = workspace(Some("agent:lead"));
    let [mut ann, mut lead] = join_all(&mut network, ["human:ann", "agent:lead"]);
    join(&mut network, "agent:bob");
    let post = |peer: &mut Peer, network: &mut Network, target: &str, metadata: Value| {
        let mut event = peer.event("workspace.message.posted", target, json!({"content": "hi"}));
        event.metadata = metadata.as_object().cloned().unwrap_or_default();
        let effects = network.handle_event(Some(&peer.address.clone()), event, Timestamp::from(10));
        delivered(&effects, "workspace.message.posted").1.metadata
    };
    // To the network, no addressee: the network's master answers first.
    let meta = post(&mut ann, &mut network, "agent:broadcast", json!({}));
    assert_eq!(meta["first_responder"], "agent:lead");
    // A sender cannot name the first responder itself; a named addressee has none.
    let meta = post(
        &mut ann,
        &mut network,
        "agent:broadcast",
        json!({"first_responder": "agent:bob", "mentions": ["agent:bob"]}),
    );
    assert!(!meta.contains_key("first_responder"), "{meta:?}");
    // The master's own messages have none.
    let meta = post(&mut lead, &mut network, "agent:broadcast", json!({}));
    assert!(!meta.contains_key("first_responder"), "{meta:?}");

    // A new thread: the master (the network's, unless it names its own) is told first and takes part.
    let created = ann.broadcast(&mut network, SESSION_CREATED, json!({"session": "s1"}));
    let (to, event) = delivered(&created, "workspace.session.created");
    assert!(to.contains(&"agent:lead".to_owned()));
    assert_eq!(event.metadata["first_responder"], "agent:lead");
    assert_eq!(event.payload["master"], "agent:lead");
    assert_eq!(
        members_of(&network, "session-s1"),
        ["agent:lead", "human:ann"]
    );
    let meta = post(&mut ann, &mut network, "channel/session-s1", json!({}));
    assert_eq!(meta["first_responder"], "agent:lead");

    // A session with a master of its own: it answers there.
    ann.broadcast(
        &mut network,
        SESSION_CREATED,
        json!({"session": "s2", "master": "agent:bob"}),
    );
    let meta = post(&mut ann, &mut network, "channel/session-s2", json!({}));
    assert_eq!(meta["first_responder"], "agent:bob");

    // Without a master anywhere, nobody is named.
    let mut plain = workspace(None);
    let mut ann = join(&mut plain, "human:ann");
    join(&mut plain, "agent:bob");
    let meta = post(&mut ann, &mut plain, "agent:broadcast", json!({}));
    assert!(!meta.contains_key("first_responder"), "{meta:?}");
}

#[test]
fn a_delegated_message_is_answered_by_the_delegate_back_in_its_thread() {
    let mut network = workspace(Some("agent:lead"));
    let [mut ann, mut lead, mut expert, mut bob] = join_all(
        &mut network,
        ["human:ann", "agent:lead", "agent:expert", "agent:bob"],
    );
    ann.broadcast(&mut network, SESSION_CREATED, json!({"session": "q"}));
    let question = posted_to(
        &mut ann,
        &mut network,
        "channel/session-q",
        "what is 6 x 7?",
    );
    let delegate = |peer: &mut Peer, network: &mut Network, to: &str, payload: Value| {
        peer.send(network, "workspace.message.delegated", to, payload)
    };
    let message = json!({"message": question.id, "note": "yours"});

    let refused = delegate(&mut bob, &mut network, "agent:expert", message.clone());
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    for (to, payload, code) in [
        ("agent:expert", json!({}), ErrorCode::InvalidRequest),
        (
            "agent:expert",
            json!({"message": "01HQY7BR000000000000000000"}),
            ErrorCode::NotFound,
        ),
        ("agent:lead", message.clone(), ErrorCode::InvalidRequest),
        (
            "channel/session-q",
            message.clone(),
            ErrorCode::InvalidRequest,
        ),
    ] {
        let effects = delegate(&mut lead, &mut network, to, payload.clone());
        assert_eq!(error_code(&effects), code, "{to} {payload}");
    }

    let handed = delegate(&mut lead, &mut network, "agent:expert", message);
    let (to, delegation) = delivered(&handed, "workspace.message.delegated");
    assert_eq!(to, ["agent:expert"]);
    assert_eq!(
        delegation.metadata["delegation"],
        json!({"message": question.id, "from": "agent:lead", "place": "channel/session-q"})
    );
    assert!(members_of(&network, "session-q").contains(&"agent:expert".to_owned()));
    let rows = saved_rows(&handed);

    // The expert answers the delegation; the answer goes back to the thread as a reply to the question.
    let answer_to = |peer: &mut Peer, network: &mut Network, target: &str| {
        let mut answer = peer.event("workspace.message.posted", target, json!({"content": "42"}));
        answer
            .metadata
            .insert("in_reply_to".into(), json!(delegation.id));
        network.handle_event(Some(&peer.address.clone()), answer, Timestamp::from(10))
    };
    let answered = answer_to(&mut expert, &mut network, "agent:lead");
    let (to, answer) = delivered(&answered, "workspace.message.posted");
    assert_eq!(answer.target.to_string(), "channel/session-q");
    assert_eq!(to, ["agent:lead", "human:ann"]); // the sender aside
    assert_eq!(answer.metadata["in_reply_to"], json!(question.id));
    assert_eq!(
        answer.metadata["delegation"],
        json!({"id": delegation.id, "from": "agent:lead"})
    );
    assert!(!answer.metadata.contains_key("first_responder"));
    // Someone else naming the delegation is not routed.
    let other = answer_to(&mut bob, &mut network, "agent:lead");
    assert_eq!(
        delivered(&other, "workspace.message.posted").0,
        ["agent:lead"]
    );

    // Delegations are saved: after a restart the answer still goes back.
    let config = network.config().clone();
    let mut restarted = Network::new(config, rows, 0, [8; 32]);
    join(&mut restarted, "agent:lead");
    let mut expert = join(&mut restarted, "agent:expert");
    let answered = answer_to(&mut expert, &mut restarted, "agent:lead");
    let (_, answer) = delivered(&answered, "workspace.message.posted");
    assert_eq!(answer.target.to_string(), "channel/session-q");
}

#[test]
fn a_direct_question_delegated_is_answered_to_whoever_asked() {
    let mut network = workspace(None);
    let mut ann = join(&mut network, "human:ann");
    let mut boss = join(&mut network, "agent:boss"); // a master of the network may delegate
    let mut expert = join(&mut network, "agent:expert");
    let question = posted_to(&mut ann, &mut network, "agent:boss", "help?");
    let handed = boss.send(
        &mut network,
        MESSAGE_DELEGATED,
        "agent:expert",
        json!({"message": question.id}),
    );
    let delegation = delivered(&handed, "workspace.message.delegated").1;
    assert_eq!(delegation.metadata["delegation"]["place"], "human:ann");
    let mut answer = expert.event(
        "workspace.message.posted",
        "agent:boss",
        json!({"content": "sure"}),
    );
    answer
        .metadata
        .insert("in_reply_to".into(), json!(delegation.id));
    let effects = network.handle_event(Some(&expert.address.clone()), answer, Timestamp::from(10));
    assert_eq!(
        delivered(&effects, "workspace.message.posted").0,
        ["human:ann"]
    );
}

#[test]
fn stored_workspace_configs_without_settings_still_load() {
    let config: ModConfig = serde_json::from_value(json!({"name": "workspace"})).unwrap();
    assert_eq!(config, ModConfig::Workspace(WorkspaceSettings::default()));
    let with: ModConfig =
        serde_json::from_value(json!({"name": "workspace", "master": "agent:lead"})).unwrap();
    assert_eq!(
        serde_json::to_value(&with).unwrap(),
        json!({"name": "workspace", "master": "agent:lead"})
    );
}

#[test]
fn a_message_from_before_a_restart_is_delegated_from_the_log() {
    let host = super::durable::Durable::default();
    let settings = WorkspaceSettings {
        master: Some(addr("agent:lead")),
    };
    let mut network = host.network(vec![ModConfig::Persistence, ModConfig::Workspace(settings)]);
    let mut ann = host.join(&mut network, "human:ann");
    let mut lead = host.join(&mut network, "agent:lead");
    host.join(&mut network, "agent:expert");
    let asked = host.applied(ann.broadcast(
        &mut network,
        "workspace.message.posted",
        json!({"content": "what is 6 x 7?"}),
    ));
    let question = delivered(&asked, "workspace.message.posted").1;

    // The object slept: the first responder is read back from the log.
    let mut network = host.restart(&network);
    let handed = lead.send(
        &mut network,
        MESSAGE_DELEGATED,
        "agent:expert",
        json!({"message": question.id}),
    );
    let (to, delegation) = delivered(&handed, "workspace.message.delegated");
    assert_eq!(to, ["agent:expert"]);
    assert_eq!(
        delegation.metadata["delegation"]["place"],
        "agent:broadcast"
    );
}
