//! Addresses: the one identifier every entity routes by (ONM §4, appendix A).
//!
//! Parse rules, exactly as the model writes them:
//! 1. if `::` is present, split on the first `::`: the left side is the
//!    network (`local` or a [`NetworkId`]), the right side the entity;
//! 2. without `::` the network is the current one (`local`);
//! 3. the entity kind comes from its prefix: `agent:`, `human:` and
//!    registrar prefixes such as `openagents:` use a colon; `channel/`,
//!    `mod/`, `group/` and `resource/{tool|file|context}/` use a slash;
//!    `core` is the network itself and `agent:broadcast` everyone;
//! 4. a bare string without prefix is `agent:{string}`.
//!
//! `Display` prints the canonical form (implied-local scope is omitted), and
//! parsing that form gives back an equal address.

use crate::ids::network_id::NetworkId;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

mod name;

pub use name::{
    AddressError, FilePath, MAX_NAME_LEN, MAX_PATH_LEN, Name, OPENAGENTS_REGISTRAR, Registrar,
};

/// The three kinds of shared resource (ONM §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ResourceKind {
    /// A callable tool.
    Tool,
    /// A shared file.
    File,
    /// Shared context or memory.
    Context,
}

impl ResourceKind {
    /// The kind as written in addresses.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Tool => "tool",
            Self::File => "file",
            Self::Context => "context",
        }
    }
}

/// The entity part of an address.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Entity {
    /// `core`: the network itself.
    Core,
    /// `agent:broadcast`: every agent and human in the network.
    Broadcast,
    /// `agent:{name}`: a network-local agent.
    Agent(Name),
    /// `{registrar}:{name}`, e.g. `openagents:{name}`: a registered agent.
    Registered {
        /// Who vouches for the identity (`openagents`, `acme`, …).
        registrar: Registrar,
        /// The registered name.
        name: Name,
    },
    /// `human:{id}`: a person.
    Human(Name),
    /// `channel/{name}`.
    Channel(Name),
    /// `mod/{name}`.
    Mod(Name),
    /// `group/{name}`.
    Group(Name),
    /// `resource/tool/{name}`.
    Tool(Name),
    /// `resource/file/{path}`.
    File(FilePath),
    /// `resource/context/{name}`.
    Context(Name),
}

impl Entity {
    fn parse(s: &str) -> Result<Self, AddressError> {
        if s.is_empty() {
            return Err(AddressError::EmptyEntity);
        }
        if s == "core" {
            return Ok(Self::Core);
        }
        if s == "broadcast" {
            return Ok(Self::Broadcast);
        }
        if let Some((prefix, rest)) = s.split_once('/')
            && !prefix.contains(':')
        {
            return match prefix {
                "channel" => Ok(Self::Channel(Name::parse("channel", rest)?)),
                "mod" => Ok(Self::Mod(Name::parse("mod", rest)?)),
                "group" => Ok(Self::Group(Name::parse("group", rest)?)),
                "resource" => {
                    let (kind, name) = rest.split_once('/').unwrap_or((rest, ""));
                    match kind {
                        "tool" => Ok(Self::Tool(Name::parse("tool", name)?)),
                        "file" => Ok(Self::File(FilePath::parse(name)?)),
                        "context" => Ok(Self::Context(Name::parse("context", name)?)),
                        other => Err(AddressError::UnknownResourceType(other.to_owned())),
                    }
                }
                other => Err(AddressError::UnknownKind(other.to_owned())),
            };
        }
        match s.split_once(':') {
            Some(("agent", "broadcast")) => Ok(Self::Broadcast),
            Some(("agent", name)) => Ok(Self::Agent(Name::parse("agent", name)?)),
            Some(("human", name)) => Ok(Self::Human(Name::parse("human", name)?)),
            Some((registrar, name)) => Ok(Self::Registered {
                registrar: Registrar::parse(registrar)?,
                name: Name::parse("agent", name)?,
            }),
            None => Ok(Self::Agent(Name::parse("agent", s)?)),
        }
    }

    /// True for agents, registered agents and humans: entities that can be members.
    pub fn is_participant(&self) -> bool {
        matches!(
            self,
            Self::Agent(_) | Self::Registered { .. } | Self::Human(_)
        )
    }

    /// The resource kind, for `resource/…` entities.
    pub fn resource_kind(&self) -> Option<ResourceKind> {
        match self {
            Self::Tool(_) => Some(ResourceKind::Tool),
            Self::File(_) => Some(ResourceKind::File),
            Self::Context(_) => Some(ResourceKind::Context),
            _ => None,
        }
    }
}

impl Entity {
    /// The kind of entity: `core`, `broadcast`, `agent`, `registered`, `human`,
    /// `channel`, `mod`, `group`, `tool`, `file` or `context`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Core => "core",
            Self::Broadcast => "broadcast",
            Self::Agent(_) => "agent",
            Self::Registered { .. } => "registered",
            Self::Human(_) => "human",
            Self::Channel(_) => "channel",
            Self::Mod(_) => "mod",
            Self::Group(_) => "group",
            Self::Tool(_) => "tool",
            Self::File(_) => "file",
            Self::Context(_) => "context",
        }
    }

    /// The entity's name (a file's path), if it has one.
    pub fn name(&self) -> Option<&str> {
        match self {
            Self::Core | Self::Broadcast => None,
            Self::Registered { name, .. } => Some(name.as_str()),
            other => Some(other.parts().1),
        }
    }

    /// The entity as written, in pieces: prefix, separator (`:` after a
    /// registrar, else empty) and name.
    fn pieces(&self) -> [&str; 3] {
        let (prefix, name) = self.parts();
        let separator = if let Self::Registered { .. } = self {
            ":"
        } else {
            ""
        };
        [prefix, separator, name]
    }

    /// The entity's text as a prefix and a name (`agent:` + `alice`), without formatting machinery.
    fn parts(&self) -> (&str, &str) {
        match self {
            Self::Core => ("core", ""),
            Self::Broadcast => ("agent:broadcast", ""),
            Self::Agent(n) => ("agent:", n.as_str()),
            Self::Registered { registrar, name } => (registrar.as_str(), name.as_str()),
            Self::Human(n) => ("human:", n.as_str()),
            Self::Channel(n) => ("channel/", n.as_str()),
            Self::Mod(n) => ("mod/", n.as_str()),
            Self::Group(n) => ("group/", n.as_str()),
            Self::Tool(n) => ("resource/tool/", n.as_str()),
            Self::File(p) => ("resource/file/", p.as_str()),
            Self::Context(n) => ("resource/context/", n.as_str()),
        }
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pieces()
            .into_iter()
            .try_for_each(|piece| f.write_str(piece))
    }
}

