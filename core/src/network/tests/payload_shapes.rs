//! Fields of the wrong type, `null` and payloads that are no object, in the
//! requests with a shape: each is refused with its own code and message, or
//! read as it always was (admin settings and mods, resources, sessions).

use super::admin::stored_config;
use super::*;
use crate::event::Limits;
use crate::model::access::Permissions;
use crate::model::file_limits::FileLimits;
use crate::model::payloads::{Payload, ResourceList};

/// The code and message of a single error reply.
fn refusal(effects: &[Effect]) -> (ErrorCode, String) {
    let code = error_code(effects);
    let message = match effects {
        [Effect::Reply(e)] => e.payload["message"].as_str().unwrap_or("").to_owned(),
        _ => String::new(),
    };
    (code, message)
}

fn invalid(message: &str) -> (ErrorCode, String) {
    (ErrorCode::InvalidRequest, message.to_owned())
}

/// serde's reason `value` is no `T`, as the handlers quote it.
fn reason<T: serde::de::DeserializeOwned + std::fmt::Debug>(value: Value) -> String {
    serde_json::from_value::<T>(value).unwrap_err().to_string()
}

#[test]
fn settings_of_the_wrong_type_or_null_are_refused_with_their_message() {
    let (mut network, mut boss) = bare_with("agent:boss");
    let timeout = "presence_timeout_ms is 5000 to 86400000 milliseconds";
    for (payload, refused) in [
        (json!({"presence_timeout_ms": null}), invalid(timeout)),
        (json!({"presence_timeout_ms": "10000"}), invalid(timeout)),
        (json!({"presence_timeout_ms": 10000.5}), invalid(timeout)),
        (json!({"presence_timeout_ms": -1}), invalid(timeout)),
        (
            json!({"limits": null}),
            invalid(&format!("limits: {}", reason::<Limits>(json!(null)))),
        ),
        (
            json!({"limits": {"max_frame_bytes": "big"}}),
            invalid(&format!(
                "limits: {}",
                reason::<Limits>(json!({"max_frame_bytes": "big"}))
            )),
        ),
        (
            json!({"files": null}),
            invalid(&format!("files: {}", reason::<FileLimits>(json!(null)))),
        ),
        (
            json!({"files": 3}),
            invalid(&format!("files: {}", reason::<FileLimits>(json!(3)))),
        ),
        (json!({"public": null}), invalid("public is true or false")),
        (json!({"public": "yes"}), invalid("public is true or false")),
        (
            json!({"name": null}),
            invalid("name is 1 to 200 characters"),
        ),
        (json!({"name": 5}), invalid("name is 1 to 200 characters")),
        (
            json!({"name": "  "}),
            invalid("name is 1 to 200 characters"),
        ),
        (
            json!({"description": null}),
            invalid("description is at most 2000 characters"),
        ),
        (
            json!({"description": ["a"]}),
            invalid("description is at most 2000 characters"),
        ),
        (
            json!({"token": 5}),
            invalid("payload.token is access or admin"),
        ),
    ] {
        let kind = if payload.get("token").is_some() {
            "network.admin.token.rotate"
        } else {
            SETTINGS_UPDATE
        };
        assert_eq!(
            refusal(&boss.ask(&mut network, kind, payload.clone())),
            refused,
            "{payload}"
        );
    }
    let revoked = boss.ask(
        &mut network,
        "network.admin.invitation.revoke",
        json!({"code": 5}),
    );
    assert_eq!(refusal(&revoked), invalid("payload.code names it"));
    for (channels, refused) in [
        (json!(null), "channels is a list of channel names"),
        (json!("general"), "channels is a list of channel names"),
        (json!([5]), "5 is not a channel name"),
        (json!(["no way"]), "\"no way\" is not a channel name"),
    ] {
        let host = json!({ "channels": channels });
        let hosted = boss.ask(&mut network, "network.admin.agent.host", host);
        assert_eq!(refusal(&hosted), invalid(refused), "{channels}");
    }
    // A payload that is no object changes nothing, and is no error.
    let listed = boss.ask(&mut network, SETTINGS_UPDATE, json!(["public", true]));
    assert!(!stored_config(&listed).public);
    let named = boss.ask(&mut network, SETTINGS_UPDATE, json!({"name": " Spaced "}));
    assert_eq!(stored_config(&named).name, " Spaced ");
}

#[test]
fn mod_requests_of_the_wrong_type_keep_their_messages_and_null_is_left_out() {
    let (mut network, mut boss) = bare_with("agent:boss");
    for (payload, refused) in [
        (json!({"name": 5}), invalid("payload.name names the mod")),
        (
            json!({"name": "analytics", "priority": "1"}),
            invalid("priority is a whole number"),
        ),
        (
            json!({"name": "analytics", "priority": 1.5}),
            invalid("priority is a whole number"),
        ),
        (
            json!({"name": "analytics", "priority": 4_294_967_296_i64}),
            invalid("priority is a whole number"),
        ),
        (
            json!({"name": "analytics", "settings": [1]}),
            invalid("settings is an object"),
        ),
        // Naming an agent at all makes it an agent mod, `null` too.
        (
            json!({"name": "analytics", "agent": null}),
            invalid("payload.agent names it"),
        ),
        (json!({"agent": 7}), invalid("payload.agent names it")),
        (json!(["analytics"]), invalid("payload.name names the mod")),
    ] {
        let answer = boss.ask(&mut network, MOD_LOAD, payload.clone());
        assert_eq!(refusal(&answer), refused, "{payload}");
    }
    let loaded = boss.ask(
        &mut network,
        MOD_LOAD,
        json!({"name": "analytics", "priority": null, "settings": null}),
    );
    let config = stored_config(&loaded);
    assert_eq!(config.mods, vec![ModConfig::Analytics]);
    assert!(config.mod_priorities.is_empty());
}

