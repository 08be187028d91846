//! The network's own handling of each core event type (seed 000 appendix B),
//! and routing decisions for everything else.
//!
//! Each handler validates its payload, changes the state and says what to do
//! next in an [`Outcome`]: effects, whether to log, route and ack the event.

use super::{Channel, Group, Invitation, Member, Presence, Resource, Role, Row, RowKind};
use super::{Effect, LogFilter, MAX_READ_LIMIT, Network, Outcome, ReadRequest, Reader};
use crate::access::{Permission, Permissions};
use crate::address::{Address, Entity, Name};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::event_type::core_types as t;
use crate::metadata::ProtocolMetadata;
use crate::mods::JoinClaim;
use serde_json::{Value, json};

/// Default lifetime of an invitation.
pub const DEFAULT_INVITATION_TTL_MS: u64 = 7 * 24 * 3600 * 1000;

fn invalid(message: impl Into<String>) -> Rejection {
    Rejection::new(ErrorCode::InvalidRequest, message)
}

fn payload_str<'a>(event: &'a Event, key: &str) -> Option<&'a str> {
    event.payload.get(key).and_then(Value::as_str)
}

fn payload_address(event: &Event, key: &str) -> Result<Address, Rejection> {
    let text = payload_str(event, key)
        .ok_or_else(|| invalid(format!("payload.{key} must be an address")))?;
    text.parse()
        .map_err(|e: crate::address::AddressError| Rejection::from(&e))
}

/// `payload.{key}` as the name of a `{kind}/…` entity, accepting `general` or `channel/general`.
fn entity_name(event: &Event, key: &str, kind: &str) -> Result<Name, Rejection> {
    let text = payload_str(event, key)
        .ok_or_else(|| invalid(format!("payload.{key} must name a {kind}")))?;
    let prefix = format!("{kind}/");
    let full = if text.starts_with(&prefix) {
        text.to_owned()
    } else {
        format!("{prefix}{text}")
    };
    match full
        .parse::<Address>()
        .map_err(|e| Rejection::from(&e))?
        .entity()
    {
        Entity::Channel(name) if kind == "channel" => Ok(name.clone()),
        Entity::Group(name) if kind == "group" => Ok(name.clone()),
        _ => Err(invalid(format!("{text} is not a {kind}"))),
    }
}

fn channel_name(event: &Event, key: &str) -> Result<Name, Rejection> {
    entity_name(event, key, "channel")
}

fn group_name(event: &Event) -> Result<Name, Rejection> {
    entity_name(event, "group", "group")
}

fn member_list(event: &Event) -> Result<Vec<Address>, Rejection> {
    match event.payload.get("members") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                let a: Address = v
                    .as_str()
                    .ok_or_else(|| invalid("payload.members must be addresses"))?
                    .parse()
                    .map_err(|e: crate::address::AddressError| Rejection::from(&e))?;
                if a.entity().is_participant() && a.is_local() {
                    Ok(a)
                } else {
                    Err(invalid(format!("{a} cannot be a member")))
                }
            })
            .collect(),
        Some(_) => Err(invalid("payload.members must be a list of addresses")),
    }
}

fn logged() -> Outcome {
    Outcome {
        log: true,
        ..Outcome::default()
    }
}

fn routed() -> Outcome {
    Outcome {
        log: true,
        route: true,
        ..Outcome::default()
    }
}

fn replied(effect: Effect) -> Outcome {
    Outcome {
        effects: vec![effect],
        no_ack: true,
        ..Outcome::default()
    }
}

fn require_master(network: &Network, who: &Address, what: &str) -> Result<(), Rejection> {
    if network.state.role_of(who) == Some(Role::Master) {
        Ok(())
    } else {
        Err(Rejection::new(
            ErrorCode::Forbidden,
            format!("only masters may {what}"),
        ))
    }
}

