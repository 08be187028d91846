//! An event's JSON text, written directly.
//!
//! The envelope's fixed keys are written as literals, the id as its 26
//! digits, and the validated strings (type, addresses, network id) are
//! copied as they are whenever they hold nothing JSON escapes (anything else
//! takes serde's escaping); only `payload` and `metadata` go through serde.
//! The text is byte for byte what serializing the [`Event`] with serde gives
//! (a property test checks it). A delivery's `metadata.delivery = {prev, seq}`
//! is written the same way, so a recipient's frame needs no copy of the event.

use crate::event::enrichment::{Delivery, Enrichment, MergedMetadata};
use crate::event::envelope::Event;
use crate::ids::address::Address;

/// The text of `event`, with `delivery` written into its metadata when given.
pub(crate) fn encode(event: &Event, delivery: Option<Delivery>) -> String {
    // Sized for a typical event, so most are written without growing.
    let mut out = Vec::with_capacity(512);
    out.extend_from_slice(b"{\"id\":\"");
    out.extend_from_slice(&event.id.digits());
    out.extend_from_slice(b"\",\"type\":");
    write_str(&mut out, &[event.event_type.as_str()]);
    out.extend_from_slice(b",\"source\":");
    write_address(&mut out, &event.source);
    out.extend_from_slice(b",\"target\":");
    write_address(&mut out, &event.target);
    out.extend_from_slice(b",\"payload\":");
    // Writing JSON values and numbers into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut out, &event.payload);
    out.extend_from_slice(b",\"metadata\":");
    if event.metadata.is_empty() {
        // The common case: only what the network adds.
        write_network_metadata(&mut out, event.enrichment.as_ref(), delivery);
    } else {
        let metadata = MergedMetadata {
            map: &event.metadata,
            enrichment: event.enrichment.as_ref(),
            delivery,
        };
        let _ = serde_json::to_writer(&mut out, &metadata);
    }
    out.extend_from_slice(b",\"timestamp\":");
    write_u64(&mut out, event.timestamp.as_millis());
    if let Some(network) = &event.network {
        out.extend_from_slice(b",\"network\":");
        write_str(&mut out, &[network.as_str()]);
    }
    out.push(b'}');
    // Only UTF-8 was written: string slices and serde_json's output.
    String::from_utf8(out).unwrap_or_default()
}

/// The metadata object of an event whose own metadata is empty: the
/// delivery and the enrichment, in sorted key order.
fn write_network_metadata(
    out: &mut Vec<u8>,
    enrichment: Option<&Enrichment>,
    delivery: Option<Delivery>,
) {
    out.push(b'{');
    if let Some(Delivery { seq, prev }) = delivery {
        out.extend_from_slice(b"\"delivery\":{\"prev\":");
        write_u64(out, prev);
        out.extend_from_slice(b",\"seq\":");
        write_u64(out, seq);
        out.push(b'}');
    }
    if let Some(enrichment) = enrichment {
        if delivery.is_some() {
            out.push(b',');
        }
        out.extend_from_slice(b"\"received_at\":");
        write_u64(out, enrichment.received_at.as_millis());
        if let Some(sender) = enrichment.sender {
            out.extend_from_slice(b",\"sender\":{\"role\":\"");
            out.extend_from_slice(sender.role.as_str().as_bytes());
            out.extend_from_slice(b"\",\"verification\":");
            write_u64(out, u64::from(sender.verification.level()));
            out.push(b'}');
        }
    }
    out.push(b'}');
}

/// True when JSON writes `piece` as it is (no quote, backslash or control character).
fn needs_no_escape(piece: &str) -> bool {
    piece.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\')
}

/// Writes the concatenation of `pieces` as one JSON string.
pub(crate) fn write_str(out: &mut Vec<u8>, pieces: &[&str]) {
    if pieces.iter().all(|p| needs_no_escape(p)) {
        out.push(b'"');
        for piece in pieces {
            out.extend_from_slice(piece.as_bytes());
        }
        out.push(b'"');
    } else {
        let _ = serde_json::to_writer(&mut *out, &pieces.concat());
    }
}

pub(crate) fn write_address(out: &mut Vec<u8>, address: &Address) {
    write_str(out, &address.pieces());
}

pub(crate) fn write_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

impl Event {
    /// The deterministic JSON encoding of this event (what serializing it with serde gives).
    pub fn encode(&self) -> String {
        encode(self, None)
    }

    /// The length of [`Event::encode`]'s text, counted without keeping it.
    pub fn encoded_len(&self) -> usize {
        crate::event::decode::encoded_len(self)
    }

    /// The text a recipient gets for a logged event: the encoding with
    /// `metadata.delivery = {prev, seq}`, without copying the event.
    pub fn encode_delivered(&self, seq: u64, prev: u64) -> String {
        encode(self, Some(Delivery { seq, prev }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_full() {
        for n in [0, 7, 10, 99, 1_709_337_600_000, u64::MAX] {
            let mut out = Vec::new();
            write_u64(&mut out, n);
            assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
        }
    }

    #[test]
    fn strings_that_need_escaping_are_escaped_as_serde_would() {
        for text in [
            "plain",
            "quo\"te",
            "back\\slash",
            "tab\there",
            "\u{7f}é✓",
            "",
        ] {
            let mut out = Vec::new();
            write_str(&mut out, &[text, "-tail"]);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(&format!("{text}-tail")).unwrap()
            );
        }
    }
}