/// The resource stored at `address`.
fn resource(network: &Network, address: &str) -> Resource {
    network.state.resources[&addr(address)].clone()
}

#[test]
fn resource_fields_of_the_wrong_type_are_left_out_or_refused_as_before() {
    let (mut network, mut owner) = bare_with("agent:owner");
    let wrong = owner.register(
        &mut network,
        json!({"address": "resource/tool/t", "permissions": "x"}),
    );
    let message = format!("payload.permissions: {}", reason::<Permissions>(json!("x")));
    assert_eq!(refusal(&wrong), invalid(&message));
    let registered = owner.register(
        &mut network,
        json!({"address": "resource/tool/t", "permissions": null, "replace": "yes",
               "description": 5, "content_type": 5, "schema": null, "content": null}),
    );
    acked(&registered);
    let tool = resource(&network, "resource/tool/t");
    assert_eq!(tool.permissions, Permissions::default());
    assert_eq!(
        (
            tool.description.as_str(),
            &tool.content_type,
            &tool.schema,
            &tool.content
        ),
        ("", &None, &None, &None)
    );
    // An update's `null` permissions are left out; a `null` schema is kept as sent.
    let tool_at = |peer: &mut Peer, network: &mut Network, payload: Value| {
        peer.send(network, RESOURCE_UPDATE, "resource/tool/t", payload)
    };
    let left_out = tool_at(&mut owner, &mut network, json!({"permissions": null}));
    assert!(left_out.iter().any(|e| matches!(e, Effect::Store(_))));
    assert_eq!(
        resource(&network, "resource/tool/t").permissions,
        Permissions::default()
    );
    let refused = tool_at(&mut owner, &mut network, json!({"permissions": "x"}));
    assert_eq!(refusal(&refused), invalid(&message));
    tool_at(
        &mut owner,
        &mut network,
        json!({"schema": null, "description": 5, "content_type": "text/plain"}),
    );
    let tool = resource(&network, "resource/tool/t");
    assert_eq!(
        (tool.schema, tool.description.as_str()),
        (Some(Value::Null), "")
    );
    // A `type` of the wrong type filters nothing.
    let listed = owner.ask(
        &mut network,
        "network.resource.discover",
        json!({"type": 5}),
    );
    let reply = reply_of_type(&listed, ResourceList::EVENT_TYPE);
    assert_eq!(reply.payload["resources"].as_array().map(Vec::len), Some(1));
}

#[test]
fn session_fields_of_the_wrong_type_keep_their_messages() {
    let mut network = network_with(vec![ModConfig::Workspace(WorkspaceSettings {
        master: Some(addr("agent:boss")),
    })]);
    let [mut ann, _boss] = join_all(&mut network, ["human:ann", "agent:boss"]);
    let title = "title is a text of 1 to 200 characters, without control characters";
    let status = "status is open, closed or archived";
    let master = "master is a member's address, or null for none";
    for (payload, refused) in [
        (json!(["plan"]), invalid("payload is an object")),
        (json!({"title": null}), invalid(title)),
        (json!({"title": 5}), invalid(title)),
        (json!({"status": null}), invalid(status)),
        (json!({"status": "done"}), invalid(status)),
        (json!({"master": 5}), invalid(master)),
    ] {
        let answer = ann.broadcast(&mut network, SESSION_CREATED, payload.clone());
        assert_eq!(refusal(&answer), refused, "{payload}");
    }
    // `master: null` is no master, not the network's; a `session` of another type is the event's id.
    let sent = ann.event(
        SESSION_CREATED,
        "agent:broadcast",
        json!({"session": 5, "master": null}),
    );
    let session = json!(crate::ids::session_id::SessionId::from(sent.id));
    let created = network.handle_event(Some(&addr("human:ann")), sent, Timestamp::from(10));
    let event = created
        .iter()
        .find_map(|e| match e {
            Effect::Deliver { event, .. } => Some(event.as_ref().clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("nothing delivered in {created:#?}"));
    assert_eq!(event.payload["master"], Value::Null);
    assert_eq!(event.payload["session"], session);
    for (payload, refused) in [
        (
            json!({"session": 5, "title": "t"}),
            invalid("session names the session: {id}, session-{id} or channel/session-{id}"),
        ),
        (json!({"session": session, "title": null}), invalid(title)),
        (json!({"session": session, "master": []}), invalid(master)),
        (
            json!({"session": session}),
            invalid("an update changes title, status or master"),
        ),
    ] {
        let answer = ann.broadcast(&mut network, "workspace.session.updated", payload.clone());
        assert_eq!(refusal(&answer), refused, "{payload}");
    }
}