/// Which network an address lives in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// The current network (`local::` or no prefix).
    Local,
    /// Another network, named by id (`{network}::`).
    Network(NetworkId),
}

/// A routable address: a scope and an entity.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(type = "string"))]
pub struct Address {
    scope: Scope,
    entity: Entity,
}

impl Address {
    /// A local address for `entity`.
    pub fn local(entity: Entity) -> Self {
        Self {
            scope: Scope::Local,
            entity,
        }
    }

    /// `core`, the network itself.
    pub fn core() -> Self {
        Self::local(Entity::Core)
    }

    /// `agent:broadcast`.
    pub fn broadcast() -> Self {
        Self::local(Entity::Broadcast)
    }

    /// The network scope.
    pub fn scope(&self) -> &Scope {
        &self.scope
    }

    /// The entity.
    pub fn entity(&self) -> &Entity {
        &self.entity
    }

    /// True when the address is in the current network.
    pub fn is_local(&self) -> bool {
        self.scope == Scope::Local
    }

    /// The same entity with its scope dropped: how the target network names it.
    pub fn to_local(&self) -> Self {
        Self::local(self.entity.clone())
    }

    /// `openagents://{network}/{entity}`; `local` stands for the current network.
    pub fn to_uri(&self) -> String {
        let network = match &self.scope {
            Scope::Local => "local",
            Scope::Network(id) => id.as_str(),
        };
        format!("openagents://{network}/{}", self.entity)
    }

    /// Parses the URI form written by [`Address::to_uri`].
    pub fn from_uri(uri: &str) -> Result<Self, AddressError> {
        let rest = uri.strip_prefix("openagents://").ok_or(AddressError::Uri)?;
        let (network, entity) = rest.split_once('/').ok_or(AddressError::Uri)?;
        Ok(Self {
            scope: parse_scope(network)?,
            entity: Entity::parse(entity)?,
        })
    }

    /// The DID of a registered agent: `openagents:x` is `did:openagents:x`.
    /// Local agents, humans and other entities have none.
    pub fn to_did(&self) -> Option<String> {
        match &self.entity {
            Entity::Registered { registrar, name } => {
                Some(format!("did:{}:{name}", registrar.as_str()))
            }
            _ => None,
        }
    }

    /// The registered agent a DID names: strips the `did:` prefix.
    pub fn from_did(did: &str) -> Result<Self, AddressError> {
        let rest = did.strip_prefix("did:").ok_or(AddressError::Did)?;
        match Entity::parse(rest) {
            Ok(entity @ Entity::Registered { .. }) => Ok(Self::local(entity)),
            _ => Err(AddressError::Did),
        }
    }
}

fn parse_scope(network: &str) -> Result<Scope, AddressError> {
    if network == "local" {
        Ok(Scope::Local)
    } else {
        Ok(Scope::Network(network.parse()?))
    }
}

impl FromStr for Address {
    type Err = AddressError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.split_once("::") {
            Some((network, entity)) => Ok(Self {
                scope: parse_scope(network)?,
                entity: Entity::parse(entity)?,
            }),
            None => Ok(Self::local(Entity::parse(s)?)),
        }
    }
}

impl TryFrom<&str> for Address {
    type Error = AddressError;
    fn try_from(s: &str) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl Address {
    /// The address as written (its `Display`), in pieces; empty pieces for a local one.
    pub(crate) fn pieces(&self) -> [&str; 5] {
        let (network, separator) = match &self.scope {
            Scope::Network(id) => (id.as_str(), "::"),
            Scope::Local => ("", ""),
        };
        let [prefix, registrar_separator, name] = self.entity.pieces();
        [network, separator, prefix, registrar_separator, name]
    }

    /// Appends the address as written (its `Display`) to `out`: for
    /// strings built on every event, without the formatting machinery.
    pub fn push_to(&self, out: &mut String) {
        self.pieces()
            .into_iter()
            .for_each(|piece| out.push_str(piece));
    }
}

impl fmt::Display for Address {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.pieces()
            .into_iter()
            .try_for_each(|piece| f.write_str(piece))
    }
}

impl Serialize for Address {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Every event writes two addresses: joined on the stack and written as
        // one string, not through `collect_str`'s formatting adapter.
        let pieces = self.pieces();
        let mut joined = [0u8; 256];
        let mut len = 0;
        for piece in pieces {
            let Some(slot) = joined.get_mut(len..len + piece.len()) else {
                return serializer.collect_str(self);
            };
            slot.copy_from_slice(piece.as_bytes());
            len += piece.len();
        }
        match std::str::from_utf8(&joined[..len]) {
            Ok(text) => serializer.serialize_str(text),
            Err(_) => serializer.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Address {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests;
