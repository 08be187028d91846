//! The gateway messages read back from JSON ([`ToGateway`], [`ToNetwork`]).
//!
//! Each is one flat object with a `kind`, as their derived `Serialize`
//! writes it. serde's derived `Deserialize` for such an internally tagged
//! enum first buffers the whole object, then reads the buffer again as the
//! kind's variant, and that took 58 KB of the network object's module
//! (BENCHMARKS.md, "The gateway messages read in one pass"). Here the object
//! is read once, field by field, into one struct of optional fields, and
//! each kind then takes the fields it needs: a missing one is serde's
//! `missing field` error, a `member` of the wrong shape an `invalid type`.
//! The JSON is the same both ways, so gateways and network objects of
//! either build understand each other.

use super::messages::{Delivery, ToGateway, ToNetwork};
use crate::bindings::transport::sockets::SocketId;
use crate::ids::address::Address;
use serde::Deserialize;
use serde::de::{self, Deserializer, SeqAccess, Unexpected, Visitor};
use std::fmt;

/// How long an unbound socket has to join when an older network object's
/// [`ToGateway::Open`] does not say.
fn default_join_within() -> u64 {
    crate::bindings::access::policy::JOIN_DEADLINE_MS
}

/// A `member` field: a bare address (`bind`, `close_member`, `offline`) or
/// an address with the epoch that bound it (`open`, `frames`).
enum Member {
    Bound(Address, u64),
    Named(Address),
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MemberVisitor;
        impl<'de> Visitor<'de> for MemberVisitor {
            type Value = Member;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an address, or an address and an epoch")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Member, E> {
                text.parse().map(Member::Named).map_err(E::custom)
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Member, A::Error> {
                let address = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let epoch = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(Member::Bound(address, epoch))
            }
        }
        deserializer.deserialize_any(MemberVisitor)
    }
}

/// `field`'s value, or serde's error for its absence.
fn need<T, E: de::Error>(value: Option<T>, field: &'static str) -> Result<T, E> {
    value.ok_or_else(|| E::missing_field(field))
}

/// The member bound with its epoch, if any (`member` of `open` and `frames`).
fn bound<E: de::Error>(member: Option<Member>) -> Result<Option<(Address, u64)>, E> {
    match member {
        None => Ok(None),
        Some(Member::Bound(address, epoch)) => Ok(Some((address, epoch))),
        Some(Member::Named(_)) => Err(E::invalid_type(
            Unexpected::Str("an address alone"),
            &"an address and an epoch",
        )),
    }
}

