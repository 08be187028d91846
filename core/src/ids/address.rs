//! Addresses: the one identifier every entity routes by (seed 000 §4, appendix A).
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

use crate::error::{Coded, ErrorCode};
use crate::ids::network_id::{NetworkId, NetworkIdError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::rc::Rc;
use std::str::FromStr;

/// Longest name accepted in any entity.
pub const MAX_NAME_LEN: usize = 128;
/// Longest file path accepted in `resource/file/{path}`.
pub const MAX_PATH_LEN: usize = 512;
/// The registrar of globally registered agents in the model.
pub const OPENAGENTS_REGISTRAR: &str = "openagents";

/// Why a string is not an address.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Nothing after the network scope, or an empty string.
    #[error("address has no entity")]
    EmptyEntity,
    /// The part before `::` is not `local` or a valid network id.
    #[error("invalid network scope: {0}")]
    Network(#[from] NetworkIdError),
    /// A name is empty (`agent:`, `channel/`).
    #[error("{kind} name is empty")]
    EmptyName {
        /// Entity kind whose name is empty.
        kind: &'static str,
    },
    /// A name is longer than allowed.
    #[error("{kind} name is longer than {max} characters")]
    NameTooLong {
        /// Entity kind.
        kind: &'static str,
        /// Limit that was exceeded.
        max: usize,
    },
    /// A name contains a character outside `A-Z a-z 0-9 . _ - @ +`.
    #[error("{kind} name may contain only letters, digits and . _ - @ +, found {found:?}")]
    NameCharacter {
        /// Entity kind.
        kind: &'static str,
        /// The offending character.
        found: char,
    },
    /// A `x/...` prefix that is not channel, mod, group or resource.
    #[error("unknown entity kind {0:?} (expected channel/, mod/, group/ or resource/)")]
    UnknownKind(String),
    /// `resource/{type}/` with a type other than tool, file or context.
    #[error("unknown resource type {0:?} (expected tool, file or context)")]
    UnknownResourceType(String),
    /// A registrar prefix that is not lowercase letters, digits and `-`.
    #[error("invalid registrar prefix {0:?}")]
    Registrar(String),
    /// A file path with an empty, `.` or `..` segment.
    #[error("file path segment {0:?} is not allowed")]
    PathSegment(String),
    /// A URI that does not start with `openagents://`.
    #[error("URI must have the form openagents://{{network}}/{{entity}}")]
    Uri,
    /// A DID that is not `did:{registrar}:{name}` of a registered agent.
    #[error("DID must have the form did:{{registrar}}:{{name}}")]
    Did,
}

impl Coded for AddressError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidAddress
    }
}

/// A validated name: 1–128 characters of `A-Z a-z 0-9 . _ - @ +`, not `.` or `..`.
#[derive(Debug, Clone, Eq)]
pub struct Name(Rc<str>);

// Names are compared on every map lookup of an address (several per event, per
// recipient): byte by byte in place, as `str` orders them, and a clone of the
// same name (the usual case for the key that matches) is equal at once.
impl PartialEq for Name {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl Ord for Name {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Rc::ptr_eq(&self.0, &other.0) {
            return std::cmp::Ordering::Equal;
        }
        let (a, b) = (self.0.as_bytes(), other.0.as_bytes());
        a.iter()
            .zip(b)
            .find(|(x, y)| x != y)
            .map_or_else(|| a.len().cmp(&b.len()), |(x, y)| x.cmp(y))
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::hash::Hash for Name {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // As the text: equal names (same text) hash alike.
        self.0.hash(state);
    }
}

impl Name {
    fn parse(kind: &'static str, s: &str) -> Result<Self, AddressError> {
        if s.is_empty() {
            return Err(AddressError::EmptyName { kind });
        }
        if s.len() > MAX_NAME_LEN {
            return Err(AddressError::NameTooLong {
                kind,
                max: MAX_NAME_LEN,
            });
        }
        if let Some(found) = s
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+')))
        {
            return Err(AddressError::NameCharacter { kind, found });
        }
        if s == "." || s == ".." {
            return Err(AddressError::PathSegment(s.to_owned()));
        }
        Ok(Self(Rc::from(s)))
    }