/// Handles `event` after the guards accepted it.
pub(super) fn handle(
    network: &mut Network,
    event: &Event,
    claim: Option<&JoinClaim>,
    metadata: &ProtocolMetadata,
    now: u64,
) -> Result<Outcome, Rejection> {
    let source = &event.source;
    match event.event_type.as_str() {
        t::AGENT_JOIN => join(network, event, claim, now),
        t::AGENT_LEAVE => {
            let mut outcome = logged();
            if let Some(member) = network.state.members.get_mut(source) {
                member.status = Presence::Offline;
                member.last_seen = now;
                outcome
                    .effects
                    .push(Effect::Store(Row::Member(member.clone())));
            }
            outcome.effects.push(Effect::Unbind);
            #[cfg(feature = "documents")]
            outcome
                .effects
                .extend(network.close_documents_of(source, now));
            Ok(outcome)
        }
        t::AGENT_DISCOVER => {
            let roster = network.state.roster(&network.pipeline.addresses());
            let response = network.core_event(
                t::AGENT_DISCOVER_RESPONSE,
                source,
                Some(event.id),
                roster,
                now,
            );
            Ok(replied(Effect::Reply(response)))
        }
        t::AGENT_ANNOUNCE => {
            if event.target != Address::broadcast() {
                return Err(invalid("network.agent.announce goes to agent:broadcast"));
            }
            Ok(routed())
        }
        t::AGENT_INVITE => invite(network, event, now),
        t::PING => {
            let pong =
                network.core_event(t::PONG, source, Some(event.id), json!({"time": now}), now);
            Ok(replied(Effect::Reply(pong)))
        }
        t::CHANNEL_CREATE => {
            let name = channel_name(event, "channel").or_else(|_| channel_name(event, "name"))?;
            if network.state.channels.contains_key(&name) {
                return Err(Rejection::new(
                    ErrorCode::AlreadyExists,
                    format!("channel/{name} exists"),
                ));
            }
            let mut members: std::collections::BTreeSet<Address> =
                member_list(event)?.into_iter().collect();
            members.insert(source.clone());
            let channel = Channel {
                name: name.clone(),
                members,
                created_by: source.clone(),
            };
            network.state.channels.insert(name, channel.clone());
            let mut outcome = logged();
            outcome
                .ack
                .insert("channel".into(), json!(format!("channel/{}", channel.name)));
            outcome.effects.push(Effect::Store(Row::Channel(channel)));
            Ok(outcome)
        }
        t::CHANNEL_DELETE => {
            let name = channel_name(event, "channel")?;
            if network.state.channels.remove(&name).is_none() {
                return Err(Rejection::new(
                    ErrorCode::UnknownTarget,
                    format!("channel/{name} does not exist"),
                ));
            }
            let mut outcome = logged();
            outcome.effects.push(Effect::Remove {
                kind: RowKind::Channel,
                key: name.to_string(),
            });
            Ok(outcome)
        }
        t::CHANNEL_JOIN | t::CHANNEL_LEAVE => {
            let name = channel_name(event, "channel")?;
            let channel = network.state.channels.get_mut(&name).ok_or_else(|| {
                Rejection::new(
                    ErrorCode::UnknownTarget,
                    format!("channel/{name} does not exist"),
                )
            })?;
            if event.event_type.as_str() == t::CHANNEL_JOIN {
                channel.members.insert(source.clone());
            } else {
                channel.members.remove(source);
            }
            let mut outcome = logged();
            outcome
                .effects
                .push(Effect::Store(Row::Channel(channel.clone())));
            Ok(outcome)
        }
        t::GROUP_UPDATE => {
            require_master(network, source, "manage groups")?;
            let name = group_name(event)?;
            let group = Group {
                name: name.clone(),
                members: member_list(event)?.into_iter().collect(),
            };
            network.state.groups.insert(name, group.clone());
            let mut outcome = logged();
            outcome.effects.push(Effect::Store(Row::Group(group)));
            Ok(outcome)
        }
        t::GROUP_DELETE => {
            require_master(network, source, "manage groups")?;
            let name = group_name(event)?;
            if network.state.groups.remove(&name).is_none() {
                return Err(Rejection::new(
                    ErrorCode::UnknownTarget,
                    format!("group/{name} does not exist"),
                ));
            }
            let mut outcome = logged();
            outcome.effects.push(Effect::Remove {
                kind: RowKind::Group,
                key: name.to_string(),
            });
            Ok(outcome)
        }
        t::BRIDGE_UPDATE => {
            require_master(network, source, "manage bridges")?;
            let other: crate::network_id::NetworkId = payload_str(event, "network")
                .ok_or_else(|| invalid("payload.network names the other network"))?
                .parse()
                .map_err(|e| invalid(format!("payload.network: {e}")))?;
            let bridge = match event.payload.get("bridge") {
                None | Some(Value::Null) => None,
                Some(_) => Some(payload_address(event, "bridge")?),
            };
            if other == network.config.id
                || bridge
                    .as_ref()
                    .is_some_and(|b| !b.is_local() || !b.entity().is_participant())
            {
                return Err(invalid("a bridge is a local agent, for another network"));
            }
            let row = Row::Bridge {
                network: other,
                bridge,
            };
            network.state.apply(row.clone());
            let mut outcome = logged();
            outcome.effects.push(Effect::Store(row));
            Ok(outcome)
        }
        t::RESOURCE_REGISTER => register(network, event, now),
        t::RESOURCE_UNREGISTER => {
            let address = payload_address(event, "address")?;
            let resource = network.state.resources.get(&address).ok_or_else(|| {
                Rejection::new(
                    ErrorCode::UnknownTarget,
                    format!("{address} is not registered"),
                )
            })?;
            if !network.state.may(source, resource, Permission::Admin) {
                return Err(Rejection::new(
                    ErrorCode::Forbidden,
                    format!("{source} lacks admin on {address}"),
                ));
            }
            network.state.resources.remove(&address);
            let mut outcome = logged();
            #[cfg(feature = "documents")]
            outcome.effects.extend(network.delete_document(&address));
            outcome.effects.push(Effect::Remove {
                kind: RowKind::Resource,
                key: address.to_string(),
            });
            Ok(outcome)
        }
        t::RESOURCE_DISCOVER => {
            let kind = payload_str(event, "type");
            let resources: Vec<Value> = network
                .state
                .resources
                .values()
                .filter(|r| kind.is_none_or(|k| r.kind.as_str() == k))
                .filter(|r| network.state.may(source, r, Permission::Read))
                .map(|r| {
                    json!({
                        "address": r.address, "type": r.kind, "owner": r.owner, "description": r.description,
                        "schema": r.schema, "content_type": r.content_type,
                        "your_permissions": network.state.permissions_of(source, r),
                    })
                })
                .collect();
            let response = network.core_event(
                t::RESOURCE_DISCOVER_RESPONSE,
                source,
                Some(event.id),
                json!({ "resources": resources }),
                now,
            );
            Ok(replied(Effect::Reply(response)))
        }
        t::RESOURCE_INVOKE => {
            let resource = resource_at(network, &event.target)?;
            if !matches!(event.target.entity(), Entity::Tool(_)) {
                return Err(invalid(
                    "network.resource.invoke targets resource/tool/{name}",
                ));
            }
            let owner_online = network
                .state
                .members
                .get(&resource.owner)
                .is_some_and(Member::is_online);
            if !owner_online {
                return Err(Rejection::new(
                    ErrorCode::OwnerOffline,
                    format!(
                        "the owner of {}, {}, is offline",
                        resource.address, resource.owner
                    ),
                ));
            }
            Ok(routed())
        }
        t::RESOURCE_INVOKE_RESULT => {
            if metadata.in_reply_to.is_none() {
                return Err(invalid(
                    "network.resource.invoke.result needs metadata.in_reply_to",
                ));
            }
            Ok(routed())
        }
        t::RESOURCE_READ => {
            let resource = resource_at(network, &event.target)?.clone();
            #[allow(unused_mut)]
            let mut effects = Vec::new();
            #[allow(unused_mut)]
            let mut content = resource.content.clone();
            #[cfg(feature = "documents")]
            if content.is_none() && resource.kind != crate::address::ResourceKind::Tool {
                let (text, stored) = network.document_text(&resource.address);
                effects = stored;
                content = Some(Value::String(text));
            }
            let body = json!({
                "address": resource.address, "type": resource.kind, "owner": resource.owner,
                "description": resource.description, "content_type": resource.content_type,
                "schema": resource.schema, "content": content,
            });
            let response =
                network.core_event(t::RESOURCE_READ_RESPONSE, source, Some(event.id), body, now);
            effects.push(Effect::Reply(response));
            Ok(Outcome {
                effects,
                no_ack: true,
                ..Outcome::default()
            })
        }
        #[cfg(feature = "documents")]
        t::RESOURCE_UPDATE if crate::documents::is_sync_event(event) => {
            resource_at(network, &event.target)?;
            network.sync_document(event, now)
        }
        t::RESOURCE_UPDATE => update(network, event, now),
        t::EVENTS_QUERY => query(network, event),
        t::EVENT_ACK if event.target == Address::core() => {
            // A member's cumulative delivery acknowledgement.
            let seq = event
                .payload
                .get("seq")
                .and_then(Value::as_u64)
                .ok_or_else(|| invalid("an ack to core carries payload.seq"))?;
            let mut outcome = Outcome {
                no_ack: true,
                ..Outcome::default()
            };
            if let Some(cursor) = network.tracker.acknowledge(source, seq)
                && network.tracker.should_persist(source, cursor, now)
            {
                outcome.effects.push(Effect::Store(Row::Cursor {
                    address: source.clone(),
                    seq: cursor,
                }));
            }
            Ok(outcome)
        }
        t::EVENT_ACK => Ok(routed()),
        t::AGENT_RESUME => {
            let after = event
                .payload
                .get("after")
                .and_then(Value::as_u64)
                .unwrap_or_else(|| network.tracker.cursor(source));
            let mut outcome = Outcome {
                no_ack: true,
                ..Outcome::default()
            };
            if network.at_least_once() {
                outcome.effects.push(network.catch_up(source, after));
            }
            Ok(outcome)
        }
        other if other.starts_with("network.") => Err(invalid(format!(
            "{other} is not an event type this network handles"
        ))),
        _ => match event.target.entity() {
            Entity::Core => Err(invalid(format!(
                "core does not handle {}",
                event.event_type
            ))),
            Entity::Mod(_) => {
                let cx = crate::mods::Context {
                    state: &network.state,
                    config: &network.config,
                    now,
                    join: None,
                };
                let mut out = crate::mods::Outbox::new(&mut network.ids, &network.config.id, now);
                network.pipeline.handle(&cx, event, &mut out)?;
                let (emitted, commands) = (out.events, out.commands);
                let mut effects: Vec<Effect> = commands
                    .into_iter()
                    .flat_map(|c| network.apply_command(c))
                    .collect();
                effects.extend(emitted.into_iter().map(|e| Effect::Deliver {
                    to: vec![e.target.clone()],
                    event: std::rc::Rc::new(e),
                    order: None,
                }));
                Ok(Outcome {
                    effects,
                    log: true,
                    ..Outcome::default()
                })
            }
            _ => Ok(routed()),
        },
    }
}

