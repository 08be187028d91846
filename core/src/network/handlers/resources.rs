//! Handlers for resources: register, unregister, discover, invoke, read and update.

use super::payload::{invalid, payload_address, resource_at};
use crate::error::{ErrorCode, Rejection};
use crate::event::Event;
use crate::event::metadata::ProtocolMetadata;
use crate::ids::address::Entity;
use crate::ids::time::Timestamp;
use crate::model::access::{Permission, Permissions};
use crate::model::membership::Member;
use crate::model::payloads::{Payload, ResourceContent, ResourceInfo, ResourceList};
use crate::model::requests::field::read as read_request;
use crate::model::requests::resources::{ResourceDiscover, ResourceFields};
use crate::model::state::{Resource, Row, RowKind};
use crate::network::effects::Effect;
use crate::network::engine::Network;
use crate::network::pipeline::outcome::{Handled, logged, replied, routed, unacked};
use serde_json::json;

/// `network.resource.register`: a new resource, or an update by its admin.
///
/// Registering a file or context again keeps its content — the shared
/// document and its history, with everyone's edits — and says so in the
/// ack (`kept: true`); only `replace: true` makes the new content the
/// document's text, as an edit in its history (as a whole-content
/// `network.resource.update` does).
pub(super) fn register(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
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
    let fields = read_request::<ResourceFields>(&event.payload);
    let replace = fields.replace.given().unwrap_or(false);
    let kept = network
        .state
        .resources
        .get(&address)
        .filter(|_| !replace && kind != crate::ids::address::ResourceKind::Tool)
        .map(|existing| existing.content.clone());
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
    let permissions: Permissions = match fields.permissions.non_null().parsed() {
        None => Permissions::default(),
        Some(p) => p.map_err(|e| invalid(format!("payload.permissions: {e}")))?,
    };
    let resource = Resource {
        address: address.clone(),
        kind,
        owner,
        description: fields.description.given().unwrap_or_default(),
        schema: fields.schema.given(),
        content_type: fields.content_type.given(),
        permissions,
        content: fields.content.given(),
    };
    let mut resource = resource;
    if let Some(content) = &kept {
        resource.content = content.clone();
    }
    let document = if !network.becomes_document(kind) || kept.is_some() {
        Vec::new()
    } else {
        let content = resource.content.take();
        // Kept here, text lives only in the document; structured (non-text)
        // content stays readable as it was given. Kept elsewhere, the content
        // is the document's text as the network last heard it.
        let here = network.documents_here();
        resource.content = content.clone().filter(|c| !here || !c.is_string());
        network.create_document(&address, content.as_ref(), now)
    };
    network
        .state
        .resources
        .insert(address.clone(), resource.clone());
    let mut outcome = logged();
    outcome.effects.extend(document);
    outcome.ack.insert("address".into(), json!(address));
    if kept.is_some() {
        outcome.ack.insert("kept".into(), json!(true));
    }
    outcome
        .effects
        .push(Effect::Store(Row::Resource(Box::new(resource))));
    Ok(outcome)
}

/// `network.resource.unregister` (admins of the resource).
pub(super) fn unregister(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let address = payload_address(event, "address")?;
    let resource = network.state.resources.get(&address).ok_or_else(|| {
        Rejection::new(
            ErrorCode::UnknownTarget,
            format!("{address} is not registered"),
        )
    })?;
    if !network
        .state
        .may(&event.source, resource, Permission::Admin)
    {
        return Err(Rejection::new(
            ErrorCode::Forbidden,
            format!("{} lacks admin on {address}", event.source),
        ));
    }
    network.state.resources.remove(&address);
    let mut outcome = logged();
    outcome
        .effects
        .extend(network.delete_document(&address, now));
    outcome.effects.push(Effect::Remove {
        kind: RowKind::Resource,
        key: address.to_string(),
    });
    Ok(outcome)
}

/// `network.resource.discover`: the resources the sender may read.
pub(super) fn discover(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let kind = read_request::<ResourceDiscover>(&event.payload).kind;
    let kind = kind.as_text();
    let resources = network
        .state
        .resources
        .values()
        .filter(|r| kind.is_none_or(|k| r.kind.as_str() == k))
        .filter(|r| network.state.may(&event.source, r, Permission::Read))
        .map(|r| ResourceInfo {
            address: r.address.clone(),
            content_type: r.content_type.clone(),
            description: r.description.clone(),
            owner: r.owner.clone(),
            schema: r.schema.clone(),
            kind: r.kind,
            your_permissions: network.state.permissions_of(&event.source, r),
        })
        .collect();
    let response = network.reply_to(
        event,
        ResourceList::EVENT_TYPE,
        ResourceList { resources }.to_json(),
        now,
    );
    Ok(replied(Effect::Reply(response)))
}

/// `network.resource.invoke`: routed to the tool's owner when it is online.
pub(super) fn invoke(network: &Network, event: &Event) -> Handled {
    let resource = resource_at(&network.state, &event.target)?;
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

/// `network.resource.invoke.result`: routed back to the caller.
pub(super) fn invoke_result(metadata: &ProtocolMetadata) -> Handled {
    if metadata.in_reply_to.is_none() {
        return Err(invalid(
            "network.resource.invoke.result needs metadata.in_reply_to",
        ));
    }
    Ok(routed())
}

/// `network.resource.read`: the resource and its content (a document's text).
pub(super) fn read(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let resource = resource_at(&network.state, &event.target)?.clone();
    let mut effects = Vec::new();
    let mut content = resource.content.clone();
    if content.is_none() && network.becomes_document(resource.kind) {
        let (text, stored) = network.document_text(&resource.address);
        effects = stored;
        content = Some(serde_json::Value::String(text));
    }
    let body = ResourceContent {
        address: resource.address,
        content,
        content_type: resource.content_type,
        description: resource.description,
        owner: resource.owner,
        schema: resource.schema,
        kind: resource.kind,
    };
    let response = network.reply_to(event, ResourceContent::EVENT_TYPE, body.to_json(), now);
    effects.push(Effect::Reply(response));
    Ok(unacked(effects))
}

/// `network.resource.update`: new content or settings by the resource's admin.
pub(super) fn update(network: &mut Network, event: &Event, now: Timestamp) -> Handled {
    let source = event.source.clone();
    let target = event.target.to_local();
    let resource = resource_at(&network.state, &target)?.clone();
    let mut updated = resource.clone();
    let mut document_effects: Vec<Effect> = Vec::new();
    let fields = read_request::<ResourceFields>(&event.payload);
    if let Some(p) = fields.permissions.non_null().parsed() {
        if !network.state.may(&source, &resource, Permission::Admin) {
            return Err(Rejection::new(
                ErrorCode::Forbidden,
                format!("changing permissions of {target} needs admin"),
            ));
        }
        updated.permissions = p.map_err(|e| invalid(format!("payload.permissions: {e}")))?;
    }
    if let Some(description) = fields.description.given() {
        updated.description = description;
    }
    match resource.kind {
        crate::ids::address::ResourceKind::Tool => {
            if let Some(schema) = fields.schema.value() {
                updated.schema = Some(schema);
            }
        }
        _ => {
            if let Some(content) = fields.content.value() {
                // The document follows whole-content updates; kept here, text lives only there.
                document_effects = network.replace_document_content(&target, &content, now);
                let kept_here = !network.documents_here() || !content.is_string();
                updated.content = Some(content).filter(|_| kept_here);
            }
            if let Some(content_type) = fields.content_type.given() {
                updated.content_type = Some(content_type);
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
