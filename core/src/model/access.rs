//! Access rules and resource permissions (ONM §8).
//!
//! A rule is written as a string: `network` (any member), `role:{role}`,
//! `group/{name}`, `channel/{name}` (whoever is in the channel when they
//! ask: a conversation's attachments follow its membership),
//! `agents:[addr1, addr2]` or `owner`. A resource carries
//! one rule per [`Permission`].

use crate::error::{Coded, ErrorCode};
use crate::ids::address::{Address, Entity, Name};
use crate::ids::standing::Role;
use crate::ids::text_form::serde_as_text;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Why a string is not an access rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "invalid access rule {0:?}: expected network, owner, role:{{role}}, group/{{name}}, channel/{{name}} or agents:[addresses]"
)]
pub struct AccessRuleError(pub String);

impl Coded for AccessRuleError {
    fn code(&self) -> ErrorCode {
        ErrorCode::InvalidRequest
    }
}

/// Who a permission is granted to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccessRule {
    /// Any member of the network.
    Network,
    /// Members with this role.
    Role(Role),
    /// Members of this group.
    Group(Name),
    /// Members of this channel, as it is when they ask.
    Channel(Name),
    /// An explicit list of addresses.
    Agents(Vec<Address>),
    /// The resource owner only.
    Owner,
}

/// What is being asked of a resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Permission {
    /// See that the resource exists; read files and context.
    Read,
    /// Modify files and context.
    Write,
    /// Call a tool.
    Invoke,
    /// Change permissions or unregister.
    Admin,
}

impl Permission {
    /// All permissions in a fixed order.
    pub const ALL: [Permission; 4] = [Self::Read, Self::Write, Self::Invoke, Self::Admin];

    /// The permission as written on the wire.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Read => "read",
            Self::Write => "write",
            Self::Invoke => "invoke",
            Self::Admin => "admin",
        }
    }
}

/// The facts a rule is checked against.
pub struct Requester<'a> {
    /// Who asks.
    pub address: &'a Address,
    /// Their role, when they are a member.
    pub role: Option<Role>,
    /// Whether they belong to a group, by group name.
    pub in_group: &'a dyn Fn(&Name) -> bool,
    /// Whether they are in a channel, by channel name.
    pub in_channel: &'a dyn Fn(&Name) -> bool,
}

impl AccessRule {
    /// True when `who` satisfies this rule for a resource owned by `owner`.
    pub fn allows(&self, who: &Requester<'_>, owner: &Address) -> bool {
        if who.address == owner {
            return true;
        }
        match self {
            Self::Network => who.role.is_some(),
            Self::Role(role) => who.role == Some(*role),
            Self::Group(name) => (who.in_group)(name),
            Self::Channel(name) => (who.in_channel)(name),
            Self::Agents(list) => list.contains(who.address),
            Self::Owner => false,
        }
    }
}

impl FromStr for AccessRule {
    type Err = AccessRuleError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || AccessRuleError(s.to_owned());
        match s {
            "network" => return Ok(Self::Network),
            "owner" => return Ok(Self::Owner),
            _ => {}
        }
        if let Some(role) = s.strip_prefix("role:") {
            return role.parse().map(Self::Role).map_err(|_| bad());
        }
        if s.starts_with("group/") || s.starts_with("channel/") {
            return match s.parse::<Address>() {
                Ok(a) => match a.entity() {
                    Entity::Group(name) if a.is_local() => Ok(Self::Group(name.clone())),
                    Entity::Channel(name) if a.is_local() => Ok(Self::Channel(name.clone())),
                    _ => Err(bad()),
                },
                Err(_) => Err(bad()),
            };
        }
        if let Some(list) = s.strip_prefix("agents:") {
            let inner = list
                .trim()
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(bad)?;
            let agents = inner
                .split(',')
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .map(|a| a.trim_matches('"').parse::<Address>().map_err(|_| bad()))
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Self::Agents(agents));
        }
        Err(bad())
    }
}

impl fmt::Display for AccessRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Network => f.write_str("network"),
            Self::Owner => f.write_str("owner"),
            Self::Role(r) => write!(f, "role:{r}"),
            Self::Group(g) => write!(f, "group/{g}"),
            Self::Channel(c) => write!(f, "channel/{c}"),
            Self::Agents(list) => {
                let joined: Vec<String> = list.iter().map(ToString::to_string).collect();
                write!(f, "agents:[{}]", joined.join(", "))
            }
        }
    }
}

serde_as_text!(AccessRule);

