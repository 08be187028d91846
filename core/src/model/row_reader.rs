//! Reading a stored [`Row`] back: its `kind`, then its `value` read straight
//! as that kind's type.
//!
//! `#[derive(Deserialize)]` on an adjacently tagged enum also accepts the
//! `value` before the `kind`, by copying it into serde's generic buffer first;
//! that path compiles a second reader of every kind of row (members, tasks,
//! resources, documents …) for the buffer, about 20 KB of gzip'd wasm in the
//! edge's module (BENCHMARKS.md, "The edge: what the network object's module
//! holds"). Every row is written by `#[derive(Serialize)]` on [`Row`], which
//! writes `{"kind": …, "value": …}` in that order, and the hosts store the
//! JSON text as written, so this reader takes them in that order only and
//! names the problem when they come otherwise.

use super::state::{Row, RowKind};
use serde::Deserialize;
use serde::de::{Deserializer, Error as _, IgnoredAny, MapAccess, Visitor};
use std::fmt;

/// A stored row's two fields.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Field {
    Kind,
    Value,
}

/// [`Row::ModState`]'s fields.
#[derive(Deserialize)]
struct ModStateFields {
    name: String,
    state: serde_json::Value,
}

/// [`Row::Bridge`]'s fields.
#[derive(Deserialize)]
struct BridgeFields {
    network: crate::ids::network_id::NetworkId,
    bridge: Option<crate::ids::address::Address>,
}

/// [`Row::Cursor`]'s fields.
#[derive(Deserialize)]
struct CursorFields {
    address: crate::ids::address::Address,
    seq: u64,
}

/// [`Row::CatchUp`]'s fields.
#[derive(Deserialize)]
struct CatchUpFields {
    address: crate::ids::address::Address,
    after: u64,
    delivered: u64,
}

impl<'de> Deserialize<'de> for Row {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(RowVisitor)
    }
}

/// Reads `{"kind": …, "value": …}` (any further fields are skipped).
struct RowVisitor;

impl<'de> Visitor<'de> for RowVisitor {
    type Value = Row;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a stored row: {\"kind\": …, \"value\": …}")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Row, A::Error> {
        if !matches!(map.next_key()?, Some(Field::Kind)) {
            return Err(A::Error::custom("a stored row's `kind` comes first"));
        }
        let kind: RowKind = map.next_value()?;
        if !matches!(map.next_key()?, Some(Field::Value)) {
            return Err(A::Error::missing_field("value"));
        }
        let row = value_of(kind, &mut map)?;
        while map.next_key::<IgnoredAny>()?.is_some() {
            map.next_value::<IgnoredAny>()?;
        }
        Ok(row)
    }
}

/// The row `kind` names, read from the map's next value.
fn value_of<'de, A: MapAccess<'de>>(kind: RowKind, map: &mut A) -> Result<Row, A::Error> {
    Ok(match kind {
        RowKind::Member => Row::Member(map.next_value()?),
        RowKind::Channel => Row::Channel(map.next_value()?),
        RowKind::Group => Row::Group(map.next_value()?),
        RowKind::Resource => Row::Resource(map.next_value()?),
        RowKind::Invitation => Row::Invitation(map.next_value()?),
        RowKind::ModState => map.next_value::<ModStateFields>()?.into(),
        RowKind::Bridge => map.next_value::<BridgeFields>()?.into(),
        RowKind::Document => Row::Document(map.next_value()?),
        RowKind::Task => Row::Task(map.next_value()?),
        RowKind::Remote => Row::Remote(map.next_value()?),
        RowKind::Push => Row::Push(map.next_value()?),
        RowKind::Cursor => map.next_value::<CursorFields>()?.into(),
        RowKind::CatchUp => map.next_value::<CatchUpFields>()?.into(),
        RowKind::LogMarks => Row::LogMarks(map.next_value()?),
    })
}

impl From<ModStateFields> for Row {
    fn from(ModStateFields { name, state }: ModStateFields) -> Self {
        Row::ModState { name, state }
    }
}

impl From<BridgeFields> for Row {
    fn from(BridgeFields { network, bridge }: BridgeFields) -> Self {
        Row::Bridge { network, bridge }
    }
}

impl From<CursorFields> for Row {
    fn from(CursorFields { address, seq }: CursorFields) -> Self {
        Row::Cursor { address, seq }
    }
}

impl From<CatchUpFields> for Row {
    fn from(fields: CatchUpFields) -> Self {
        let CatchUpFields {
            address,
            after,
            delivered,
        } = fields;
        Row::CatchUp {
            address,
            after,
            delivered,
        }
    }
}

#[cfg(test)]
#[path = "row_reader_tests.rs"]
mod tests;