/// The member's bare address (`member` of `bind`, `close_member` and `offline`).
fn named<E: de::Error>(member: Option<Member>) -> Result<Address, E> {
    match need(member, "member")? {
        Member::Named(address) => Ok(address),
        Member::Bound(..) => Err(E::invalid_type(Unexpected::Seq, &"an address")),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum GatewayKind {
    Deliveries,
    Open,
    Reply,
    Bind,
    Unbind,
    CloseMember,
    Refuse,
    Restarted,
}

/// Every field any [`ToGateway`] has.
#[derive(Deserialize)]
struct GatewayFields {
    kind: GatewayKind,
    deliveries: Option<Vec<Delivery>>,
    socket: Option<SocketId>,
    member: Option<Member>,
    batches: Option<bool>,
    peer: Option<String>,
    join_within_ms: Option<u64>,
    lanes: Option<super::messages::GatewayId>,
    frame: Option<String>,
    epoch: Option<u64>,
    code: Option<u16>,
    reason: Option<String>,
}

impl<'de> Deserialize<'de> for ToGateway {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let f = GatewayFields::deserialize(deserializer)?;
        Ok(match f.kind {
            GatewayKind::Deliveries => ToGateway::Deliveries {
                deliveries: need(f.deliveries, "deliveries")?,
            },
            GatewayKind::Open => ToGateway::Open {
                socket: need(f.socket, "socket")?,
                member: bound(f.member)?,
                batches: need(f.batches, "batches")?,
                peer: f.peer,
                join_within_ms: f.join_within_ms.unwrap_or_else(default_join_within),
                lanes: f.lanes,
            },
            GatewayKind::Reply => ToGateway::Reply {
                socket: need(f.socket, "socket")?,
                frame: need(f.frame, "frame")?,
            },
            GatewayKind::Bind => ToGateway::Bind {
                socket: need(f.socket, "socket")?,
                member: named(f.member)?,
                epoch: need(f.epoch, "epoch")?,
            },
            GatewayKind::Unbind => ToGateway::Unbind {
                socket: need(f.socket, "socket")?,
            },
            GatewayKind::CloseMember => ToGateway::CloseMember {
                member: named(f.member)?,
            },
            GatewayKind::Refuse => ToGateway::Refuse {
                socket: need(f.socket, "socket")?,
                code: need(f.code, "code")?,
                reason: need(f.reason, "reason")?,
            },
            GatewayKind::Restarted => ToGateway::Restarted,
        })
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum NetworkKind {
    Frames,
    Opened,
    Cursors,
    Offline,
    Closed,
    Restarted,
}

/// Every field any [`ToNetwork`] has.
#[derive(Deserialize)]
struct NetworkFields {
    kind: NetworkKind,
    socket: Option<SocketId>,
    member: Option<Member>,
    frames: Option<Vec<String>>,
    peer: Option<String>,
    cursors: Option<Vec<(Address, u64, u64)>>,
}

impl<'de> Deserialize<'de> for ToNetwork {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let f = NetworkFields::deserialize(deserializer)?;
        Ok(match f.kind {
            NetworkKind::Frames => ToNetwork::Frames {
                socket: need(f.socket, "socket")?,
                member: bound(f.member)?,
                frames: need(f.frames, "frames")?,
                peer: f.peer,
            },
            NetworkKind::Opened => ToNetwork::Opened {
                socket: need(f.socket, "socket")?,
                peer: f.peer,
            },
            NetworkKind::Cursors => ToNetwork::Cursors {
                cursors: need(f.cursors, "cursors")?,
            },
            NetworkKind::Offline => ToNetwork::Offline {
                member: named(f.member)?,
                socket: need(f.socket, "socket")?,
            },
            NetworkKind::Closed => ToNetwork::Closed {
                socket: need(f.socket, "socket")?,
            },
            NetworkKind::Restarted => ToNetwork::Restarted,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gateway::DeliveryFrame;

    fn alice() -> Address {
        "agent:alice".parse().expect("an address")
    }

    fn round_trip<T>(message: &T) -> T
    where
        T: serde::Serialize + for<'de> Deserialize<'de>,
    {
        let text = serde_json::to_string(message).expect("json");
        serde_json::from_str(&text).expect("read back")
    }

    #[test]
    fn every_kind_of_either_message_reads_back_as_it_was_written() {
        let to_gateway = [
            ToGateway::Deliveries {
                deliveries: vec![Delivery {
                    frame: DeliveryFrame::Each(vec!["a".into(), "b".into()]),
                    to: vec![(alice(), 3)],
                }],
            },
            ToGateway::Open {
                socket: 7,
                member: Some((alice(), 2)),
                batches: false,
                peer: None,
                join_within_ms: 900,
                lanes: None,
            },
            ToGateway::Open {
                socket: 8,
                member: None,
                batches: true,
                peer: Some("198.51.100.4".into()),
                join_within_ms: 900,
                lanes: Some(4),
            },
            ToGateway::Reply {
                socket: 7,
                frame: "{}".into(),
            },
            ToGateway::Bind {
                socket: 7,
                member: alice(),
                epoch: 4,
            },
            ToGateway::Unbind { socket: 7 },
            ToGateway::CloseMember { member: alice() },
            ToGateway::Refuse {
                socket: 9,
                code: 4429,
                reason: "rate_limited: too many".into(),
            },
            ToGateway::Restarted,
        ];
        for message in to_gateway {
            assert_eq!(round_trip(&message), message);
        }
        let to_network = [
            ToNetwork::Frames {
                socket: 1,
                member: None,
                frames: vec!["x".into()],
                peer: Some("198.51.100.4".into()),
            },
            ToNetwork::Frames {
                socket: 1,
                member: Some((alice(), 9)),
                frames: vec![],
                peer: None,
            },
            ToNetwork::Opened {
                socket: 2,
                peer: Some("198.51.100.4".into()),
            },
            ToNetwork::Opened {
                socket: 3,
                peer: None,
            },
            ToNetwork::Cursors {
                cursors: vec![(alice(), 5, 1)],
            },
            ToNetwork::Offline {
                member: alice(),
                socket: 1,
            },
            ToNetwork::Closed { socket: 1 },
            ToNetwork::Restarted,
        ];
        for message in to_network {
            assert_eq!(round_trip(&message), message);
        }
    }

    #[test]
    fn a_missing_field_an_unknown_kind_and_a_member_of_the_wrong_shape_are_errors() {
        let read = |text: &str| serde_json::from_str::<ToGateway>(text).map_err(|e| e.to_string());
        assert!(
            read(r#"{"kind":"reply","socket":1}"#)
                .is_err_and(|e| e.contains("missing field `frame`"))
        );
        assert!(read(r#"{"kind":"teleport"}"#).is_err_and(|e| e.contains("unknown variant")));
        assert!(read(r#"{"socket":1}"#).is_err_and(|e| e.contains("missing field `kind`")));
        assert!(
            read(r#"{"kind":"bind","socket":1,"member":["agent:alice",1],"epoch":1}"#).is_err()
        );
        assert!(
            read(r#"{"kind":"open","socket":1,"member":"agent:alice","batches":true}"#).is_err()
        );
        assert!(read(r#"{"kind":"close_member","member":"not an address"}"#).is_err());
        assert!(
            read(r#"{"kind":"open","socket":1,"member":["agent:alice",1,2],"batches":true}"#)
                .is_err()
        );
        let offline = serde_json::from_str::<ToNetwork>(r#"{"kind":"offline","socket":1}"#);
        assert!(offline.is_err_and(|e| e.to_string().contains("missing field `member`")));
    }

    #[test]
    fn fields_of_other_kinds_and_unknown_fields_are_ignored() {
        let text = r#"{"kind":"unbind","socket":4,"frame":"x","later":{"a":[1]}}"#;
        assert_eq!(
            serde_json::from_str::<ToGateway>(text).expect("read"),
            ToGateway::Unbind { socket: 4 }
        );
    }
}
