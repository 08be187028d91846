//! What the network adds to every accepted event — who sent it and when it
//! arrived, and where a logged event sits in a recipient's delivery chain —
//! kept typed in memory and written inside `metadata` on the wire.
//!
//! [`Event`](crate::event::Event) serializes an [`Enrichment`] as
//! `metadata.received_at` and `metadata.sender = {role, verification}`,
//! merged into the other metadata keys in sorted order, in place of any
//! entries of the same names. A decoded event carries them in `metadata`
//! like any other key; only the network that accepted the event holds them
//! typed.

use crate::ids::standing::{Role, Verification};
use crate::ids::time::Timestamp;
use serde::ser::{Serialize, SerializeMap, SerializeStruct, Serializer};
use serde_json::{Map, Value};

/// `metadata.received_at` and `metadata.sender`, as `mod/enrichment` sets them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Enrichment {
    /// The sender's membership, when the sender is a member.
    pub sender: Option<Sender>,
    /// When the network received the event.
    pub received_at: Timestamp,
}

/// `metadata.sender`: the sender's role and verification level in the network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sender {
    /// Its role.
    pub role: Role,
    /// Its verified level.
    pub verification: Verification,
}

/// The metadata keys an [`Enrichment`] writes, in sorted order.
pub const ENRICHMENT_KEYS: [&str; 2] = ["received_at", "sender"];

impl Serialize for Sender {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut sender = serializer.serialize_struct("Sender", 2)?;
        sender.serialize_field("role", self.role.as_str())?;
        sender.serialize_field("verification", &self.verification.level())?;
        sender.end()
    }
}

/// An event's `metadata` with the network's typed entries merged in —
/// `delivery` (a recipient's frame) and the enrichment: keys in sorted
/// order, each typed entry in place of a map entry of the same name. An
/// enrichment replaces both of its names, even without a sender.
pub(crate) struct MergedMetadata<'a> {
    pub map: &'a Map<String, Value>,
    pub enrichment: Option<&'a Enrichment>,
    pub delivery: Option<Delivery>,
}

/// The typed entries' keys, sorted.
const TYPED_KEYS: [&str; 3] = ["delivery", ENRICHMENT_KEYS[0], ENRICHMENT_KEYS[1]];

impl MergedMetadata<'_> {
    /// Whether the map entry `key` gives way to a typed entry.
    fn shadowed(&self, key: &str) -> bool {
        match key {
            "delivery" => self.delivery.is_some(),
            _ => self.enrichment.is_some() && ENRICHMENT_KEYS.contains(&key),
        }
    }

    /// Which typed entries are written (indexes into [`TYPED_KEYS`]), in order.
    fn typed(&self) -> impl Iterator<Item = usize> + '_ {
        let sender = self.enrichment.is_some_and(|e| e.sender.is_some());
        [self.delivery.is_some(), self.enrichment.is_some(), sender]
            .into_iter()
            .enumerate()
            .filter_map(|(which, present)| present.then_some(which))
    }

    fn write_typed<M: SerializeMap>(&self, out: &mut M, which: usize) -> Result<(), M::Error> {
        let key = TYPED_KEYS[which];
        match (which, self.enrichment) {
            (0, _) => out.serialize_entry(key, &self.delivery),
            (1, Some(enrichment)) => out.serialize_entry(key, &enrichment.received_at),
            (_, Some(enrichment)) => out.serialize_entry(key, &enrichment.sender),
            (_, None) => Ok(()),
        }
    }
}

impl Serialize for MergedMetadata<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.enrichment.is_none() && self.delivery.is_none() {
            return self.map.serialize(serializer);
        }
        let kept = self.map.keys().filter(|k| !self.shadowed(k)).count();
        let mut out = serializer.serialize_map(Some(kept + self.typed().count()))?;
        let mut typed = self.typed().peekable();
        for (key, value) in self.map {
            if self.shadowed(key) {
                continue;
            }
            while let Some(which) = typed.next_if(|which| TYPED_KEYS[*which] < key.as_str()) {
                self.write_typed(&mut out, which)?;
            }
            out.serialize_entry(key, value)?;
        }
        for which in typed {
            self.write_typed(&mut out, which)?;
        }
        out.end()
    }
}

/// `metadata.delivery`: where a logged event sits in one recipient's chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    /// The event's network-wide sequence number.
    pub seq: u64,
    /// The `seq` delivered to this recipient before it.
    pub prev: u64,
}

impl Serialize for Delivery {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Keys in sorted order, as a JSON map writes them.
        let mut delivery = serializer.serialize_struct("Delivery", 2)?;
        delivery.serialize_field("prev", &self.prev)?;
        delivery.serialize_field("seq", &self.seq)?;
        delivery.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn merged(map: &Map<String, Value>, enrichment: Option<&Enrichment>) -> String {
        serde_json::to_string(&MergedMetadata {
            map,
            enrichment,
            delivery: None,
        })
        .unwrap()
    }

    /// What the merge must equal: the map with the enrichment's entries inserted.
    fn as_map_entries(map: &Map<String, Value>, enrichment: &Enrichment) -> String {
        let mut map = map.clone();
        map.insert("received_at".into(), json!(enrichment.received_at));
        match enrichment.sender {
            Some(sender) => {
                map.insert(
                    "sender".into(),
                    json!({"role": sender.role.as_str(), "verification": sender.verification.level()}),
                );
            }
            None => {
                map.remove("sender");
            }
        }
        serde_json::to_string(&map).unwrap()
    }

    #[test]
    fn the_enrichment_is_written_as_metadata_entries() {
        let enrichment = Enrichment {
            sender: Some(Sender {
                role: Role::Master,
                verification: Verification::KEY_PROOF,
            }),
            received_at: Timestamp::from_millis(42),
        };
        let map: Map<String, Value> = [("in_reply_to".to_owned(), json!("x"))]
            .into_iter()
            .collect();
        assert_eq!(
            merged(&map, Some(&enrichment)),
            r#"{"in_reply_to":"x","received_at":42,"sender":{"role":"master","verification":1}}"#
        );
        assert_eq!(merged(&map, None), r#"{"in_reply_to":"x"}"#);
    }

    #[test]
    fn typed_fields_replace_entries_of_the_same_names() {
        let enrichment = Enrichment {
            sender: None,
            received_at: Timestamp::from_millis(7),
        };
        let spoofed: Map<String, Value> = [
            ("received_at".to_owned(), json!(1)),
            ("sender".to_owned(), json!({"role": "master"})),
        ]
        .into_iter()
        .collect();
        assert_eq!(merged(&spoofed, Some(&enrichment)), r#"{"received_at":7}"#);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(1024))]

        /// Merged, the keys come out sorted and exactly as map entries would.
        #[test]
        fn merging_equals_inserting_map_entries(
            keys in proptest::collection::btree_map(
                "(received_at|sender|r|s|rz|sa|a|z|received_a|received_atz|sender_|[a-z_]{1,12})",
                any::<i32>(),
                0..8,
            ),
            received_at in any::<u64>(),
            sender in proptest::option::of((0u8..3, 0u8..4)),
        ) {
            let map: Map<String, Value> = keys.into_iter().map(|(k, v)| (k, json!(v))).collect();
            let roles = [Role::Master, Role::Member, Role::Observer];
            let enrichment = Enrichment {
                sender: sender.map(|(role, level)| Sender {
                    role: roles[usize::from(role)],
                    verification: Verification::try_from(level).unwrap(),
                }),
                received_at: Timestamp::from_millis(received_at),
            };
            prop_assert_eq!(merged(&map, Some(&enrichment)), as_map_entries(&map, &enrichment));
        }
    }
}