    /// The name as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for Name {
    type Err = AddressError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse("name", s)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A file path under `resource/file/`: `/`-separated [`Name`] segments.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FilePath(Rc<str>);

impl FilePath {
    fn parse(s: &str) -> Result<Self, AddressError> {
        if s.is_empty() {
            return Err(AddressError::EmptyName { kind: "file" });
        }
        if s.len() > MAX_PATH_LEN {
            return Err(AddressError::NameTooLong {
                kind: "file",
                max: MAX_PATH_LEN,
            });
        }
        for segment in s.split('/') {
            if segment.is_empty() {
                return Err(AddressError::PathSegment(segment.to_owned()));
            }
            Name::parse("file", segment)?;
        }
        Ok(Self(Rc::from(s)))
    }

    /// The path as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A registrar prefix such as `openagents` (lowercase letters, digits, `-`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Registrar(Rc<str>);

impl Registrar {
    fn parse(s: &str) -> Result<Self, AddressError> {
        let valid = (1..=32).contains(&s.len())
            && s.starts_with(|c: char| c.is_ascii_lowercase())
            && s.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if valid && s != "did" {
            Ok(Self(Rc::from(s)))
        } else {
            Err(AddressError::Registrar(s.to_owned()))
        }
    }

    /// The registrar as a string slice.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The three kinds of shared resource (seed 000 §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
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
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parse(s: &str) -> Address {
        s.parse().unwrap()
    }

    #[test]
    fn every_entity_form_of_appendix_a() {
        let cases = [
            ("agent:charlie", "agent:charlie"),
            ("openagents:charlie123", "openagents:charlie123"),
            ("human:raphael@example.com", "human:raphael@example.com"),
            ("channel/general", "channel/general"),
            ("mod/persistence", "mod/persistence"),
            ("group/team-alpha", "group/team-alpha"),
            ("resource/tool/search_web", "resource/tool/search_web"),
            (
                "resource/file/docs/requirements.md",
                "resource/file/docs/requirements.md",
            ),
            (
                "resource/context/project-brief",
                "resource/context/project-brief",
            ),
            ("core", "core"),
            ("agent:broadcast", "agent:broadcast"),
            ("acme:agent-name", "acme:agent-name"),
        ];
        for (input, shown) in cases {
            assert_eq!(parse(input).to_string(), shown, "{input}");
            assert!(parse(input).is_local());
        }
        assert_eq!(*parse("core").entity(), Entity::Core);
        assert_eq!(*parse("agent:broadcast").entity(), Entity::Broadcast);
    }

    #[test]
    fn bare_string_is_an_agent() {
        assert_eq!(parse("charlie"), parse("agent:charlie"));
        assert_eq!(parse("charlie").to_string(), "agent:charlie");
        assert_eq!(parse("broadcast"), Address::broadcast());
    }

    #[test]
    fn scoping_splits_on_first_double_colon() {
        let a = parse("network123::agent:charlie");
        assert_eq!(a.scope(), &Scope::Network("network123".parse().unwrap()));
        assert_eq!(a.to_string(), "network123::agent:charlie");
        assert_eq!(a.to_local(), parse("agent:charlie"));
        assert_eq!(parse("local::channel/general"), parse("channel/general"));
        assert_eq!(
            "a::b::agent:c".parse::<Address>(),
            Err(AddressError::NameCharacter {
                kind: "agent",
                found: ':'
            })
        );
    }

    #[test]
    fn precise_errors() {
        let err = |s: &str| s.parse::<Address>().unwrap_err();
        assert_eq!(err(""), AddressError::EmptyEntity);
        assert_eq!(err("net::"), AddressError::EmptyEntity);
        assert_eq!(err("agent:"), AddressError::EmptyName { kind: "agent" });
        assert_eq!(err("channel/"), AddressError::EmptyName { kind: "channel" });
        assert_eq!(err("bogus/x"), AddressError::UnknownKind("bogus".into()));
        assert_eq!(
            err("resource/disk/x"),
            AddressError::UnknownResourceType("disk".into())
        );
        assert_eq!(
            err("resource/file/a//b"),
            AddressError::PathSegment(String::new())
        );
        assert_eq!(
            err("resource/file/../x"),
            AddressError::PathSegment("..".into())
        );
        assert_eq!(
            err("Bad Net::core"),
            AddressError::Network(NetworkIdError::Character('B'))
        );
        assert_eq!(err("UPPER:x"), AddressError::Registrar("UPPER".into()));
        assert_eq!(
            err("agent:a b"),
            AddressError::NameCharacter {
                kind: "agent",
                found: ' '
            }
        );
        assert_eq!(
            err("did:openagents:x"),
            AddressError::Registrar("did".into())
        );
    }

