//! Any bytes as an event frame: decoding never panics, gives what decoding
//! the frame's parsed JSON value gives (the same event or the same error),
//! and whatever decodes re-encodes to a frame that decodes to the same event.
#![no_main]

use agentnet_core::event::DecodeError;
use agentnet_core::{Event, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let limits = Limits::default();
    let decoded = Event::decode(text, &limits);
    if text.len() <= limits.max_frame_bytes {
        let through_a_value = serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| DecodeError::Malformed(e.to_string()))
            .and_then(|value| Event::from_value(value, &limits));
        assert_eq!(decoded, through_a_value, "the two decoding paths disagree");
    }
    if let Ok(event) = decoded {
        let again = Event::decode(&event.encode(), &limits);
        assert_eq!(again.as_ref(), Ok(&event), "re-encoding changed the event");
    }
});
