//! Any bytes as an event frame: decoding never panics, and whatever decodes
//! re-encodes to a frame that decodes to the same event.
#![no_main]

use agentnet_core::{Event, Limits};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(event) = Event::decode(text, &Limits::default()) {
        let again = Event::decode(&event.encode(), &Limits::default());
        assert_eq!(again.as_ref(), Ok(&event), "re-encoding changed the event");
    }
});