fn resource_at<'a>(network: &'a Network, target: &Address) -> Result<&'a Resource, Rejection> {
    network
        .state
        .resources
        .get(&target.to_local())
        .ok_or_else(|| {
            Rejection::new(
                ErrorCode::UnknownTarget,
                format!("{target} is not registered"),
            )
        })
}

fn join(
    network: &mut Network,
    event: &Event,
    claim: Option<&JoinClaim>,
    now: u64,
) -> Result<Outcome, Rejection> {
    let address = event.source.clone();
    let verification = claim.map(|c| c.verification).unwrap_or_default();
    let wants_observer = payload_str(event, "role") == Some("observer");
    let admin_token = event
        .payload
        .get("credentials")
        .and_then(|c| c.get("admin_token"))
        .and_then(Value::as_str);
    let is_master = network.config.masters.contains(&address)
        || network.config.is_admin_credential(admin_token);
    let mut outcome = logged();
    if let Some(code) = event
        .payload
        .get("credentials")
        .and_then(|c| c.get("invite"))
        .and_then(Value::as_str)
        && network.state.invitations.remove(code).is_some()
    {
        outcome.effects.push(Effect::Remove {
            kind: RowKind::Invitation,
            key: code.to_owned(),
        });
    }
    // A member's delivery stream starts when it first becomes a member.
    let existed = network.state.members.contains_key(&address);
    let member = network
        .state
        .members
        .entry(address.clone())
        .or_insert_with(|| Member {
            address: address.clone(),
            role: Role::Member,
            verification,
            status: Presence::Online,
            last_seen: now,
        });
    if is_master {
        member.role = Role::Master;
    } else if wants_observer {
        member.role = Role::Observer;
    }
    member.verification = verification;
    member.status = Presence::Online;
    member.last_seen = now;
    let member = member.clone();
    outcome.ack.insert("member".into(), json!(member));
    outcome
        .ack
        .insert("network".into(), json!(network.config.id));
    outcome.effects.insert(0, Effect::Bind(address.clone()));
    outcome.effects.push(Effect::Store(Row::Member(member)));
    if network.at_least_once() {
        // Resume where the member says, else from its acknowledged cursor; a member the
        // network has never delivered to starts at the present.
        let resume = event
            .payload
            .get("resume")
            .and_then(|r| r.get("after"))
            .and_then(Value::as_u64);
        let after = match resume {
            Some(after) => after,
            None if existed => network.tracker.cursor(&address),
            None => {
                // New member: it starts at the present, and that is its cursor from now on.
                let start = network.last_seq;
                network.tracker.cursors.insert(address.clone(), start);
                outcome.effects.push(Effect::Store(Row::Cursor {
                    address: address.clone(),
                    seq: start,
                }));
                start
            }
        };
        outcome.ack.insert("resume_after".into(), json!(after));
        outcome.effects.push(network.catch_up(&address, after));
    }
    Ok(outcome)
}

