//! Any bytes as an event frame: see `agentnet_core::fuzzing::event_json`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    agentnet_core::fuzzing::event_json(data);
});
