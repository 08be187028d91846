//! Any bytes as an event frame: decoding never panics, gives what decoding
//! the frame's parsed JSON value gives (the same event or the same error),
//! and whatever decodes re-encodes to a frame that decodes to the same event;
//! the direct writer's text is serde's, also as a recipient's frame.
#![no_main]

use agentnet_core::event::DecodeError;
use agentnet_core::{Event, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let limits = Limits::default();
    let decoded = Event::decode(text, &limits);
    if text.len() <= limits.max_frame_bytes {
        let through_a_value = serde_json::from_str::<serde_json::Value>(text)
            .map_err(|e| DecodeError::Malformed(e.to_string()))
            .and_then(|value| Event::from_value(value, &limits));
        assert_eq!(decoded, through_a_value, "the two decoding paths disagree");
    }
    if let Ok(event) = decoded {
        let text = event.encode();
        assert_eq!(
            Some(&text),
            serde_json::to_string(&event).ok().as_ref(),
            "the writer and serde disagree"
        );
        let again = Event::decode(&text, &limits);
        assert_eq!(again.as_ref(), Ok(&event), "re-encoding changed the event");
        let framed = agentnet_core::network::delivery_frame(&event, 7, 3);
        assert_eq!(
            event.encode_delivered(7, 3),
            framed.encode(),
            "a delivered frame differs"
        );
    }
});