fn invite(network: &mut Network, event: &Event, now: u64) -> Result<Outcome, Rejection> {
    let invitee = match event.payload.get("invitee") {
        None | Some(Value::Null) => None,
        Some(_) => Some(payload_address(event, "invitee")?),
    };
    let ttl = event
        .payload
        .get("ttl_ms")
        .and_then(Value::as_u64)
        .unwrap_or(DEFAULT_INVITATION_TTL_MS);
    let code = crate::crypto::to_hex(&network.ids.random_bytes());
    let invitation = Invitation {
        code: code.clone(),
        invitee,
        created_by: event.source.clone(),
        expires_at: now.saturating_add(ttl),
    };
    network
        .state
        .invitations
        .insert(code.clone(), invitation.clone());
    let mut outcome = Outcome::default();
    outcome.ack.insert("code".into(), json!(code));
    outcome
        .ack
        .insert("expires_at".into(), json!(invitation.expires_at));
    outcome
        .effects
        .push(Effect::Store(Row::Invitation(invitation)));
    Ok(outcome)
}

fn register(network: &mut Network, event: &Event, now: u64) -> Result<Outcome, Rejection> {
    let _ = now; // used by documents
    let source = &event.source;
    let address = payload_address(event, "address")?;
    let kind = address
        .entity()
        .resource_kind()
        .filter(|_| address.is_local())
        .ok_or_else(|| {
            invalid(format!(
                "{address} is not resource/tool|file|context/{{name}}"
            ))
        })?;
    let owner = match network.state.resources.get(&address) {
        Some(existing) if !network.state.may(source, existing, Permission::Admin) => {
            return Err(Rejection::new(
                ErrorCode::AlreadyExists,
                format!("{address} is registered by {}", existing.owner),
            ));
        }
        Some(existing) => existing.owner.clone(),
        None => source.clone(),
    };
    let permissions: Permissions = match event.payload.get("permissions") {
        None | Some(Value::Null) => Permissions::default(),
        Some(p) => serde_json::from_value(p.clone())
            .map_err(|e| invalid(format!("payload.permissions: {e}")))?,
    };
    let resource = Resource {
        address: address.clone(),
        kind,
        owner,
        description: payload_str(event, "description").unwrap_or("").to_owned(),
        schema: event
            .payload
            .get("schema")
            .cloned()
            .filter(|v| !v.is_null()),
        content_type: payload_str(event, "content_type").map(str::to_owned),
        permissions,
        content: event
            .payload
            .get("content")
            .cloned()
            .filter(|v| !v.is_null()),
    };
    #[cfg(feature = "documents")]
    let mut resource = resource;
    #[cfg(feature = "documents")]
    let document = if kind == crate::address::ResourceKind::Tool {
        Vec::new()
    } else {
        let content = resource.content.take();
        // Structured (non-text) content stays readable as it was given.
        resource.content = content.clone().filter(|c| !c.is_string());
        network.create_document(&address, content.as_ref(), now)
    };
    network
        .state
        .resources
        .insert(address.clone(), resource.clone());
    let mut outcome = logged();
    #[cfg(feature = "documents")]
    outcome.effects.extend(document);
    outcome.ack.insert("address".into(), json!(address));
    outcome
        .effects
        .push(Effect::Store(Row::Resource(Box::new(resource))));
    Ok(outcome)
}