/// One rule per permission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Permissions {
    /// Who sees the resource and reads its content.
    #[serde(default = "network_rule")]
    pub read: AccessRule,
    /// Who modifies files and context.
    #[serde(default = "owner_rule")]
    pub write: AccessRule,
    /// Who calls tools.
    #[serde(default = "network_rule")]
    pub invoke: AccessRule,
    /// Who changes permissions or unregisters.
    #[serde(default = "owner_rule")]
    pub admin: AccessRule,
}

fn network_rule() -> AccessRule {
    AccessRule::Network
}

fn owner_rule() -> AccessRule {
    AccessRule::Owner
}

impl Default for Permissions {
    fn default() -> Self {
        Self {
            read: AccessRule::Network,
            write: AccessRule::Owner,
            invoke: AccessRule::Network,
            admin: AccessRule::Owner,
        }
    }
}

impl Permissions {
    /// The rule for one permission.
    pub fn rule(&self, permission: Permission) -> &AccessRule {
        match permission {
            Permission::Read => &self.read,
            Permission::Write => &self.write,
            Permission::Invoke => &self.invoke,
            Permission::Admin => &self.admin,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> Address {
        s.parse().unwrap()
    }

    #[test]
    fn rules_parse_and_display() {
        for s in [
            "network",
            "owner",
            "role:master",
            "group/team-alpha",
            "channel/launch",
            "agents:[agent:a, human:b]",
        ] {
            assert_eq!(s.parse::<AccessRule>().unwrap().to_string(), s);
        }
        assert_eq!(
            "agents:[\"agent:a\",\"agent:b\"]"
                .parse::<AccessRule>()
                .unwrap(),
            AccessRule::Agents(vec![addr("agent:a"), addr("agent:b")])
        );
        for bad in [
            "everyone",
            "role:king",
            "group/",
            "agents:agent:a",
            "agents:[channel/]",
            "other::group/x",
            "channel/",
            "other::channel/x",
        ] {
            assert!(bad.parse::<AccessRule>().is_err(), "{bad}");
        }
    }

    #[test]
    fn rules_decide_access() {
        let owner = addr("agent:owner");
        let alice = addr("agent:alice");
        let in_alpha = |g: &Name| g.as_str() == "alpha";
        let not_in_any = |_: &Name| false;
        let member = Requester {
            address: &alice,
            role: Some(Role::Member),
            in_group: &in_alpha,
            in_channel: &in_alpha,
        };
        let outsider = Requester {
            address: &alice,
            role: None,
            in_group: &not_in_any,
            in_channel: &not_in_any,
        };
        assert!(AccessRule::Network.allows(&member, &owner));
        assert!(!AccessRule::Network.allows(&outsider, &owner));
        assert!(!AccessRule::Owner.allows(&member, &owner));
        assert!(AccessRule::Owner.allows(
            &Requester {
                address: &owner,
                role: Some(Role::Member),
                in_group: &not_in_any,
                in_channel: &not_in_any,
            },
            &owner
        ));
        assert!(AccessRule::Role(Role::Member).allows(&member, &owner));
        assert!(!AccessRule::Role(Role::Master).allows(&member, &owner));
        let member_may = |rule: &str| rule.parse::<AccessRule>().unwrap().allows(&member, &owner);
        assert!(member_may("group/alpha"));
        assert!(!member_may("group/beta"));
        assert!(member_may("agents:[agent:alice]"));
        assert!(!member_may("agents:[agent:bob]"));
    }

    #[test]
    fn a_channel_rule_follows_who_is_in_the_channel() {
        let owner = addr("human:ann");
        let bob = addr("human:bob");
        let in_launch = |c: &Name| c.as_str() == "launch";
        let in_none = |_: &Name| false;
        let rule: AccessRule = "channel/launch".parse().unwrap();
        let asking = |in_channel: &dyn Fn(&Name) -> bool| {
            rule.allows(
                &Requester {
                    address: &bob,
                    role: Some(Role::Member),
                    in_group: &in_none,
                    in_channel,
                },
                &owner,
            )
        };
        assert!(asking(&in_launch));
        assert!(!asking(&in_none), "a member outside the channel");
        // A group of the same name is not the channel.
        assert!(!"group/launch".parse::<AccessRule>().unwrap().allows(
            &Requester {
                address: &bob,
                role: Some(Role::Member),
                in_group: &in_none,
                in_channel: &in_launch,
            },
            &owner
        ));
    }

    #[test]
    fn permissions_default_like_the_seed() {
        let p: Permissions = serde_json::from_str("{}").unwrap();
        assert_eq!(p, Permissions::default());
        assert_eq!(p.rule(Permission::Write), &AccessRule::Owner);
        for permission in Permission::ALL {
            assert_eq!(
                serde_json::to_value(permission).unwrap(),
                permission.as_str()
            );
        }
        assert_eq!(p.rule(Permission::Invoke), &AccessRule::Network);
    }
}
