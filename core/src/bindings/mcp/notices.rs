//! What changes a listening client hears of, read from the effects the
//! network returns, and the notification each listener gets.
//!
//! A tool registered, changed or unregistered is `tools/list_changed`; a
//! file or context is `resources/list_changed` (and `prompts/list_changed`
//! for a skill, [`super::prompts`]) and `resources/updated` for its URI, as
//! is every change to a shared document. A legacy session hears the list
//! changes and the updates of the URIs it subscribed to, on its `GET`
//! stream; a 2026-07-28 `subscriptions/listen` stream hears what its filter
//! asked for, each notification tagged with its subscription id.

use super::envelope::SUBSCRIPTION_ID;
use super::prompts::skill_of;
use super::resources::uri_of;
use crate::bindings::jsonrpc::{Id, notification};
use crate::ids::address::ResourceKind;
use crate::model::state::{Row, RowKind};
use crate::network::Effect;
use crate::{Address, NetworkId};
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;

/// A change a listener may hear of.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Notice {
    /// The tools changed.
    ToolsChanged,
    /// The files and contexts changed.
    ResourcesChanged,
    /// The skills changed.
    PromptsChanged,
    /// This file's or context's text changed.
    ResourceUpdated(Address),
}

fn of_resource(address: &Address, kind: ResourceKind) -> Vec<Notice> {
    match kind {
        ResourceKind::Tool => vec![Notice::ToolsChanged],
        _ => {
            let mut notices = vec![
                Notice::ResourcesChanged,
                Notice::ResourceUpdated(address.clone()),
            ];
            if skill_of(address).is_some() {
                notices.push(Notice::PromptsChanged);
            }
            notices
        }
    }
}

/// The notices an applied effect gives rise to.
pub fn of_effect(effect: &Effect) -> Vec<Notice> {
    match effect {
        Effect::Store(Row::Resource(resource)) => of_resource(&resource.address, resource.kind),
        Effect::Store(Row::Document(row)) => vec![Notice::ResourceUpdated(row.address.clone())],
        Effect::Remove {
            kind: RowKind::Resource,
            key,
        } => key
            .parse::<Address>()
            .ok()
            .and_then(|a| a.entity().resource_kind().map(|kind| of_resource(&a, kind)))
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// What a `subscriptions/listen` asked to hear.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// `toolsListChanged`.
    pub tools: bool,
    /// `promptsListChanged`.
    pub prompts: bool,
    /// `resourcesListChanged`.
    pub resources: bool,
    /// `resourceSubscriptions`.
    pub uris: BTreeSet<String>,
}

impl Filter {
    /// Reads `params.notifications`; anything but an object (or a field of
    /// the wrong type) is invalid.
    pub fn parse(value: Option<&Value>) -> Option<Self> {
        let object = value?.as_object()?;
        let flag = |key: &str| match object.get(key) {
            None | Some(Value::Null) => Some(false),
            Some(Value::Bool(b)) => Some(*b),
            Some(_) => None,
        };
        let uris = match object.get("resourceSubscriptions") {
            None | Some(Value::Null) => BTreeSet::new(),
            Some(Value::Array(items)) => items
                .iter()
                .map(|u| u.as_str().map(str::to_owned))
                .collect::<Option<_>>()?,
            Some(_) => return None,
        };
        Some(Self {
            tools: flag("toolsListChanged")?,
            prompts: flag("promptsListChanged")?,
            resources: flag("resourcesListChanged")?,
            uris,
        })
    }

    /// The filter as the acknowledgement echoes it (only what it honors).
    pub fn to_value(&self) -> Value {
        let mut honored = Map::new();
        for (key, on) in [
            ("toolsListChanged", self.tools),
            ("promptsListChanged", self.prompts),
            ("resourcesListChanged", self.resources),
        ] {
            if on {
                honored.insert(key.into(), json!(true));
            }
        }
        if !self.uris.is_empty() {
            honored.insert("resourceSubscriptions".into(), json!(self.uris));
        }
        Value::Object(honored)
    }
}

/// Who hears notices, on one stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listener {
    /// A legacy session's `GET` stream, with the URIs the session subscribed to.
    Session(BTreeSet<String>),
    /// A 2026-07-28 `subscriptions/listen` stream.
    Subscription {
        /// The `subscriptions/listen` request's id.
        id: Id,
        /// What it asked to hear.
        filter: Filter,
    },
}

