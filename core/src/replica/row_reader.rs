//! Reading a stored [`ReplicaRow`] back: through one flat struct holding
//! every kind of row's fields, rather than serde's reader for an internally
//! tagged enum. That reader first copies each row into a generic value to
//! find its tag, and so compiles a second reader of events for that value:
//! about 25 KB of wasm in every page and agent that restores a replica
//! (BENCHMARKS.md, "The first page, continued"). It reads what
//! `#[derive(Serialize)]` on [`ReplicaRow`] writes (`{"row": kind, …fields}`),
//! rows written by older versions included.

use super::types::{OutboxEntry, OutboxState, ReplicaRow};
use crate::documents::{DocumentRow, Part};
use crate::error::Rejection;
use crate::event::Event;
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use serde::Deserialize;
use serde::de::{Deserializer, Error as _};

/// The `row` tag: which kind of row the fields make.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum RowKind {
    Watermark,
    Logged,
    Outbox,
    OutboxRemoved,
    MemberSecret,
    Document,
    DocumentRemoved,
}

/// An outbox row's `state` tag.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum StateKind {
    Pending,
    Sent,
    Rejected,
}

/// Every field any kind of row has; each kind takes the ones it needs.
#[derive(Deserialize)]
struct RowFields {
    row: RowKind,
    seq: Option<u64>,
    event: Option<Event>,
    state: Option<StateKind>,
    rejection: Option<Rejection>,
    id: Option<EventId>,
    address: Option<Address>,
    secret: Option<String>,
    #[serde(default)]
    writer: String,
    part: Option<Part>,
    data: Option<String>,
}

impl<'de> Deserialize<'de> for ReplicaRow {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        RowFields::deserialize(deserializer)?
            .into_row()
            .map_err(D::Error::missing_field)
    }
}

impl RowFields {
    /// The row these fields make, or the name of the first field its kind needs and they lack.
    fn into_row(self) -> Result<ReplicaRow, &'static str> {
        Ok(match self.row {
            RowKind::Watermark => ReplicaRow::Watermark {
                seq: need(self.seq, "seq")?,
            },
            RowKind::Logged => ReplicaRow::Logged {
                seq: need(self.seq, "seq")?,
                event: need(self.event, "event")?,
            },
            RowKind::Outbox => ReplicaRow::Outbox(OutboxEntry {
                event: need(self.event, "event")?,
                state: match need(self.state, "state")? {
                    StateKind::Pending => OutboxState::Pending,
                    StateKind::Sent => OutboxState::Sent,
                    StateKind::Rejected => OutboxState::Rejected {
                        rejection: need(self.rejection, "rejection")?,
                    },
                },
            }),
            RowKind::OutboxRemoved => ReplicaRow::OutboxRemoved {
                id: need(self.id, "id")?,
            },
            RowKind::MemberSecret => ReplicaRow::MemberSecret {
                address: need(self.address, "address")?,
                secret: need(self.secret, "secret")?,
            },
            RowKind::Document => ReplicaRow::Document(DocumentRow {
                address: need(self.address, "address")?,
                writer: self.writer,
                part: need(self.part, "part")?,
                data: need(self.data, "data")?,
            }),
            RowKind::DocumentRemoved => ReplicaRow::DocumentRemoved {
                address: need(self.address, "address")?,
                writer: self.writer,
                part: need(self.part, "part")?,
            },
        })
    }
}

/// `value`, or the name of the missing `field`.
fn need<T>(value: Option<T>, field: &'static str) -> Result<T, &'static str> {
    value.ok_or(field)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use serde_json::json;

    fn event() -> Event {
        serde_json::from_value(json!({
            "id": "01HQV2WA00000000000000000A",
            "type": "workspace.message.posted",
            "source": "agent:alice",
            "target": "agent:broadcast",
            "payload": {"content": "hi"},
            "timestamp": 1
        }))
        .expect("a valid event")
    }

    /// One row of every kind (and every outbox state), as the replica persists them.
    fn every_kind() -> Vec<ReplicaRow> {
        let event = event();
        let address: Address = "resource/file/notes.md".parse().expect("an address");
        vec![
            ReplicaRow::Watermark { seq: 7 },
            ReplicaRow::Logged {
                seq: 3,
                event: event.clone(),
            },
            ReplicaRow::Outbox(OutboxEntry {
                event: event.clone(),
                state: OutboxState::Pending,
            }),
            ReplicaRow::Outbox(OutboxEntry {
                event: event.clone(),
                state: OutboxState::Sent,
            }),
            ReplicaRow::Outbox(OutboxEntry {
                event: event.clone(),
                state: OutboxState::Rejected {
                    rejection: Rejection::new(ErrorCode::Forbidden, "no"),
                },
            }),
            ReplicaRow::OutboxRemoved { id: event.id },
            ReplicaRow::MemberSecret {
                address: "agent:alice".parse().expect("an address"),
                secret: "s3cret".into(),
            },
            ReplicaRow::Document(DocumentRow {
                address: address.clone(),
                writer: "tab-1".into(),
                part: Part::Chunk(2),
                data: "AAEC".into(),
            }),
            ReplicaRow::DocumentRemoved {
                address,
                writer: "tab-1".into(),
                part: Part::Snapshot(0),
            },
        ]
    }

    #[test]
    fn every_kind_of_row_reads_back_as_written() {
        for row in every_kind() {
            let text = serde_json::to_string(&row).expect("a row serializes");
            let back: ReplicaRow = serde_json::from_str(&text).expect(&text);
            assert_eq!(back, row, "{text}");
        }
    }

    #[test]
    fn a_document_row_from_before_writers_reads_with_an_empty_writer() {
        let row: ReplicaRow = serde_json::from_value(json!({
            "row": "document", "address": "resource/file/notes.md", "part": {"snapshot": 0}, "data": ""
        }))
        .expect("an older row");
        assert!(
            matches!(row, ReplicaRow::Document(DocumentRow { writer, .. }) if writer.is_empty())
        );
    }

    #[test]
    fn a_row_without_a_field_its_kind_needs_is_refused_naming_it() {
        let missing = |value: serde_json::Value| {
            serde_json::from_value::<ReplicaRow>(value)
                .expect_err("refused")
                .to_string()
        };
        assert_eq!(
            missing(json!({"row": "logged", "seq": 1})),
            "missing field `event`"
        );
        assert_eq!(
            missing(json!({"row": "outbox", "event": event(), "state": "rejected"})),
            "missing field `rejection`"
        );
        assert!(missing(json!({"row": "unknown", "seq": 1})).contains("unknown variant"));
        assert!(missing(json!({"seq": 1})).contains("missing field `row`"));
    }
}
