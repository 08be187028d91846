//! Masters managing a running network: `network.admin.*` (docs/admin.md).

use super::*;

/// A network with the auth mod that `agent:boss` joins with the admin token.
fn with_admin(mut config: NetworkConfig, admin_token: &str) -> (Network, Peer) {
    config.access.admin_token_sha256 = Some(crate::crypto::sha256_hex(admin_token.as_bytes()));
    config.mods = vec![ModConfig::Auth];
    let mut network = Network::new(config, [], 0, [9; 32]);
    let credentials = json!({"credentials": {"admin_token": admin_token}});
    let boss = join_with(&mut network, "agent:boss", credentials);
    (network, boss)
}

/// The configuration the network stored among `effects`.
pub(super) fn stored_config(effects: &[Effect]) -> NetworkConfig {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::StoreConfig(config) => Some((**config).clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no stored configuration in {effects:#?}"))
}

fn logged_seq(effects: &[Effect]) -> Option<u64> {
    effects.iter().find_map(|e| match e {
        Effect::Append { seq, event, .. }
            if event.event_type.as_str().starts_with("network.admin.") =>
        {
            Some(*seq)
        }
        _ => None,
    })
}

#[test]
fn only_masters_administer_and_every_change_is_logged_and_stored() {
    let mut network = bare();
    let [mut boss, mut alice] = join_all(&mut network, ["agent:boss", "agent:alice"]);
    let refused = alice.ask(&mut network, "network.admin.pause", json!({}));
    assert_eq!(error_code(&refused), ErrorCode::Forbidden);
    assert_eq!(network.config().status, NetworkStatus::Active);

    let paused = boss.ask(&mut network, "network.admin.pause", json!({}));
    assert_eq!(acked(&paused).payload["status"], "paused");
    assert!(logged_seq(&paused).is_some(), "the change is in the log");
    assert_eq!(stored_config(&paused).status, NetworkStatus::Paused);

    // A paused network refuses members' events with its code, but still takes its masters' admin.
    let chat = alice.broadcast(&mut network, "chat.msg", json!({}));
    assert_eq!(error_code(&chat), ErrorCode::NetworkUnavailable);
    let resumed = boss.ask(&mut network, "network.admin.resume", json!({}));
    assert_eq!(stored_config(&resumed).status, NetworkStatus::Active);
    let chat = alice.broadcast(&mut network, "chat.msg", json!({}));
    assert!(acked(&chat).payload["seq"].is_u64());

    let archived = boss.ask(&mut network, "network.admin.archive", json!({}));
    assert_eq!(stored_config(&archived).status, NetworkStatus::Archived);
    // Every member's credentials end, the master's too, after the master has its answer.
    let ack_at = archived.iter().position(|e| matches!(e, Effect::Ack(_)));
    for member in ["agent:alice", "agent:boss"] {
        let ended = archived
            .iter()
            .position(|e| e == &Effect::EndCredentials(addr(member)));
        assert!(
            ended > ack_at && ack_at.is_some(),
            "{member}: {archived:#?}"
        );
    }
    assert!(
        network.member(&addr("agent:alice")).is_some(),
        "the roster stays"
    );
    // Archived is final.
    let again = boss.ask(&mut network, "network.admin.resume", json!({}));
    assert_eq!(error_code(&again), ErrorCode::NetworkUnavailable);
}

#[test]
fn a_banned_member_is_closed_out_and_refused_at_join_until_unbanned() {
    let (mut network, mut boss) = bare_with("agent:boss");
    join(&mut network, "agent:mallory");
    let banned = boss.ask(
        &mut network,
        MEMBER_BAN,
        json!({"address": "agent:mallory", "reason": "spam"}),
    );
    assert!(banned.contains(&Effect::EndCredentials(addr("agent:mallory"))));
    assert!(network.member(&addr("agent:mallory")).is_none());
    assert!(
        stored_config(&banned)
            .banned
            .contains(&addr("agent:mallory"))
    );

    assert_eq!(
        error_code(&try_join_at(&mut network, "agent:mallory", json!({}), 20)),
        ErrorCode::Banned
    );
    boss.ask(
        &mut network,
        MEMBER_UNBAN,
        json!({"address": "agent:mallory"}),
    );
    join(&mut network, "agent:mallory");

    // Removal without a ban: gone, and free to come back.
    let removed = boss.ask(
        &mut network,
        MEMBER_REMOVE,
        json!({"address": "agent:mallory"}),
    );
    assert!(removed.contains(&Effect::EndCredentials(addr("agent:mallory"))));
    join(&mut network, "agent:mallory");
    let nobody = boss.ask(
        &mut network,
        MEMBER_REMOVE,
        json!({"address": "agent:nobody"}),
    );
    assert_eq!(error_code(&nobody), ErrorCode::NotFound);
}

#[test]
fn rotated_tokens_are_only_in_the_masters_ack_and_the_old_ones_stop_working() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.access = Access::token("old-token");
    let (mut network, mut boss) = with_admin(config, "old-admin");
    let rotated = boss.ask(&mut network, TOKEN_ROTATE, json!({"token": "access"}));
    let token = acked(&rotated).payload["token"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(token.len(), 64);
    let logged = appended(&rotated)[0].encode();
    assert!(!logged.contains(&token), "the log never holds the token");

    assert_eq!(
        error_code(&try_join_at(
            &mut network,
            "agent:late",
            json!({"credentials": {"token": "old-token"}}),
            20
        )),
        ErrorCode::AccessDenied
    );
    join_with(
        &mut network,
        "agent:late",
        json!({"credentials": {"token": token}}),
    );

    let admin = boss.ask(&mut network, TOKEN_ROTATE, json!({"token": "admin"}));
    let admin_token = acked(&admin).payload["token"].as_str().unwrap().to_owned();
    assert!(network.config().is_admin_credential(Some(&admin_token)));
    assert!(!network.config().is_admin_credential(Some("old-admin")));
}

#[test]
fn mods_load_unload_and_reconfigure_at_runtime_with_their_priorities() {
    let (mut network, mut boss) = bare_with("agent:boss");
    let loaded = boss.ask(&mut network, MOD_LOAD, json!({"name": "analytics"}));
    assert_eq!(acked(&loaded).payload["mods"], json!(["mod/analytics"]));
    let twice = boss.ask(&mut network, MOD_LOAD, json!({"name": "analytics"}));
    assert_eq!(error_code(&twice), ErrorCode::AlreadyExists);
    boss.ask(&mut network, MOD_LOAD, json!({"name": "persistence"}));
    assert_eq!(
        network.mods(),
        vec![addr("mod/persistence"), addr("mod/analytics")]
    );
    // A lower priority runs the analytics first among the observers.
    let moved = boss.ask(
        &mut network,
        MOD_CONFIGURE,
        json!({"name": "mod/analytics", "priority": -5}),
    );
    assert_eq!(stored_config(&moved).mod_priorities["analytics"], -5);
    assert_eq!(
        network.mods(),
        vec![addr("mod/analytics"), addr("mod/persistence")]
    );
    // The counts survive a reconfiguration that did not change the mod's settings.
    let counted = network.analytics().unwrap()["total"].as_u64().unwrap();
    assert!(counted >= 2, "{counted}");

    let limiter = boss.ask(
        &mut network,
        MOD_LOAD,
        json!({"name": "rate-limiter", "settings": {"burst": 100, "per_second": 5.0}}),
    );
    assert!(matches!(
        &stored_config(&limiter).mods[..],
        [.., ModConfig::RateLimiter(RateLimit { burst: 100, .. })]
    ));
    let bad = boss.ask(
        &mut network,
        MOD_CONFIGURE,
        json!({"name": "rate-limiter", "settings": {"burst": "many"}}),
    );
    assert_eq!(error_code(&bad), ErrorCode::InvalidRequest);
    let unloaded = boss.ask(&mut network, MOD_UNLOAD, json!({"name": "rate-limiter"}));
    assert!(acked(&unloaded).payload["mods"].as_array().unwrap().len() == 2);
    let unknown = boss.ask(&mut network, MOD_LOAD, json!({"name": "teleport"}));
    assert_eq!(error_code(&unknown), ErrorCode::NotFound);
}

#[test]
fn unloading_auth_from_a_token_network_is_refused_as_it_would_open_it() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.access = Access::token("t");
    config.mods = vec![ModConfig::Auth];
    config.masters = vec![addr("agent:boss")];
    let mut network = Network::new(config, [], 0, [9; 32]);
    let mut boss = join_with(
        &mut network,
        "agent:boss",
        json!({"credentials": {"token": "t"}}),
    );
    let open = boss.ask(&mut network, MOD_UNLOAD, json!({"name": "auth"}));
    assert_eq!(error_code(&open), ErrorCode::InvalidRequest);
    assert_eq!(network.mods(), vec![addr("mod/auth")]);
}

#[test]
fn settings_change_presence_limits_and_listing_within_bounds() {
    let (mut network, mut boss) = bare_with("agent:boss");
    let changed = boss.send(
        &mut network,
        "network.admin.settings.update",
        "core",
        json!({"presence_timeout_ms": 10_000, "public": true, "name": "Renamed",
               "limits": {"max_frame_bytes": 65536, "max_payload_bytes": 32768,
                          "max_metadata_bytes": 4096, "max_type_len": 64}}),
    );
    let config = stored_config(&changed);
    assert_eq!(config.presence_timeout_ms, 10_000);
    assert!(config.public);
    assert_eq!(config.name, "Renamed");
    assert_eq!(config.limits.max_payload_bytes, 32768);
    // The new presence timeout is what the alarm uses.
    assert_eq!(network.next_wakeup(), Some(Timestamp::from(10 + 10_000)));
    let too_short = boss.ask(
        &mut network,
        SETTINGS_UPDATE,
        json!({"presence_timeout_ms": 1}),
    );
    assert_eq!(error_code(&too_short), ErrorCode::InvalidRequest);
    assert_eq!(network.config().presence_timeout_ms, 10_000);
}

#[test]
fn invitations_are_revoked_and_the_config_read_hides_secret_hashes() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.access = Access::token("t");
    config.access.policy = AccessPolicy::Invite;
    let (mut network, mut boss) = with_admin(config, "admin");
    let invited = boss.ask(&mut network, "network.agent.invite", json!({}));
    let code = acked(&invited).payload["code"].as_str().unwrap().to_owned();
    let read = boss.ask(&mut network, "network.admin.config", json!({}));
    let ack = acked(&read).payload;
    assert_eq!(ack["invitations"][0]["code"], code.as_str());
    assert_eq!(ack["config"]["access"]["has_token"], true);
    assert!(ack["config"]["access"].get("token_sha256").is_none());
    assert!(!read.iter().any(|e| matches!(e, Effect::StoreConfig(_))));

    let revoked = boss.ask(
        &mut network,
        "network.admin.invitation.revoke",
        json!({"code": code}),
    );
    assert!(revoked.contains(&Effect::Remove {
        kind: RowKind::Invitation,
        key: code.clone()
    }));
    assert_eq!(
        error_code(&try_join_at(
            &mut network,
            "agent:guest",
            json!({"credentials": {"invite": code}}),
            20
        )),
        ErrorCode::AccessDenied
    );
}