    #[test]
    fn uri_form() {
        assert_eq!(
            parse("agent:charlie").to_uri(),
            "openagents://local/agent:charlie"
        );
        let remote = parse("network123::resource/tool/search_web");
        assert_eq!(
            remote.to_uri(),
            "openagents://network123/resource/tool/search_web"
        );
        assert_eq!(Address::from_uri(&remote.to_uri()).unwrap(), remote);
        assert_eq!(
            Address::from_uri("openagents://network123/mod/persistence").unwrap(),
            parse("network123::mod/persistence")
        );
        assert_eq!(Address::from_uri("http://x/core"), Err(AddressError::Uri));
    }

    #[test]
    fn did_mapping() {
        let a = parse("openagents:charlie123");
        assert_eq!(a.to_did().as_deref(), Some("did:openagents:charlie123"));
        assert_eq!(Address::from_did("did:openagents:charlie123").unwrap(), a);
        assert_eq!(parse("agent:charlie").to_did(), None);
        assert_eq!(parse("human:raphael").to_did(), None);
        assert_eq!(Address::from_did("did:agent:x"), Err(AddressError::Did));
        assert_eq!(Address::from_did("openagents:x"), Err(AddressError::Did));
    }

    #[test]
    fn serde_uses_the_string_form() {
        let a = parse("net1::human:ann");
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"net1::human:ann\"");
        assert_eq!(
            serde_json::from_str::<Address>("\"net1::human:ann\"").unwrap(),
            a
        );
        assert!(serde_json::from_str::<Address>("\"channel/\"").is_err());
    }

    fn name() -> impl Strategy<Value = String> {
        "[A-Za-z0-9_@+-][A-Za-z0-9._@+-]{0,20}"
    }

    fn entity_string() -> impl Strategy<Value = String> {
        prop_oneof![
            name().prop_map(|n| format!("agent:{n}")),
            name().prop_map(|n| format!("openagents:{n}")),
            name().prop_map(|n| format!("human:{n}")),
            name().prop_map(|n| format!("channel/{n}")),
            name().prop_map(|n| format!("mod/{n}")),
            name().prop_map(|n| format!("group/{n}")),
            name().prop_map(|n| format!("resource/tool/{n}")),
            (name(), name()).prop_map(|(a, b)| format!("resource/file/{a}/{b}")),
            name().prop_map(|n| format!("resource/context/{n}")),
            Just("core".to_owned()),
        ]
    }

    #[test]
    fn addresses_longer_than_the_stack_buffer_serialize_as_written() {
        let segment = "s".repeat(100);
        let text = format!("some-network::resource/file/{segment}/{segment}/{segment}");
        let address: Address = text.parse().unwrap();
        assert_eq!(
            serde_json::to_string(&address).unwrap(),
            format!("\"{text}\"")
        );
    }

    proptest! {
        #[test]
        fn display_round_trips(entity in entity_string(), net in proptest::option::of("[a-z0-9][a-z0-9-]{0,10}")) {
            let input = match &net {
                Some(n) if n != "local" => format!("{n}::{entity}"),
                _ => entity.clone(),
            };
            let address: Address = input.parse().unwrap();
            prop_assert_eq!(address.to_string().parse::<Address>().unwrap(), address.clone());
            let mut pushed = String::from(">");
            address.push_to(&mut pushed);
            prop_assert_eq!(pushed, format!(">{address}"));
            prop_assert_eq!(Address::from_uri(&address.to_uri()).unwrap(), address.clone());
            prop_assert_eq!(
                serde_json::to_string(&address).unwrap(),
                serde_json::to_string(&address.to_string()).unwrap()
            );
        }

        #[test]
        fn names_order_and_compare_as_their_text(a in "[A-Za-z0-9._@+-]{1,12}", b in "[A-Za-z0-9._@+-]{1,12}") {
            if let (Ok(x), Ok(y)) = (Name::parse("name", &a), Name::parse("name", &b)) {
                prop_assert_eq!(x.cmp(&y), a.cmp(&b));
                prop_assert_eq!(x == y, a == b);
                prop_assert_eq!(x.cmp(&x.clone()), std::cmp::Ordering::Equal);
            }
        }

        #[test]
        fn parse_never_panics(s in "\\PC{0,60}") {
            if let Ok(address) = s.parse::<Address>() {
                prop_assert_eq!(address.to_string().parse::<Address>().unwrap(), address);
            }
        }
    }
}