/// The notification `listener` gets for `notice`, if any.
pub fn message(network: &NetworkId, notice: &Notice, listener: &Listener) -> Option<Value> {
    let (method, uri) = match notice {
        Notice::ToolsChanged => ("notifications/tools/list_changed", None),
        Notice::ResourcesChanged => ("notifications/resources/list_changed", None),
        Notice::PromptsChanged => ("notifications/prompts/list_changed", None),
        Notice::ResourceUpdated(address) => (
            "notifications/resources/updated",
            Some(uri_of(network, address)),
        ),
    };
    let mut params = Map::new();
    match listener {
        Listener::Session(subscribed) => {
            if uri.as_ref().is_some_and(|u| !subscribed.contains(u)) {
                return None;
            }
        }
        Listener::Subscription { id, filter } => {
            let wanted = match notice {
                Notice::ToolsChanged => filter.tools,
                Notice::ResourcesChanged => filter.resources,
                Notice::PromptsChanged => filter.prompts,
                Notice::ResourceUpdated(_) => uri.as_ref().is_some_and(|u| filter.uris.contains(u)),
            };
            if !wanted {
                return None;
            }
            params.insert("_meta".into(), json!({SUBSCRIPTION_ID: id.to_value()}));
        }
    }
    if let Some(uri) = uri {
        params.insert("uri".into(), json!(uri));
    }
    Some(notification(method, Value::Object(params)))
}

/// The acknowledgement that opens a `subscriptions/listen` stream.
pub fn acknowledged(id: &Id, filter: &Filter) -> Value {
    notification(
        "notifications/subscriptions/acknowledged",
        json!({"_meta": {SUBSCRIPTION_ID: id.to_value()}, "notifications": filter.to_value()}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::access::Permissions;
    use crate::model::state::Resource;

    fn resource(address: &str) -> Effect {
        let address: Address = address.parse().unwrap();
        Effect::Store(Row::Resource(Box::new(Resource {
            kind: address.entity().resource_kind().unwrap(),
            address,
            owner: "agent:o".parse().unwrap(),
            description: String::new(),
            schema: None,
            content_type: None,
            permissions: Permissions::default(),
            content: None,
        })))
    }

    #[test]
    fn resource_rows_tell_what_changed() {
        assert_eq!(
            of_effect(&resource("resource/tool/add")),
            [Notice::ToolsChanged]
        );
        let skill = of_effect(&resource("resource/context/r.SKILL.md"));
        assert!(
            skill.contains(&Notice::PromptsChanged) && skill.contains(&Notice::ResourcesChanged)
        );
        let gone = Effect::Remove {
            kind: RowKind::Resource,
            key: "resource/tool/add".into(),
        };
        assert_eq!(of_effect(&gone), [Notice::ToolsChanged]);
        assert!(
            of_effect(&Effect::Remove {
                kind: RowKind::Member,
                key: "agent:a".into()
            })
            .is_empty()
        );
    }

    #[test]
    fn each_listener_hears_what_it_asked_for() {
        let demo: NetworkId = "demo".parse().unwrap();
        let file: Address = "resource/file/a.md".parse().unwrap();
        let uri = uri_of(&demo, &file);
        let updated = Notice::ResourceUpdated(file);
        let session = Listener::Session(BTreeSet::from([uri.clone()]));
        assert_eq!(
            message(&demo, &updated, &session),
            Some(
                json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}})
            )
        );
        assert_eq!(
            message(&demo, &updated, &Listener::Session(BTreeSet::new())),
            None
        );
        assert!(
            message(
                &demo,
                &Notice::ToolsChanged,
                &Listener::Session(BTreeSet::new())
            )
            .is_some()
        );
        let filter = Filter::parse(Some(&json!({"toolsListChanged": true}))).unwrap();
        let listen = Listener::Subscription {
            id: Id::Text("listen:1".into()),
            filter,
        };
        let tools = message(&demo, &Notice::ToolsChanged, &listen).unwrap();
        assert_eq!(tools["params"]["_meta"][SUBSCRIPTION_ID], "listen:1");
        assert_eq!(message(&demo, &updated, &listen), None);
        assert_eq!(Filter::parse(Some(&json!({"toolsListChanged": 1}))), None);
        assert_eq!(
            Filter::parse(Some(&json!({"resourceSubscriptions": [uri.clone()]})))
                .unwrap()
                .to_value(),
            json!({"resourceSubscriptions": [uri]})
        );
    }
}