#[test]
fn workspace_invitations_are_logged_and_their_inviter_hears_of_acceptance_and_rejection() {
    let mut config = NetworkConfig::open("demo".parse().unwrap(), "Demo");
    config.access.policy = AccessPolicy::Invite;
    config.masters = vec![addr("agent:boss")];
    let (mut network, mut boss) = with_admin(config, "admin");
    let created = boss.ask(
        &mut network,
        INVITATION_CREATED,
        json!({"invitee": "agent:guest"}),
    );
    let code = acked(&created).payload["code"].as_str().unwrap().to_owned();
    let logged = appended(&created)[0].encode();
    assert!(!logged.contains(&code), "the log never holds the code");

    let joined = join_with(
        &mut network,
        "agent:guest",
        json!({"credentials": {"invite": code}}),
    );
    drop(joined);
    let refused = try_join_at(
        &mut network,
        "agent:other",
        json!({"credentials": {"invite": code}}),
        20,
    );
    assert_eq!(
        error_code(&refused),
        ErrorCode::AccessDenied,
        "an invitation is used once"
    );

    let second = boss.ask(&mut network, INVITATION_CREATED, json!({}));
    let code = acked(&second).payload["code"].as_str().unwrap().to_owned();
    // Its holder sees what it is invited to, and by whom, without joining.
    let shown = network.invitation_for(&code, Timestamp::from(30)).unwrap();
    assert_eq!(shown["network"]["id"], "demo");
    assert_eq!(shown["network"]["name"], "Demo");
    assert_eq!(shown["network"]["policy"], "invite");
    assert_eq!(shown["inviter"], "agent:boss");
    assert_eq!(
        shown["inviter_name"],
        serde_json::Value::Null,
        "the boss gave itself no name"
    );
    assert_eq!(
        network
            .invitation_for("not-a-code", Timestamp::from(30))
            .unwrap_err()
            .code,
        ErrorCode::NotFound
    );
    let declined = network
        .reject_invitation(&code, Timestamp::from(30))
        .unwrap();
    let (_, news) = single_frame(&declined);
    assert_eq!(news["type"], "workspace.invitation.rejected");
    assert_eq!(news["target"], "agent:boss");
    assert_eq!(
        network
            .reject_invitation(&code, Timestamp::from(31))
            .unwrap_err()
            .code,
        ErrorCode::NotFound
    );
    assert_eq!(
        network
            .invitation_for(&code, Timestamp::from(31))
            .unwrap_err()
            .code,
        ErrorCode::NotFound
    );
}

#[test]
fn the_inviter_is_told_when_its_invitation_is_used() {
    let (mut network, mut boss) = bare_with("agent:boss");
    let created = boss.ask(&mut network, INVITATION_CREATED, json!({}));
    let code = acked(&created).payload["code"].as_str().unwrap().to_owned();
    let effects = try_join_at(
        &mut network,
        "agent:guest",
        json!({"credentials": {"invite": code}}),
        20,
    );
    let news = effects
        .iter()
        .find_map(|e| match e {
            Effect::Deliver { to, event, .. }
                if event.event_type.as_str() == "workspace.invitation.accepted" =>
            {
                Some((to.clone(), event.payload.clone()))
            }
            _ => None,
        })
        .expect("the inviter hears of it");
    assert_eq!(news.0, vec![addr("agent:boss")]);
    assert_eq!(news.1["invitee"], "agent:guest");
}
