//! Any string as an address, URI or DID: see `agentnet_core::fuzzing::address`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    agentnet_core::fuzzing::address(data);
});
