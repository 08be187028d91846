//! The network's state: members, channels, groups, resources and invitations.
//!
//! Everything here is plain data with lookups; the rules that change it
//! live in the network's handlers. The host persists it as [`Row`]s.

use crate::ids::address::{Address, Entity, Name, ResourceKind};
use crate::ids::standing::Role;
use crate::ids::time::Timestamp;
use crate::model::access::{Permission, Permissions, Requester};
use crate::model::membership::Member;
use crate::model::payloads::{Payload, Roster, RosterMember, RosterResource};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// A named event stream with its members.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Channel {
    /// The channel's name (`general` for `channel/general`).
    pub name: Name,
    /// Members who receive its events.
    pub members: BTreeSet<Address>,
    /// Who created it.
    pub created_by: Address,
    /// Private: only its creator, masters and those it invited may join.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// Addresses its creator listed: they may join (a private channel too).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub invited: BTreeSet<Address>,
    /// Labels (IOA's space tags): given at creation, merged by joins that name more.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The name its creator typed ("Design Review" for `channel/design-review`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

impl Channel {
    /// True when `who` (of `role`) may join: an open channel anyone, a private
    /// one its creator, a master or someone invited.
    pub fn may_join(&self, who: &Address, role: Option<crate::ids::standing::Role>) -> bool {
        !self.private
            || &self.created_by == who
            || self.invited.contains(who)
            || role == Some(crate::ids::standing::Role::Master)
    }

    /// True when `who` may delete it: its creator or a master.
    pub fn may_delete(&self, who: &Address, role: Option<crate::ids::standing::Role>) -> bool {
        &self.created_by == who || role == Some(crate::ids::standing::Role::Master)
    }
}

/// A named collection of agents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The group's name.
    pub name: Name,
    /// Its members.
    pub members: BTreeSet<Address>,
}

/// A shared tool, file or context (ONM §8).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    /// `resource/{type}/{name}`.
    pub address: Address,
    /// Tool, file or context.
    #[serde(rename = "type")]
    pub kind: ResourceKind,
    /// The member that registered it.
    pub owner: Address,
    /// What it is, for people and agents.
    #[serde(default)]
    pub description: String,
    /// Tools: input/output schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<Value>,
    /// Files: MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// Who may do what.
    #[serde(default)]
    pub permissions: Permissions,
    /// Files and context: the current content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<Value>,
}

/// An invitation to an `invite` network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    /// The secret code the invitee presents.
    pub code: String,
    /// The only address that may use it, or anyone when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invitee: Option<Address>,
    /// The member who invited.
    pub created_by: Address,
    /// The moment after which it is void.
    pub expires_at: Timestamp,
    /// How many new members may join with it (1, the default: once).
    #[serde(default = "one_use")]
    pub max_uses: u32,
    /// How many have joined with it so far.
    #[serde(default)]
    pub uses: u32,
}

fn one_use() -> u32 {
    1
}

/// One persisted piece of state. The host stores rows by `(kind, key)`.
/// Written `{"kind": …, "value": …}`; read back by [`super::row_reader`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Row {
    /// A membership record.
    Member(Member),
    /// A channel.
    Channel(Channel),
    /// A group.
    Group(Group),
    /// A resource (boxed: it is much larger than the other rows).
    Resource(Box<Resource>),
    /// An unused invitation.
    Invitation(Invitation),
    /// A mod's saved state.
    ModState {
        /// The mod's name.
        name: String,
        /// Its state.
        state: Value,
    },
    /// Who bridges to another network (`None`: nobody, overriding the configuration).
    Bridge {
        /// The other network.
        network: crate::ids::network_id::NetworkId,
        /// The bridge member.
        bridge: Option<Address>,
    },
    /// A piece of a shared document (feature `documents`; kept as data without it).
    Document(crate::documents::DocumentRow),
    /// A task (boxed: it carries its history).
    Task(Box<crate::model::task::Task>),
    /// An external A2A agent that is a member.
    Remote(crate::model::remote::RemoteAgent),
    /// A push notification waiting to be sent.
    Push(crate::model::push::PendingPush),
    /// A member's cumulative delivery acknowledgement.
    Cursor {
        /// The member.
        address: Address,
        /// Everything up to this `seq` is acknowledged.
        seq: u64,
    },
    /// A member's catch-up that is read a page at a time, so that a network
    /// restarted meanwhile goes on with it instead of leaving a hole.
    CatchUp {
        /// The member.
        address: Address,
        /// Its next page reads the log after this `seq`.
        after: u64,
        /// The `seq` last delivered to it (the next delivery's `prev`).
        delivered: u64,
    },
    /// How old the log is and how far it is pruned (one row, key `log`).
    LogMarks(crate::model::retention::LogMarks),
}