fn update(network: &mut Network, event: &Event, now: u64) -> Result<Outcome, Rejection> {
    let source = event.source.clone();
    let target = event.target.to_local();
    let resource = resource_at(network, &target)?.clone();
    let mut updated = resource.clone();
    #[allow(unused_mut)]
    let mut document_effects: Vec<Effect> = Vec::new();
    if let Some(p) = event.payload.get("permissions").filter(|v| !v.is_null()) {
        if !network.state.may(&source, &resource, Permission::Admin) {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!("changing permissions of {target} needs admin"),
            ));
        }
        updated.permissions = serde_json::from_value(p.clone())
            .map_err(|e| invalid(format!("payload.permissions: {e}")))?;
    }
    if let Some(description) = payload_str(event, "description") {
        updated.description = description.to_owned();
    }
    match resource.kind {
        crate::address::ResourceKind::Tool => {
            if let Some(schema) = event.payload.get("schema") {
                updated.schema = Some(schema.clone());
            }
        }
        _ => {
            if let Some(content) = event.payload.get("content") {
                updated.content = Some(content.clone());
            }
            #[cfg(feature = "documents")]
            if let Some(content) = event.payload.get("content") {
                // The document follows whole-content updates; text lives only there.
                updated.content = Some(content.clone()).filter(|c| !c.is_string());
                document_effects = network.replace_document_content(&target, content, now);
            }
            if let Some(content_type) = payload_str(event, "content_type") {
                updated.content_type = Some(content_type.to_owned());
            }
        }
    }
    let _ = now;
    network.state.resources.insert(target, updated.clone());
    let mut outcome = routed();
    outcome.effects.extend(document_effects);
    outcome
        .effects
        .push(Effect::Store(Row::Resource(Box::new(updated))));
    Ok(outcome)
}

