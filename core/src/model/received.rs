//! What a participant reads of the network's answers, as types: an ack's
//! fields, a delivery's place in the log (`metadata.delivery`), a key
//! challenge's nonce and a shared document's sync. Like the requests ([`super::requests`]), each field is
//! an [`AsSent`] read with [`read`]: reading never fails, and a field of the
//! wrong type reads as missing, as it always has. The types only read.

use super::requests::field::{AsSent, read};
use crate::ids::address::Address;
use crate::ids::ulid::EventId;
use serde::Deserialize;
use serde_json::Value;

/// A `network.event.ack`'s payload as a participant reads it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct AckRead {
    /// The acknowledged event.
    pub id: AsSent<EventId>,
    /// Its `seq`, when it was logged.
    pub seq: AsSent<u64>,
    /// A join's ack: where delivery resumes.
    pub resume_after: AsSent<u64>,
    /// A first join's ack: the secret its rejoins present.
    pub member_secret: AsSent<String>,
}

/// A delivered event's `metadata.delivery`: its place in the member's stream.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct DeliveryRead {
    /// The event's `seq`.
    pub seq: AsSent<u64>,
    /// The `seq` delivered to this member before it.
    pub prev: AsSent<u64>,
}

/// A `network.agent.challenge.response` as the one who asked reads it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct ChallengeRead {
    /// The nonce to sign.
    pub nonce: AsSent<String>,
}

/// A shared document's sync as the network sends it (a
/// `network.resource.update` from `core`; the names of
/// `crate::documents::payload`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct DocumentSyncRead {
    /// The document.
    pub address: AsSent<Address>,
    /// The opening it is for.
    pub session: AsSent<String>,
    /// A base64 Automerge sync message.
    pub sync: AsSent<String>,
    /// Who edits it now.
    pub editors: AsSent<Vec<Address>>,
}

impl DocumentSyncRead {
    /// `payload` read as a document's sync.
    pub fn of(payload: &Value) -> Self {
        read(payload)
    }

    /// The editors when the payload names them: the list, or nobody when
    /// it is no list of addresses.
    pub fn editors(&self) -> Option<Vec<Address>> {
        self.editors
            .is_sent()
            .then(|| self.editors.as_given().cloned().unwrap_or_default())
    }
}

impl AckRead {
    /// `payload` read as an ack.
    pub fn of(payload: &Value) -> Self {
        read(payload)
    }
}

impl DeliveryRead {
    /// `delivery` read as a delivery's place: `(seq, prev)` when it has both.
    pub fn place(delivery: &Value) -> Option<(u64, u64)> {
        let read: Self = read(delivery);
        Some((read.seq.given()?, read.prev.given()?))
    }
}

impl ChallengeRead {
    /// The nonce of a challenge response's `payload`, when it has one.
    pub fn nonce(payload: &Value) -> Option<String> {
        read::<Self>(payload).nonce.given()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Reads `field` of `payload` as the untyped code did.
    fn u64_of(payload: &Value, field: &str) -> Option<u64> {
        payload.get(field).and_then(Value::as_u64)
    }

    #[test]
    fn fields_read_as_the_untyped_reads_did() {
        let values = [
            json!(7),
            json!(0),
            json!(-1),
            json!(1.5),
            json!(2.0),
            json!("7"),
            json!(null),
            json!(true),
            json!([7]),
            json!({"seq": 7}),
            json!(u64::MAX),
        ];
        for value in &values {
            for payload in [
                json!({"seq": value, "prev": value, "resume_after": value, "member_secret": value, "nonce": value, "id": value}),
                json!({"prev": 3, "seq": value}),
            ] {
                let ack = AckRead::of(&payload);
                assert_eq!(
                    ack.seq.clone().given(),
                    u64_of(&payload, "seq"),
                    "{payload}"
                );
                assert_eq!(ack.resume_after.given(), u64_of(&payload, "resume_after"));
                let text = |field| {
                    payload
                        .get(field)
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                };
                assert_eq!(ack.member_secret.given(), text("member_secret"));
                assert_eq!(ChallengeRead::nonce(&payload), text("nonce"));
                let id = text("id").and_then(|s| s.parse::<EventId>().ok());
                assert_eq!(ack.id.given(), id);
                let place = u64_of(&payload, "seq").zip(u64_of(&payload, "prev"));
                assert_eq!(DeliveryRead::place(&payload), place, "{payload}");
            }
        }
    }

    #[test]
    fn a_document_sync_reads_as_the_untyped_reads_did() {
        let values = [
            json!("file/notes"),
            json!("not an address!"),
            json!(["agent:a", "human:b"]),
            json!(["agent:a", 3]),
            json!([]),
            json!(null),
            json!(7),
        ];
        for value in &values {
            let payload =
                json!({"address": value, "session": value, "sync": value, "editors": value});
            let read = DocumentSyncRead::of(&payload);
            let address = payload["address"]
                .as_str()
                .and_then(|s| s.parse::<Address>().ok());
            assert_eq!(read.address.clone().given(), address);
            assert_eq!(read.session.as_text(), payload["session"].as_str());
            assert_eq!(read.sync.as_text(), payload["sync"].as_str());
            let editors = payload
                .get("editors")
                .map(|e| serde_json::from_value::<Vec<Address>>(e.clone()).unwrap_or_default());
            assert_eq!(read.editors(), editors, "{payload}");
        }
        assert_eq!(DocumentSyncRead::of(&json!({})).editors(), None);
    }

    #[test]
    fn an_ack_names_its_event_and_anything_but_an_object_reads_as_nothing() {
        let id = "01HQV2WA00000000000000000B";
        let ack = AckRead::of(&json!({"id": id, "seq": 4, "member_secret": "s"}));
        assert_eq!(ack.id.given(), id.parse().ok());
        assert_eq!(ack.seq.given(), Some(4));
        assert_eq!(ack.member_secret.given().as_deref(), Some("s"));
        assert_eq!(AckRead::of(&json!({"id": "not an id"})).id.given(), None);
        for nothing in [json!(null), json!([1, 2]), json!("x"), json!(3)] {
            assert_eq!(AckRead::of(&nothing), AckRead::default());
            assert_eq!(DeliveryRead::place(&nothing), None);
            assert_eq!(ChallengeRead::nonce(&nothing), None);
        }
    }
}