/// The kinds of [`Row`], for deletions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowKind {
    /// Membership records.
    Member,
    /// Channels.
    Channel,
    /// Groups.
    Group,
    /// Resources.
    Resource,
    /// Invitations.
    Invitation,
    /// Mod state.
    ModState,
    /// Delivery cursors.
    Cursor,
    /// Bridges to other networks.
    Bridge,
    /// Pieces of shared documents.
    Document,
    /// Tasks.
    Task,
    /// External A2A agents.
    Remote,
    /// Push notifications waiting to be sent.
    Push,
    /// Catch-ups in progress.
    CatchUp,
    /// The log's age marks and pruning progress.
    LogMarks,
}

impl RowKind {
    /// The kind as stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Member => "member",
            Self::Channel => "channel",
            Self::Group => "group",
            Self::Resource => "resource",
            Self::Invitation => "invitation",
            Self::ModState => "mod_state",
            Self::Cursor => "cursor",
            Self::Bridge => "bridge",
            Self::Document => "document",
            Self::Task => "task",
            Self::Remote => "remote",
            Self::Push => "push",
            Self::CatchUp => "catch_up",
            Self::LogMarks => "log_marks",
        }
    }
}

impl Row {
    /// The row's kind.
    pub fn kind(&self) -> RowKind {
        match self {
            Self::Member(_) => RowKind::Member,
            Self::Channel(_) => RowKind::Channel,
            Self::Group(_) => RowKind::Group,
            Self::Resource(_) => RowKind::Resource,
            Self::Invitation(_) => RowKind::Invitation,
            Self::ModState { .. } => RowKind::ModState,
            Self::Cursor { .. } => RowKind::Cursor,
            Self::Bridge { .. } => RowKind::Bridge,
            Self::Document(_) => RowKind::Document,
            Self::Task(_) => RowKind::Task,
            Self::Remote(_) => RowKind::Remote,
            Self::Push(_) => RowKind::Push,
            Self::CatchUp { .. } => RowKind::CatchUp,
            Self::LogMarks(_) => RowKind::LogMarks,
        }
    }

    /// The row's key within its kind.
    pub fn key(&self) -> String {
        match self {
            Self::Member(m) => m.address.to_string(),
            Self::Channel(c) => c.name.to_string(),
            Self::Group(g) => g.name.to_string(),
            Self::Resource(r) => r.address.to_string(),
            Self::Invitation(i) => i.code.clone(),
            Self::ModState { name, .. } => name.clone(),
            Self::Cursor { address, .. } | Self::CatchUp { address, .. } => address.to_string(),
            Self::Bridge { network, .. } => network.to_string(),
            Self::Document(d) => d.key(),
            Self::Task(t) => t.id.to_string(),
            Self::Remote(r) => r.address.to_string(),
            Self::Push(p) => p.key.clone(),
            Self::LogMarks(_) => "log".into(),
        }
    }
}

/// Everything a network knows besides its configuration.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct State {
    /// Members by address.
    pub members: BTreeMap<Address, Member>,
    /// Channels by name.
    pub channels: BTreeMap<Name, Channel>,
    /// Groups by name.
    pub groups: BTreeMap<Name, Group>,
    /// Resources by address.
    pub resources: BTreeMap<Address, Resource>,
    /// Unused invitations by code.
    pub invitations: BTreeMap<String, Invitation>,
    /// Saved mod state by mod name.
    pub mod_state: BTreeMap<String, Value>,
    /// Tasks by id (`crate::model::task`).
    pub tasks: BTreeMap<crate::ids::task_id::TaskId, crate::model::task::Task>,
    /// External A2A agents that are members, by address.
    pub remotes: BTreeMap<Address, crate::model::remote::RemoteAgent>,
    /// Push notifications waiting to be sent, by key.
    pub pushes: BTreeMap<String, crate::model::push::PendingPush>,
    /// The member that relays events for each other network (from the
    /// configuration's `bridges`, not stored as rows).
    pub bridges: BTreeMap<crate::ids::network_id::NetworkId, Address>,
}

impl State {
    /// The bridge member that carries events addressed to `target` in another network.
    pub fn bridge_for(&self, target: &Address) -> Option<&Address> {
        match target.scope() {
            crate::ids::address::Scope::Network(network) => self.bridges.get(network),
            crate::ids::address::Scope::Local => None,
        }
    }
}

