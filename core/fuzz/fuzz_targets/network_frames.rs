//! Frames from a few connections into a network with every standard mod: see
//! `agentnet_core::fuzzing::network_frames`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    agentnet_core::fuzzing::network_frames(data);
});
