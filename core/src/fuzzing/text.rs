//! The text decoders' fuzz targets: any bytes as an event frame, and any
//! string as an address, URI or DID.

use crate::event::{DecodeError, Event, Limits};
use crate::ids::address::Address;
use crate::network::delivery_frame;

/// Any bytes as an event frame: decoding never panics, gives what decoding
/// the frame's parsed JSON value gives (the same event or the same error),
/// and whatever decodes re-encodes to a frame that decodes to the same
/// event; the direct writer's text is serde's, also as a recipient's frame.
/// Returns 1 when the frame decoded, else 0.
pub fn event_json(data: &[u8]) -> usize {
    let Ok(text) = std::str::from_utf8(data) else {
        return 0;
    };
    let limits = Limits::default();
    let decoded = Event::decode(text, &limits);
    if text.len() <= limits.max_frame_bytes {
        let through_a_value = serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| DecodeError::Malformed(e.to_string()))
            .and_then(|value| Event::from_value(value, &limits));
        assert_eq!(decoded, through_a_value, "the two decoding paths disagree");
    }
    let Ok(event) = decoded else {
        return 0;
    };
    let encoded = event.encode();
    assert_eq!(
        Some(&encoded),
        serde_json::to_string(&event).ok().as_ref(),
        "the writer and serde disagree"
    );
    let again = Event::decode(&encoded, &limits);
    assert_eq!(again.as_ref(), Ok(&event), "re-encoding changed the event");
    assert_eq!(
        event.encode_delivered(7, 3),
        delivery_frame(&event, 7, 3).encode(),
        "a delivered frame differs"
    );
    1
}

/// Any string as an address, URI or DID: parsing never panics, and an
/// address's canonical text and URI parse back to the same address.
/// Returns how many of the three parsers accepted the text.
pub fn address(data: &[u8]) -> usize {
    let Ok(text) = std::str::from_utf8(data) else {
        return 0;
    };
    let mut accepted = 0;
    if let Ok(address) = text.parse::<Address>() {
        accepted += 1;
        assert_eq!(
            address.to_string().parse::<Address>().as_ref(),
            Ok(&address),
            "the canonical text parses to another address"
        );
        assert_eq!(
            Address::from_uri(&address.to_uri()).as_ref(),
            Ok(&address),
            "the URI parses to another address"
        );
        if let Some(did) = address.to_did() {
            assert_eq!(
                Address::from_did(&did),
                Ok(address.to_local()),
                "the DID names another agent"
            );
        }
    }
    accepted += usize::from(Address::from_uri(text).is_ok());
    accepted += usize::from(Address::from_did(text).is_ok());
    accepted
}