impl State {
    /// Applies a stored row (when restoring).
    pub fn apply(&mut self, row: Row) {
        match row {
            Row::Member(m) => {
                self.members.insert(m.address.clone(), m);
            }
            Row::Channel(c) => {
                self.channels.insert(c.name.clone(), c);
            }
            Row::Group(g) => {
                self.groups.insert(g.name.clone(), g);
            }
            Row::Resource(r) => {
                self.resources.insert(r.address.clone(), *r);
            }
            Row::Invitation(i) => {
                self.invitations.insert(i.code.clone(), i);
            }
            Row::ModState { name, state } => {
                self.mod_state.insert(name, state);
            }
            Row::Task(t) => {
                self.tasks.insert(t.id.clone(), *t);
            }
            Row::Remote(r) => {
                self.remotes.insert(r.address.clone(), r);
            }
            Row::Push(p) => {
                self.pushes.insert(p.key.clone(), p);
            }
            Row::Bridge { network, bridge } => match bridge {
                Some(bridge) => {
                    self.bridges.insert(network, bridge);
                }
                None => {
                    self.bridges.remove(&network);
                }
            },
            // Cursors and catch-ups belong to the delivery tracker and documents
            // to the network's document store, which the network restores itself.
            Row::Cursor { .. } | Row::CatchUp { .. } | Row::Document(_) | Row::LogMarks(_) => {}
        }
    }

    /// The role of a member, `None` for non-members.
    pub fn role_of(&self, address: &Address) -> Option<Role> {
        self.members.get(address).map(|m| m.role)
    }

    /// True when `address` is in group `name`.
    pub fn in_group(&self, address: &Address, name: &Name) -> bool {
        self.groups
            .get(name)
            .is_some_and(|g| g.members.contains(address))
    }

    /// True when `who` holds `permission` on `resource`.
    pub fn may(&self, who: &Address, resource: &Resource, permission: Permission) -> bool {
        let in_group = |name: &Name| self.in_group(who, name);
        let in_channel = |name: &Name| {
            self.channels
                .get(name)
                .is_some_and(|c| c.members.contains(who))
        };
        let requester = Requester {
            address: who,
            role: self.role_of(who),
            in_group: &in_group,
            in_channel: &in_channel,
        };
        resource
            .permissions
            .rule(permission)
            .allows(&requester, &resource.owner)
    }

    /// The permissions `who` holds on `resource`, in a fixed order.
    pub fn permissions_of(&self, who: &Address, resource: &Resource) -> Vec<Permission> {
        Permission::ALL
            .into_iter()
            .filter(|p| self.may(who, resource, *p))
            .collect()
    }

    /// True when `code` is a live invitation usable by `address`.
    pub fn invitation_valid(&self, code: &str, address: &Address, now: Timestamp) -> bool {
        self.invitations.get(code).is_some_and(|i| {
            i.expires_at > now && i.invitee.as_ref().is_none_or(|invitee| invitee == address)
        })
    }

    /// The roster of ONM §9 as `viewer` sees it, as JSON.
    pub fn roster(&self, mods: &[Address], viewer: &Address) -> Value {
        self.roster_payload(mods, viewer).to_json()
    }

    /// The roster of ONM §9 as `viewer` sees it: members, channels
    /// (a private one only to those who may join it or are in it), groups,
    /// `mods` and resources.
    pub fn roster_payload(&self, mods: &[Address], viewer: &Address) -> Roster {
        let role = self.role_of(viewer);
        Roster {
            agents: self.members.values().map(RosterMember::from).collect(),
            channels: self
                .channels
                .values()
                .filter(|c| c.may_join(viewer, role) || c.members.contains(viewer))
                .map(|c| Address::local(Entity::Channel(c.name.clone())))
                .collect(),
            titles: self
                .channels
                .values()
                .filter(|c| c.may_join(viewer, role) || c.members.contains(viewer))
                .filter_map(|c| Some((format!("channel/{}", c.name), c.title.clone()?)))
                .collect(),
            groups: self
                .groups
                .values()
                .map(|g| {
                    (
                        format!("group/{}", g.name),
                        g.members.iter().cloned().collect(),
                    )
                })
                .collect(),
            mods: mods.to_vec(),
            resources: self
                .resources
                .values()
                .map(|r| RosterResource {
                    address: r.address.clone(),
                    owner: r.owner.clone(),
                    kind: r.kind,
                })
                .collect(),
        }
    }
}