fn query(network: &mut Network, event: &Event) -> Result<Outcome, Rejection> {
    if !network.keeps_history {
        return Err(Rejection::new(
            ErrorCode::NotSupported,
            "this network keeps no history: network.events.query needs mod/persistence",
        ));
    }
    let optional_address = |key: &str| -> Result<Option<Address>, Rejection> {
        match event.payload.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => payload_address(event, key).map(Some),
        }
    };
    let types = payload_str(event, "types")
        .map(str::parse::<crate::event_type::EventPattern>)
        .transpose()
        .map_err(|e| Rejection::from(&e))?;
    let limit = event
        .payload
        .get("limit")
        .and_then(Value::as_u64)
        .unwrap_or(50);
    let request = ReadRequest {
        reader: Reader::Query {
            request_id: event.id,
            requester: event.source.clone(),
        },
        filter: LogFilter::History {
            types,
            source: optional_address("source")?,
            target: optional_address("target")?,
        },
        after: event
            .payload
            .get("after")
            .and_then(Value::as_u64)
            .unwrap_or(0),
        limit: usize::try_from(limit)
            .unwrap_or(MAX_READ_LIMIT)
            .clamp(1, MAX_READ_LIMIT),
    };
    Ok(Outcome {
        effects: vec![Effect::Read(request)],
        no_ack: true,
        ..Outcome::default()
    })
}
